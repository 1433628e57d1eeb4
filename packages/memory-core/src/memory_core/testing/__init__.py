"""The storage contract suite, shipped so any backend can prove it is a memory-core tier.

Needs pytest and hypothesis: install ``memory-core[testing]``. Nothing outside this package
imports it, so memory-core itself never depends on either.

A backend registered under the ``memory_core.storage`` entry point runs the suite in two steps.
Its root ``conftest.py`` loads the plugin and provides one fixture, ``storage``, yielding a
fresh, isolated ``Storage`` per test (``entry_point_storage`` builds one through the entry
point, exactly as ``bootstrap.build(storage=...)`` does)::

    import pytest
    from memory_core.testing import entry_point_storage

    pytest_plugins = ["memory_core.testing.plugin"]

    @pytest.fixture
    def storage():
        with entry_point_storage("mybackend", url="...") as tier:  # a fresh schema per test
            yield tier

Then one test module per contract imports that contract's tests (pytest collects the
imported functions)::

    # tests/test_memory_store_contract.py
    from memory_core.testing.contracts.memory_store import *  # noqa: F403

:data:`CONTRACTS` lists every contract module. memory-core's own test suite runs each of them
this way against the in-memory tier and PostgreSQL (``tests/memory_core/foundation``).
"""

from __future__ import annotations

import pytest

pytest.register_assert_rewrite("memory_core.testing.contracts")

from memory_core.testing._entry_point import entry_point_storage  # noqa: E402

CONTRACTS = (
    "memory_core.testing.contracts.memory_store",
    "memory_core.testing.contracts.session_store",
    "memory_core.testing.contracts.session_state",
    "memory_core.testing.contracts.event_log",
    "memory_core.testing.contracts.trace_store",
    "memory_core.testing.contracts.formation_state",
    "memory_core.testing.contracts.erasure",
    "memory_core.testing.contracts.unit_of_work",
    "memory_core.testing.contracts.record_validation",
    "memory_core.testing.contracts.scope_isolation",
    "memory_core.testing.contracts.idle",
    "memory_core.testing.contracts.idle_principals",
    "memory_core.testing.contracts.decay",
    "memory_core.testing.contracts.usage",
)
"""Every shipped contract module, each to be imported into a backend's own test module."""

__all__ = ["CONTRACTS", "entry_point_storage"]
