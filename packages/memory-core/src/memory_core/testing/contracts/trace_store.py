"""TraceStore contract, run against every storage adapter."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from memory_core import ConflictError, NotFoundError, Principal, RecallTrace, Storage, UsageError

MakeTrace = Callable[..., RecallTrace]

OPERATOR_TIER = ("arm_latencies_ms", "candidate_counts", "dropped_for_budget")


def test_record_then_get_round_trips(
    storage: Storage, make_trace: MakeTrace, alice: Principal
) -> None:
    trace = make_trace(alice, run_id="run-1", turn_id="turn-1", blocked=("b-1",))
    assert storage.traces.record(trace) == trace
    assert storage.traces.get(alice, trace.trace_id) == trace


def test_record_refuses_an_existing_id(
    storage: Storage, make_trace: MakeTrace, alice: Principal, bob: Principal
) -> None:
    trace = storage.traces.record(make_trace(alice))
    with pytest.raises(ConflictError):
        storage.traces.record(make_trace(bob, trace_id=trace.trace_id))
    assert storage.traces.get(alice, trace.trace_id) == trace
    assert storage.traces.get(bob, trace.trace_id) is None


def test_get_is_principal_scoped(
    storage: Storage, make_trace: MakeTrace, alice: Principal, bob: Principal
) -> None:
    trace = storage.traces.record(make_trace(alice))
    assert storage.traces.get(bob, trace.trace_id) is None
    assert storage.traces.get(Principal("tenant-2", "alice"), trace.trace_id) is None
    assert storage.traces.get(alice, "no-such-trace") is None


def test_mark_cited_is_an_idempotent_union_in_first_cited_order(
    storage: Storage, make_trace: MakeTrace, alice: Principal
) -> None:
    trace = storage.traces.record(make_trace(alice, returned=("m-1", "m-2", "m-3")))

    first = storage.traces.mark_cited(trace.trace_id, alice, ["m-2"])
    assert first.cited == ("m-2",)
    second = storage.traces.mark_cited(trace.trace_id, alice, ["m-3", "m-2", "m-3"])
    assert second.cited == ("m-2", "m-3")
    again = storage.traces.mark_cited(trace.trace_id, alice, ["m-3", "m-2"])
    assert again == second
    assert storage.traces.mark_cited(trace.trace_id, alice, []) == second

    loaded = storage.traces.get(alice, trace.trace_id)
    assert loaded == second
    # nothing but the cited set moved
    assert second.model_copy(update={"cited": ()}) == trace


def test_mark_cited_is_principal_scoped(
    storage: Storage, make_trace: MakeTrace, alice: Principal, bob: Principal
) -> None:
    trace = storage.traces.record(make_trace(alice))
    with pytest.raises(NotFoundError):
        storage.traces.mark_cited(trace.trace_id, bob, ["m-1"])
    with pytest.raises(NotFoundError):
        storage.traces.mark_cited("no-such-trace", alice, ["m-1"])
    assert storage.traces.get(alice, trace.trace_id) == trace


def test_expire_operator_fields_nulls_only_the_operator_tier_and_is_idempotent(
    storage: Storage, make_trace: MakeTrace, alice: Principal, bob: Principal, t0: datetime
) -> None:
    def day(n: int) -> datetime:
        return t0 + timedelta(days=n)

    due_a = storage.traces.record(make_trace(alice, operator_expires_at=day(1)))
    due_b = storage.traces.record(make_trace(bob, operator_expires_at=day(2)))
    at_boundary = storage.traces.record(make_trace(alice, operator_expires_at=day(3)))
    later = storage.traces.record(make_trace(alice, operator_expires_at=day(30)))
    never = storage.traces.record(make_trace(alice, operator_expires_at=None))
    storage.traces.mark_cited(due_a.trace_id, alice, list(due_a.returned))
    due_a = storage.traces.get(alice, due_a.trace_id) or due_a

    assert storage.traces.expire_operator_fields(day(3)) == 3
    assert storage.traces.expire_operator_fields(day(3)) == 0

    for trace in (due_a, due_b, at_boundary):
        expired = storage.traces.get(trace.principal, trace.trace_id)
        assert expired is not None
        assert expired.operator_expired
        for field in OPERATOR_TIER:
            assert getattr(expired, field) is None
        # the user-safe tier survives, including how many beliefs were dropped
        untouched = dict.fromkeys(OPERATOR_TIER) | {"operator_expired": True}
        assert expired == trace.model_copy(update=untouched)
        assert expired.dropped_count == trace.dropped_count
    assert storage.traces.get(alice, later.trace_id) == later
    assert storage.traces.get(alice, never.trace_id) == never


def test_expire_operator_fields_honours_the_limit_oldest_expiry_first(
    storage: Storage, make_trace: MakeTrace, alice: Principal, t0: datetime
) -> None:
    traces = [
        storage.traces.record(make_trace(alice, operator_expires_at=t0 + timedelta(days=d)))
        for d in (3, 1, 2)
    ]
    now = t0 + timedelta(days=5)
    assert storage.traces.expire_operator_fields(now, limit=2) == 2

    def expired(trace: RecallTrace) -> bool:
        loaded = storage.traces.get(alice, trace.trace_id)
        assert loaded is not None
        return loaded.operator_expired

    assert [expired(t) for t in traces] == [False, True, True]
    assert storage.traces.expire_operator_fields(now, limit=0) == 0
    assert storage.traces.expire_operator_fields(now, limit=2) == 1
    assert all(expired(t) for t in traces)
    assert storage.traces.expire_operator_fields(now) == 0


def test_expire_operator_fields_refuses_a_naive_instant_and_a_negative_limit(
    storage: Storage, make_trace: MakeTrace, alice: Principal, t0: datetime
) -> None:
    storage.traces.record(make_trace(alice))
    with pytest.raises(UsageError, match="timezone-aware"):
        storage.traces.expire_operator_fields(t0.replace(tzinfo=None))
    with pytest.raises(UsageError, match="limit"):
        storage.traces.expire_operator_fields(t0, limit=-1)
