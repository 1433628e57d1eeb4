"""The in-memory search's predicate walk keeps exactly the beliefs its plain definition keeps.

``_first_passing`` reads the query's values once and tests each belief inline; the reference
below is the per-belief predicate it replaced (scope, status, position cursor, excluded ids,
belief types, validity at ``as_of``), applied in the same newest-first walk with the same stop
at the limit or the cursor. Generated walks mix every predicate, including the ones the
lexical-index test leaves at their defaults (types, excluded ids, ``as_of``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import Authority, Belief, BeliefStatus, BeliefType, Principal
from memory_core.domain import RecallQuery
from memory_core.stores.memory import _first_passing

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALICE = Principal("tenant-1", "alice")
SCOPES = ("user", "general", "project:p1")
TYPES = (BeliefType.FACT, BeliefType.PREFERENCE, BeliefType.RELATIONSHIP)


def _passes(belief: Belief, query: RecallQuery, scopes: frozenset[str]) -> bool:
    if belief.scope not in scopes or belief.status not in query.statuses:
        return False
    if belief.store_position <= query.min_store_position:
        return False
    if belief.id in query.exclude_ids:
        return False
    if query.belief_types is not None and belief.belief_type not in query.belief_types:
        return False
    if query.as_of is not None:
        if belief.valid_from > query.as_of:
            return False
        if belief.valid_to is not None and belief.valid_to <= query.as_of:
            return False
    return True


def _reference(
    newest_first: Iterable[Belief], query: RecallQuery, scopes: frozenset[str]
) -> list[Belief]:
    hits: list[Belief] = []
    for belief in newest_first:
        if belief.store_position <= query.min_store_position:
            break
        if _passes(belief, query, scopes):
            hits.append(belief)
            if len(hits) >= query.limit:
                break
    return hits


@st.composite
def _beliefs(draw: st.DrawFn) -> list[Belief]:
    count = draw(st.integers(0, 30))
    out = []
    for index in range(count, 0, -1):  # newest (highest position) first
        start = draw(st.integers(-2, 2))
        span = draw(st.one_of(st.none(), st.integers(0, 3)))
        out.append(
            Belief(
                id=f"belief-{index:04d}",
                tenant_id=ALICE.tenant_id,
                principal_id=ALICE.principal_id,
                belief_type=draw(st.sampled_from(TYPES)),
                subject="drink",
                statement="User likes tea.",
                scope=draw(st.sampled_from(SCOPES)),
                status=draw(st.sampled_from(sorted(BeliefStatus))),
                authority=Authority.USER,
                confidence=0.5,
                source_event_ids=("e-0",),
                valid_from=T0 + timedelta(days=start),
                valid_to=None if span is None else T0 + timedelta(days=start + span),
                last_evidence_at=T0,
                created_at=T0,
                updated_at=T0,
                consolidation_policy_version="formation@5",
                store_position=index,
            )
        )
    return out


_queries = st.builds(
    lambda scopes, statuses, as_of, position, excluded, types, limit: RecallQuery(
        principal=ALICE,
        scopes=tuple(scopes),
        statuses=statuses,
        as_of=None if as_of is None else T0 + timedelta(days=as_of),
        min_store_position=position,
        exclude_ids=frozenset(f"belief-{n:04d}" for n in excluded),
        belief_types=types,
        limit=limit,
    ),
    st.lists(st.sampled_from(SCOPES), min_size=1, max_size=3, unique=True),
    st.frozensets(st.sampled_from(sorted(BeliefStatus)), min_size=1),
    st.one_of(st.none(), st.integers(-3, 5)),
    st.integers(0, 20),
    st.frozensets(st.integers(0, 30), max_size=6),
    st.one_of(st.none(), st.frozensets(st.sampled_from(TYPES))),
    st.integers(1, 12),
)


@settings(max_examples=300, deadline=None)
@given(beliefs=_beliefs(), query=_queries)
def test_the_inline_walk_equals_the_per_belief_predicate(
    beliefs: list[Belief], query: RecallQuery
) -> None:
    scopes = frozenset(query.scopes)
    assert _first_passing(iter(beliefs), query, scopes) == _reference(beliefs, query, scopes)
