"""Aggregation: the aggregate is the sum of the rows, plus the max prefixes and per-category sums;
ratios are derived for display only."""

from __future__ import annotations

import json
from typing import Any

from memory_bench.metrics import (
    DeterministicMetrics,
    DistanceBin,
    FormationCounts,
    ProbeCounts,
    ProbeMetrics,
    ScenarioMetrics,
    display_ratios,
    merge_distance_bins,
    ratio,
)

ZERO = dict.fromkeys(ProbeCounts.model_fields, 0)


def _row(
    probe_id: str, category: str, bins: list[tuple[int, int, int, int]], **counts: int
) -> ProbeMetrics:
    return ProbeMetrics(
        scenario_id="mb-x-001",
        probe_id=probe_id,
        category=category,
        counts=ProbeCounts(**{**ZERO, **counts}),
        by_distance=tuple(
            DistanceBin(distance=d, needed=n, formed=f, recalled=r) for d, n, f, r in bins
        ),
        formed_labels=(),
        recalled_labels=(),
    )


def _scenario(name: str, **counts: int) -> ScenarioMetrics:
    zero = dict.fromkeys(FormationCounts.model_fields, 0)
    return ScenarioMetrics(scenario_id=name, formation=FormationCounts(**{**zero, **counts}))


def test_aggregate_sums_rows_and_orders_categories() -> None:
    probes = [
        _row(
            "p01",
            "transfer",
            [(1, 1, 1, 1)],
            needed_total=1,
            needed_formed=1,
            needed_recalled=1,
            returned_total=4,
            noise_total=3,
            distinct_prefixes=1,
            runs_completed=1,
        ),
        _row(
            "p02",
            "single_hop",
            [(2, 1, 0, 0)],
            needed_total=1,
            distinct_prefixes=2,
            runs_completed=1,
        ),
        _row(
            "p03",
            "transfer",
            [(1, 2, 2, 1), (3, 1, 1, 1)],
            needed_total=3,
            needed_formed=3,
            needed_recalled=2,
            returned_total=2,
            false_transfers=1,
            distinct_prefixes=1,
        ),
    ]
    scenarios = [
        _scenario("mb-x-001", expected=4, supported=3, formed=5, fabricated=2),
        _scenario("mb-y-001", expected=1, supported=1, formed=1, dropped_for_ceiling=2),
    ]
    metrics = DeterministicMetrics.aggregate(scenarios, probes)
    assert (metrics.scenarios, metrics.probes) == (2, 3)
    assert metrics.formation == FormationCounts(
        expected=5,
        supported=4,
        formed=6,
        stale_live=0,
        fabricated=2,
        policy_failures=0,
        dropped_for_ceiling=2,
    )
    r = metrics.retrieval
    assert (r.needed_total, r.needed_formed, r.needed_recalled) == (5, 4, 3)
    assert (r.returned_total, r.noise_total, r.false_transfers) == (6, 3, 1)
    assert (r.distinct_prefixes, r.runs_completed) == (4, 2)
    assert metrics.max_distinct_prefixes_per_probe == 2
    assert [c.category for c in metrics.by_category] == ["single_hop", "transfer"]
    transfer = metrics.by_category[1]
    assert (transfer.probes, transfer.counts.needed_total, transfer.counts.needed_recalled) == (
        2,
        4,
        3,
    )
    assert [(b.distance, b.needed, b.formed, b.recalled) for b in metrics.by_distance] == [
        (1, 3, 3, 2),
        (2, 1, 0, 0),
        (3, 1, 1, 1),
    ]
    assert metrics.structural_zero_failures() == ("false_transfers=1",)


def test_empty_aggregate() -> None:
    metrics = DeterministicMetrics.aggregate([], [])
    assert metrics.probes == 0
    assert metrics.max_distinct_prefixes_per_probe == 0
    assert metrics.by_category == ()
    assert metrics.by_distance == ()
    assert metrics.structural_zero_failures() == ()


def test_merge_distance_bins_sorts_by_distance() -> None:
    merged = merge_distance_bins(
        [
            [DistanceBin(distance=3, needed=1, formed=1, recalled=0)],
            [
                DistanceBin(distance=1, needed=2, formed=1, recalled=1),
                DistanceBin(distance=3, needed=1, formed=0, recalled=0),
            ],
        ]
    )
    assert [(b.distance, b.needed, b.formed, b.recalled) for b in merged] == [
        (1, 2, 1, 1),
        (3, 2, 1, 0),
    ]


def test_ratios_are_derived_and_none_on_zero() -> None:
    assert ratio(1, 4) == 0.25
    assert ratio(0, 0) is None
    probes = [_row("p01", "abstention", [], returned_total=2, noise_total=2)]
    ratios = display_ratios(DeterministicMetrics.aggregate([_scenario("mb-x-001")], probes))
    assert ratios["aggregate"] == {
        "formation_precision": None,
        "formation_recall": None,
        "end_to_end_recall": None,
        "retrieval_recall_given_formed": None,
        "noise_ratio": 1.0,
    }
    assert ratios["abstention"]["noise_ratio"] == 1.0


def _leaves(value: Any, key: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, k)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item, key)]
    return [(key, value)]


def test_metrics_serialise_integers_only() -> None:
    probes = [_row("p01", "single_hop", [(1, 1, 1, 1)], needed_total=1, needed_recalled=1)]
    dumped = DeterministicMetrics.aggregate([_scenario("mb-x-001", expected=1)], probes)
    leaves = _leaves(json.loads(dumped.model_dump_json()))
    assert all(type(value) is int for key, value in leaves if key != "category")
    assert not any("ratio" in key or "precision" in key for key, _ in leaves)
