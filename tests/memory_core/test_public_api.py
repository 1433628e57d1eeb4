"""The public surface: a curated ``memory_core.__all__`` and a keyword-only principal."""

from __future__ import annotations

import inspect

import pytest

import memory_core
from memory_core.formation import GovernedMemoryService
from memory_core.maintenance import MaintenanceWorker
from memory_core.runtime import RunService

SERVICES = (
    memory_core.MemoryAPI,
    memory_core.SessionService,
    RunService,
    GovernedMemoryService,
    MaintenanceWorker,
)
SUBJECT_IS_THE_PRINCIPAL = {"forget_principal"}
"""Methods whose principal is what they act on, so it is required and named first."""


def _methods_taking_a_principal() -> list[tuple[str, inspect.Parameter]]:
    found = []
    for service in SERVICES:
        for name, method in inspect.getmembers(service, inspect.isfunction):
            parameter = inspect.signature(method).parameters.get("principal")
            if name.startswith("_") or parameter is None or name in SUBJECT_IS_THE_PRINCIPAL:
                continue
            found.append((f"{service.__name__}.{name}", parameter))
    return found


def test_services_take_the_principal_by_keyword_only() -> None:
    methods = _methods_taking_a_principal()
    assert len(methods) > 20  # the API's methods, not a vacuous pass
    positional = [name for name, p in methods if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    assert positional == []


def test_a_principal_passed_by_position_is_refused() -> None:
    app = memory_core.build(principal=memory_core.Principal("tests", "owner"))
    session = app.sessions.create()
    with pytest.raises(TypeError):
        app.sessions.close(session.id, app.principal)  # type: ignore[call-arg]


def test_every_exported_name_resolves_and_is_documented() -> None:
    for name in memory_core.__all__:
        value = getattr(memory_core, name)
        assert inspect.getdoc(value), name


def test_the_export_leaves_internals_to_their_modules() -> None:
    internals = {"FixedClock", "SequentialIdFactory", "EventLog", "MemoryStore", "tokenize"}
    assert internals.isdisjoint(memory_core.__all__)
    assert len(memory_core.__all__) <= 70
