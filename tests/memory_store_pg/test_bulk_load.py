"""``PostgresMemoryStore.put_many``: the ``COPY`` path stores exactly what ``put`` stores."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from memory_core import (
    Belief,
    BeliefStatus,
    BeliefType,
    ConflictError,
    InMemoryStorage,
    Principal,
    UsageError,
)
from memory_core.domain import RecallQuery
from memory_store_pg import PostgresStorage

pytestmark = pytest.mark.postgres

ALICE = Principal("tenant-1", "alice")
BOB = Principal("tenant-1", "bob")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
WORDS = ("tea", "coffee", "e-mail", "api.example.com", "Portland", "café", "dark-mode")


def _batch(make_belief: Callable[..., Belief], principal: Principal, count: int) -> list[Belief]:
    return [
        make_belief(
            principal,
            belief_type=(BeliefType.FACT, BeliefType.PREFERENCE)[i % 2],
            subject=f"topic {i % 7}",
            statement=f"User mentioned {WORDS[i % len(WORDS)]} on day {i}.",
            scope=("user", "general", "project:orbit-app")[i % 3],
            status=(BeliefStatus.ACTIVE, BeliefStatus.PROVISIONAL, BeliefStatus.SUPERSEDED)[i % 3],
            source_event_ids=(f"e-{i}", f"e-{i + 1}"),
            conflicts_with=(f"b-{i}",) if i % 5 == 0 else (),
            valid_from=T0 + timedelta(minutes=i),
            created_at=T0 + timedelta(minutes=i),
        )
        for i in range(count)
    ]


def test_a_batch_is_stored_in_order_with_increasing_positions_and_round_trips(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    first = pg.memories.put(make_belief(ALICE))
    batch = _batch(make_belief, ALICE, 40)

    stored = pg.memories.put_many(batch)

    assert [b.id for b in stored] == [b.id for b in batch]
    positions = [b.store_position for b in stored]
    assert positions == sorted(positions)
    assert len(set(positions)) == len(positions)
    assert positions[0] > first.store_position
    assert stored == [
        b.model_copy(update={"store_position": p}) for b, p in zip(batch, positions, strict=True)
    ]
    assert pg.memories.list_beliefs(ALICE) == [first, *stored]
    assert pg.memories.head_position(ALICE) == positions[-1]


def test_searches_after_a_bulk_load_answer_as_the_reference_tier_loaded_by_put(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    batch = _batch(make_belief, ALICE, 60)
    reference = InMemoryStorage()
    for belief in batch:
        reference.memories.put(belief)
    pg.memories.put_many(batch)
    pg.analyze()

    queries = [
        RecallQuery(principal=ALICE, scopes=("user", "general"), limit=64),
        RecallQuery(principal=ALICE, scopes=("user", "general", "project:orbit-app"), limit=7),
        RecallQuery(principal=ALICE, scopes=("user",), terms=("tea", "e-mail"), limit=64),
        RecallQuery(principal=ALICE, scopes=("general",), terms=("café",), subjects=("Topic 3",)),
        RecallQuery(principal=ALICE, scopes=("user", "general"), terms=("api.example.com",)),
    ]
    for query in queries:
        assert pg.memories.search(query) == reference.memories.search(query)
    assert any(pg.memories.search(query) for query in queries)


def test_an_existing_id_writes_nothing_and_leaves_the_unit_usable(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    existing = pg.memories.put(make_belief(ALICE))
    fresh = make_belief(ALICE)

    with pytest.raises(ConflictError, match="nothing of the batch was written"):
        pg.memories.put_many([fresh, existing])
    assert pg.memories.get(ALICE, fresh.id) is None

    later = make_belief(ALICE)
    with pg.unit_of_work():
        with pytest.raises(ConflictError):
            pg.memories.put_many([make_belief(ALICE), existing])
        pg.memories.put(later)  # the transaction is still usable
    assert pg.memories.get(ALICE, later.id) is not None
    assert [b.id for b in pg.memories.list_beliefs(ALICE)] == [existing.id, later.id]


def test_an_id_twice_in_the_batch_is_a_conflict(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    twice = make_belief(ALICE)
    with pytest.raises(ConflictError, match="twice"):
        pg.memories.put_many([twice, make_belief(ALICE), twice])
    assert pg.memories.list_beliefs(ALICE) == []


def test_a_batch_of_two_principals_is_refused_and_an_empty_one_is_a_no_op(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    with pytest.raises(UsageError, match="one principal"):
        pg.memories.put_many([make_belief(ALICE), make_belief(BOB)])
    assert pg.memories.put_many([]) == []
    assert pg.memories.list_beliefs(ALICE) == pg.memories.list_beliefs(BOB) == []


def test_a_rolled_back_unit_keeps_no_row_of_the_batch(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    def load_then_fail() -> None:
        with pg.unit_of_work():
            pg.memories.put_many(_batch(make_belief, ALICE, 5))
            raise RuntimeError("abandon the unit")

    with pytest.raises(RuntimeError):
        load_then_fail()
    assert pg.memories.list_beliefs(ALICE) == []
