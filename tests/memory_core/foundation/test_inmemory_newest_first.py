"""The in-memory search answers exactly as a naive filter-and-sort reference.

``InMemoryMemoryStore.search`` walks a principal's position-ordered beliefs newest-first (no
lexical predicate), or merges the position-ordered posting lists of the query's lexemes and
subjects newest-first, skipping postings left stale by updates. Either way the answer must be
the reference's: every belief of the principal passing the predicates, newest store position
first, capped. Hypothesis drives puts, updates (which move a belief to the newest position and
may change its words), in-place updates (which keep the position and may change its words) and
failed units of work (which restore the previous records) with a vocabulary where one word is
in nearly every belief and others are rare; it runs once with the shipped compaction threshold
and once compacting the posting lists whenever any posting is stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import Authority, Belief, BeliefStatus, BeliefType, InMemoryStorage, Principal
from memory_core.domain import RecallQuery
from memory_core.stores import _lexical_index as lexical_index
from memory_core.text import fold
from memory_core.tokenizer import lexemes, term_lexeme_groups

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
OWNERS = (Principal("tenant-1", "alice"), Principal("tenant-1", "bob"))
SCOPES = ("user", "general", "project:p1")
COMMON = "user"
RARE = ("tea", "coffee", "vim", "rust", "dark-mode")
SUBJECTS = ("answer style", "home city", "Editor")


@dataclass(frozen=True, kw_only=True)
class Op:
    kind: str  # "put", "update", "in_place" or "failed_unit"
    owner: int
    target: int
    scope: str
    status: BeliefStatus
    words: tuple[str, ...]
    subject: str


ops = st.lists(
    st.builds(
        Op,
        kind=st.sampled_from(("put", "put", "put", "update", "in_place", "failed_unit")),
        owner=st.integers(0, len(OWNERS) - 1),
        target=st.integers(0, 1000),
        scope=st.sampled_from(SCOPES),
        status=st.sampled_from(sorted(BeliefStatus)),
        words=st.lists(st.sampled_from(RARE), max_size=2).map(tuple),
        subject=st.sampled_from(SUBJECTS),
    ),
    min_size=1,
    max_size=60,
)

queries = st.fixed_dictionaries(
    {
        "owner": st.integers(0, len(OWNERS) - 1),
        "scopes": st.lists(st.sampled_from(SCOPES), min_size=1, max_size=3, unique=True),
        "statuses": st.frozensets(st.sampled_from(sorted(BeliefStatus)), min_size=1),
        "terms": st.none()
        | st.lists(st.sampled_from((COMMON, *RARE, "user tea", "zebra")), max_size=3).map(tuple),
        "subjects": st.lists(st.sampled_from((*SUBJECTS, "HOME  city")), max_size=2).map(tuple),
        "min_store_position": st.integers(0, 40),
        "limit": st.integers(1, 12),
    }
)


def _belief(index: int, owner: Principal, op: Op) -> Belief:
    return Belief(
        id=f"{index:08x}-0000-4000-8000-000000000000",
        tenant_id=owner.tenant_id,
        principal_id=owner.principal_id,
        belief_type=BeliefType.FACT,
        subject=op.subject,
        statement=" ".join(("User", "likes", *op.words)) + ".",
        scope=op.scope,
        status=op.status,
        authority=Authority.USER,
        confidence=0.8,
        source_event_ids=("e-0",),
        valid_from=T0,
        last_evidence_at=T0,
        created_at=T0,
        updated_at=T0,
        consolidation_policy_version="formation@5",
    )


def _changed(current: Belief, op: Op) -> Belief:
    statement = " ".join(("User", "uses", *op.words)) + "."
    fields = {"status": op.status, "scope": op.scope, "subject": op.subject}
    return current.model_copy(update={**fields, "statement": statement})


def _apply(storage: InMemoryStorage, operations: list[Op]) -> list[Belief]:
    """Run the operations; return the beliefs a reference reads (latest version of each)."""
    latest: dict[str, Belief] = {}
    for number, op in enumerate(operations):
        owner = OWNERS[op.owner]
        mine = [b for b in latest.values() if b.principal == owner]
        if op.kind in ("update", "in_place") and mine:
            changed = _changed(mine[op.target % len(mine)], op)
            if op.kind == "update":
                stored = storage.memories.update(changed)
            else:
                stored = storage.memories.update_in_place(changed)
            latest[stored.id] = stored
        elif op.kind == "failed_unit":
            try:
                with storage.unit_of_work():
                    storage.memories.put(_belief(10_000 + number, owner, op))
                    if mine:
                        storage.memories.update(_changed(mine[op.target % len(mine)], op))
                    raise RuntimeError("abandon the unit")
            except RuntimeError:
                pass
        else:
            stored = storage.memories.put(_belief(number, owner, op))
            latest[stored.id] = stored
    return list(latest.values())


def _reference(beliefs: list[Belief], query: RecallQuery) -> list[Belief]:
    groups = term_lexeme_groups(query.terms or ())
    named = {fold(s) for s in query.subjects}

    def matches(belief: Belief) -> bool:
        if query.terms is None:
            return True
        held = lexemes(f"{belief.subject} {belief.statement}")
        return any(group <= held for group in groups) or fold(belief.subject) in named

    hits = [
        b
        for b in beliefs
        if b.principal == query.principal
        and b.scope in query.scopes
        and b.status in query.statuses
        and b.store_position > query.min_store_position
        and matches(b)
    ]
    hits.sort(key=lambda b: b.store_position, reverse=True)
    return hits[: query.limit]


@settings(max_examples=150, deadline=None)
@given(operations=ops, drawn=st.lists(queries, min_size=1, max_size=6))
def test_search_equals_the_filter_and_sort_reference(
    operations: list[Op], drawn: list[dict[str, object]]
) -> None:
    storage = InMemoryStorage()
    _check(storage, _apply(storage, operations), drawn)
    saved = lexical_index._COMPACT_FLOOR, lexical_index._COMPACT_RATIO
    try:
        lexical_index._COMPACT_FLOOR, lexical_index._COMPACT_RATIO = 0, 0.0  # on any stale one
        compacting = InMemoryStorage()
        _check(compacting, _apply(compacting, operations), drawn)
    finally:
        lexical_index._COMPACT_FLOOR, lexical_index._COMPACT_RATIO = saved


def _check(storage: InMemoryStorage, beliefs: list[Belief], drawn: list[dict[str, object]]) -> None:
    for spec in drawn:
        fields = {name: value for name, value in spec.items() if name != "owner"}
        query = RecallQuery.model_validate({**fields, "principal": OWNERS[int(str(spec["owner"]))]})
        assert storage.memories.search(query) == _reference(beliefs, query)


def test_an_updated_belief_is_the_newest_for_the_walk() -> None:
    storage = InMemoryStorage()
    alice = OWNERS[0]
    op = Op(
        kind="put",
        owner=0,
        target=0,
        scope="user",
        status=BeliefStatus.ACTIVE,
        words=(),
        subject="home city",
    )
    first = storage.memories.put(_belief(1, alice, op))
    storage.memories.put(_belief(2, alice, op))
    updated = storage.memories.update(first.model_copy(update={"confidence": 0.9}))
    found = storage.memories.search(RecallQuery(principal=alice, scopes=("user",), limit=1))
    assert found == [updated]
    later = T0 + timedelta(days=1)
    assert storage.memories.search(
        RecallQuery(principal=alice, scopes=("user",), as_of=later, limit=2)
    ) == sorted(storage.memories.list_beliefs(alice), key=lambda b: -b.store_position)


def test_a_word_an_in_place_update_removed_no_longer_matches() -> None:
    storage = InMemoryStorage()
    alice = OWNERS[0]
    op = Op(
        kind="put",
        owner=0,
        target=0,
        scope="user",
        status=BeliefStatus.ACTIVE,
        words=("tea",),
        subject="home city",
    )
    stored = storage.memories.put(_belief(1, alice, op))
    coffee = Op(**{**op.__dict__, "words": ("coffee",), "subject": "Editor"})
    kept = storage.memories.update_in_place(_changed(stored, coffee))

    def found(terms: tuple[str, ...], subjects: tuple[str, ...] = ()) -> list[Belief]:
        query = RecallQuery(principal=alice, scopes=("user",), terms=terms, subjects=subjects)
        return storage.memories.search(query)

    assert found(("tea",)) == []
    assert found((), ("home city",)) == []
    assert found(("coffee",)) == [kept]
    assert found((), ("editor",)) == [kept]
