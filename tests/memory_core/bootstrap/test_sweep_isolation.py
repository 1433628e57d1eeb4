"""Sweeps isolate failures per session and per principal, on every tier.

One session whose close fails is counted, logged and skipped; every other principal's idle
sessions still close, whatever the batch size (a keyset cursor steps past the failure), and a
sweep that fails as a whole does not stop the next one.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import pytest

from memory_core import ConsolidationResult, Principal, Storage, StorageUnavailableError
from memory_core.bootstrap import Composition, build
from memory_core.policy import SESSION_IDLE_SECONDS

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CAROL = Principal("tenant-2", "carol")


def _idle_sessions(app: Composition, principals: list[Principal]) -> dict[Principal, str]:
    made: dict[Principal, str] = {}
    for who in principals:  # the first is the oldest: the sweep reaches it first
        session = app.sessions.create(principal=who)
        app.sessions.record_user_message(
            session.id, f"I live in {who.principal_id}ville.", principal=who
        )
        made[who] = session.id
        app.advance(1)
    app.advance(SESSION_IDLE_SECONDS)
    return made


def _poison(app: Composition, monkeypatch: pytest.MonkeyPatch, session_id: str) -> None:
    consolidate = app.memory.service.run

    def failing_for_one(*args: Any, **kwargs: Any) -> ConsolidationResult:
        if session_id in args or kwargs.get("session_id") == session_id:
            raise StorageUnavailableError("this session's consolidation failed")
        return consolidate(*args, **kwargs)

    monkeypatch.setattr(app.memory.service, "run", failing_for_one)


@pytest.mark.parametrize("batch_size", [1, 2, 100])
def test_one_failing_session_never_blocks_another_principals_sweep(
    storage: Storage,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    alice: Principal,
    bob: Principal,
    batch_size: int,
) -> None:
    app = build(storage=storage, fixed_clock_at=T0, sequential_ids=True, principal=alice)
    made = _idle_sessions(app, [alice, bob, CAROL])
    _poison(app, monkeypatch, made[alice])
    with caplog.at_level(logging.WARNING, logger="memory_core.session_close"):
        report = app.sessions.sweep_idle_report(batch_size=batch_size)
    assert (report.closed, report.failed) == (2, 1)
    (failure,) = report.failures
    assert (failure.tenant_id, failure.principal_id, failure.session_id) == (
        "tenant-1",
        "alice",
        made[alice],
    )
    assert failure.error.startswith("StorageUnavailableError: ")
    assert made[alice] in caplog.text and "tenant-1/alice" in caplog.text
    assert app.sessions.get(made[alice]).is_open
    assert not app.sessions.get(made[bob], principal=bob).is_open
    assert not app.sessions.get(made[CAROL], principal=CAROL).is_open
    # once the fault is gone, the next pass closes it
    monkeypatch.undo()
    assert app.sessions.sweep_idle(batch_size=batch_size) == 1
    assert not app.sessions.get(made[alice]).is_open


def test_the_maintenance_worker_counts_failures_and_runs_every_sweep(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, alice: Principal, bob: Principal
) -> None:
    app = build(storage=storage, fixed_clock_at=T0, sequential_ids=True, principal=alice)
    made = _idle_sessions(app, [alice, bob])
    _poison(app, monkeypatch, made[alice])

    def unavailable(*_: Any, **__: Any) -> int:
        raise StorageUnavailableError("the trace table is unavailable")

    monkeypatch.setattr(storage.traces, "expire_operator_fields", unavailable)
    report = app.maintenance_factory().run_once()
    assert (report.traces_expired, report.sweeps_failed) == (0, 1)
    assert (report.sessions_closed, report.sessions_failed) == (1, 1)
    assert not app.sessions.get(made[bob], principal=bob).is_open

    def listing_fails(*_: Any, **__: Any) -> list[Any]:
        raise StorageUnavailableError("listing failed")

    monkeypatch.setattr(storage.sessions, "list_open_idle", listing_fails)
    report = app.maintenance_factory().run_once()
    assert (report.sessions_closed, report.sessions_failed, report.sweeps_failed) == (0, 0, 2)
