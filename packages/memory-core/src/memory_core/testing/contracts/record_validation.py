"""Both tiers accept and refuse the same records: payloads are JSON, every write re-validates.

``model_copy(update=...)`` skips pydantic validation, so a store that trusted its input could
keep a naive datetime (and later fail comparing it) or a payload PostgreSQL refuses or changes.
Every write validates its record again; a bad record is a ``ValidationError`` naming the field,
and nothing is written.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from pydantic import ValidationError

from memory_core import Event, Principal, RecallTrace, Rejection, Session, Storage

NAIVE = datetime(2026, 3, 2, 8, 0)

BAD_PAYLOADS: dict[str, dict[str, Any]] = {
    "tuple": {"ids": ("a", "b")},
    "datetime": {"at": datetime(2026, 3, 2)},
    "set": {"tags": {"a"}},
    "bytes": {"blob": b"x"},
    "int_key": {"map": {1: "one"}},
}


@pytest.mark.parametrize("name", sorted(BAD_PAYLOADS))
def test_a_non_json_payload_is_refused_on_build_and_on_append(
    storage: Storage, alice: Principal, make_event: Callable[..., Event], name: str
) -> None:
    payload = BAD_PAYLOADS[name]
    with pytest.raises(ValidationError, match="payload"):
        make_event(alice, payload=payload)
    smuggled = make_event(alice).model_copy(update={"payload": payload})
    with pytest.raises(ValidationError, match="payload"):
        storage.events.append(smuggled)
    assert storage.events.page(alice) == []
    assert storage.events.get(alice, smuggled.event_id) is None


def test_a_json_payload_reads_back_exactly(
    storage: Storage, alice: Principal, make_event: Callable[..., Event]
) -> None:
    payload = {
        "text": "naïve café ☕",
        "count": 2**53,
        "ratio": 0.1,
        "negative": -1.5e-7,
        "flags": [True, False, None],
        "nested": {"ids": ["a", "b"], "empty": {}, "list": []},
    }
    stored = storage.events.append(make_event(alice, payload=payload))
    assert stored.payload == payload
    assert storage.events.get(alice, stored.event_id) == stored
    assert storage.events.page(alice) == [stored]


def test_a_session_with_a_naive_instant_is_refused_and_the_sweep_keeps_working(
    storage: Storage, alice: Principal, make_session: Callable[..., Session], t0: datetime
) -> None:
    session = storage.sessions.create(make_session(alice))
    with pytest.raises(ValidationError, match="last_activity_at"):
        storage.sessions.update(session.model_copy(update={"last_activity_at": NAIVE}))
    with pytest.raises(ValidationError, match="opened_at"):
        storage.sessions.create(make_session(alice).model_copy(update={"opened_at": NAIVE}))
    assert storage.sessions.get(alice, session.id) == session
    assert storage.sessions.list_open_idle(t0 + timedelta(days=1)) == [session]


def test_a_session_update_is_stored_normalised_to_utc(
    storage: Storage, alice: Principal, make_session: Callable[..., Session], t0: datetime
) -> None:
    session = storage.sessions.create(make_session(alice))
    later = t0 + timedelta(hours=1)
    shifted = later.astimezone(datetime.fromisoformat("2026-03-02T00:00:00+05:30").tzinfo)
    stored = storage.sessions.update(session.model_copy(update={"last_activity_at": shifted}))
    assert stored.last_activity_at == later
    assert stored.last_activity_at.utcoffset() == timedelta(0)
    assert storage.sessions.get(alice, session.id) == stored


def test_a_trace_or_rejection_with_invalid_fields_is_refused(
    storage: Storage,
    alice: Principal,
    make_trace: Callable[..., RecallTrace],
    make_rejection: Callable[..., Rejection],
) -> None:
    naive_trace = make_trace(alice).model_copy(update={"created_at": NAIVE})
    with pytest.raises(ValidationError, match="created_at"):
        storage.traces.record(naive_trace)
    nan_trace = make_trace(alice).model_copy(update={"arm_latencies_ms": {"lexical": math.nan}})
    with pytest.raises(ValidationError, match="arm_latencies_ms"):
        storage.traces.record(nan_trace)
    assert storage.traces.get(alice, naive_trace.trace_id) is None
    assert storage.traces.get(alice, nan_trace.trace_id) is None
    with pytest.raises(ValidationError, match="rejected_at"):
        storage.formation.record_rejection(
            make_rejection(alice).model_copy(update={"rejected_at": NAIVE})
        )
    assert storage.formation.rejections(alice) == []
