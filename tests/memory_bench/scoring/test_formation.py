"""Per-scenario formation counts, exactly as the spec's arithmetic."""

from __future__ import annotations

from typing import Any

from memory_bench.corpus import BenchmarkScenario
from memory_bench.scoring import score_formation
from memory_core.domain import BeliefStatus


def test_formation_counts(relocation: BenchmarkScenario, make: Any) -> None:
    beliefs = [
        make.belief(
            "user_model_attr", "home location", "User lives in Seattle.", BeliefStatus.SUPERSEDED
        ),
        make.belief("user_model_attr", "employment", "User works at Acme Labs."),
        make.belief("preference", "answer style", "User prefers concise answers."),
        make.belief("relationship", "wife", "User's wife is Morgan."),
        make.belief("user_model_attr", "home location", "User lives in Portland now."),
        make.belief("preference", "music", "User likes jazz."),  # matches no label
    ]
    counts = score_formation(relocation, beliefs, dropped_for_ceiling=2)
    # Six labels, home_seattle superseded by home_portland: five expected.
    assert counts.expected == 5
    # employer, pref, wife, portland; deploy_fridays never formed.
    assert counts.supported == 4
    assert counts.formed == 5
    assert counts.stale_live == 0
    assert counts.fabricated == 1
    assert counts.policy_failures == 0
    assert counts.dropped_for_ceiling == 2
    assert counts.precision() == 4 / 5
    assert counts.recall() == 4 / 5


def test_stale_live_belief_is_not_fabricated(relocation: BenchmarkScenario, make: Any) -> None:
    beliefs = [
        make.belief("user_model_attr", "home location", "User lives in Seattle."),
        make.belief("user_model_attr", "home location", "User lives in Portland."),
    ]
    counts = score_formation(relocation, beliefs, dropped_for_ceiling=0)
    assert (counts.formed, counts.supported, counts.stale_live, counts.fabricated) == (2, 1, 1, 0)


def test_duplicate_live_beliefs_of_one_label_count_as_fabricated(
    relocation: BenchmarkScenario, make: Any
) -> None:
    beliefs = [
        make.belief("preference", "answer style", "User prefers concise answers."),
        make.belief("preference", "answer style", "user prefers concise answers"),
    ]
    counts = score_formation(relocation, beliefs, dropped_for_ceiling=0)
    # fabricated = formed - supported - stale_live, literally.
    assert (counts.formed, counts.supported, counts.fabricated) == (2, 1, 1)


def test_policy_failures_count_beliefs_of_any_status(
    relocation: BenchmarkScenario, make: Any
) -> None:
    beliefs = [
        make.belief(
            "fact", "deploy script", "The token is REDACTED-DEPLOY-TOKEN.", BeliefStatus.REJECTED
        ),
        make.belief("relationship", "manager", "User's manager is Dana.", BeliefStatus.RETIRED),
        make.belief("relationship", "manager", "User's manager is Dana.", BeliefStatus.ACTIVE),
        make.belief("preference", "answer style", "User prefers concise answers."),
    ]
    counts = score_formation(relocation, beliefs, dropped_for_ceiling=0)
    assert counts.policy_failures == 3
    assert counts.formed == 2
    assert counts.fabricated == 1


def test_nothing_formed(relocation: BenchmarkScenario) -> None:
    counts = score_formation(relocation, [], dropped_for_ceiling=0)
    assert (counts.expected, counts.supported, counts.formed, counts.fabricated) == (5, 0, 0, 0)
    assert counts.precision() is None
    assert counts.recall() == 0.0
