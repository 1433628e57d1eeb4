"""EventLog contract, run against every storage adapter."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from memory_core import ConflictError, Event, Principal, Storage, UsageError

MakeEvent = Callable[..., Event]


def test_append_stamps_a_monotonic_sequence_across_principals(
    storage: Storage, make_event: MakeEvent, alice: Principal, bob: Principal
) -> None:
    stamped = [storage.events.append(make_event(p)) for p in (alice, bob, alice, alice, bob)]
    sequences = [e.sequence for e in stamped]
    assert sequences[0] > 0
    assert all(a < b for a, b in itertools.pairwise(sequences))


def test_append_returns_the_event_unchanged_but_for_its_sequence(
    storage: Storage, make_event: MakeEvent, alice: Principal
) -> None:
    event = make_event(alice, run_id="run-1", payload={"text": "hi", "n": 3, "tags": ["a", "b"]})
    stamped = storage.events.append(event)
    assert stamped.model_copy(update={"sequence": 0}) == event
    assert storage.events.get(alice, event.event_id) == stamped


def test_append_refuses_a_duplicate_event_id(
    storage: Storage, make_event: MakeEvent, alice: Principal
) -> None:
    event = storage.events.append(make_event(alice))
    with pytest.raises(ConflictError):
        storage.events.append(make_event(alice, event_id=event.event_id))
    assert storage.events.page(alice) == [event]


def test_get_is_principal_scoped(
    storage: Storage, make_event: MakeEvent, alice: Principal, bob: Principal
) -> None:
    event = storage.events.append(make_event(alice))
    assert storage.events.get(bob, event.event_id) is None
    assert storage.events.get(Principal("tenant-2", "alice"), event.event_id) is None
    assert storage.events.get(alice, "no-such-event") is None


def test_read_session_returns_one_sessions_events_in_order_past_the_cursor(
    storage: Storage, make_event: MakeEvent, alice: Principal, bob: Principal
) -> None:
    s1 = [storage.events.append(make_event(alice, session_id="s-1")) for _ in range(2)]
    storage.events.append(make_event(alice, session_id="s-2"))
    storage.events.append(make_event(bob, session_id="s-1"))
    s1.append(storage.events.append(make_event(alice, session_id="s-1")))

    assert storage.events.read_session(alice, "s-1") == s1
    assert storage.events.read_session(alice, "s-1", after_sequence=s1[0].sequence) == s1[1:]
    assert storage.events.read_session(alice, "s-1", after_sequence=s1[-1].sequence) == []
    assert storage.events.read_session(alice, "s-9") == []
    assert [e.principal for e in storage.events.read_session(bob, "s-1")] == [bob]


def test_page_walks_every_event_once_with_a_sequence_cursor(
    storage: Storage, make_event: MakeEvent, alice: Principal, bob: Principal
) -> None:
    mine = []
    for i in range(7):
        mine.append(storage.events.append(make_event(alice, session_id=f"s-{i % 3}")))
        storage.events.append(make_event(bob))

    seen: list[Event] = []
    cursor = 0
    pages = 0
    while True:
        page = storage.events.page(alice, after_sequence=cursor, limit=3)
        pages += 1
        assert len(page) <= 3
        seen.extend(page)
        if len(page) < 3:
            break
        cursor = page[-1].sequence
    assert seen == mine
    assert pages == 3


def test_page_filters_by_event_type_before_applying_the_limit(
    storage: Storage, make_event: MakeEvent, alice: Principal
) -> None:
    kinds = ["user.message.created", "run.started", "user.message.created", "memory.formed"]
    events = [storage.events.append(make_event(alice, event_type=k)) for k in kinds * 2]
    wanted = [e for e in events if e.event_type in {"run.started", "memory.formed"}]

    assert storage.events.page(alice, event_types=["run.started", "memory.formed"]) == wanted
    assert storage.events.page(alice, event_types=("memory.formed",), limit=1) == [wanted[1]]
    assert storage.events.page(alice, event_types=[]) == []
    assert storage.events.page(alice, event_types=["no.such.type"]) == []


def test_page_reads_newest_first_when_descending(
    storage: Storage, make_event: MakeEvent, alice: Principal, bob: Principal
) -> None:
    mine = []
    for _ in range(5):
        mine.append(storage.events.append(make_event(alice)))
        storage.events.append(make_event(bob))
    newest_first = mine[::-1]

    assert storage.events.page(alice, descending=True) == newest_first
    assert storage.events.page(alice, descending=True, limit=2) == newest_first[:2]
    assert storage.events.page(alice, limit=2) == mine[:2]
    # the after cursor bounds a descending read from below
    assert (
        storage.events.page(alice, after_sequence=mine[2].sequence, descending=True)
        == newest_first[:2]
    )


def test_page_before_sequence_is_an_exclusive_upper_cursor(
    storage: Storage, make_event: MakeEvent, alice: Principal, bob: Principal
) -> None:
    mine = []
    for _ in range(7):
        mine.append(storage.events.append(make_event(alice)))
        storage.events.append(make_event(bob))

    cut = mine[4].sequence
    assert storage.events.page(alice, before_sequence=cut) == mine[:4]
    assert storage.events.page(alice, before_sequence=cut, limit=2) == mine[:2]
    assert storage.events.page(alice, before_sequence=cut, descending=True, limit=2) == [
        mine[3],
        mine[2],
    ]
    assert (
        storage.events.page(alice, after_sequence=mine[1].sequence, before_sequence=cut)
        == mine[2:4]
    )
    assert storage.events.page(alice, before_sequence=mine[0].sequence) == []
    assert storage.events.page(alice, after_sequence=cut, before_sequence=cut) == []

    # a backwards walk, the cursor being the smallest sequence of the previous page
    seen: list[Event] = []
    cursor: int | None = None
    pages = 0
    while True:
        page = storage.events.page(alice, before_sequence=cursor, limit=3, descending=True)
        pages += 1
        seen.extend(page)
        if len(page) < 3:
            break
        cursor = page[-1].sequence
    assert seen == mine[::-1]
    assert pages == 3


def test_page_filters_by_event_type_before_the_limit_when_descending(
    storage: Storage, make_event: MakeEvent, alice: Principal
) -> None:
    kinds = ["user.message.created", "run.started", "user.message.created", "memory.formed"]
    events = [storage.events.append(make_event(alice, event_type=k)) for k in kinds * 2]
    wanted = [e for e in events if e.event_type in {"run.started", "memory.formed"}][::-1]
    types = ["run.started", "memory.formed"]

    assert storage.events.page(alice, event_types=types, descending=True) == wanted
    assert storage.events.page(alice, event_types=types, descending=True, limit=3) == wanted[:3]
    assert (
        storage.events.page(
            alice, event_types=types, descending=True, before_sequence=wanted[1].sequence
        )
        == wanted[2:]
    )
    assert storage.events.page(alice, event_types=[], descending=True) == []


def test_page_refuses_a_limit_below_one(storage: Storage, alice: Principal) -> None:
    with pytest.raises(UsageError, match="limit"):
        storage.events.page(alice, limit=0)


def test_an_empty_log_reads_empty(storage: Storage, alice: Principal) -> None:
    assert storage.events.page(alice) == []
    assert storage.events.read_session(alice, "s-1") == []


# -- append_many -------------------------------------------------------------------------------


def test_append_many_stamps_increasing_sequences_in_the_order_given(
    storage: Storage, make_event: MakeEvent, alice: Principal
) -> None:
    first = storage.events.append(make_event(alice))
    batch = [
        make_event(alice, event_type="memory.superseded", payload={"n": n, "x": 1.0})
        for n in range(3)
    ]
    stamped = storage.events.append_many(batch)
    assert [e.event_id for e in stamped] == [e.event_id for e in batch]
    sequences = [e.sequence for e in stamped]
    assert sequences[0] > first.sequence
    assert all(a < b for a, b in itertools.pairwise(sequences))
    assert storage.events.read_session(alice, "s-1") == [first, *stamped]
    assert storage.events.append_many([]) == []


def test_append_many_writes_nothing_when_one_event_cannot_be_appended(
    storage: Storage, make_event: MakeEvent, alice: Principal, bob: Principal
) -> None:
    held = storage.events.append(make_event(alice, payload={"text": "a", "idempotency_key": "k"}))
    fresh = make_event(alice)
    twice = make_event(alice)
    key_again = make_event(alice, payload={"text": "b", "idempotency_key": "k"})
    for batch, error in (
        ([fresh, make_event(alice, event_id=held.event_id)], ConflictError),
        ([fresh, twice, twice], ConflictError),
        ([fresh, key_again], ConflictError),
        ([fresh, make_event(bob)], UsageError),
    ):
        with pytest.raises(error):
            storage.events.append_many(batch)
        assert storage.events.read_session(alice, "s-1") == [held]
    with storage.unit_of_work():  # a refused batch leaves the unit usable
        with pytest.raises(ConflictError):
            storage.events.append_many([fresh, key_again])
        kept = storage.events.append(fresh)
    assert storage.events.read_session(alice, "s-1") == [held, kept]
