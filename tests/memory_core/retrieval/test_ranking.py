"""Ranking functions: fusion, scoring, ordering, collapse, per-subject cap and budgets."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import pytest

from memory_core import Principal
from memory_core.domain import Authority, Belief, BeliefStatus
from memory_core.profiles import LifecycleWeights, RankingWeights
from memory_core.retrieval.query import TermGroup
from memory_core.retrieval.ranking import (
    Scored,
    authority_value,
    cap_per_subject,
    collapse_duplicates,
    fused_matches,
    is_durable,
    is_primed,
    length_norm,
    lexical_order,
    lexical_weights,
    order,
    reciprocal_rank_fusion,
    reinforce_value,
    reserved_slots,
    scope_value,
    score,
    select_within_budget,
)
from memory_core.retrieval.render import render_header, render_line
from memory_core.tokenizer import estimate_tokens

ALICE = Principal("tenant-1", "alice")


@pytest.fixture
def belief(make_world: Any) -> Any:
    """Build stored beliefs in a fresh in-memory world (store positions increase)."""
    world = make_world()

    def build(statement: str = "User likes tea.", **fields: Any) -> Belief:
        result: Belief = world.put(ALICE, statement, **fields)
        return result

    return build


# fusion -------------------------------------------------------------------------------------


def test_rrf_sums_reciprocal_ranks_and_normalizes_to_one() -> None:
    fused = reciprocal_rank_fusion({"a": ["x", "y"], "b": ["x", "z"]}, k=60)
    assert fused["x"] == pytest.approx(1.0)
    assert fused["y"] == pytest.approx((1 / 62) / (2 / 61))
    assert fused["z"] == pytest.approx((1 / 62) / (2 / 61))
    assert set(fused) == {"x", "y", "z"}


def test_rrf_counts_an_empty_arm_in_the_normalizer() -> None:
    fused = reciprocal_rank_fusion({"a": ["x"], "b": []}, k=1)
    assert fused == {"x": pytest.approx(0.5)}


def test_rrf_smaller_k_sharpens_rank_differences() -> None:
    sharp = reciprocal_rank_fusion({"a": ["x", "y"]}, k=1)
    flat = reciprocal_rank_fusion({"a": ["x", "y"]}, k=100)
    assert sharp["x"] - sharp["y"] > flat["x"] - flat["y"] > 0


def test_rrf_is_independent_of_arm_insertion_order() -> None:
    one = reciprocal_rank_fusion({"a": ["x", "y"], "b": ["y"]}, k=60)
    two = reciprocal_rank_fusion({"b": ["y"], "a": ["x", "y"]}, k=60)
    assert one == two


@dataclass(frozen=True)
class _Ranked:
    id: str
    store_position: int


@pytest.mark.parametrize("seed", range(20))
def test_fused_matches_are_the_rrf_values_of_the_candidates(seed: int) -> None:
    rng = random.Random(seed)
    candidates = [_Ranked(f"c{n}", 100 - n) for n in range(rng.randint(0, 12))]
    others = [_Ranked(f"o{n}", 200 + n) for n in range(3)]  # ranked by an arm, not candidates
    arms: dict[str, list[_Ranked] | None] = {"recency": None}
    for name in rng.sample(["lexical", "period", "person", "subject"], rng.randint(0, 4)):
        arms[name] = rng.sample(candidates + others, rng.randint(0, len(candidates)))
    scores = {
        name: {row.id: rng.choice([0.0, rng.random()]) for row in rows}
        for name, rows in arms.items()
        if rows is not None and name in ("lexical", "period")
    }
    k = rng.randint(1, 80)
    rankings = {
        name: [r.id for r in (candidates if rows is None else rows) if r in candidates]
        for name, rows in arms.items()
    }
    fused = reciprocal_rank_fusion(rankings, k=k, scores=scores)
    assert fused_matches(candidates, arms, k=k, scores=scores) == [
        fused.get(row.id, 0.0) for row in candidates
    ]


def test_rrf_rejects_a_non_positive_k() -> None:
    with pytest.raises(ValueError, match="reciprocal_rank_fusion_k"):
        reciprocal_rank_fusion({"a": ["x"]}, k=0)


def test_a_scoring_arm_votes_its_score_over_its_best() -> None:
    fused = reciprocal_rank_fusion(
        {"lexical": ["x", "y", "z"], "recency": ["z", "y", "x"]},
        k=60,
        scores={"lexical": {"x": 4.0, "y": 1.0, "z": 1.0}},
    )
    assert fused["x"] == pytest.approx((1.0 + 61 / 63) / 2)
    assert fused["y"] == pytest.approx((0.25 + 61 / 62) / 2)
    assert fused["z"] == pytest.approx((0.25 + 1.0) / 2)


def test_equally_scored_ids_vote_alike_whatever_their_tie_break() -> None:
    fused = reciprocal_rank_fusion(
        {"lexical": ["x", "y"]}, k=1, scores={"lexical": {"x": 2.0, "y": 2.0}}
    )
    assert fused == {"x": pytest.approx(1.0), "y": pytest.approx(1.0)}


def test_a_strong_match_is_not_flattened_by_a_large_k() -> None:
    scores = {"lexical": {"x": 3.0, "y": 1.0}}
    ranked = reciprocal_rank_fusion({"lexical": ["x", "y"]}, k=1000)
    scored = reciprocal_rank_fusion({"lexical": ["x", "y"]}, k=1000, scores=scores)
    assert ranked["x"] - ranked["y"] < 0.01
    assert scored["x"] - scored["y"] == pytest.approx(2 / 3)


def test_a_scoring_arm_with_no_positive_score_votes_one_for_each_hit() -> None:
    fused = reciprocal_rank_fusion({"lexical": ["x"]}, k=60, scores={"lexical": {"x": 0.0}})
    assert fused == {"x": pytest.approx(1.0)}


def test_lexical_order_prefers_more_and_rarer_concepts_then_newer(belief: Any) -> None:
    groups = (
        TermGroup(kind="keyword", label="deploy", lexemes=("deploy",), weight=1.0),
        TermGroup(kind="keyword", label="friday", lexemes=("friday", "fridays"), weight=1.0),
        TermGroup(kind="facet", label="facet:x", lexemes=("team",), weight=0.5),
    )
    both = belief("We deploy Fridays.")
    team_old = belief("The team shrank.")
    team_new = belief("The team grew.")
    deploy = belief("We deploy daily.")
    ordered = lexical_order([team_new, deploy, team_old, both], groups)
    assert [b.id for b in ordered] == [both.id, deploy.id, team_new.id, team_old.id]
    weights = lexical_weights([team_new, deploy, team_old, both], groups)
    # every hit is equally long (in lexemes of its subject and statement): the norm is 1
    assert weights[team_new.id] == weights[team_old.id] == pytest.approx(0.5 * math.log1p(2))
    assert weights[both.id] == pytest.approx(math.log1p(2) + math.log1p(4))


def test_lexical_weight_of_a_longer_statement_with_the_same_match_is_lower(belief: Any) -> None:
    groups = (TermGroup(kind="keyword", label="kayak", lexemes=("kayak",), weight=1.0),)
    short = belief("User bought a kayak.")
    long = belief("User bought a kayak after weeks of reading reviews in the evenings.")
    weights = lexical_weights([long, short], groups)
    assert weights[short.id] > weights[long.id]
    assert [b.id for b in lexical_order([long, short], groups)] == [short.id, long.id]
    assert length_norm(5, 5.0) == 1.0
    assert length_norm(2, 5.0) > 1.0 > length_norm(9, 5.0)


# scoring ------------------------------------------------------------------------------------


def test_reinforce_saturates_at_ten_pieces_of_evidence() -> None:
    assert reinforce_value(1) == pytest.approx(math.log1p(1) / math.log1p(10))
    assert reinforce_value(10) == pytest.approx(1.0)
    assert reinforce_value(500) == 1.0
    assert reinforce_value(2) < reinforce_value(3)


def test_authority_and_scope_values() -> None:
    assert authority_value(Authority.USER) == 1.0
    assert authority_value(Authority.AFFIRMED) == pytest.approx(2 / 3)
    assert authority_value(Authority.INFERRED) == pytest.approx(1 / 3)
    assert scope_value("project:orbit", "orbit") == 1.0
    assert scope_value("user", "orbit") == 0.5
    assert scope_value("general", "orbit") == 0.25
    assert scope_value("general", None) == 0.25


def test_score_is_the_weighted_sum_times_the_lifecycle_weight(belief: Any) -> None:
    weights = RankingWeights(
        match=1.0, confidence=0.5, reinforce=0.25, authority=0.25, scope=0.1, utility=0.1
    )
    lifecycle = LifecycleWeights(active=1.0, provisional=0.6)
    b = belief(
        confidence=0.8,
        evidence_count=3,
        authority="AFFIRMED",
        scope="user",
        utility=0.5,
        status="PROVISIONAL",
    )
    expected = 0.6 * (
        1.0 * 0.4
        + 0.5 * 0.8
        + 0.25 * (math.log1p(3) / math.log1p(10))
        + 0.25 * (2 / 3)
        + 0.1 * 0.5
        + 0.1 * 0.5
    )
    got = score(b, fused_match=0.4, weights=weights, lifecycle=lifecycle, project_scope=None)
    assert got == pytest.approx(expected)


def test_each_weight_moves_the_score_in_its_direction(belief: Any) -> None:
    lifecycle = LifecycleWeights()
    low = belief(confidence=0.3, evidence_count=1, authority="INFERRED", utility=-0.5)
    high = belief(confidence=0.9, evidence_count=9, authority="USER", utility=0.5)
    for field in ("confidence", "reinforce", "authority", "utility"):
        only = RankingWeights(
            **{
                "match": 0.0,
                "confidence": 1e-9,
                "reinforce": 0.0,
                "authority": 1e-9,
                "scope": 0.0,
                "utility": 0.0,
                field: 1.0,
            }
        )
        s_low = score(low, fused_match=0.0, weights=only, lifecycle=lifecycle, project_scope=None)
        s_high = score(high, fused_match=0.0, weights=only, lifecycle=lifecycle, project_scope=None)
        assert s_high > s_low, field


def test_a_negative_sum_is_clamped_before_the_lifecycle_weight(belief: Any) -> None:
    weights = RankingWeights(
        match=0.0, confidence=1e-6, reinforce=0.0, authority=1e-6, scope=0.0, utility=1.0
    )
    b = belief(confidence=0.0, utility=-1.0, authority="INFERRED")
    assert (
        score(b, fused_match=0, weights=weights, lifecycle=LifecycleWeights(), project_scope=None)
        == 0.0
    )


def test_order_is_score_then_newer_position_then_id(belief: Any) -> None:
    a, b, c = belief("one"), belief("two"), belief("three")
    scored = [
        Scored(belief=a, fused_match=0, score=0.5),
        Scored(belief=b, fused_match=0, score=0.9),
        Scored(belief=c, fused_match=0, score=0.5),
    ]
    assert [s.belief.id for s in order(scored)] == [b.id, c.id, a.id]
    assert order(scored) == order(list(reversed(scored)))


# collapse and cap ---------------------------------------------------------------------------


def test_exact_duplicates_collapse_to_the_best_ranked(belief: Any) -> None:
    first = belief("User likes tea.", belief_type="preference")
    dup = belief("  user LIKES   tea ", belief_type="preference")
    other_type = belief("User likes tea.", belief_type="fact")
    different = belief("User likes green tea.", belief_type="preference")
    kept, collapsed = collapse_duplicates([first, dup, other_type, different])
    assert kept == [first, other_type, different]
    assert collapsed == [dup]


def test_per_subject_cap_keeps_the_best_ranked_per_normalized_subject(belief: Any) -> None:
    a = belief("a", subject="Home Location")
    b = belief("b", subject="home  location")
    c = belief("c", subject="home location")
    d = belief("d", subject="employment")
    kept, capped = cap_per_subject([a, b, c, d], 2)
    assert kept == [a, b, d]
    assert capped == [c]
    kept, capped = cap_per_subject([a, b, c, d], 1)
    assert kept == [a, d]
    assert capped == [b, c]


# budgets ------------------------------------------------------------------------------------


def _block(header: str, beliefs: list[Belief]) -> str:
    return "\n".join((header, *map(render_line, beliefs)))


def test_item_budget_seats_the_best_ranked(belief: Any) -> None:
    ranked = [belief(f"Fact number {i}.") for i in range(5)]
    seated, dropped = select_within_budget(
        ranked, header="H", render=render_line, max_items=3, max_tokens=10_000
    )
    assert seated == ranked[:3]
    assert dropped == ranked[3:]


def test_token_budget_covers_the_header_and_is_first_fit(belief: Any) -> None:
    header = render_header("in_turn")
    long = belief("A very long statement " + "x" * 200 + ".")
    short = belief("Short.")
    budget = estimate_tokens(_block(header, [short]))
    seated, dropped = select_within_budget(
        [long, short], header=header, render=render_line, max_items=5, max_tokens=budget
    )
    assert seated == [short]
    assert dropped == [long]
    assert estimate_tokens(_block(header, seated)) <= budget
    # one token less and even the short line no longer fits beside the header
    seated, dropped = select_within_budget(
        [long, short], header=header, render=render_line, max_items=5, max_tokens=budget - 1
    )
    assert seated == []
    assert dropped == [long, short]


def test_reserved_slots_is_the_ceiling_of_the_share() -> None:
    assert reserved_slots(0.5, 12) == 6
    assert reserved_slots(0.5, 5) == 3
    assert reserved_slots(0.0, 8) == 0
    assert reserved_slots(1.0, 8) == 8
    assert reserved_slots(0.01, 8) == 1


def test_is_durable_covers_preferences_user_model_and_user_scope(belief: Any) -> None:
    assert is_durable(belief(belief_type="preference", scope="general"))
    assert is_durable(belief(belief_type="user_model_attr", scope="general"))
    assert is_durable(belief(belief_type="fact", scope="user"))
    assert not is_durable(belief(belief_type="fact", scope="project:orbit"))
    assert not is_durable(belief(belief_type="relationship", scope="general"))


def test_the_snapshot_primes_standing_context_and_its_own_project(belief: Any) -> None:
    for scope in ("user", "general", "project:orbit"):
        assert is_primed(belief(belief_type="preference", scope=scope), None)
        assert is_primed(belief(belief_type="user_model_attr", scope=scope), "orbit")
    assert is_primed(belief(belief_type="fact", scope="project:orbit"), "orbit")
    assert not is_primed(belief(belief_type="fact", scope="project:orbit"), None)
    assert not is_primed(belief(belief_type="fact", scope="general"), "orbit")
    assert not is_primed(belief(belief_type="relationship", scope="user"), "orbit")
    assert not is_primed(belief(belief_type="relationship", scope="user"), None)


def test_reservation_is_a_floor_against_a_burst_of_project_beliefs(belief: Any) -> None:
    project = [belief(f"Project fact {i}.", scope="project:orbit") for i in range(6)]
    durable = [belief(f"User pref {i}.", belief_type="preference", scope="user") for i in range(3)]
    ranked = project + durable  # every project belief outranks every durable one
    seated, dropped = select_within_budget(
        ranked, header="H", render=render_line, max_items=4, max_tokens=10_000, reserved=2
    )
    assert seated == [project[0], project[1], durable[0], durable[1]]
    assert dropped == [*project[2:], durable[2]]


def test_reservation_is_not_a_ceiling_for_durable_beliefs(belief: Any) -> None:
    durable = [belief(f"User pref {i}.", belief_type="preference", scope="user") for i in range(4)]
    project = [belief(f"Project fact {i}.", scope="project:orbit") for i in range(4)]
    ranked = durable + project
    seated, _ = select_within_budget(
        ranked, header="H", render=render_line, max_items=4, max_tokens=10_000, reserved=1
    )
    assert seated == durable  # durable beliefs above the share still take every free slot


def test_an_unused_reservation_is_not_backfilled_by_non_durable_beliefs(belief: Any) -> None:
    project = [belief(f"Project fact {i}.", scope="project:orbit") for i in range(6)]
    only = belief("User pref.", belief_type="preference", scope="user")
    seated, dropped = select_within_budget(
        [*project, only], header="H", render=render_line, max_items=6, max_tokens=10_000, reserved=3
    )
    assert seated == [*project[:3], only]
    assert len(dropped) == 3


def test_reserved_durable_beliefs_are_seated_before_tokens_run_out(belief: Any) -> None:
    header = "H"
    project = [belief(f"Project fact {i} " + "y" * 40, scope="project:orbit") for i in range(3)]
    durable = belief("Pref.", belief_type="preference", scope="user")
    budget = estimate_tokens(_block(header, [project[0], durable]))
    seated, _ = select_within_budget(
        [*project, durable],
        header=header,
        render=render_line,
        max_items=4,
        max_tokens=budget,
        reserved=1,
    )
    assert durable in seated
    assert seated == [project[0], durable]


def test_lifecycle_weight_orders_active_above_provisional(belief: Any) -> None:
    active = belief(status=BeliefStatus.ACTIVE)
    provisional = belief(status=BeliefStatus.PROVISIONAL)
    w, lc = RankingWeights(), LifecycleWeights()
    assert score(active, fused_match=0.5, weights=w, lifecycle=lc, project_scope=None) > score(
        provisional, fused_match=0.5, weights=w, lifecycle=lc, project_scope=None
    )
