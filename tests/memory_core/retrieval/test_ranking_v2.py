"""retrieval@2 ranking: the time-faded reinforce term, the stale and near-duplicate penalties."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_core import Principal
from memory_core.domain import Belief, BeliefStatus, BeliefType
from memory_core.policy import RETRIEVAL_POLICY
from memory_core.profiles import DecayTauDays, LifecycleWeights, RankingWeights, load_profiles
from memory_core.retrieval import RecallRequest
from memory_core.retrieval.ranking import (
    Scored,
    evidence_age_days,
    is_stale,
    jaccard,
    penalize_near_duplicates,
    reinforce_value,
    score,
)
from memory_core.tokenizer import lexemes

ALICE = Principal("tenant-1", "alice")


@pytest.fixture
def belief(make_world: Any) -> Any:
    world = make_world()

    def build(statement: str = "User likes tea.", **fields: Any) -> Belief:
        result: Belief = world.put(ALICE, statement, **fields)
        return result

    return build


def test_the_policy_is_retrieval_at_2() -> None:
    assert RETRIEVAL_POLICY == "retrieval@2"


# reinforce ----------------------------------------------------------------------------------


@given(
    count=st.integers(min_value=1, max_value=1000),
    age=st.integers(min_value=0, max_value=5000),
    tau=st.floats(min_value=0.5, max_value=1e6),
)
def test_reinforce_is_saturation_times_an_exponential_fade(
    count: int, age: int, tau: float
) -> None:
    saturation = min(1.0, math.log1p(count) / math.log1p(10))
    value = reinforce_value(count, age, tau)
    assert value == pytest.approx(saturation * math.exp(-age / tau))
    assert 0.0 <= value <= reinforce_value(count) <= 1.0
    assert reinforce_value(count, age + 1, tau) <= value


def test_age_is_whole_days_since_the_last_evidence_never_negative(belief: Any) -> None:
    b = belief()
    at = b.last_evidence_at
    assert evidence_age_days(b, at) == 0
    assert evidence_age_days(b, at + timedelta(days=2, hours=23)) == 2
    assert evidence_age_days(b, at - timedelta(days=5)) == 0


def test_a_preference_fades_more_slowly_than_a_fact(belief: Any) -> None:
    fact = belief(evidence_count=10)
    preference = belief("User prefers tea.", belief_type=BeliefType.PREFERENCE, evidence_count=10)
    later = fact.last_evidence_at + timedelta(days=60)
    only = RankingWeights(match=0, confidence=1e-9, reinforce=1, authority=1e-9, scope=0, utility=0)

    def scored(b: Belief) -> float:
        return score(
            b,
            fused_match=0,
            weights=only,
            lifecycle=LifecycleWeights(),
            project_scope=None,
            now=later,
            tau_days=DecayTauDays(),
        )

    assert scored(fact) == pytest.approx(math.exp(-60 / 30), abs=1e-6)
    assert scored(preference) == pytest.approx(math.exp(-60 / 180), abs=1e-6)


def test_now_is_taken_once_per_recall_from_as_of_or_the_clock(make_world: Any) -> None:
    world = make_world()
    world.put(ALICE, "The office is in Lisbon.", subject="office")
    reads = 0
    real_now = world.clock.now

    def counting_now() -> datetime:
        nonlocal reads
        reads += 1
        result: datetime = real_now()
        return result

    world.clock.now = counting_now
    world.recall(ALICE, "Where is the office?")
    assert reads == 1
    world.recall(ALICE, "Where is the office?", as_of=real_now() + timedelta(days=1))
    assert reads == 2


def test_as_of_is_the_instant_reinforcement_fades_to(make_world: Any) -> None:
    world = make_world()
    # the older belief is well reinforced; the newer one (favoured by fusion) is not
    world.put(ALICE, "The office is in Porto.", subject="office", evidence_count=10)
    world.put(ALICE, "The office is in Lisbon.", subject="office")
    retriever = world.retriever(load_profiles({"retrieval": {"per_subject_cap": 5}}))

    def first(as_of: datetime) -> str:
        result = retriever.recall(
            RecallRequest(principal=ALICE, moment="in_turn", text="office?", as_of=as_of)
        )
        statement: str = result.trace.beliefs[0].statement
        return statement

    now = world.clock.now()
    assert first(now) == "The office is in Porto."
    # a year on, both reinforce terms have faded (fact tau 30 days): fusion decides
    assert first(now + timedelta(days=365)) == "The office is in Lisbon."


# stale penalty --------------------------------------------------------------------------------


def test_the_stale_penalty_demotes_expired_and_retired_rows(belief: Any) -> None:
    live = belief()
    now = live.last_evidence_at + timedelta(days=1)
    retired = belief("User likes coffee.", status=BeliefStatus.RETIRED, valid_to=now)
    expired_by_date = belief("User likes mate.", valid_to=now - timedelta(hours=1))
    penalty = load_profiles({"retrieval": {"stale_penalty": 0.4}}).retrieval.stale_penalty
    assert not is_stale(live, now)
    assert is_stale(retired, None)
    assert is_stale(expired_by_date, now)
    assert not is_stale(expired_by_date, now - timedelta(hours=2))

    def scored(b: Belief, stale_penalty: float) -> float:
        return score(
            b,
            fused_match=0.5,
            weights=RankingWeights(),
            lifecycle=LifecycleWeights(),
            project_scope=None,
            now=now,
            tau_days=DecayTauDays(),
            stale_penalty=stale_penalty,
        )

    assert scored(live, penalty) == scored(live, 0.0)
    assert scored(retired, 0.0) - scored(retired, penalty) == pytest.approx(0.4)
    assert scored(expired_by_date, 0.0) - scored(expired_by_date, penalty) == pytest.approx(0.4)
    assert scored(retired, 100.0) == 0.0  # floored


# near duplicates ------------------------------------------------------------------------------


def test_jaccard_of_lexeme_sets() -> None:
    a = lexemes("User lives near the Lisbon city centre.")
    b = lexemes("User lives near the Lisbon city centre now.")
    assert jaccard(a, b) == pytest.approx(7 / 8)
    assert jaccard(frozenset(), frozenset()) == 0.0


def test_near_duplicates_are_demoted_only_on_the_same_subject_and_type(belief: Any) -> None:
    first = belief("User lives near the Lisbon city centre.", subject="home")
    twin = belief("User lives near the Lisbon city centre now.", subject="home")
    other_type = belief(
        "User lives near the Lisbon city centre today.",
        subject="home",
        belief_type=BeliefType.USER_MODEL_ATTR,
    )
    other_subject = belief("User lives near the Lisbon city centre, still.", subject="house")
    different = belief("User lives with two cats.", subject="home")
    scored = [
        Scored(belief=b, fused_match=0.0, score=s)
        for b, s in ((first, 2.0), (twin, 1.9), (other_type, 1.8), (other_subject, 1.7))
    ] + [Scored(belief=different, fused_match=0.0, score=1.6)]
    judged = {s.belief.id: s.score for s in penalize_near_duplicates(scored, 0.5)}
    assert judged[first.id] == 2.0
    assert judged[twin.id] == pytest.approx(1.4)
    assert judged[other_type.id] == 1.8
    assert judged[other_subject.id] == 1.7
    assert judged[different.id] == 1.6
    assert [s.belief.id for s in penalize_near_duplicates(scored, 0.5)] == [
        first.id,
        other_type.id,
        other_subject.id,
        different.id,
        twin.id,
    ]
    floored = penalize_near_duplicates(scored, 10.0)
    assert min(s.score for s in floored) == 0.0
    assert penalize_near_duplicates(scored, 0.0) == scored
