"""The baseline comparison sorts every difference into drift, regressions, improvements, shifts
or changes, exactly as the spec's rules say."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memory_bench.baseline import Baseline, BaselineComparison, compare_to_baseline
from memory_bench.metrics import DeterministicRun, ProbeMetrics
from memory_bench.source_tree import SourceTree

RECORDED = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
CLEAN = SourceTree(commit="abc123" + "0" * 34)


def _baseline(run: DeterministicRun) -> Baseline:
    return Baseline.from_run(run, source=CLEAN, recorded_at=RECORDED)


def _with_counts(row: ProbeMetrics, **counts: int) -> ProbeMetrics:
    return row.model_copy(update={"counts": row.counts.model_copy(update=counts)})


def _keys(items: tuple[Any, ...]) -> list[str]:
    return [item.key for item in items]


def test_identical_run_is_current(standard_run: DeterministicRun) -> None:
    comparison = compare_to_baseline(_baseline(standard_run), standard_run)
    assert comparison == BaselineComparison()
    assert comparison.current
    assert comparison.no_regression


@pytest.mark.parametrize(
    "source",
    [
        SourceTree(commit="def456" + "0" * 34),
        SourceTree(commit="abc123" + "0" * 34, changed=("packages/x.py",)),
        SourceTree(commit=None),
    ],
)
def test_commit_dirty_packages_and_recorded_at_are_not_compared(
    standard_run: DeterministicRun, source: SourceTree
) -> None:
    other = Baseline.from_run(
        standard_run, source=source, recorded_at=datetime(2030, 1, 1, tzinfo=UTC)
    )
    assert compare_to_baseline(other, standard_run).current
    provenance = other.provenance.model_copy(update={"packages": {"memory-core": "9.9.9"}})
    repackaged = other.model_copy(update={"provenance": provenance})
    assert compare_to_baseline(repackaged, standard_run).current


def test_storage_tier_is_not_compared(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    memory_run = build.make_run(scenarios, probes, storage="memory")
    postgres_run = build.make_run(scenarios, probes, storage="postgres")
    assert compare_to_baseline(_baseline(memory_run), postgres_run).current


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("corpus_digest", "b" * 64),
        ("benchmark_version", "memory-benchmark@2"),
        ("formation_policy", "formation@7"),
        ("provider_formation_policy", "formation@8"),
        ("retrieval_policy", "retrieval@2"),
        ("extractor", "ProviderExtractor"),
    ],
)
def test_provenance_difference_is_drift_only(build: Any, field: str, value: str) -> None:
    scenarios, probes = build.standard_rows()
    recorded = build.make_run(scenarios, probes)
    baseline = _baseline(recorded)
    # A count moved too, but counts of a non-comparable run are not sorted.
    probes[0] = _with_counts(probes[0], noise_total=9, noise_snapshot=9)
    run = build.make_run(scenarios, probes, **{field: value})
    comparison = compare_to_baseline(baseline, run)
    assert _keys(comparison.drift) == [field]
    assert comparison.drift[0].baseline == getattr(recorded, field)
    assert comparison.drift[0].current == value
    assert not comparison.regressions and not comparison.improvements
    assert not comparison.shifts and not comparison.changes
    assert not comparison.no_regression
    assert not comparison.current


def test_needed_total_change_is_drift(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    probes[2] = _with_counts(probes[2], needed_total=1)
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert "aggregate.retrieval.needed_total" in _keys(comparison.drift)
    assert "category.abstention.needed_total" in _keys(comparison.drift)
    assert "probe.mb-two-001/p01.needed_total" in _keys(comparison.drift)
    assert not comparison.no_regression


def test_expected_change_is_drift(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    scenarios[1] = build.scenario_row("mb-two-001", expected=3, supported=2, formed=2)
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert _keys(comparison.drift) == [
        "aggregate.formation.expected",
        "scenario.mb-two-001.expected",
    ]


def test_missing_probe_row_is_drift(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes[:2]))
    assert "probe.mb-two-001/p01" in _keys(comparison.drift)
    assert "aggregate.probes" in _keys(comparison.drift)


def test_distance_population_move_is_drift(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    # The same needed label now counts as stated three sessions back instead of two.
    probes[1] = probes[1].model_copy(
        update={
            "by_distance": (
                probes[1].by_distance[0],
                *build.probe_row("x", "p01", "single_hop", bins=((3, 1, 1, 0),)).by_distance,
            )
        }
    )
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert "aggregate.distance_2.needed" in _keys(comparison.drift)
    assert "aggregate.distance_3.needed" in _keys(comparison.drift)


def test_lost_recall_is_a_regression_at_every_level(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    probes[0] = _with_counts(
        probes[0], needed_recalled=0, recalled_snapshot_only=0, noise_snapshot=3, noise_total=3
    ).model_copy(
        update={
            "recalled_labels": (),
            "by_distance": build.probe_row(
                "x", "p01", "single_hop", bins=((1, 1, 1, 0),)
            ).by_distance,
        }
    )
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert not comparison.drift
    assert set(_keys(comparison.regressions)) == {
        "aggregate.retrieval.needed_recalled",
        "aggregate.retrieval.noise_total",
        "aggregate.distance_1.recalled",
        "category.single_hop.needed_recalled",
        "category.single_hop.noise_total",
        "probe.mb-one-001/p01.needed_recalled",
        "probe.mb-one-001/p01.noise_total",
        "probe.mb-one-001/p01.distance_1.recalled",
        "probe.mb-one-001/p01.recalled_label.home",
    }
    assert "aggregate.retrieval.recalled_snapshot_only" in _keys(comparison.shifts)
    assert not comparison.improvements
    assert not comparison.no_regression


def test_gained_recall_is_an_improvement_mirror(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    worse = list(probes)
    worse[0] = _with_counts(probes[0], needed_recalled=0, recalled_snapshot_only=0).model_copy(
        update={
            "recalled_labels": (),
            "by_distance": build.probe_row(
                "x", "p01", "single_hop", bins=((1, 1, 1, 0),)
            ).by_distance,
        }
    )
    baseline = _baseline(build.make_run(scenarios, worse))
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert not comparison.regressions
    assert set(_keys(comparison.improvements)) == {
        "aggregate.retrieval.needed_recalled",
        "aggregate.distance_1.recalled",
        "category.single_hop.needed_recalled",
        "probe.mb-one-001/p01.needed_recalled",
        "probe.mb-one-001/p01.distance_1.recalled",
        "probe.mb-one-001/p01.recalled_label.home",
    }
    assert comparison.no_regression
    assert not comparison.current


@pytest.mark.parametrize(
    "field",
    [
        "noise_total",
        "dropped_for_budget",
        "blocked_rendered",
        "distinct_prefixes",
        "currency_violations",
        "abstention_leaks",
        "false_transfers",
        "other_forbidden_rendered",
        "protected_rendered",
    ],
)
def test_lower_is_better_count_rising_is_a_regression(build: Any, field: str) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    probes[2] = _with_counts(probes[2], **{field: getattr(probes[2].counts, field) + 1})
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert f"aggregate.retrieval.{field}" in _keys(comparison.regressions)
    assert f"category.abstention.{field}" in _keys(comparison.regressions)
    assert not comparison.improvements


@pytest.mark.parametrize(
    "field", ["fabricated", "stale_live", "policy_failures", "dropped_for_ceiling"]
)
def test_formation_lower_is_better_rising_is_a_regression(build: Any, field: str) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    scenarios[0] = scenarios[0].model_copy(
        update={"formation": scenarios[0].formation.model_copy(update={field: 5})}
    )
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert _keys(comparison.regressions) == [
        f"aggregate.formation.{field}",
        f"scenario.mb-one-001.{field}",
    ]
    assert not comparison.changes


@pytest.mark.parametrize("field", ["supported", "needed_formed", "runs_completed"])
def test_higher_is_better_count_falling_is_a_regression(build: Any, field: str) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    if field == "supported":
        scenarios[1] = build.scenario_row("mb-two-001", expected=2, supported=1, formed=2)
        key = "aggregate.formation.supported"
    else:
        probes[1] = _with_counts(probes[1], **{field: getattr(probes[1].counts, field) - 1})
        key = f"aggregate.retrieval.{field}"
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert key in _keys(comparison.regressions)


def test_max_distinct_prefixes_rising_is_a_regression(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    probes[0] = _with_counts(probes[0], distinct_prefixes=2)
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert "aggregate.max_distinct_prefixes_per_probe" in _keys(comparison.regressions)


def test_attribution_move_is_a_shift_not_a_regression(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    probes[0] = _with_counts(probes[0], recalled_snapshot_only=0, recalled_both=1)
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert set(_keys(comparison.shifts)) == {
        "aggregate.retrieval.recalled_snapshot_only",
        "aggregate.retrieval.recalled_both",
        "category.single_hop.recalled_snapshot_only",
        "category.single_hop.recalled_both",
        "probe.mb-one-001/p01.recalled_snapshot_only",
        "probe.mb-one-001/p01.recalled_both",
    }
    assert not comparison.regressions and not comparison.improvements
    assert comparison.no_regression
    assert not comparison.current
    assert not comparison.changes


def test_neutral_count_is_a_change(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    probes[0] = _with_counts(probes[0], returned_snapshot=4, returned_total=4)
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert comparison.no_regression
    assert not comparison.current
    assert "aggregate.retrieval.returned_total" in _keys(comparison.changes)
    assert "probe.mb-one-001/p01.returned_total" in _keys(comparison.changes)


def test_per_probe_noise_moving_between_probes_is_a_regression_of_the_row_that_rose(
    build: Any,
) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    probes[0] = _with_counts(probes[0], noise_snapshot=1, noise_total=1)
    probes[1] = _with_counts(probes[1], noise_in_turn=2, noise_total=2)
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    # The aggregate holds; the categories and the probe rows moved in opposite directions, and
    # the row that rose is a regression all the same.
    assert "aggregate.retrieval.noise_total" not in _keys(comparison.regressions)
    assert _keys(comparison.regressions) == [
        "category.multi_hop.noise_total",
        "probe.mb-one-001/p02.noise_total",
    ]
    assert "probe.mb-one-001/p01.noise_total" in _keys(comparison.improvements)
    assert not comparison.no_regression


@pytest.mark.parametrize("field", ["needed_formed", "needed_recalled", "runs_completed"])
def test_a_probe_row_falling_while_another_rises_is_a_regression(build: Any, field: str) -> None:
    # Offsetting moves between two probes of one category leave every sum unchanged.
    scenarios, probes = build.standard_rows()
    probes.append(build.probe_row("mb-two-001", "p02", "abstention", **{field: 1}))
    probes.append(build.probe_row("mb-two-001", "p03", "abstention", **{field: 0}))
    baseline = _baseline(build.make_run(scenarios, probes))
    probes[3] = _with_counts(probes[3], **{field: 0})
    probes[4] = _with_counts(probes[4], **{field: 1})
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert not comparison.drift
    assert _keys(comparison.regressions) == [f"probe.mb-two-001/p02.{field}"]
    assert _keys(comparison.improvements) == [f"probe.mb-two-001/p03.{field}"]
    assert not comparison.no_regression


def test_a_scenario_row_falling_while_another_rises_is_a_regression(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    scenarios[0] = build.scenario_row("mb-one-001", expected=3, supported=2, formed=2)
    scenarios[1] = build.scenario_row("mb-two-001", expected=2, supported=2, formed=2)
    baseline = _baseline(build.make_run(scenarios, probes))
    scenarios[0] = build.scenario_row("mb-one-001", expected=3, supported=3, formed=3)
    scenarios[1] = build.scenario_row("mb-two-001", expected=2, supported=1, formed=1)
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert "aggregate.formation.supported" not in _keys(comparison.regressions)
    assert _keys(comparison.regressions) == ["scenario.mb-two-001.supported"]
    assert "scenario.mb-one-001.supported" in _keys(comparison.improvements)
    assert not comparison.no_regression


def test_a_formed_label_traded_for_another_is_a_regression(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    probes[1] = probes[1].model_copy(update={"formed_labels": ("boss", "wife")})
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert _keys(comparison.regressions) == ["probe.mb-one-001/p02.formed_label.job"]
    assert _keys(comparison.improvements) == ["probe.mb-one-001/p02.formed_label.boss"]


def test_a_probe_distance_bin_losing_a_formed_label_is_a_regression(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    baseline = _baseline(build.make_run(scenarios, probes))
    moved = build.probe_row("x", "p02", "multi_hop", bins=((1, 1, 0, 1), (2, 1, 1, 0)))
    probes[1] = probes[1].model_copy(update={"by_distance": moved.by_distance})
    comparison = compare_to_baseline(baseline, build.make_run(scenarios, probes))
    assert "probe.mb-one-001/p02.distance_1.formed" in _keys(comparison.regressions)
