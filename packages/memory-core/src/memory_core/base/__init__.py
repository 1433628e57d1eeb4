"""The base layer: what formation, retrieval, the runtime and sessions share.

* :mod:`~memory_core.base.model`: the ``Model`` port, its messages, usage and error family;
* :mod:`~memory_core.base.events`: the event vocabulary (``EventType``, one payload model per
  type, read with ``event.payload_as(...)``) and the ``EventWriter`` every event goes through;
* :mod:`~memory_core.base.working_state`: the facts an agent established in a session.

It imports only the foundation below it (``errors``, ``ids``, ``clock``, ``domain``, ``ports``)
and none of the packages above; the order is enforced by ``tests/memory_core/test_layers.py``.
"""
