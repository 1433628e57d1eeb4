"""Gate 14: the recall delta surfaces beliefs formed after the snapshot, on both tiers.

A belief formed by ``memory.remember`` mid-session is past the session's snapshot watermark; the
next turn carries it in a ``delta`` block bounded by that watermark, within what the base
in-turn recall left of its budgets, without the base's own beliefs, and without the cached
prefix moving.
"""

from __future__ import annotations

import pytest
from _support.session_changes import (
    ALICE,
    HOUR,
    calls_of,
    compose,
    open_second_session,
    planned,
    recalled,
    remember_mid_session,
    remember_turn,
    retire,
    session_digests,
)

from memory_core import Storage
from memory_core.policy import RETRIEVAL_POLICY
from memory_core.retrieval import render_line
from memory_core.runtime.scripted import ScriptedTurn

GATE = pytest.mark.gate("gate.memory.recall_delta")


@GATE
def test_a_belief_remembered_mid_session_reaches_the_next_turn_through_the_delta(
    storage: Storage,
) -> None:
    app = compose(storage)
    mid = remember_mid_session(app)
    watermark = mid.session.snapshot_watermark
    # the watermark is the principal's head position when the session opened
    assert watermark == mid.head_at_open > 0
    assert mid.window_seats.store_position > watermark
    assert mid.seattle.store_position > watermark
    # the remembering turn itself ran before anything changed: no delta was issued
    assert recalled(app, mid.remembered, "delta") == []

    app.advance(60)
    where = app.runs.submit("Where do I live?", mid.session.id)
    assert where.completed
    (base_id,) = recalled(app, where, "in_turn")
    (delta_id,) = recalled(app, where, "delta")
    assert where.trace_ids == (base_id, delta_id)
    base = app.memory.get_recall_trace(base_id)
    delta = app.memory.get_recall_trace(delta_id)
    assert delta.moment == "delta"
    # the base found Seattle by the question; the delta adds what it did not say
    assert base.returned == (mid.seattle.id,)
    assert delta.returned == (mid.window_seats.id,)
    # excluded in the store query: the recency arm read only the one belief left
    assert delta.candidate_counts == {"collapsed": 0, "over_subject_cap": 0, "recency": 1}

    (messages,) = calls_of(app, where)
    contents = [m.content for m in messages]
    delta_block = f"Memory ({RETRIEVAL_POLICY}, delta):\n{render_line(mid.window_seats)}"
    assert delta_block in contents
    assert contents.index(delta_block) == len(contents) - 2  # last block before the user turn
    assert contents[-1] == "Where do I live?"
    assert render_line(mid.window_seats) not in messages[0].content  # the prefix is frozen

    later = app.runs.submit("Any plans for the weekend?", mid.session.id)
    (later_delta,) = recalled(app, later, "delta")
    # nothing in the base this time: the delta carries both beliefs past the watermark
    assert set(app.memory.get_recall_trace(later_delta).returned) == {
        mid.seattle.id,
        mid.window_seats.id,
    }
    assert len(session_digests(app, [mid.remembered, where, later])) == 1
    assert planned(app, later)["snapshot_watermark"] == watermark


@GATE
def test_the_delta_is_not_issued_when_the_base_used_up_the_item_allowance(
    storage: Storage,
) -> None:
    app = compose(storage, profile_overlay={"retrieval": {"in_turn": {"max_items": 1}}})
    mid = remember_mid_session(app)
    where = app.runs.submit("Where do I live?", mid.session.id)
    assert where.completed
    (base_id,) = recalled(app, where, "in_turn")
    assert app.memory.get_recall_trace(base_id).returned_count == 1
    assert recalled(app, where, "delta") == []
    assert where.trace_ids == (base_id,)
    # a turn whose base returns nothing still has the whole allowance for the delta
    quiet = app.runs.submit("Any plans for the weekend?", mid.session.id)
    (delta_id,) = recalled(app, quiet, "delta")
    assert app.memory.get_recall_trace(delta_id).returned_count == 1


@GATE
def test_an_expired_snapshot_trace_yields_neither_delta_nor_corrections(
    storage: Storage,
) -> None:
    app = compose(storage, profile_overlay={"trace": {"user_retention_days": 1}})
    mid = remember_mid_session(app)
    app.advance(2 * 24 * HOUR)  # the snapshot trace's user tier has expired
    run = app.runs.submit("Any plans for the weekend?", mid.session.id)
    assert run.completed
    assert recalled(app, run, "delta") == []
    assert planned(app, run)["corrections"] == []
    (messages,) = calls_of(app, run)
    assert not any(
        m.content.startswith(f"Memory ({RETRIEVAL_POLICY}, corrections)") for m in messages
    )


@GATE
def test_an_unrecorded_snapshot_trace_yields_neither_delta_nor_corrections(
    storage: Storage,
) -> None:
    app = compose(storage)
    mid = remember_mid_session(app)
    current = storage.sessions.get(ALICE, mid.session.id)
    assert current is not None
    storage.sessions.update(current.model_copy(update={"snapshot_id": "never-recorded"}))
    run = app.runs.submit("Where do I live?", mid.session.id)
    assert run.completed
    assert recalled(app, run, "delta") == []
    assert planned(app, run)["corrections"] == []
    assert len(recalled(app, run, "in_turn")) == 1  # the base recall is untouched


@GATE
def test_a_quiet_session_issues_no_delta(storage: Storage) -> None:
    app = compose(storage, turns=[ScriptedTurn(text="Portland.")])
    session = open_second_session(app)
    runs = [app.runs.submit(p, session.id) for p in ("Where do I live?", "Any plans?")]
    assert storage.memories.head_position(ALICE) == session.snapshot_watermark
    for run in runs:
        assert run.completed
        assert recalled(app, run, "delta") == []
        assert len(run.trace_ids) == 1


@GATE
def test_the_watermark_is_the_head_position_not_the_newest_returned_belief(
    storage: Storage,
) -> None:
    app = compose(
        storage, turns=[remember_turn("I prefer window seats."), ScriptedTurn(text="OK.")]
    )
    first = app.sessions.create(metadata={})
    app.sessions.record_user_message(first.id, "I live in Portland. I prefer concise answers.")
    app.sessions.close(first.id)
    concise = next(b for b in app.memory.list_memories() if "concise" in b.statement)
    retired = retire(app, concise)  # the newest write is a retirement: it moves the head
    session = app.sessions.create(metadata={})
    snapshot = app.memory.get_recall_trace(session.snapshot_id or "")
    newest_returned = max(
        b.store_position for b in storage.memories.get_many(ALICE, snapshot.returned)
    )
    assert session.snapshot_watermark == retired.store_position > newest_returned
    app.runs.submit("Remember that I prefer window seats.", session.id)
    run = app.runs.submit("Any plans for the weekend?", session.id)
    (delta_id,) = recalled(app, run, "delta")
    window = next(b for b in app.memory.list_memories() if "window" in b.statement)
    # the retirement below the watermark is neither restated nor corrected
    assert app.memory.get_recall_trace(delta_id).returned == (window.id,)
    assert planned(app, run)["corrections"] == []
