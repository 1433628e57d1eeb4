"""InMemoryMemoryStore serves lexical search from its per-principal inverted index.

This suite is about the in-memory adapter's structure, not the port contract: it counts how
many records the search evaluates against the query's predicates (the records its walk hands
``_first_passing``), so it proves that a lexical query touches only the records its terms or
subjects index, not every row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from memory_core import Authority, Belief, BeliefStatus, BeliefType, Principal
from memory_core.domain import RecallQuery
from memory_core.stores import memory as memory_module
from memory_core.stores.memory import InMemoryMemoryStore

RECORDS = 10_000
NEEDLE_EVERY = 2_500
NEEDLES = RECORDS // NEEDLE_EVERY
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@dataclass
class Counter:
    evaluated: int = 0


@pytest.fixture(scope="module")
def big_store() -> tuple[InMemoryMemoryStore, Principal, list[Belief]]:
    """10k of Alice's beliefs (a few mention "needle"), plus Bob's copies of the needles."""
    alice = Principal("tenant-1", "alice")
    store = InMemoryMemoryStore()
    template = Belief(
        id="00000000-0000-4000-8000-000000000000",
        tenant_id=alice.tenant_id,
        principal_id=alice.principal_id,
        belief_type=BeliefType.FACT,
        subject="topic",
        statement="placeholder",
        scope="user",
        status=BeliefStatus.ACTIVE,
        authority=Authority.USER,
        confidence=0.8,
        source_event_ids=("e-0",),
        valid_from=T0,
        last_evidence_at=T0,
        created_at=T0,
        updated_at=T0,
        consolidation_policy_version="formation@5",
    )
    needles: list[Belief] = []
    for i in range(RECORDS):
        is_needle = i % NEEDLE_EVERY == 1
        statement = f"User keeps a needle in drawer {i}." if is_needle else f"User note {i}."
        belief = template.model_copy(
            update={
                "id": f"{i:08x}-0000-4000-8000-000000000000",
                "statement": statement,
                "subject": f"topic {i % 50}",
            }
        )
        stored = store.put(belief)
        if is_needle:
            needles.append(stored)
            bobs = {"id": f"{i:08x}-0000-4000-8000-00000000b0b0", "principal_id": "bob"}
            store.put(belief.model_copy(update=bobs))
    assert len(needles) == NEEDLES
    return store, alice, needles


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """Count the records search evaluates against the structured predicates: those its walk
    hands ``_first_passing``."""
    seen = Counter()
    original: Callable[..., list[Belief]] = memory_module._first_passing

    def counting(walk: Iterable[Belief], *args: object) -> list[Belief]:
        def counted() -> Iterator[Belief]:
            for belief in walk:
                seen.evaluated += 1
                yield belief

        return original(counted(), *args)

    monkeypatch.setattr(memory_module, "_first_passing", counting)
    return seen


def test_one_term_evaluates_only_the_records_holding_it(
    big_store: tuple[InMemoryMemoryStore, Principal, list[Belief]], counter: Counter
) -> None:
    store, alice, needles = big_store
    found = store.search(RecallQuery(principal=alice, scopes=("user",), terms=("needle",)))
    assert found == sorted(needles, key=lambda b: b.store_position, reverse=True)
    assert counter.evaluated == NEEDLES


def test_an_unknown_term_evaluates_nothing(
    big_store: tuple[InMemoryMemoryStore, Principal, list[Belief]], counter: Counter
) -> None:
    store, alice, _ = big_store
    assert store.search(RecallQuery(principal=alice, scopes=("user",), terms=("zebra",))) == []
    assert store.search(RecallQuery(principal=alice, scopes=("user",), terms=())) == []
    assert counter.evaluated == 0


def test_a_multi_lexeme_term_evaluates_only_the_intersection(
    big_store: tuple[InMemoryMemoryStore, Principal, list[Belief]], counter: Counter
) -> None:
    store, alice, needles = big_store
    # "drawer" is in the needles only; "user" is in every record
    found = store.search(RecallQuery(principal=alice, scopes=("user",), terms=("user drawer",)))
    assert {b.id for b in found} == {b.id for b in needles}
    assert counter.evaluated == NEEDLES


def test_a_named_subject_evaluates_only_that_subjects_records(
    big_store: tuple[InMemoryMemoryStore, Principal, list[Belief]], counter: Counter
) -> None:
    store, alice, _ = big_store
    found = store.search(
        RecallQuery(principal=alice, scopes=("user",), terms=(), subjects=("Topic 7",), limit=1000)
    )
    assert len(found) == RECORDS // 50
    assert counter.evaluated == RECORDS // 50


def test_no_lexical_predicate_walks_newest_first_and_stops_at_the_limit(
    big_store: tuple[InMemoryMemoryStore, Principal, list[Belief]], counter: Counter
) -> None:
    # terms=None has no lexical predicate: the principal's beliefs are kept in store-position
    # order, so the search walks them newest-first and evaluates only until the limit is met,
    # rather than evaluating and sorting every one of the principal's rows.
    store, alice, _ = big_store
    found = store.search(RecallQuery(principal=alice, scopes=("user",), limit=5))
    newest = sorted(store.list_beliefs(alice), key=lambda b: b.store_position, reverse=True)
    assert found == newest[:5]
    assert counter.evaluated == 5
