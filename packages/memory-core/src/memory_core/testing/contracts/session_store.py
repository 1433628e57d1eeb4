"""SessionStore contract, run against every storage adapter."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from memory_core import (
    ConflictError,
    NotFoundError,
    Principal,
    Session,
    SessionKind,
    SessionMetadata,
    Storage,
    UsageError,
)

MakeSession = Callable[..., Session]


def test_create_then_get_round_trips(
    storage: Storage, make_session: MakeSession, alice: Principal
) -> None:
    session = make_session(alice, project="orbit-app")
    assert storage.sessions.create(session) == session
    loaded = storage.sessions.get(alice, session.id)
    assert loaded == session
    assert loaded is not None
    assert loaded.metadata.project_scope == "orbit-app"
    assert loaded.is_open


@pytest.mark.parametrize("kind", list(SessionKind))
def test_a_sessions_kind_round_trips(
    storage: Storage, make_session: MakeSession, alice: Principal, kind: SessionKind
) -> None:
    session = make_session(alice, metadata=SessionMetadata(project_scope="orbit-app", kind=kind))
    storage.sessions.create(session)
    loaded = storage.sessions.get(alice, session.id)
    assert loaded == session
    assert loaded is not None
    assert loaded.metadata.kind is kind
    closed = storage.sessions.close(alice, session.id, session.opened_at)
    assert closed is not None
    assert closed.metadata.kind is kind


def test_get_is_principal_scoped(
    storage: Storage, make_session: MakeSession, alice: Principal, bob: Principal
) -> None:
    session = storage.sessions.create(make_session(alice))
    assert storage.sessions.get(bob, session.id) is None
    assert storage.sessions.get(Principal("tenant-2", "alice"), session.id) is None
    assert storage.sessions.get(alice, "no-such-session") is None


def test_create_refuses_an_existing_id(
    storage: Storage, make_session: MakeSession, alice: Principal, bob: Principal
) -> None:
    session = storage.sessions.create(make_session(alice))
    with pytest.raises(ConflictError):
        storage.sessions.create(make_session(bob, id=session.id))
    assert storage.sessions.get(alice, session.id) == session
    assert storage.sessions.get(bob, session.id) is None


def test_update_replaces_snapshot_watermark_activity_and_close(
    storage: Storage, make_session: MakeSession, alice: Principal, t0: datetime
) -> None:
    session = storage.sessions.create(make_session(alice))
    changed = session.model_copy(
        update={
            "snapshot_id": "trace-7",
            "snapshot_watermark": 42,
            "last_activity_at": t0 + timedelta(minutes=5),
            "closed_at": t0 + timedelta(minutes=6),
        }
    )
    assert storage.sessions.update(changed) == changed
    loaded = storage.sessions.get(alice, session.id)
    assert loaded == changed
    assert loaded is not None
    assert not loaded.is_open


def test_update_refuses_an_unknown_or_foreign_session(
    storage: Storage, make_session: MakeSession, alice: Principal, bob: Principal
) -> None:
    with pytest.raises(NotFoundError):
        storage.sessions.update(make_session(alice))
    session = storage.sessions.create(make_session(alice))
    hijack = make_session(bob, id=session.id, agent="intruder")
    with pytest.raises(NotFoundError):
        storage.sessions.update(hijack)
    assert storage.sessions.get(alice, session.id) == session


def test_list_open_idle_returns_open_sessions_of_every_principal_oldest_activity_first(
    storage: Storage, make_session: MakeSession, alice: Principal, bob: Principal, t0: datetime
) -> None:
    def at(minutes: int) -> datetime:
        return t0 + timedelta(minutes=minutes)

    b_old = storage.sessions.create(make_session(bob, last_activity_at=at(1)))
    a_mid = storage.sessions.create(make_session(alice, last_activity_at=at(5)))
    a_oldest = storage.sessions.create(make_session(alice, last_activity_at=at(0)))
    storage.sessions.create(make_session(alice, last_activity_at=at(0), closed_at=at(2)))
    storage.sessions.create(make_session(bob, last_activity_at=at(30)))
    a_tie = storage.sessions.create(make_session(alice, last_activity_at=at(5)))

    idle = storage.sessions.list_open_idle(at(10))
    assert idle == [a_oldest, b_old, *sorted([a_mid, a_tie], key=lambda s: s.id)]
    # the bound is inclusive
    assert storage.sessions.list_open_idle(at(1)) == [a_oldest, b_old]
    assert storage.sessions.list_open_idle(at(10), limit=2) == [a_oldest, b_old]
    assert storage.sessions.list_open_idle(at(10), limit=0) == []
    assert storage.sessions.list_open_idle(at(-1)) == []


def test_list_open_idle_refuses_a_naive_instant_and_a_negative_limit(
    storage: Storage, make_session: MakeSession, alice: Principal, t0: datetime
) -> None:
    storage.sessions.create(make_session(alice))
    with pytest.raises(UsageError, match="timezone-aware"):
        storage.sessions.list_open_idle(t0.replace(tzinfo=None))
    with pytest.raises(UsageError, match="limit"):
        storage.sessions.list_open_idle(t0, limit=-1)
