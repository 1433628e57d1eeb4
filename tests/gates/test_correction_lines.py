"""Gate 15: correction lines are never yielded and never move the prefix, on both tiers.

A snapshot member superseded mid-session is corrected on the next turn by one exact line in a
separate message before the user turn; the line stays in the fixed body when budget pressure
drops both recall blocks, and the prefix digest never changes.
"""

from __future__ import annotations

import pytest
from _support.session_changes import (
    HOUR,
    calls_of,
    compose,
    planned,
    recalled,
    remember_mid_session,
    retire,
    session_digests,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import InMemoryStorage, Storage
from memory_core.base.model import Message
from memory_core.policy import RETRIEVAL_POLICY
from memory_core.profiles import Budget
from memory_core.runtime.context import ContextBuilder, ContextOverflowError, ContextPlan

GATE = pytest.mark.gate("gate.memory.correction_lines")
HEADER = f"Memory ({RETRIEVAL_POLICY}, corrections):"
OUTPUT_RESERVE = 1024  # the default policy profile's max_output_tokens


def _correction(old_short: str, new_short: str | None, instant: str) -> str:
    line = f"correction: [m:{old_short}] no longer holds as of {instant}"
    return f"{line}; superseded by [m:{new_short}]." if new_short else f"{line}."


@GATE
def test_a_superseded_snapshot_member_is_corrected_on_the_next_turn(storage: Storage) -> None:
    app = compose(storage)
    mid = remember_mid_session(app)
    snapshot_block = app.sessions.snapshot_block(mid.session.id)
    assert f"[m:{mid.portland.short_id}]" in snapshot_block
    assert mid.portland.superseded_by == mid.seattle.id
    assert mid.portland.store_position > mid.session.snapshot_watermark
    # the remembering turn started before the change: it carried no correction
    for messages in calls_of(app, mid.remembered):
        assert not any(m.content.startswith(HEADER) for m in messages)

    app.advance(60)
    run = app.runs.submit("Any plans for the weekend?", mid.session.id)
    assert run.completed
    line = _correction(mid.portland.short_id, mid.seattle.short_id, "2026-03-02T10:00:00Z")
    (messages,) = calls_of(app, run)
    corrections = [m for m in messages if m.content.startswith(HEADER)]
    assert [m.content for m in corrections] == [f"{HEADER}\n{line}"]
    assert corrections[0].role == "user"
    index = messages.index(corrections[0])
    assert index < len(messages) - 1 and messages[-1].content == "Any plans for the weekend?"
    assert all(m.role != "system" for m in messages[index:])  # in the body, never the prefix
    assert planned(app, run)["corrections"] == [mid.portland.id]
    # the prefix still renders the stale snapshot, byte for byte: it is never rewritten
    assert messages[0].content.endswith(snapshot_block)
    assert len(session_digests(app, [mid.remembered, run])) == 1


@GATE
def test_a_retired_snapshot_member_is_corrected_without_a_successor(storage: Storage) -> None:
    app = compose(storage)
    mid = remember_mid_session(app)
    concise = next(b for b in app.memory.list_memories() if "concise" in b.statement)
    app.advance(HOUR)
    retired = retire(app, concise)
    assert retired.store_position == storage.memories.head_position(mid.portland.principal)
    run = app.runs.submit("Any plans for the weekend?", mid.session.id)
    (messages,) = calls_of(app, run)
    (body,) = [m.content for m in messages if m.content.startswith(HEADER)]
    expected = sorted(
        [
            (concise.id, _correction(concise.short_id, None, "2026-03-02T11:00:00Z")),
            (
                mid.portland.id,
                _correction(mid.portland.short_id, mid.seattle.short_id, "2026-03-02T10:00:00Z"),
            ),
        ]
    )
    assert body.splitlines() == [HEADER, *(text for _, text in expected)]  # sorted by belief id


@GATE
def test_the_correction_survives_budget_pressure_that_drops_both_recall_blocks(
    storage: Storage,
) -> None:
    # Measure the turn under the shipped window on a scratch tier (same ids, same tokens) ...
    probe = compose(InMemoryStorage())
    probe_mid = remember_mid_session(probe)
    probe_run = probe.runs.submit("Where do I live?", probe_mid.session.id)
    probe_plan = planned(probe, probe_run)
    assert probe_plan["recall_blocks_kept"] == 2
    (base_id,) = recalled(probe, probe_run, "in_turn")
    (delta_id,) = recalled(probe, probe_run, "delta")
    blocks = [
        probe.memory.get_recall_trace(t).rendered_tokens + probe.plan.message_overhead_tokens
        for t in (base_id, delta_id)
    ]
    # ... then leave room for everything but the two recall blocks (one token to spare).
    fixed_and_history = int(probe_plan["total_tokens"]) - sum(blocks)
    window = OUTPUT_RESERVE + fixed_and_history + 1
    app = compose(storage, context_plan_overlay={"context_window_tokens": window})
    mid = remember_mid_session(app)
    run = app.runs.submit("Where do I live?", mid.session.id)

    assert run.completed
    plan = planned(app, run)
    assert plan["budget_tokens"] == fixed_and_history + 1
    assert (plan["recall_blocks_kept"], plan["recall_blocks_dropped"]) == (0, 2)
    assert plan["history_dropped"] == 0
    (messages,) = calls_of(app, run)
    line = _correction(mid.portland.short_id, mid.seattle.short_id, "2026-03-02T10:00:00Z")
    assert f"{HEADER}\n{line}" in [m.content for m in messages]
    assert not any(m.content.startswith(f"Memory ({RETRIEVAL_POLICY}, in_turn)") for m in messages)
    assert not any(m.content.startswith(f"Memory ({RETRIEVAL_POLICY}, delta)") for m in messages)
    assert session_digests(app, [mid.remembered, run]) == {probe_run.prefix_digest}


def _plan(window: int) -> ContextPlan:
    return ContextPlan(
        system_instructions="You are helpful.",
        context_window_tokens=window,
        message_overhead_tokens=4,
        protected_history_messages=2,
        snapshot=Budget(max_items=4, max_tokens=200),
    )


CORRECTION = f"{HEADER}\ncorrection: [m:8f21a0c3] no longer holds as of 2026-07-24T00:00:00Z."


@GATE
@settings(max_examples=60, deadline=None)
@given(
    budget=st.integers(min_value=1, max_value=400),
    history=st.integers(min_value=0, max_value=6),
    recall=st.lists(st.integers(min_value=1, max_value=60), max_size=2),
)
def test_the_builder_never_yields_a_correction(
    budget: int, history: int, recall: list[int]
) -> None:
    builder = ContextBuilder(_plan(10_000), reserved_output_tokens=10_000 - budget)
    snapshot = f"Memory ({RETRIEVAL_POLICY}, snapshot):\n[m:9e3779b1] fact / x: y."
    turn = "Where do I live?"
    fixed = sum(
        builder.message_tokens(m)
        for m in (
            Message(role="system", content=builder.prefix(snapshot)),
            Message(role="user", content=CORRECTION),
            Message(role="user", content=turn),
        )
    )
    history_messages = [Message(role="user", content="h " * 20) for _ in range(history)]
    blocks = [f"Memory ({RETRIEVAL_POLICY}, in_turn):\n" + "r " * n for n in recall]
    if fixed > budget:
        # the correction alone overflowing is the fixed-body overflow, whatever else is there
        with pytest.raises(ContextOverflowError):
            builder.build(
                snapshot_block=snapshot,
                user_turn=turn,
                corrections=[CORRECTION],
                history=history_messages,
                recall_blocks=blocks,
            )
        return
    built = builder.build(
        snapshot_block=snapshot,
        user_turn=turn,
        corrections=[CORRECTION],
        history=history_messages,
        recall_blocks=blocks,
    )
    contents = [m.content for m in built.messages]
    assert CORRECTION in contents
    assert contents.index(CORRECTION) < contents.index(turn)
    assert built.fixed_tokens == fixed
    assert built.total_tokens <= budget
