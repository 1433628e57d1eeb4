"""The foundation suites' builders: the fixtures of the shipped contract suite's plugin.

The contract modules themselves live in ``memory_core.testing.contracts`` (each
``test_*_contract.py`` here runs one of them against every storage tier); their fixtures come
from :mod:`memory_core.testing.plugin`, imported here rather than loaded as a plugin so they
stay scoped to this folder. ``alice`` and ``bob`` come from the root conftest.
"""

from memory_core.testing.plugin import (
    id_factory,
    make_belief,
    make_event,
    make_rejection,
    make_session,
    make_trace,
    new_tenant,
    property_settings,
    t0,
)

__all__ = [
    "id_factory",
    "make_belief",
    "make_event",
    "make_rejection",
    "make_session",
    "make_trace",
    "new_tenant",
    "property_settings",
    "t0",
]
