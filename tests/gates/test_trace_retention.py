"""Gate 11: operator trace fields expire on schedule through the maintenance sweep."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_core import Principal, Storage, build
from memory_core.runtime.scripted import FakeModelScript, ScriptedTurn

ALICE = Principal("acme", "alice")
DAY = 86_400


@pytest.mark.gate("gate.memory.trace_retention")
def test_operator_tier_expires_user_tier_survives_and_sweep_is_idempotent(
    storage: Storage,
) -> None:
    app = build(
        storage=storage,
        principal=ALICE,
        script=FakeModelScript(turns=[ScriptedTurn(text="Noted.")], on_exhausted="repeat_last"),
        fixed_clock_at=datetime(2026, 3, 2, 9, tzinfo=UTC),
        sequential_ids=True,
        profile_overlay={"trace": {"operator_retention_days": 30}},
    )
    first = app.sessions.create(metadata={})
    app.sessions.record_user_message(first.id, "I live in Portland. I prefer concise answers.")
    app.sessions.close(first.id)

    old_session = app.sessions.create(metadata={})
    old_run = app.runs.submit("Where do I live?", old_session.id)
    old_ids = [
        e.payload["trace_id"]
        for e in app.events.read_session(ALICE, old_session.id)
        if e.event_type == "memory.recalled"
    ]
    assert old_ids
    old_before = [app.memory.get_recall_trace(t) for t in old_ids]
    assert all(
        t.arm_latencies_ms is not None and t.candidate_counts is not None for t in old_before
    )
    assert old_run.final_message

    app.advance(20 * DAY)
    young_session = app.sessions.create(metadata={})
    app.runs.submit("Where do I live?", young_session.id)
    young_ids = [
        e.payload["trace_id"]
        for e in app.events.read_session(ALICE, young_session.id)
        if e.event_type == "memory.recalled"
    ]
    young_before = [app.memory.get_recall_trace(t) for t in young_ids]
    assert young_before
    assert all(t.arm_latencies_ms is not None for t in young_before)

    app.advance(11 * DAY)  # the old traces are 31 days old, the young ones 11
    report = app.maintenance_factory().run_once()

    assert report.traces_expired >= len(old_ids)
    for before in old_before:
        after = app.memory.get_recall_trace(before.trace_id)
        assert after.arm_latencies_ms is None
        assert after.candidate_counts is None
        assert after.dropped_for_budget is None
        assert after.operator_expired
        # the user-safe tier survives intact
        assert after.returned == before.returned
        assert after.beliefs == before.beliefs
        assert after.cited == before.cited
        assert after.blocked == before.blocked
        assert after.dropped_count == before.dropped_count
        assert after.returned_count == before.returned_count
    for before in young_before:
        assert app.memory.get_recall_trace(before.trace_id) == before

    assert app.maintenance_factory().run_once().traces_expired == 0
    for before in young_before:
        assert app.memory.get_recall_trace(before.trace_id) == before
