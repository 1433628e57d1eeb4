"""``MemoryStore.list_idle`` returns decay-eligible rows only, on every storage adapter.

The decay sweep reads a bounded window; before the store filtered on eligibility, a principal's
oldest rows (user statements, which never decay) filled the window every sweep and an eligible
belief behind them was never reached. These tests pin the filter (each clause of
``memory_core.idle.is_idle``), agree with the pure predicate over generated beliefs, and show a
sweep reaching an eligible belief behind more than ``max_per_sweep`` ineligible older ones.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import Authority, Belief, BeliefStatus, BeliefType, Principal, Storage, UsageError
from memory_core.clock import FixedClock
from memory_core.formation import GovernedMemoryService
from memory_core.formation.decay import idle_cuts, is_eligible
from memory_core.idle import MAX_INFERRED_CONFIDENCE, is_idle
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import load_profiles

GATE = pytest.mark.gate("gate.memory.decay_lifecycle")
MakeBelief = Callable[..., Belief]
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def test_list_idle_skips_user_statements_and_beliefs_above_the_inferred_ceiling(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    inferred = functools.partial(make_belief, alice, authority=Authority.INFERRED)
    storage.memories.put(make_belief(alice, evidenced_at=_day(0)))  # USER 0.9: never
    storage.memories.put(  # a USER row is never eligible, even provisional and low
        make_belief(alice, evidenced_at=_day(0), status=BeliefStatus.PROVISIONAL, confidence=0.2)
    )
    storage.memories.put(inferred(evidenced_at=_day(1), confidence=0.71))  # above the ceiling
    at_ceiling = storage.memories.put(
        inferred(evidenced_at=_day(2), confidence=MAX_INFERRED_CONFIDENCE)
    )
    provisional_high = storage.memories.put(
        inferred(evidenced_at=_day(3), confidence=0.95, status=BeliefStatus.PROVISIONAL)
    )
    affirmed = storage.memories.put(
        make_belief(alice, evidenced_at=_day(4), authority=Authority.AFFIRMED, confidence=0.5)
    )
    storage.memories.put(
        inferred(evidenced_at=_day(0), confidence=0.5, status=BeliefStatus.RETIRED)
    )

    assert storage.memories.list_idle(alice, _day(10), 10) == [
        at_ceiling,
        provisional_high,
        affirmed,
    ]


def test_list_idle_applies_each_types_cut_and_the_touched_cut(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    inferred = functools.partial(make_belief, alice, authority=Authority.INFERRED, confidence=0.6)
    durable = storage.memories.put(inferred(evidenced_at=_day(0)))  # a preference, older
    fact = storage.memories.put(inferred(evidenced_at=_day(5), belief_type=BeliefType.FACT))
    updated = storage.memories.put(
        inferred(evidenced_at=_day(1), belief_type=BeliefType.FACT, updated_at=_day(9))
    )
    cited = storage.memories.put(
        inferred(evidenced_at=_day(2), belief_type=BeliefType.FACT, last_used_at=_day(9))
    )
    cuts = {"preference": _day(-1), "fact": _day(6)}
    # the preference is older than every fact but not idle by its own type's clock
    assert storage.memories.list_idle(alice, _day(6), 10, type_evidence_before=cuts) == [
        updated,
        cited,
        fact,
    ]
    # a type without a cut of its own has only evidence_before
    assert storage.memories.list_idle(
        alice, _day(6), 10, type_evidence_before={"fact": _day(6)}
    ) == [durable, updated, cited, fact]
    # touched_before drops a row updated, or cited, after it; at the instant is inclusive
    assert storage.memories.list_idle(alice, _day(6), 10, touched_before=_day(8)) == [
        durable,
        fact,
    ]
    assert storage.memories.list_idle(alice, _day(6), 10, touched_before=_day(9)) == [
        durable,
        updated,
        cited,
        fact,
    ]


def test_list_idle_refuses_naive_cut_instants(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    naive = T0.replace(tzinfo=None)
    with pytest.raises(UsageError, match="touched_before"):
        storage.memories.list_idle(alice, T0, 10, touched_before=naive)
    with pytest.raises(UsageError, match="type_evidence_before"):
        storage.memories.list_idle(alice, T0, 10, type_evidence_before={"fact": naive})


_FIELDS = st.fixed_dictionaries(
    {
        "status": st.sampled_from(list(BeliefStatus)),
        "authority": st.sampled_from(list(Authority)),
        "confidence": st.sampled_from((0.2, 0.5, 0.6, MAX_INFERRED_CONFIDENCE, 0.71, 0.9)),
        "belief_type": st.sampled_from(list(BeliefType)),
        "evidence_day": st.integers(0, 40),
        "updated_after": st.integers(0, 40),
        "used_day": st.none() | st.integers(0, 80),
    }
)


def test_list_idle_equals_the_eligibility_rule_over_generated_beliefs(
    storage: Storage,
    make_belief: MakeBelief,
    new_tenant: Callable[[], str],
    property_settings: settings,
) -> None:
    """Over generated beliefs and sweep instants, the store's window is the pure rule's."""

    @property_settings
    @given(
        rows=st.lists(_FIELDS, max_size=25),
        now_day=st.integers(0, 90),
        interval_days=st.integers(1, 20),
        limit=st.integers(0, 30),
    )
    def check(rows: list[dict[str, Any]], now_day: int, interval_days: int, limit: int) -> None:
        principal = Principal(new_tenant(), "owner")
        stored = []
        for row in rows:
            evidenced = _day(row["evidence_day"])
            stored.append(
                storage.memories.put(
                    make_belief(
                        principal,
                        evidenced_at=evidenced,
                        status=row["status"],
                        authority=row["authority"],
                        confidence=row["confidence"],
                        belief_type=row["belief_type"],
                        updated_at=evidenced + timedelta(days=row["updated_after"]),
                        last_used_at=None if row["used_day"] is None else _day(row["used_day"]),
                    )
                )
            )
        profiles = load_profiles(
            {"retrieval": {"decay_tau_days": {"fact": 5, "preference": 12, "relationship": 20}}}
        )
        now, interval = _day(now_day), timedelta(days=interval_days)
        cut, by_type, touched = idle_cuts(now=now, profiles=profiles, interval=interval)
        expected = sorted(
            (b for b in stored if is_eligible(b, now=now, profiles=profiles, interval=interval)),
            key=lambda b: (b.last_evidence_at, b.store_position),
        )[:limit]
        window = storage.memories.list_idle(
            principal, cut, limit, type_evidence_before=by_type, touched_before=touched
        )
        assert window == expected
        assert all(
            is_idle(b, evidence_before=cut, type_evidence_before=by_type, touched_before=touched)
            for b in window
        )

    check()


@GATE
def test_a_sweep_reaches_an_eligible_belief_behind_a_full_window_of_ineligible_ones(
    storage: Storage, make_belief: MakeBelief, alice: Principal
) -> None:
    """The starvation the eligibility filter fixes: the window is never spent on user rows."""
    window = 5
    fact = functools.partial(make_belief, alice, belief_type=BeliefType.FACT)
    for i in range(3 * window):  # older user statements, never eligible
        storage.memories.put(fact(evidenced_at=_day(0) + timedelta(minutes=i)))
    for i in range(window):  # older inferences above the ceiling, never eligible
        storage.memories.put(
            fact(
                evidenced_at=_day(1) + timedelta(minutes=i),
                authority=Authority.INFERRED,
                confidence=0.85,
            )
        )
    for i in range(window):  # older preferences not yet idle by their own 180-day clock
        storage.memories.put(
            make_belief(
                alice,
                evidenced_at=_day(2) + timedelta(minutes=i),
                authority=Authority.INFERRED,
                confidence=0.6,
            )
        )
    for i in range(window):  # older facts already decayed within this sweep interval
        storage.memories.put(
            fact(
                evidenced_at=_day(2.5) + timedelta(minutes=i),
                updated_at=_day(39.5),
                authority=Authority.INFERRED,
                confidence=0.5,
            )
        )
    target = storage.memories.put(
        make_belief(
            alice,
            evidenced_at=_day(3),
            belief_type=BeliefType.FACT,
            authority=Authority.INFERRED,
            confidence=0.6,
        )
    )
    service = GovernedMemoryService(
        storage=storage,
        clock=FixedClock(_day(40)),
        ids=SequentialIdFactory(namespace="idle-tests"),
        principal=alice,
        profiles=load_profiles({"formation": {"decay": {"max_per_sweep": window}}}),
    )
    result = service.decay()
    assert (result.read, result.decayed, result.retired) == (1, 1, 0)
    decayed = storage.memories.get(alice, target.id)
    assert decayed is not None
    assert decayed.confidence == pytest.approx(0.5)
