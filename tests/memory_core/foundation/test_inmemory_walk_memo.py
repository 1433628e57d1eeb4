"""The in-memory store's remembered newest-first walks answer as a fresh walk would.

``InMemoryMemoryStore.search`` with no lexical predicate remembers its walk until the
principal's beliefs change, and reuses it for any ``as_of`` on the same side of every validity
bound the walk judged. Hypothesis interleaves writes (puts, updates, in-place updates, failed
units of work) with searches at instants around the beliefs' validity bounds; every answer
must be the naive reference's: the principal's beliefs passing the predicates at ``as_of``,
newest store position first, capped.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import Authority, Belief, BeliefStatus, BeliefType, InMemoryStorage, Principal
from memory_core.domain import RecallQuery

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
OWNERS = (Principal("tenant-1", "alice"), Principal("tenant-1", "bob"))
DAYS = 6
"""Validity bounds and query instants fall on these days after ``T0`` (so they meet)."""
LIMITS = (2, 5)


@dataclass(frozen=True, kw_only=True)
class Write:
    kind: str  # "put", "update", "in_place" or "failed_unit"
    owner: int
    target: int
    starts: int
    lasts: int | None
    belief_type: BeliefType


@dataclass(frozen=True, kw_only=True)
class Search:
    owner: int
    day: int | None
    limit: int
    belief_types: frozenset[BeliefType] | None


writes = st.builds(
    Write,
    kind=st.sampled_from(("put", "put", "update", "in_place", "failed_unit")),
    owner=st.integers(0, len(OWNERS) - 1),
    target=st.integers(0, 100),
    starts=st.integers(0, DAYS - 1),
    lasts=st.none() | st.integers(1, DAYS),
    belief_type=st.sampled_from((BeliefType.FACT, BeliefType.PREFERENCE)),
)
searches = st.builds(
    Search,
    owner=st.integers(0, len(OWNERS) - 1),
    day=st.none() | st.integers(0, DAYS),
    limit=st.sampled_from(LIMITS),
    belief_types=st.none() | st.just(frozenset({BeliefType.PREFERENCE})),
)


def _at(day: int) -> datetime:
    return T0 + timedelta(days=day)


def _query(
    owner: Principal, day: int | None, limit: int, belief_types: frozenset[BeliefType] | None
) -> RecallQuery:
    return RecallQuery(
        principal=owner,
        scopes=("user",),
        as_of=None if day is None else _at(day),
        belief_types=belief_types,
        limit=limit,
    )


def _fields(write: Write) -> dict[str, object]:
    ends = None if write.lasts is None else _at(write.starts + write.lasts)
    return {"valid_from": _at(write.starts), "valid_to": ends, "belief_type": write.belief_type}


def _belief(number: int, owner: Principal, write: Write) -> Belief:
    return Belief.model_validate(
        {
            "id": f"{number:08x}-0000-4000-8000-000000000000",
            "tenant_id": owner.tenant_id,
            "principal_id": owner.principal_id,
            "subject": "topic",
            "statement": f"User note {number}.",
            "scope": "user",
            "status": BeliefStatus.ACTIVE,
            "authority": Authority.USER,
            "confidence": 0.8,
            "source_event_ids": ("e-0",),
            "last_evidence_at": T0,
            "created_at": T0,
            "updated_at": T0,
            "consolidation_policy_version": "formation@5",
            **_fields(write),
        }
    )


def _write(storage: InMemoryStorage, latest: dict[str, Belief], number: int, op: Write) -> None:
    owner = OWNERS[op.owner]
    mine = [b for b in latest.values() if b.principal == owner]
    if op.kind in ("update", "in_place") and mine:
        changed = mine[op.target % len(mine)].model_copy(update=_fields(op))
        memories = storage.memories
        stored = (
            memories.update(changed) if op.kind == "update" else memories.update_in_place(changed)
        )
        latest[stored.id] = stored
    elif op.kind == "failed_unit":
        try:
            with storage.unit_of_work():
                storage.memories.put(_belief(10_000 + number, owner, op))
                # a walk remembered inside the unit must be forgotten by its rollback
                for limit in LIMITS:
                    storage.memories.search(_query(owner, op.starts, limit, None))
                raise RuntimeError("abandon the unit")
        except RuntimeError:
            pass
    else:
        stored = storage.memories.put(_belief(number, owner, op))
        latest[stored.id] = stored


def _reference(beliefs: list[Belief], query: RecallQuery) -> list[Belief]:
    at = query.as_of
    hits = [
        b
        for b in beliefs
        if b.principal == query.principal
        and (query.belief_types is None or b.belief_type in query.belief_types)
        and (at is None or (b.valid_from <= at and (b.valid_to is None or b.valid_to > at)))
    ]
    hits.sort(key=lambda b: b.store_position, reverse=True)
    return hits[: query.limit]


@settings(max_examples=150, deadline=None)
@given(steps=st.lists(st.one_of(writes, searches, searches), min_size=1, max_size=60))
def test_a_remembered_walk_answers_as_a_fresh_walk(steps: list[Write | Search]) -> None:
    storage = InMemoryStorage()
    latest: dict[str, Belief] = {}
    for number, step in enumerate(steps):
        if isinstance(step, Write):
            _write(storage, latest, number, step)
            continue
        query = _query(OWNERS[step.owner], step.day, step.limit, step.belief_types)
        assert storage.memories.search(query) == _reference(list(latest.values()), query)
