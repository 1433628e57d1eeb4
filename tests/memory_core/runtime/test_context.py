"""ContextBuilder: stable prefix digest, yielding order, fixed body never yielded, overflow."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_core.base.model import Message
from memory_core.errors import ConfigurationError
from memory_core.profiles import Budget
from memory_core.runtime.context import (
    ContextBuilder,
    ContextOverflowError,
    ContextPlan,
    load_context_plan,
    prefix_digest,
)

SNAPSHOT = "Memory (retrieval@1, snapshot):\n[m:9e3779b1] preference / answer style: Concise."


def _plan(window: int, protected: int = 1) -> ContextPlan:
    return ContextPlan(
        system_instructions="You are helpful.",
        context_window_tokens=window,
        message_overhead_tokens=0,
        protected_history_messages=protected,
        snapshot=Budget(max_items=4, max_tokens=200),
    )


def _with_budget(budget: int) -> ContextBuilder:
    return ContextBuilder(_plan(10_000), reserved_output_tokens=10_000 - budget)


def _history(n: int) -> list[Message]:
    return [
        Message(role="user" if i % 2 == 0 else "assistant", content=f"message {i} " + "x" * 36)
        for i in range(n)
    ]


def test_shipped_plan_loads_and_overlays_merge(tmp_path: Path) -> None:
    plan = load_context_plan()
    assert plan.snapshot.max_items >= 1
    assert plan.context_window_tokens > 1024
    overlaid = load_context_plan({"snapshot": {"max_items": 3}})
    assert overlaid.snapshot.max_items == 3
    assert overlaid.snapshot.max_tokens == plan.snapshot.max_tokens
    bad = tmp_path / "plan.yaml"
    bad.write_text("snapshot:\n  max_itemz: 3\n")
    with pytest.raises(ConfigurationError, match="max_itemz"):
        load_context_plan(bad)


def test_prefix_is_instructions_plus_snapshot_and_its_digest_ignores_the_body() -> None:
    builder = ContextBuilder(_plan(4000), reserved_output_tokens=100)
    first = builder.build(snapshot_block=SNAPSHOT, user_turn="Where do I live?")
    later = builder.build(
        snapshot_block=SNAPSHOT,
        user_turn="And my spouse?",
        history=_history(4),
        recall_blocks=["Memory (retrieval@1, in_turn):\n[m:1] fact / x: y."],
    )
    assert first.messages[0].role == "system"
    assert first.messages[0].content == "You are helpful.\n\n" + SNAPSHOT
    assert first.prefix_digest == later.prefix_digest == prefix_digest(first.prefix)
    empty = builder.build(snapshot_block="", user_turn="hi")
    assert empty.prefix == "You are helpful."


def test_body_order_is_history_corrections_recall_turn_exchange() -> None:
    builder = ContextBuilder(_plan(4000), reserved_output_tokens=100)
    built = builder.build(
        snapshot_block=SNAPSHOT,
        user_turn="turn",
        history=_history(2),
        corrections=["correction: [m:aaaaaaaa] no longer holds."],
        recall_blocks=["recall block"],
        exchange=[Message(role="tool", content="{}", tool_call_id="c1")],
    )
    contents = [m.content for m in built.messages[1:]]
    assert contents[:2] == [m.content for m in _history(2)]
    assert contents[2:] == [
        "correction: [m:aaaaaaaa] no longer holds.",
        "recall block",
        "turn",
        "{}",
    ]


def test_old_history_yields_first_then_recall_blocks_then_the_protected_tail() -> None:
    recall = ["R" * 200]  # 50 tokens
    builder = ContextBuilder(_plan(10_000), reserved_output_tokens=0)
    roomy = builder.build(
        snapshot_block="", user_turn="q", history=_history(4), recall_blocks=recall
    )
    assert (roomy.history_dropped, roomy.recall_blocks_dropped) == (0, 0)
    fixed = roomy.fixed_tokens
    # each history message is 12 tokens; the protected tail is one message
    tight = _with_budget(fixed + 50 + 12)
    built = tight.build(snapshot_block="", user_turn="q", history=_history(4), recall_blocks=recall)
    assert (built.history_dropped, built.recall_blocks_dropped) == (3, 0)
    tighter = _with_budget(fixed + 12)
    built = tighter.build(
        snapshot_block="", user_turn="q", history=_history(4), recall_blocks=recall
    )
    assert (built.history_dropped, built.recall_blocks_dropped) == (3, 1)
    assert built.messages[-2].content == _history(4)[-1].content
    tightest = _with_budget(fixed)
    built = tightest.build(
        snapshot_block="", user_turn="q", history=_history(4), recall_blocks=recall
    )
    assert (built.history_dropped, built.recall_blocks_dropped, built.total_tokens) == (4, 1, fixed)


def test_fixed_body_overflow_is_a_typed_context_overflow() -> None:
    builder = ContextBuilder(_plan(300), reserved_output_tokens=0)
    with pytest.raises(ContextOverflowError) as caught:
        builder.build(snapshot_block="", user_turn="q" * 2000, recall_blocks=["r"])
    assert caught.value.status == "context_overflow"
    assert caught.value.budget_tokens == 300
    with pytest.raises(ContextOverflowError):
        builder.build(snapshot_block="", user_turn="q", corrections=["c" * 2000])


@given(
    window=st.integers(min_value=300, max_value=3000),
    history=st.lists(st.text(min_size=0, max_size=400), max_size=12),
    recall=st.lists(st.text(min_size=1, max_size=800), max_size=3),
    corrections=st.lists(st.text(min_size=1, max_size=200), max_size=3),
    turn=st.text(min_size=1, max_size=600),
)
def test_built_context_never_exceeds_the_budget_and_keeps_the_fixed_body(
    window: int, history: list[str], recall: list[str], corrections: list[str], turn: str
) -> None:
    builder = ContextBuilder(_plan(window, protected=2), reserved_output_tokens=100)
    messages = [Message(role="user", content=h) for h in history]
    fixed = [Message(role="system", content=builder.prefix(SNAPSHOT))]
    fixed.append(Message(role="user", content=turn))
    if corrections:
        fixed.append(Message(role="user", content="\n".join(c.strip() for c in corrections)))
    if sum(builder.message_tokens(m) for m in fixed) > builder.budget_tokens:
        with pytest.raises(ContextOverflowError):
            builder.build(snapshot_block=SNAPSHOT, user_turn=turn, corrections=corrections)
        return
    built = builder.build(
        snapshot_block=SNAPSHOT,
        user_turn=turn,
        history=messages,
        recall_blocks=recall,
        corrections=corrections,
    )
    assert built.total_tokens <= builder.budget_tokens
    assert sum(builder.message_tokens(m) for m in built.messages) == built.total_tokens
    assert built.messages[-1].content == turn
    assert built.messages[0].content.endswith(SNAPSHOT)
    if corrections:
        assert "\n".join(c.strip() for c in corrections) in [m.content for m in built.messages]
