"""Conditional session state changes and idempotency keys, run against every storage adapter.

A closed session never reopens, whoever writes: ``touch`` and ``close`` are compare-and-set on
``closed_at``, and ``update`` refuses to write an open record over a closed one. At most one
event of a principal's session carries a given idempotency key.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from memory_core import (
    ConflictError,
    Event,
    NotFoundError,
    Principal,
    Session,
    SessionClosedError,
    Storage,
    UsageError,
)

MakeSession = Callable[..., Session]
MakeEvent = Callable[..., Event]


def test_touch_moves_an_open_sessions_activity_forward_only(
    storage: Storage, make_session: MakeSession, alice: Principal, t0: datetime
) -> None:
    session = storage.sessions.create(make_session(alice))
    later = t0 + timedelta(minutes=5)
    assert storage.sessions.touch(alice, session.id, later).last_activity_at == later
    # an older instant (a slower writer) never moves it back
    assert storage.sessions.touch(alice, session.id, t0).last_activity_at == later
    loaded = storage.sessions.get(alice, session.id)
    assert loaded is not None and loaded.last_activity_at == later and loaded.is_open


def test_touch_refuses_a_closed_session_and_leaves_it_closed(
    storage: Storage, make_session: MakeSession, alice: Principal, bob: Principal, t0: datetime
) -> None:
    session = storage.sessions.create(make_session(alice))
    closed = storage.sessions.close(alice, session.id, t0 + timedelta(minutes=1))
    assert closed is not None and closed.closed_at == t0 + timedelta(minutes=1)
    with pytest.raises(SessionClosedError, match=f"session {session.id} is closed"):
        storage.sessions.touch(alice, session.id, t0 + timedelta(minutes=2))
    assert storage.sessions.get(alice, session.id) == closed
    with pytest.raises(NotFoundError):
        storage.sessions.touch(bob, session.id, t0)
    with pytest.raises(NotFoundError):
        storage.sessions.touch(alice, "no-such-session", t0)


def test_close_is_compare_and_set(
    storage: Storage, make_session: MakeSession, alice: Principal, bob: Principal, t0: datetime
) -> None:
    session = storage.sessions.create(make_session(alice))
    first = storage.sessions.close(alice, session.id, t0 + timedelta(minutes=1))
    assert first is not None and not first.is_open
    # the second close changes nothing and says so
    assert storage.sessions.close(alice, session.id, t0 + timedelta(minutes=9)) is None
    assert storage.sessions.get(alice, session.id) == first
    with pytest.raises(NotFoundError):
        storage.sessions.close(bob, session.id, t0)


def test_update_never_reopens_a_closed_session(
    storage: Storage, make_session: MakeSession, alice: Principal, t0: datetime
) -> None:
    session = storage.sessions.create(make_session(alice))
    stale = storage.sessions.get(alice, session.id)  # read before the close
    assert stale is not None
    closed = storage.sessions.close(alice, session.id, t0 + timedelta(minutes=1))
    with pytest.raises(SessionClosedError):
        storage.sessions.update(stale.model_copy(update={"last_activity_at": t0 + timedelta(1)}))
    assert storage.sessions.get(alice, session.id) == closed
    # a closed record over a closed one is still an ordinary replace
    moved = stale.model_copy(update={"closed_at": t0 + timedelta(minutes=3)})
    assert storage.sessions.update(moved) == moved


def test_a_refused_conditional_write_inside_a_unit_leaves_the_unit_usable(
    storage: Storage, make_session: MakeSession, alice: Principal, t0: datetime
) -> None:
    open_one = storage.sessions.create(make_session(alice))
    closed_one = storage.sessions.create(make_session(alice))
    storage.sessions.close(alice, closed_one.id, t0)
    with storage.unit_of_work():
        with pytest.raises(SessionClosedError):
            storage.sessions.touch(alice, closed_one.id, t0 + timedelta(minutes=1))
        locked = storage.sessions.lock(alice, open_one.id)
        assert locked is not None and locked.is_open
        storage.sessions.touch(alice, open_one.id, t0 + timedelta(minutes=2))
    loaded = storage.sessions.get(alice, open_one.id)
    assert loaded is not None and loaded.last_activity_at == t0 + timedelta(minutes=2)
    assert storage.sessions.lock(alice, "no-such-session") is None


def test_list_open_idle_pages_with_a_keyset_cursor(
    storage: Storage, make_session: MakeSession, alice: Principal, bob: Principal, t0: datetime
) -> None:
    made = [
        storage.sessions.create(make_session(who, last_activity_at=t0 + timedelta(seconds=n // 2)))
        for n, who in enumerate([alice, bob] * 3)
    ]
    cutoff = t0 + timedelta(hours=1)
    expected = sorted(made, key=lambda s: (s.last_activity_at, s.id))
    pages: list[Session] = []
    after: tuple[datetime, str] | None = None
    while True:
        page = storage.sessions.list_open_idle(cutoff, limit=2, after=after)
        pages += page
        if len(page) < 2:
            break
        after = (page[-1].last_activity_at, page[-1].id)
    assert [s.id for s in pages] == [s.id for s in expected]
    last = expected[-1]
    assert storage.sessions.list_open_idle(cutoff, after=(last.last_activity_at, last.id)) == []


def test_one_idempotency_key_per_session(
    storage: Storage, make_event: MakeEvent, alice: Principal, bob: Principal
) -> None:
    first = storage.events.append(make_event(alice, payload={"text": "hi", "idempotency_key": "k"}))
    assert storage.events.find_by_idempotency_key(alice, "s-1", "k") == first
    with pytest.raises(ConflictError, match="idempotency key 'k'"):
        storage.events.append(make_event(alice, payload={"text": "hi", "idempotency_key": "k"}))
    # the same key in another session or of another principal is another key
    other_session = storage.events.append(
        make_event(alice, session_id="s-2", payload={"text": "hi", "idempotency_key": "k"})
    )
    other_principal = storage.events.append(
        make_event(bob, payload={"text": "hi", "idempotency_key": "k"})
    )
    assert storage.events.find_by_idempotency_key(alice, "s-2", "k") == other_session
    assert storage.events.find_by_idempotency_key(bob, "s-1", "k") == other_principal
    assert storage.events.find_by_idempotency_key(alice, "s-1", "other") is None
    assert [e.event_id for e in storage.events.read_session(alice, "s-1")] == [first.event_id]


def test_a_rolled_back_append_frees_its_idempotency_key(
    storage: Storage, make_event: MakeEvent, alice: Principal
) -> None:
    keyed = {"text": "hi", "idempotency_key": "k"}

    def append_then_fail() -> None:
        with storage.unit_of_work():
            storage.events.append(make_event(alice, payload=keyed))
            raise RuntimeError("fault after the append")

    with pytest.raises(RuntimeError):
        append_then_fail()
    assert storage.events.find_by_idempotency_key(alice, "s-1", "k") is None
    stored = storage.events.append(make_event(alice, payload=keyed))
    assert storage.events.find_by_idempotency_key(alice, "s-1", "k") == stored


def test_a_naive_instant_is_refused(
    storage: Storage, make_session: MakeSession, alice: Principal
) -> None:
    session = storage.sessions.create(make_session(alice))
    with pytest.raises(UsageError):
        storage.sessions.touch(alice, session.id, datetime(2026, 3, 2, 9, 0))
    with pytest.raises(UsageError):
        storage.sessions.close(alice, session.id, datetime(2026, 3, 2, 9, 0))
