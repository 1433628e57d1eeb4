"""The checked-in corpus puts ranking and budgets under pressure, so their knobs move the baseline.

Issue 18: with corpus v1's first sixteen scenarios, snapshot ``max_items`` 12 -> 4,
``per_subject_cap`` 2 -> 3 and any fusion constant all left the baseline identical, so ranking
and budgets were unmeasured. The pressure scenarios (a project snapshot with more candidates
than slots, one in-turn question that ten beliefs answer, several decisions sharing a subject)
make each knob decide what renders. Each case runs the whole deterministic arm with one knob
changed through the composition's overlays and requires the comparison with the checked-in
baseline to move in a ranking-sensitive row (aggregate, category, scenario or probe) without
drifting; a control overlay that restates the shipped values must leave the baseline current,
so the movement is the knob's and not the overlay mechanism's.

The interactive snapshot budget probes use lives in the context plan (``runtime/plan.yaml``),
not in the memory profiles (whose ``snapshot`` budgets are the async and child kinds'), so that
knob is set through the context-plan overlay.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from memory_bench.baseline import BaselineComparison, compare_to_baseline, load_baseline
from memory_bench.corpus import load_corpus
from memory_bench.driver import run_deterministic_benchmark
from memory_core import bootstrap
from memory_core.profiles import load_profiles
from memory_core.runtime.context import load_context_plan

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "corpus" / "memory-benchmark.v1.json"
BASELINE = ROOT / "corpus" / "memory-benchmark.baseline.json"

RANKING_SENSITIVE_METRICS: frozenset[str] = frozenset(
    {
        "needed_recalled",
        "recalled_snapshot_only",
        "recalled_in_turn_only",
        "recalled_both",
        "returned_snapshot",
        "returned_in_turn",
        "returned_total",
        "noise_snapshot",
        "noise_in_turn",
        "noise_total",
        "dropped_for_budget",
    }
)
"""Rows that rank and budget decide (what was returned, dropped and recalled), at any level of
the baseline: aggregate, category, scenario or probe. Every pair-compared row counts, so a knob
whose moves offset in the aggregate still moves the baseline."""


Overlay = Mapping[str, Any]

SHIPPED_PROFILES = load_profiles()
SHIPPED_PLAN = load_context_plan()
_FUSION_K = SHIPPED_PROFILES.retrieval.reciprocal_rank_fusion_k

KNOBS: dict[str, tuple[Overlay | None, Overlay | None]] = {
    # case id: (memory-profile overlay, context-plan overlay), each moved from its shipped value
    "per_subject_cap_plus_one": (
        {"retrieval": {"per_subject_cap": SHIPPED_PROFILES.retrieval.per_subject_cap + 1}},
        None,
    ),
    "snapshot_max_items_a_third": (
        None,
        {"snapshot": {"max_items": max(1, SHIPPED_PLAN.snapshot.max_items // 3)}},
    ),
    # The fusion constant both ways. At k = 1 every ranking-sensitive row happens to equal the
    # shipped constant's since the effects rule's beliefs joined the corpus run (k = 2 moves
    # six), so a constant a tenth and one ten times the shipped one must each move the baseline.
    "reciprocal_rank_fusion_k_a_tenth": (
        {"retrieval": {"reciprocal_rank_fusion_k": _FUSION_K // 10}},
        None,
    ),
    "reciprocal_rank_fusion_k_tenfold": (
        {"retrieval": {"reciprocal_rank_fusion_k": _FUSION_K * 10}},
        None,
    ),
}


def _run_with(
    monkeypatch: pytest.MonkeyPatch, profile: Overlay | None, plan: Overlay | None
) -> BaselineComparison:
    """Run the deterministic arm over the checked-in corpus with the overlays given."""
    build = bootstrap.build

    def build_with_overlays(**kwargs: Any) -> bootstrap.Composition:
        if profile is not None:
            assert kwargs.get("profile_overlay") is None, "the arm passed its own profiles"
            kwargs["profile_overlay"] = profile
        if plan is not None:
            assert kwargs.get("context_plan_overlay") is None, "the arm passed its own plan"
            kwargs["context_plan_overlay"] = plan
        return build(**kwargs)

    monkeypatch.setattr(bootstrap, "build", build_with_overlays)
    corpus, digest = load_corpus(CORPUS)
    run = run_deterministic_benchmark(corpus, digest)
    return compare_to_baseline(load_baseline(BASELINE), run)


def _moved(comparison: BaselineComparison) -> set[str]:
    moved = (
        *comparison.regressions,
        *comparison.improvements,
        *comparison.shifts,
        *comparison.changes,
    )
    return {difference.key for difference in moved}


@pytest.mark.gate("gate.memory.bench_no_regression")
@pytest.mark.parametrize("knob", sorted(KNOBS))
def test_a_ranking_knob_moves_the_baseline(knob: str, monkeypatch: pytest.MonkeyPatch) -> None:
    profile, plan = KNOBS[knob]

    comparison = _run_with(monkeypatch, profile, plan)

    assert comparison.drift == ()
    assert {
        key for key in _moved(comparison) if key.rsplit(".", 1)[-1] in RANKING_SENSITIVE_METRICS
    }, f"{knob} left every ranking-sensitive row at its baseline value"


@pytest.mark.gate("gate.memory.bench_no_regression")
def test_restating_the_shipped_knobs_leaves_the_baseline_current(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    retrieval = SHIPPED_PROFILES.retrieval
    shipped_profile = {
        "retrieval": {
            "per_subject_cap": retrieval.per_subject_cap,
            "reciprocal_rank_fusion_k": retrieval.reciprocal_rank_fusion_k,
        },
    }
    shipped_plan = {"snapshot": {"max_items": SHIPPED_PLAN.snapshot.max_items}}

    comparison = _run_with(monkeypatch, shipped_profile, shipped_plan)

    assert retrieval.reciprocal_rank_fusion_k != 1
    assert comparison.current
