"""MemoryStore contract, run against every storage adapter."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

import pytest

from memory_core import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    ConflictError,
    NotFoundError,
    Principal,
    Storage,
    UsageError,
)
from memory_core.domain import LIVE_STATUSES, RecallQuery, visible_scopes
from memory_core.ports import BELIEF_KEY_FIELDS, BeliefKey

MakeBelief = Callable[..., Belief]
ALL_STATUSES = frozenset(BeliefStatus)
EVERY_SCOPE = ("user", "general", "project:orbit", "project:atlas")


def _query(principal: Principal, **fields: Any) -> RecallQuery:
    fields.setdefault("scopes", EVERY_SCOPE)
    return RecallQuery(principal=principal, **fields)


def _ids(beliefs: Sequence[Belief]) -> list[str]:
    return [b.id for b in beliefs]


# -- put / update / get ------------------------------------------------------------------------


def test_put_stamps_strictly_increasing_positions(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    stored = [storage.memories.put(make_belief(p)) for p in (alice, bob, alice, bob, alice)]
    positions = [b.store_position for b in stored]
    assert positions[0] > 0
    assert all(a < b for a, b in itertools.pairwise(positions))


def test_put_returns_the_belief_unchanged_but_for_its_position(
    storage: Storage, make_belief: MakeBelief, alice: Principal, t0: datetime
) -> None:
    belief = make_belief(
        alice,
        belief_type=BeliefType.RELATIONSHIP,
        subject="sister",
        statement="User's sister is called Ana.",
        source_event_ids=("e-1", "e-2"),
        source_session_id="s-1",
        conflicts_with=("other",),
        needs_review=True,
        utility=-0.25,
        last_used_at=t0,
        valid_to=t0 + timedelta(days=3),
    )
    stored = storage.memories.put(belief)
    assert stored.model_copy(update={"store_position": 0}) == belief
    assert storage.memories.get(alice, belief.id) == stored


def test_put_refuses_an_existing_id(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    stored = storage.memories.put(make_belief(alice))
    with pytest.raises(ConflictError):
        storage.memories.put(make_belief(bob, id=stored.id))
    assert storage.memories.get(alice, stored.id) == stored
    assert storage.memories.get(bob, stored.id) is None


def test_update_replaces_the_belief_at_a_fresh_position(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    first = storage.memories.put(make_belief(alice))
    second = storage.memories.put(make_belief(alice))
    changed = first.model_copy(
        update={"status": BeliefStatus.SUPERSEDED, "superseded_by": second.id}
    )
    updated = storage.memories.update(changed)
    assert updated.store_position > second.store_position
    assert updated.model_copy(update={"store_position": 0}) == changed.model_copy(
        update={"store_position": 0}
    )
    assert storage.memories.get(alice, first.id) == updated


def test_update_refuses_an_unknown_or_foreign_belief(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    with pytest.raises(NotFoundError):
        storage.memories.update(make_belief(alice))
    mine = storage.memories.put(make_belief(alice))
    with pytest.raises(NotFoundError):
        storage.memories.update(make_belief(bob, id=mine.id, statement="Bob owns this now."))
    assert storage.memories.get(alice, mine.id) == mine
    assert storage.memories.get(bob, mine.id) is None


def test_get_is_principal_scoped(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    mine = storage.memories.put(make_belief(alice))
    assert storage.memories.get(bob, mine.id) is None
    assert storage.memories.get(Principal("tenant-2", "alice"), mine.id) is None
    assert storage.memories.get(alice, "no-such-belief") is None


# -- list_beliefs ------------------------------------------------------------------------------


def test_list_beliefs_in_position_order_filtered_by_status(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    active = storage.memories.put(make_belief(alice))
    provisional = storage.memories.put(make_belief(alice, status=BeliefStatus.PROVISIONAL))
    storage.memories.put(make_belief(bob))
    rejected = storage.memories.put(make_belief(alice, status=BeliefStatus.REJECTED))
    # an update moves the belief to the end of position order
    active = storage.memories.update(active.model_copy(update={"confidence": 0.95}))

    assert storage.memories.list_beliefs(alice) == [provisional, rejected, active]
    assert storage.memories.list_beliefs(alice, LIVE_STATUSES) == [provisional, active]
    assert storage.memories.list_beliefs(alice, frozenset({BeliefStatus.REJECTED})) == [rejected]
    assert storage.memories.list_beliefs(alice, frozenset()) == []
    assert storage.memories.list_beliefs(Principal("tenant-1", "carol")) == []


# -- search: structured predicates -------------------------------------------------------------


def test_search_is_principal_scoped(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    mine = storage.memories.put(make_belief(alice, statement="User drinks green tea."))
    storage.memories.put(make_belief(bob, statement="User drinks green tea."))
    storage.memories.put(make_belief(Principal("tenant-2", "alice"), statement="green tea"))
    assert storage.memories.search(_query(alice)) == [mine]
    assert storage.memories.search(_query(alice, terms=("tea",))) == [mine]
    assert storage.memories.search(_query(alice, terms=(), subjects=("answer style",))) == [mine]


def test_search_filters_by_scope(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    by_scope = {
        scope: storage.memories.put(make_belief(alice, scope=scope)) for scope in EVERY_SCOPE
    }
    found = storage.memories.search(_query(alice, scopes=visible_scopes("orbit")))
    assert {b.scope for b in found} == {"user", "general", "project:orbit"}
    found = storage.memories.search(_query(alice, scopes=("project:atlas",)))
    assert found == [by_scope["project:atlas"]]


def test_search_defaults_to_live_statuses_and_honours_explicit_ones(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    by_status = {s: storage.memories.put(make_belief(alice, status=s)) for s in BeliefStatus}
    live = storage.memories.search(_query(alice))
    assert {b.status for b in live} == set(LIVE_STATUSES)
    retired = storage.memories.search(
        _query(alice, statuses=frozenset({BeliefStatus.RETIRED, BeliefStatus.EXPIRED}))
    )
    assert _ids(retired) == [by_status[BeliefStatus.RETIRED].id, by_status[BeliefStatus.EXPIRED].id]
    assert len(storage.memories.search(_query(alice, statuses=ALL_STATUSES))) == len(BeliefStatus)


def test_search_as_of_selects_beliefs_valid_at_that_instant(
    storage: Storage, make_belief: MakeBelief, alice: Principal, t0: datetime
) -> None:
    def day(n: int) -> datetime:
        return t0 + timedelta(days=n)

    old = storage.memories.put(
        make_belief(alice, evidenced_at=day(0), valid_to=day(10), status=BeliefStatus.SUPERSEDED)
    )
    current = storage.memories.put(make_belief(alice, evidenced_at=day(10)))
    future = storage.memories.put(make_belief(alice, evidenced_at=day(20)))

    def as_of(n: int) -> list[str]:
        return _ids(storage.memories.search(_query(alice, as_of=day(n), statuses=ALL_STATUSES)))

    assert as_of(-1) == []
    assert as_of(0) == [old.id]  # valid_from is inclusive
    assert as_of(9) == [old.id]
    assert as_of(10) == [current.id]  # valid_to is exclusive
    assert as_of(25) == [future.id, current.id]
    unbounded = storage.memories.search(_query(alice, statuses=ALL_STATUSES))
    assert _ids(unbounded) == [future.id, current.id, old.id]


def test_search_min_store_position_is_exclusive(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    first, second, third = (storage.memories.put(make_belief(alice)) for _ in range(3))
    found = storage.memories.search(_query(alice, min_store_position=first.store_position))
    assert found == [third, second]
    assert storage.memories.search(_query(alice, min_store_position=third.store_position)) == []
    # an update takes a fresh position, so it passes a watermark taken before it
    watermark = storage.memories.head_position(alice)
    updated = storage.memories.update(first.model_copy(update={"confidence": 0.5}))
    assert storage.memories.search(_query(alice, min_store_position=watermark)) == [updated]


def test_search_exclude_ids_and_belief_types(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    pref = storage.memories.put(make_belief(alice))
    fact = storage.memories.put(make_belief(alice, belief_type=BeliefType.FACT))
    rel = storage.memories.put(make_belief(alice, belief_type=BeliefType.RELATIONSHIP))

    assert storage.memories.search(_query(alice, exclude_ids=frozenset({fact.id}))) == [rel, pref]
    only = frozenset({BeliefType.FACT, BeliefType.PREFERENCE})
    assert storage.memories.search(_query(alice, belief_types=only)) == [fact, pref]
    assert storage.memories.search(
        _query(alice, belief_types=only, exclude_ids=frozenset({pref.id, "unknown"}))
    ) == [fact]


def test_search_orders_newest_first_and_caps_at_the_limit(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    stored = [storage.memories.put(make_belief(alice, statement=f"Note {i}.")) for i in range(6)]
    stored[1] = storage.memories.update(stored[1].model_copy(update={"confidence": 0.4}))
    newest_first = sorted(stored, key=lambda b: b.store_position, reverse=True)
    assert storage.memories.search(_query(alice)) == newest_first
    assert storage.memories.search(_query(alice, limit=3)) == newest_first[:3]
    assert storage.memories.search(_query(alice, terms=("note",), limit=2)) == newest_first[:2]


def test_search_many_answers_each_query_as_search_does(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    for i in range(5):
        storage.memories.put(make_belief(alice, subject=f"topic {i % 2}", statement=f"Note {i}."))
    storage.memories.put(make_belief(bob, statement="Note for bob."))
    queries = [
        _query(alice),
        _query(alice, terms=("note",), limit=2),
        _query(alice, terms=(), subjects=("topic 1",)),
        _query(alice, belief_types=frozenset()),  # can match nothing
        _query(alice, terms=("absent",)),
        _query(alice, limit=1),
    ]
    found = storage.memories.search_many(queries)
    assert found == [storage.memories.search(query) for query in queries]
    assert found[0] and found[1] and found[2] and not found[3] and not found[4]
    mixed = [_query(bob), _query(alice, terms=("note",))]
    assert storage.memories.search_many(mixed) == [storage.memories.search(q) for q in mixed]
    assert storage.memories.search_many([]) == []


def _keys(found: Sequence[BeliefKey]) -> list[tuple[object, ...]]:
    return [tuple(getattr(key, name) for name in BELIEF_KEY_FIELDS) for key in found]


def test_search_keyed_reads_the_keys_of_search_and_the_beliefs_of_search_many(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    for i in range(5):
        storage.memories.put(make_belief(alice, subject=f"topic {i % 2}", statement=f"Note {i}."))
    storage.memories.put(make_belief(bob, statement="Note for bob."))
    keyed = _query(alice, limit=4)
    queries = [
        _query(alice, terms=("note",), limit=2),
        _query(alice, terms=(), subjects=("topic 1",)),
        _query(alice, belief_types=frozenset()),  # can match nothing
    ]
    keys, found = storage.memories.search_keyed(keyed, queries)
    assert _keys(keys) == _keys(storage.memories.search(keyed))
    assert len(keys) == 4
    assert all(isinstance(key.status, BeliefStatus) for key in keys)
    assert found == storage.memories.search_many(queries)
    keys, found = storage.memories.search_keyed(_query(alice, belief_types=frozenset()), [])
    assert (keys, found) == ([], [])
    keys, found = storage.memories.search_keyed(_query(bob), [_query(alice, terms=("note",))])
    assert _keys(keys) == _keys(storage.memories.search(_query(bob)))
    assert found == [storage.memories.search(_query(alice, terms=("note",)))]


# -- search: lexical predicates ----------------------------------------------------------------


@pytest.fixture
def lexical(storage: Storage, make_belief: MakeBelief, alice: Principal) -> dict[str, Belief]:
    """A small corpus for the lexical predicates, keyed by a nickname."""
    rows = {
        "themes": ("ui", "User likes dark themes."),
        "apple": ("employer", "User works at Apple."),
        "email": ("contact", "User reads e-mail in the morning."),
        "mail": ("post", "User collects mail on Fridays."),
        "domain": ("website", "User hosts api.example.com on a VPS."),
        "york": ("home", "User lives in New York."),
        "new": ("laptop", "User bought a new laptop."),
        "coffee": ("drink", "User drinks coffee."),
        "tea": ("Morning Drink", "User drinks green tea."),
    }
    return {
        name: storage.memories.put(make_belief(alice, subject=subject, statement=statement))
        for name, (subject, statement) in rows.items()
    }


def _lexical_hits(
    storage: Storage, principal: Principal, terms: tuple[str, ...] | None, **fields: Any
) -> list[str]:
    found = storage.memories.search(_query(principal, terms=terms, **fields))
    return [b.id for b in found]


def test_lexical_match_is_a_whole_lexeme_without_stemming_or_prefixes(
    storage: Storage, alice: Principal, lexical: dict[str, Belief]
) -> None:
    assert _lexical_hits(storage, alice, ("theme",)) == []
    assert _lexical_hits(storage, alice, ("themes",)) == [lexical["themes"].id]
    assert _lexical_hits(storage, alice, ("app",)) == []
    assert _lexical_hits(storage, alice, ("APPLE",)) == [lexical["apple"].id]
    assert _lexical_hits(storage, alice, ("coff",)) == []


def test_lexical_match_covers_the_subject_too(
    storage: Storage, alice: Principal, lexical: dict[str, Belief]
) -> None:
    assert _lexical_hits(storage, alice, ("employer",)) == [lexical["apple"].id]
    assert _lexical_hits(storage, alice, ("morning",)) == [lexical["tea"].id, lexical["email"].id]


def test_lexical_match_keeps_joined_runs_whole(
    storage: Storage, alice: Principal, lexical: dict[str, Belief]
) -> None:
    assert _lexical_hits(storage, alice, ("api.example.com",)) == [lexical["domain"].id]
    assert _lexical_hits(storage, alice, ("example",)) == []
    assert _lexical_hits(storage, alice, ("example.com",)) == []


def test_lexical_match_on_hyphenated_words_and_multi_lexeme_terms(
    storage: Storage, alice: Principal, lexical: dict[str, Belief]
) -> None:
    # a stored hyphenated word is indexed whole and in parts
    assert _lexical_hits(storage, alice, ("mail",)) == [lexical["mail"].id, lexical["email"].id]
    # a term is one plainto_tsquery: all of its lexemes must be present
    assert _lexical_hits(storage, alice, ("e-mail",)) == [lexical["email"].id]
    assert _lexical_hits(storage, alice, ("new york",)) == [lexical["york"].id]
    assert _lexical_hits(storage, alice, ("new", "york")) == [
        lexical["new"].id,
        lexical["york"].id,
    ]


def test_lexical_match_is_any_term(
    storage: Storage, alice: Principal, lexical: dict[str, Belief]
) -> None:
    hits = _lexical_hits(storage, alice, ("tea", "coffee", "unmatched"))
    assert hits == [lexical["tea"].id, lexical["coffee"].id]


def test_a_named_subject_matches_without_lexical_overlap(
    storage: Storage, alice: Principal, lexical: dict[str, Belief]
) -> None:
    subjects = ("  morning   DRINK ", "no such subject")
    assert _lexical_hits(storage, alice, (), subjects=subjects) == [lexical["tea"].id]
    assert _lexical_hits(storage, alice, ("coffee",), subjects=subjects) == [
        lexical["tea"].id,
        lexical["coffee"].id,
    ]


def test_terms_none_is_no_lexical_predicate_and_empty_terms_match_nothing(
    storage: Storage, alice: Principal, lexical: dict[str, Belief]
) -> None:
    everything = sorted(lexical.values(), key=lambda b: b.store_position, reverse=True)
    assert _lexical_hits(storage, alice, None) == _ids(everything)
    assert _lexical_hits(storage, alice, ()) == []
    assert _lexical_hits(storage, alice, ("", "!!!", "--")) == []


def test_lexical_predicates_combine_with_the_structured_ones(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    visible = storage.memories.put(make_belief(alice, statement="Tea at noon."))
    storage.memories.put(make_belief(alice, statement="Tea at five.", scope="project:atlas"))
    storage.memories.put(make_belief(alice, statement="Tea daily.", status=BeliefStatus.REJECTED))
    storage.memories.put(make_belief(bob, statement="Tea for Bob."))
    found = storage.memories.search(_query(alice, scopes=visible_scopes("orbit"), terms=("tea",)))
    assert found == [visible]


def test_an_update_reindexes_the_belief(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    belief = storage.memories.put(make_belief(alice, statement="User drinks coffee."))
    updated = storage.memories.update(
        belief.model_copy(update={"statement": "User drinks tea.", "subject": "drink"})
    )
    assert _lexical_hits(storage, alice, ("coffee",)) == []
    assert _lexical_hits(storage, alice, (), subjects=("answer style",)) == []
    assert _lexical_hits(storage, alice, ("tea",)) == [updated.id]
    assert _lexical_hits(storage, alice, (), subjects=("drink",)) == [updated.id]


# -- list_idle ---------------------------------------------------------------------------------


def test_list_idle_returns_live_beliefs_least_recently_evidenced_first(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal, t0: datetime
) -> None:
    def day(n: int) -> datetime:
        return t0 + timedelta(days=n)

    make_belief = functools.partial(make_belief, authority=Authority.INFERRED, confidence=0.6)

    mid = storage.memories.put(make_belief(alice, evidenced_at=day(5)))
    oldest = storage.memories.put(
        make_belief(alice, evidenced_at=day(1), status=BeliefStatus.PROVISIONAL)
    )
    storage.memories.put(make_belief(alice, evidenced_at=day(0), status=BeliefStatus.RETIRED))
    storage.memories.put(make_belief(bob, evidenced_at=day(0)))
    recent = storage.memories.put(make_belief(alice, evidenced_at=day(9)))
    tie = storage.memories.put(make_belief(alice, evidenced_at=day(5)))

    assert storage.memories.list_idle(alice, day(10), 10) == [oldest, mid, tie, recent]
    assert storage.memories.list_idle(alice, day(5), 10) == [oldest, mid, tie]  # inclusive
    assert storage.memories.list_idle(alice, day(10), 2) == [oldest, mid]
    assert storage.memories.list_idle(alice, day(10), 0) == []
    assert storage.memories.list_idle(alice, day(0), 10) == []


def test_list_idle_orders_by_evidence_not_by_position(
    storage: Storage, make_belief: MakeBelief, alice: Principal, t0: datetime
) -> None:
    make_belief = functools.partial(make_belief, authority=Authority.INFERRED, confidence=0.6)
    recent = storage.memories.put(make_belief(alice, evidenced_at=t0 + timedelta(days=3)))
    stale = storage.memories.put(make_belief(alice, evidenced_at=t0))
    # touching a stale belief without new evidence gives it a fresh position, not freshness
    stale = storage.memories.update(stale.model_copy(update={"confidence": 0.5}))
    assert storage.memories.list_idle(alice, t0 + timedelta(days=3), 1) == [stale]
    assert storage.memories.list_idle(alice, t0 + timedelta(days=3), 5) == [stale, recent]


def test_list_idle_refuses_a_naive_instant_and_a_negative_limit(
    storage: Storage, make_belief: MakeBelief, alice: Principal, t0: datetime
) -> None:
    storage.memories.put(make_belief(alice))
    with pytest.raises(UsageError, match="timezone-aware"):
        storage.memories.list_idle(alice, t0.replace(tzinfo=None), 10)
    with pytest.raises(UsageError, match="limit"):
        storage.memories.list_idle(alice, t0, -1)


# -- head_position -----------------------------------------------------------------------------


def test_head_position_tracks_the_principals_own_writes_only(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    assert storage.memories.head_position(alice) == 0
    first = storage.memories.put(make_belief(alice))
    assert storage.memories.head_position(alice) == first.store_position

    bobs = storage.memories.put(make_belief(bob))
    assert storage.memories.head_position(alice) == first.store_position
    assert storage.memories.head_position(bob) == bobs.store_position

    rejected = storage.memories.update(first.model_copy(update={"status": BeliefStatus.REJECTED}))
    assert storage.memories.head_position(alice) == rejected.store_position
    assert storage.memories.head_position(bob) == bobs.store_position
    assert storage.memories.head_position(Principal("tenant-2", "alice")) == 0


# -- pinned ------------------------------------------------------------------------------------


class _Undo(Exception):
    pass


def test_calls_inside_a_pinned_block_behave_as_they_do_outside(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    with storage.memories.pinned():
        kept = storage.memories.put(make_belief(alice, statement="User drinks espresso."))
        assert storage.memories.get(alice, kept.id) == kept
        assert _ids(storage.memories.search(_query(alice, terms=("espresso",)))) == [kept.id]
        try:
            with storage.unit_of_work():
                storage.memories.put(make_belief(alice))
                raise _Undo
        except _Undo:
            pass
        with storage.memories.pinned():  # nested: still the same behaviour
            assert storage.memories.list_beliefs(alice) == [kept]
    assert storage.memories.list_beliefs(alice) == [kept]
    assert storage.memories.head_position(alice) == kept.store_position


# -- find_by_subject ---------------------------------------------------------------------------


def test_find_by_subject_matches_the_subject_key_exactly_in_store_order(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    put = storage.memories.put
    plain = put(make_belief(alice, subject="coffee"))
    put(make_belief(alice, subject="coffee maker"))
    dotted = put(make_belief(alice, subject="Coffee."))
    put(make_belief(alice, subject="coffees"))
    spaced = put(make_belief(alice, subject="  COFFEE \t!? "))
    put(make_belief(bob, subject="coffee"))
    other = put(make_belief(alice, subject="tea"))

    for asked in (["coffee"], ["Coffee!"], [" coffee ", "COFFEE"]):
        found = storage.memories.find_by_subject(alice, asked)
        assert _ids(found) == [plain.id, dotted.id, spaced.id]
    assert _ids(storage.memories.find_by_subject(alice, ["tea.", "coffee"])) == [
        plain.id,
        dotted.id,
        spaced.id,
        other.id,
    ]
    assert storage.memories.find_by_subject(alice, ["coffee maker"])[0].subject == "coffee maker"
    assert storage.memories.find_by_subject(alice, ["espresso"]) == []
    assert storage.memories.find_by_subject(alice, []) == []
    # an update moves the belief to its fresh position
    moved = storage.memories.update(plain.model_copy(update={"statement": "User likes coffee."}))
    assert _ids(storage.memories.find_by_subject(alice, ["coffee"])) == [
        dotted.id,
        spaced.id,
        moved.id,
    ]
    assert storage.memories.find_by_subject(alice, ["coffee"])[-1] == moved


def test_find_by_subject_filters_by_type_scope_and_status(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    put = storage.memories.put
    preference = put(make_belief(alice, subject="editor"))
    fact = put(make_belief(alice, subject="editor", belief_type=BeliefType.FACT))
    project = put(make_belief(alice, subject="editor", scope="project:orbit"))
    retired = put(make_belief(alice, subject="editor", status=BeliefStatus.RETIRED))
    find = functools.partial(storage.memories.find_by_subject, alice, ["editor"])

    assert _ids(find()) == [preference.id, fact.id, project.id, retired.id]
    assert _ids(find(belief_types=frozenset({BeliefType.FACT}))) == [fact.id]
    assert _ids(find(scopes=["project:orbit", "general"])) == [project.id]
    assert _ids(find(statuses=LIVE_STATUSES)) == [preference.id, fact.id, project.id]
    assert _ids(
        find(
            belief_types=frozenset({BeliefType.PREFERENCE}),
            scopes=["user"],
            statuses=frozenset({BeliefStatus.RETIRED}),
        )
    ) == [retired.id]
    assert find(belief_types=frozenset()) == []
    assert find(scopes=[]) == []
    assert find(statuses=frozenset()) == []


# -- update_many -------------------------------------------------------------------------------


def test_update_many_gives_fresh_positions_in_the_order_given(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    a, b, c = (storage.memories.put(make_belief(alice, subject=f"s{n}")) for n in range(3))
    changed = [
        c.model_copy(update={"status": BeliefStatus.SUPERSEDED, "superseded_by": a.id}),
        a.model_copy(update={"statement": "User prefers long answers.", "confidence": 0.5}),
    ]
    updated = storage.memories.update_many(changed)
    assert [u.id for u in updated] == [c.id, a.id]
    assert b.store_position < updated[0].store_position < updated[1].store_position
    assert [storage.memories.get(alice, u.id) for u in updated] == updated
    assert updated[0] == changed[0].model_copy(update={"store_position": updated[0].store_position})
    assert _ids(storage.memories.list_beliefs(alice)) == [b.id, c.id, a.id]
    assert storage.memories.head_position(alice) == updated[1].store_position
    assert storage.memories.update_many([]) == []


def test_update_many_changes_nothing_when_one_belief_cannot_be_updated(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    a = storage.memories.put(make_belief(alice))
    bobs = storage.memories.put(make_belief(bob))
    edited = a.model_copy(update={"statement": "User prefers long answers."})
    for batch, error in (
        ([edited, make_belief(alice)], NotFoundError),
        ([edited, bobs.model_copy(update={"principal_id": alice.principal_id})], NotFoundError),
        ([edited, edited], ConflictError),
        ([edited, bobs], UsageError),
    ):
        with pytest.raises(error):
            storage.memories.update_many(batch)
        assert storage.memories.list_beliefs(alice) == [a]
    with storage.unit_of_work():  # a refused batch leaves the unit usable
        with pytest.raises(NotFoundError):
            storage.memories.update_many([edited, make_belief(alice)])
        kept = storage.memories.update(edited)
    assert storage.memories.list_beliefs(alice) == [kept]
