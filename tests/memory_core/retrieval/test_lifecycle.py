"""The recall delta's allowance and the correction lines, at the retriever, on both tiers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import InMemoryStorage, Principal
from memory_core.domain import Belief, BeliefStatus, BeliefType
from memory_core.errors import UsageError
from memory_core.policy import RETRIEVAL_POLICY
from memory_core.profiles import Budget
from memory_core.retrieval import MemoryRetriever, RecallRequest, render_correction
from memory_core.retrieval.lifecycle import delta_allowance, format_instant

from .conftest import T0, World

ALICE = Principal("tenant-1", "alice")
BOB = Principal("tenant-1", "bob")


def _belief(**fields: object) -> Belief:
    base: dict[str, object] = {
        "id": "8f21a0c3-0000-4000-8000-000000000001",
        "tenant_id": "t",
        "principal_id": "p",
        "belief_type": BeliefType.FACT,
        "subject": "home",
        "statement": "User lives in Portland.",
        "scope": "user",
        "status": BeliefStatus.SUPERSEDED,
        "authority": "USER",
        "confidence": 0.9,
        "source_event_ids": ("e",),
        "valid_from": T0,
        "last_evidence_at": T0,
        "created_at": T0,
        "updated_at": T0 + timedelta(days=5),
        "consolidation_policy_version": "formation@5",
    }
    return Belief.model_validate({**base, **fields})


def test_the_correction_line_format_is_exact() -> None:
    ended = datetime(2026, 7, 24, tzinfo=UTC)
    superseded = _belief(valid_to=ended, superseded_by="9d02b117-0000-4000-8000-000000000002")
    assert render_correction(superseded) == (
        "correction: [m:8f21a0c3] no longer holds as of 2026-07-24T00:00:00Z; "
        "superseded by [m:9d02b117]."
    )
    retired = _belief(status=BeliefStatus.RETIRED, valid_to=ended)
    assert render_correction(retired) == (
        "correction: [m:8f21a0c3] no longer holds as of 2026-07-24T00:00:00Z."
    )
    # without valid_to the instant is the last update
    assert "as of 2026-03-07T09:00:00Z." in render_correction(_belief())
    # any timezone is rendered in UTC, to the second
    local = datetime(2026, 7, 24, 2, 0, 0, 999_999, tzinfo=timezone(timedelta(hours=2)))
    assert format_instant(local) == "2026-07-24T00:00:00Z"


def test_the_delta_allowance_is_what_the_base_left_of_both_budgets() -> None:
    budget = Budget(max_items=8, max_tokens=400)
    assert delta_allowance(budget, returned_items=3, rendered_tokens=100) == Budget(
        max_items=5, max_tokens=300
    )
    assert delta_allowance(budget, returned_items=8, rendered_tokens=10) is None
    assert delta_allowance(budget, returned_items=1, rendered_tokens=400) is None


def _snapshot_then_change(world: World) -> tuple[MemoryRetriever, list[Belief], int, str]:
    """Three snapshot members, the session's watermark, then a supersession past it."""
    members = [
        world.put(ALICE, f"User likes {word}.", subject=word, belief_type="preference")
        for word in ("tea", "jazz", "chess")
    ]
    retriever = world.retriever()
    watermark = world.storage.memories.head_position(ALICE)
    snapshot = retriever.recall(RecallRequest(principal=ALICE, moment="snapshot"))
    assert set(snapshot.trace.returned) == {b.id for b in members}
    return retriever, members, watermark, snapshot.trace.trace_id


def test_corrections_select_members_changed_past_the_watermark(world: World) -> None:
    retriever, members, watermark, snapshot_id = _snapshot_then_change(world)
    assert retriever.corrections(snapshot_id, watermark, principal=ALICE).lines == ()
    tea, jazz, chess = members
    world.clock.advance(60)
    successor = world.put(ALICE, "User likes coffee.", subject="tea", belief_type="preference")
    now = world.clock.now()
    memories = world.storage.memories
    memories.update(
        tea.model_copy(
            update={
                "status": BeliefStatus.SUPERSEDED,
                "valid_to": now,
                "superseded_by": successor.id,
            }
        )
    )
    memories.update(jazz.model_copy(update={"status": BeliefStatus.EXPIRED, "valid_to": now}))
    memories.update(chess.model_copy(update={"utility": 0.5}))  # changed, but still holds
    found = retriever.corrections(snapshot_id, watermark, principal=ALICE)
    assert found.snapshot_readable
    assert found.belief_ids == tuple(sorted((tea.id, jazz.id)))
    assert list(found.lines) == [
        render_correction(memories.get(ALICE, i))  # type: ignore[arg-type]
        for i in found.belief_ids
    ]
    assert found.block.splitlines()[0] == f"Memory ({RETRIEVAL_POLICY}, corrections):"
    # a watermark past the changes reports nothing; another principal reads no trace
    head = memories.head_position(ALICE)
    assert retriever.corrections(snapshot_id, head, principal=ALICE).lines == ()
    assert not retriever.corrections(snapshot_id, watermark, principal=BOB).snapshot_readable


def test_an_unreadable_snapshot_yields_no_corrections(world: World) -> None:
    retriever, members, watermark, snapshot_id = _snapshot_then_change(world)
    world.storage.memories.update(
        members[0].model_copy(update={"status": BeliefStatus.RETIRED, "valid_to": T0})
    )
    expiry = world.storage.traces.get(ALICE, snapshot_id).user_expires_at  # type: ignore[union-attr]
    assert expiry is not None
    before = retriever.corrections(
        snapshot_id, watermark, expiry - timedelta(seconds=1), principal=ALICE
    )
    assert before.snapshot_readable and len(before.lines) == 1
    at_expiry = retriever.corrections(snapshot_id, watermark, expiry, principal=ALICE)
    assert not at_expiry.snapshot_readable and at_expiry.lines == ()
    for missing in (None, "no-such-trace"):
        assert not retriever.corrections(missing, watermark, principal=ALICE).snapshot_readable
    with pytest.raises(UsageError, match="watermark"):
        retriever.corrections(snapshot_id, -1, principal=ALICE)
    with pytest.raises(UsageError, match="as_of"):
        retriever.corrections(snapshot_id, 0, datetime(2026, 1, 1), principal=ALICE)


def test_get_many_reads_the_principals_beliefs_of_any_status_sorted(world: World) -> None:
    mine = [world.put(ALICE, f"Fact {n}.", subject=f"s{n}") for n in range(3)]
    theirs = world.put(BOB, "Bob's fact.")
    retired = world.storage.memories.update(
        mine[1].model_copy(update={"status": BeliefStatus.RETIRED})
    )
    asked = [mine[2].id, retired.id, theirs.id, "missing", mine[2].id]
    got = world.storage.memories.get_many(ALICE, asked)
    assert [b.id for b in got] == sorted({mine[2].id, retired.id})
    assert got == sorted([mine[2], retired], key=lambda b: b.id)
    assert world.storage.memories.get_many(ALICE, []) == []


def test_the_delta_reads_past_the_watermark_without_the_base_ids(world: World) -> None:
    for word in ("tea", "jazz"):
        world.put(ALICE, f"User likes {word}.", subject=word)
    watermark = world.storage.memories.head_position(ALICE)
    later = [world.put(ALICE, f"User visited {w}.", subject=w) for w in ("Oslo", "Rome", "Lima")]
    retriever = world.retriever()
    base_request = RecallRequest(principal=ALICE, moment="in_turn", text="What about Oslo?")
    base = retriever.recall(base_request)
    assert base.trace.returned == (later[0].id,)
    delta = retriever.recall_delta(base_request, base, watermark=watermark)
    assert delta is not None
    assert delta.trace.moment == "delta"
    assert set(delta.trace.returned) == {later[1].id, later[2].id}
    assert delta.trace.candidate_counts is not None
    assert delta.trace.candidate_counts["recency"] == 2  # excluded before the candidate limit
    with pytest.raises(UsageError, match="watermark"):
        retriever.recall_delta(base_request, base, watermark=-1)


@settings(max_examples=40, deadline=None)
@given(
    items=st.integers(min_value=1, max_value=6),
    tokens=st.integers(min_value=1, max_value=160),
    before=st.integers(min_value=0, max_value=5),
    after=st.integers(min_value=0, max_value=8),
)
def test_base_and_delta_together_stay_within_one_in_turn_budget(
    items: int, tokens: int, before: int, after: int
) -> None:
    world = World(storage=InMemoryStorage())
    for n in range(before):
        world.put(ALICE, f"User plays chess with friend {n}.", subject=f"chess {n}")
    watermark = world.storage.memories.head_position(ALICE)
    for n in range(after):
        world.put(ALICE, f"User plays chess at club {n}.", subject=f"club {n}")
    retriever = world.retriever()
    request = RecallRequest(
        principal=ALICE, moment="in_turn", text="chess", max_items=items, max_tokens=tokens
    )
    base = retriever.recall(request)
    delta = retriever.recall_delta(request, base, watermark=watermark)
    if len(base.beliefs) >= items or base.trace.rendered_tokens >= tokens:
        assert delta is None  # not issued when either allowance is exhausted
        return
    assert delta is not None
    assert len(base.beliefs) + len(delta.beliefs) <= items
    assert base.trace.rendered_tokens + delta.trace.rendered_tokens <= tokens
    assert not set(base.trace.returned) & set(delta.trace.returned)
    assert all(b.store_position > watermark for b in delta.beliefs)
