"""The storage contracts, one module of pytest tests per port or behaviour.

Import one module per test module (``from memory_core.testing.contracts.memory_store import
*``): two modules in one namespace would shadow each other's fixtures. The tests ask for a
``storage`` fixture, which the backend provides, and the fixtures of
:mod:`memory_core.testing.plugin`.
"""
