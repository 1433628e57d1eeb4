"""SessionService: frozen snapshot at open, messages, close at the session's scope, idle sweep."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memory_core import Principal, Storage
from memory_core.bootstrap import build
from memory_core.errors import NotFoundError, UsageError
from memory_core.formation import ConsolidationResult
from memory_core.policy import SESSION_IDLE_SECONDS

OWNER = Principal("tests", "owner")
"""The principal the compositions of this module belong to."""

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_open_freezes_the_snapshot_and_its_watermark_is_the_head_position() -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    first = app.sessions.create()
    assert app.sessions.snapshot_block(first.id) == ""
    app.sessions.record_user_message(first.id, "I prefer concise answers.")
    app.sessions.close(first.id)

    session = app.sessions.create(
        principal=app.principal, agent="planner", metadata={"project_scope": None}
    )
    head = app.storage.memories.head_position(app.principal)
    assert head > 0
    assert session.snapshot_watermark == head
    assert session.agent == "planner"
    trace = app.memory.get_recall_trace(session.snapshot_id or "")
    assert trace.moment == "snapshot"
    assert trace.session_id == session.id
    block = app.sessions.snapshot_block(session.id)
    assert block.startswith("Memory (retrieval@2, snapshot):")
    assert "User prefers concise answers." in block
    opened = [
        e
        for e in app.events.read_session(app.principal, session.id)
        if e.event_type == "session.opened"
    ]
    assert opened[0].payload["snapshot_id"] == session.snapshot_id
    assert opened[0].payload["snapshot_watermark"] == head

    # later formation does not rewrite the frozen block
    other = app.sessions.create()
    app.sessions.record_user_message(other.id, "I live in Lisbon.")
    app.sessions.close(other.id)
    assert app.sessions.snapshot_block(session.id) == block


def test_snapshot_budget_comes_from_the_context_plan() -> None:
    app = build(
        principal=OWNER,
        fixed_clock_at=T0,
        sequential_ids=True,
        context_plan_overlay={"snapshot": {"max_items": 1}},
    )
    seed = app.sessions.create()
    for text in ("I prefer concise answers.", "I live in Seattle.", "I work at Acme Labs."):
        app.sessions.record_user_message(seed.id, text)
    app.sessions.close(seed.id)
    session = app.sessions.create()
    assert app.memory.get_recall_trace(session.snapshot_id or "").returned_count == 1


def test_close_forms_at_the_sessions_project_scope() -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create(metadata={"project_scope": "veetbot"})
    app.sessions.record_user_message(
        session.id, "I prefer tabs over spaces. We decided to use Postgres for the memory store."
    )
    closure = app.sessions.close(session.id)
    assert closure.scope == "project:veetbot"
    assert closure.trigger == "session_close"
    assert closure.consolidation is not None
    assert closure.consolidation.committed == 2
    assert not closure.session.is_open
    scopes = {b.statement: b.scope for b in app.memory.list_memories()}
    assert scopes["User prefers tabs over spaces."] == "user"
    assert [s for t, s in scopes.items() if "Postgres" in t] == ["project:veetbot"]
    closed = app.events.read_session(app.principal, session.id)[-1]
    assert closed.event_type == "session.closed"
    assert closed.payload["scope"] == "project:veetbot"
    assert closed.payload["committed"] == 2
    again = app.sessions.close(session.id)
    assert again.consolidation is None
    with pytest.raises(UsageError, match="closed"):
        app.sessions.record_user_message(session.id, "more")


def test_session_boundary_disabled_closes_without_forming_and_skips_the_idle_sweep() -> None:
    app = build(
        principal=OWNER,
        fixed_clock_at=T0,
        sequential_ids=True,
        profile_overlay={"formation": {"session_boundary_enabled": False}},
    )
    session = app.sessions.create()
    app.sessions.record_user_message(session.id, "I live in Seattle.")
    idle = app.sessions.create()
    app.advance(SESSION_IDLE_SECONDS + 1)
    assert app.sessions.sweep_idle() == 0
    assert app.sessions.get(idle.id).is_open
    closure = app.sessions.close(session.id)
    assert closure.consolidation is None
    assert app.memory.list_memories() == []


def test_idle_sweep_closes_only_sessions_idle_past_the_boundary_at_their_scope() -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    stale = app.sessions.create(metadata={"project_scope": "orbit-app"})
    app.sessions.record_user_message(stale.id, "We decided to ship on Mondays.")
    app.advance(SESSION_IDLE_SECONDS - 10)
    fresh = app.sessions.create()
    app.sessions.record_user_message(fresh.id, "I live in Seattle.")
    app.advance(10)
    assert app.sessions.sweep_idle() == 1
    assert not app.sessions.get(stale.id).is_open
    assert app.sessions.get(fresh.id).is_open
    formed = app.memory.list_memories()
    assert [(b.scope, "Mondays" in b.statement) for b in formed] == [("project:orbit-app", True)]
    closed = app.events.read_session(app.principal, stale.id)[-1]
    assert closed.payload["trigger"] == "idle_sweep"
    assert app.sessions.sweep_idle() == 0


def test_sessions_are_principal_scoped_and_metadata_is_validated(
    alice: Principal, bob: Principal
) -> None:
    app = build(fixed_clock_at=T0, sequential_ids=True, principal=alice)
    mine = app.sessions.create()
    theirs = app.sessions.create(principal=bob, agent="general", metadata={})
    assert theirs.principal == bob
    with pytest.raises(NotFoundError):
        app.sessions.get(theirs.id)
    with pytest.raises(NotFoundError):
        app.sessions.record_user_message(theirs.id, "hello")
    app.sessions.record_user_message(theirs.id, "I live in Oslo.", principal=bob)
    app.sessions.record_assistant_message(mine.id, "Hello!")
    with pytest.raises(UsageError, match="project_scope"):
        app.sessions.create(metadata={"project": "x"})
    with pytest.raises(UsageError, match="invalid project name"):
        app.sessions.create(metadata={"project_scope": "Not A Name"})
    with pytest.raises(UsageError, match="non-empty text"):
        app.sessions.record_user_message(mine.id, " ")


def test_working_state_facts_are_recorded_with_their_sources() -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    said = app.sessions.record_user_message(session.id, "My flight leaves Friday at 9.")
    state = app.sessions.establish_fact(
        session.id, "The user's flight leaves Friday.", [said.event_id]
    )
    assert state.facts[0].source_event_ids == (said.event_id,)
    assert app.sessions.working_state(session.id) == state


def test_a_worker_that_listed_a_session_before_another_closed_it_does_not_close_it_again(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    app.sessions.record_user_message(session.id, "I live in Portland.")
    app.advance(SESSION_IDLE_SECONDS)
    # Worker B lists the idle sessions, then worker A sweeps them before B gets to close any.
    listed_by_b = storage.sessions.list_open_idle(app.clock.now())
    assert app.maintenance_factory().run_once().sessions_closed == 1
    closed_at = app.sessions.get(session.id).closed_at
    app.advance(5)
    monkeypatch.setattr(storage.sessions, "list_open_idle", lambda *_a, **_k: list(listed_by_b))
    assert app.maintenance_factory().run_once().sessions_closed == 0
    closes = [
        e
        for e in app.events.read_session(app.principal, session.id)
        if e.event_type == "session.closed"
    ]
    assert len(closes) == 1
    assert app.sessions.get(session.id).closed_at == closed_at
    again = app.sessions.close(session.id)
    assert (again.already_closed, again.consolidation) == (True, None)
    assert len(app.memory.list_memories()) == 1


def test_a_close_that_loses_the_race_during_consolidation_writes_no_second_close(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    other_worker = build(
        principal=OWNER, storage=storage, fixed_clock_at=T0
    )  # random ids: no collision
    session = app.sessions.create()
    app.sessions.record_user_message(session.id, "I live in Portland.")
    consolidate = app.memory.service.run

    def consolidate_then_lose_the_race(*args: Any, **kwargs: Any) -> ConsolidationResult:
        result = consolidate(*args, **kwargs)
        other_worker.advance(5)
        other_worker.sessions.close(session.id)  # closes it while this worker consolidates
        return result

    monkeypatch.setattr(app.memory.service, "run", consolidate_then_lose_the_race)
    closure = app.sessions.close(session.id)
    assert closure.already_closed
    assert closure.consolidation is not None and closure.consolidation.committed == 1
    closes = [
        e
        for e in app.events.read_session(app.principal, session.id)
        if e.event_type == "session.closed"
    ]
    assert len(closes) == 1
    assert closes[0].payload["consolidated"] is True
    assert app.sessions.get(session.id).closed_at == datetime(2026, 3, 2, 9, 0, 5, tzinfo=UTC)


@pytest.mark.parametrize("batch_size", [0, -1])
def test_an_idle_sweep_batch_must_hold_at_least_one_session(batch_size: int) -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    with pytest.raises(UsageError, match="batch_size"):
        app.sessions.sweep_idle(batch_size=batch_size)
