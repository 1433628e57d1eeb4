"""The rich summary renders the data: recall pair beside noise, distance bins, verdict lists."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from rich.console import Console

from memory_bench.baseline import Baseline, BaselineComparison, compare_to_baseline
from memory_bench.metrics import DeterministicRun
from memory_bench.report import format_ratio, render_report


def _text(run: DeterministicRun, comparison: BaselineComparison | None = None) -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(render_report(run, comparison))
    return console.export_text()


def _cells(text: str, first: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.strip("│ ").startswith(first))
    return [cell.strip() for cell in line.strip().strip("│").split("│")]


def test_format_ratio() -> None:
    assert format_ratio(2, 3) == "0.667 (2/3)"
    assert format_ratio(0, 0) == "- (0/0)"


def test_category_rows_show_recall_pair_beside_noise(standard_run: DeterministicRun) -> None:
    text = _text(standard_run)
    assert _cells(text, "single_hop") == [
        "single_hop",
        "1",
        "1",
        "1",
        "1",
        "1.000 (1/1)",
        "1.000 (1/1)",
        "0.667 (2/3)",
        "1/0/0",
        "0",
    ]
    assert _cells(text, "multi_hop") == [
        "multi_hop",
        "1",
        "2",
        "2",
        "1",
        "0.500 (1/2)",
        "0.500 (1/2)",
        "0.500 (1/2)",
        "0/1/0",
        "0",
    ]
    assert _cells(text, "all") == [
        "all",
        "3",
        "3",
        "3",
        "2",
        "0.667 (2/3)",
        "0.667 (2/3)",
        "0.600 (3/5)",
        "1/1/0",
        "0",
    ]
    assert "baseline: none given (metrics only)" in text


def test_formation_and_distance_tables(standard_run: DeterministicRun) -> None:
    text = _text(standard_run)
    # expected 5, supported 4, formed 5, fabricated 1.
    assert _cells(text, "5") == ["5", "4", "5", "0", "1", "0", "0", "0.800 (4/5)", "0.800 (4/5)"]
    distance_rows = [line for line in text.splitlines() if line.strip("│ ")[:2] in ("1 ", "2 ")]
    assert _cells("\n".join(distance_rows), "1") == [
        "1",
        "2",
        "2",
        "2",
        "1.000 (2/2)",
        "1.000 (2/2)",
    ]
    assert _cells("\n".join(distance_rows), "2") == [
        "2",
        "1",
        "1",
        "0",
        "0.000 (0/1)",
        "0.000 (0/1)",
    ]


def test_verdicts(build: Any, standard_run: DeterministicRun) -> None:
    baseline = Baseline.from_run(
        standard_run, build_ref="x", recorded_at=datetime(2026, 5, 1, tzinfo=UTC)
    )
    assert "baseline: current (exact match)" in _text(
        standard_run, compare_to_baseline(baseline, standard_run)
    )
    drifted = standard_run.model_copy(update={"corpus_digest": "b" * 64})
    text = _text(drifted, compare_to_baseline(baseline, drifted))
    assert "DRIFT" in text
    assert f"corpus_digest: {'a' * 64} -> {'b' * 64}" in text
    scenarios, probes = build.standard_rows()
    row = probes[0]
    probes[0] = row.model_copy(update={"counts": row.counts.model_copy(update={"noise_total": 9})})
    worse = build.make_run(scenarios, probes)
    text = _text(worse, compare_to_baseline(baseline, worse))
    assert "baseline: REGRESSION" in text
    assert "aggregate.retrieval.noise_total: 3 -> 10" in text


def test_structural_zero_breakers_are_named(build: Any) -> None:
    scenarios, probes = build.standard_rows()
    row = probes[2]
    probes[2] = row.model_copy(
        update={"counts": row.counts.model_copy(update={"abstention_leaks": 1})}
    )
    text = _text(build.make_run(scenarios, probes))
    assert "structural zeros broken by: mb-two-001/p01" in text
    assert "leak 1" in text
