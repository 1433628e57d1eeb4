"""Which principals the decay sweep visits, on every storage adapter.

``MemoryStore.list_principals_with_idle`` is the one cross-principal read (the maintenance
worker's): principals owning a decay-eligible belief evidenced at or before an instant, in key
order, paged by a cursor. The worker sweeps every principal it lists, each in its own failure
boundary, through a composition built over the storage under test.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from memory_core import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Principal,
    Storage,
    UsageError,
)
from memory_core.bootstrap import build
from memory_core.formation.decay import DecayResult
from memory_core.maintenance import MaintenanceWorker

GATE = pytest.mark.gate("gate.memory.decay_lifecycle")
MakeBelief = Callable[..., Belief]
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = 86_400


def _seed(storage: Storage, make_belief: MakeBelief, tenant: str) -> dict[str, Principal]:
    """Principals of ``tenant`` (and one of another tenant) with and without idle beliefs."""
    p = {name: Principal(tenant, name) for name in ("a", "b", "c", "d", "e", "f")}
    p["other"] = Principal(f"{tenant}-z", "a")
    fact = functools.partial(
        make_belief, belief_type=BeliefType.FACT, authority=Authority.INFERRED, confidence=0.6
    )
    storage.memories.put(fact(p["a"], evidenced_at=T0))
    storage.memories.put(make_belief(p["b"], evidenced_at=T0))  # only a user statement
    storage.memories.put(fact(p["c"], evidenced_at=T0 + timedelta(days=20)))  # only recent
    storage.memories.put(fact(p["d"], evidenced_at=T0, status=BeliefStatus.PROVISIONAL))
    storage.memories.put(
        fact(p["e"], evidenced_at=T0, status=BeliefStatus.RETIRED, valid_to=T0)
    )  # only a retired row
    storage.memories.put(fact(p["f"], evidenced_at=T0, confidence=0.85))  # above the ceiling
    storage.memories.put(fact(p["other"], evidenced_at=T0))
    return p


def test_list_principals_with_idle_lists_owners_of_eligible_rows_in_key_order(
    storage: Storage, make_belief: MakeBelief, new_tenant: Callable[[], str]
) -> None:
    p = _seed(storage, make_belief, new_tenant())
    cut = T0 + timedelta(days=10)
    listed = storage.memories.list_principals_with_idle(cut, 100)
    assert listed == [p["a"], p["d"], p["other"]]
    # the cursor pages strictly after a principal, across tenants
    assert storage.memories.list_principals_with_idle(cut, 1) == [p["a"]]
    assert storage.memories.list_principals_with_idle(cut, 1, after=p["a"]) == [p["d"]]
    assert storage.memories.list_principals_with_idle(cut, 5, after=p["d"]) == [p["other"]]
    assert storage.memories.list_principals_with_idle(cut, 5, after=p["other"]) == []
    assert storage.memories.list_principals_with_idle(cut, 0) == []
    # the cut is inclusive, and a later one reaches the recent inference
    assert storage.memories.list_principals_with_idle(T0, 100) == [p["a"], p["d"], p["other"]]
    assert p["c"] in storage.memories.list_principals_with_idle(T0 + timedelta(days=20), 100)
    assert storage.memories.list_principals_with_idle(T0 - timedelta(seconds=1), 100) == []


def test_list_principals_with_idle_refuses_a_naive_instant_and_a_negative_limit(
    storage: Storage,
) -> None:
    with pytest.raises(UsageError, match="timezone-aware"):
        storage.memories.list_principals_with_idle(T0.replace(tzinfo=None), 10)
    with pytest.raises(UsageError, match="limit"):
        storage.memories.list_principals_with_idle(T0, -1)


@GATE
def test_one_worker_decays_every_principal_with_eligible_beliefs(
    storage: Storage, make_belief: MakeBelief, new_tenant: Callable[[], str]
) -> None:
    p = _seed(storage, make_belief, new_tenant())
    app = build(principal=p["a"], storage=storage, fixed_clock_at=T0, sequential_ids=True)
    app.advance(31 * DAY)
    before = {name: storage.memories.list_beliefs(principal) for name, principal in p.items()}
    report = app.maintenance_factory().run_once()  # the composition's worker lists them all
    assert (report.decay_sweeps, report.beliefs_decayed, report.decay_failed) == (3, 3, 0)
    for name, principal in p.items():
        after = storage.memories.list_beliefs(principal)
        if name in ("a", "d", "other"):
            (belief,) = after
            assert belief.confidence == pytest.approx(0.5)
        else:
            assert after == before[name]


class _FailingFor:
    """A decayer that raises for one principal and delegates for the others."""

    def __init__(self, inner: object, failing: Principal) -> None:
        self._inner = inner
        self._failing = failing
        self.calls: list[Principal] = []

    def decay(self, *, principal: Principal | None = None) -> DecayResult:
        assert principal is not None
        self.calls.append(principal)
        if principal == self._failing:
            raise RuntimeError("store timeout")
        result: DecayResult = self._inner.decay(principal=principal)  # type: ignore[attr-defined]
        return result


@GATE
def test_one_principals_failed_sweep_is_counted_and_logged_and_the_others_proceed(
    storage: Storage,
    make_belief: MakeBelief,
    new_tenant: Callable[[], str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    p = _seed(storage, make_belief, new_tenant())
    app = build(principal=p["a"], storage=storage, fixed_clock_at=T0, sequential_ids=True)
    app.advance(31 * DAY)
    decayer = _FailingFor(app.memory.service, p["d"])
    worker = MaintenanceWorker(
        storage=storage,
        clock=app.clock,
        sessions=app.sessions,
        decayer=decayer,
        profiles=app.profiles,
        principal_page=1,  # one principal a page: the listing's cursor is exercised
    )
    with caplog.at_level(logging.WARNING, logger="memory_core.maintenance"):
        report = worker.run_once()
    assert decayer.calls == [p["a"], p["d"], p["other"]]
    assert (report.decay_sweeps, report.beliefs_decayed, report.decay_failed) == (2, 2, 1)
    assert report.sweeps_failed == 0
    assert f"{p['d'].tenant_id}/d" in caplog.text
    (untouched,) = storage.memories.list_beliefs(p["d"])
    assert untouched.confidence == pytest.approx(0.6)
    for name in ("a", "other"):
        (belief,) = storage.memories.list_beliefs(p[name])
        assert belief.confidence == pytest.approx(0.5)
