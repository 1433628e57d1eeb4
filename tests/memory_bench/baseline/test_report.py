"""The rich summary renders the data: recall pair beside noise, distance bins, verdict lists."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from rich.console import Console

from memory_bench.baseline import Baseline, BaselineComparison, compare_to_baseline
from memory_bench.metrics import DeterministicRun
from memory_bench.report import format_ratio, render_report
from memory_bench.source_tree import SourceTree


def _text(run: DeterministicRun, comparison: BaselineComparison | None = None) -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(render_report(run, comparison))
    return console.export_text()


def _cells(text: str, first: str) -> list[str]:
    """The cells of the first table row starting with ``first`` (cells are 2+ spaces apart)."""
    line = next(line for line in text.splitlines() if line.strip().startswith(first + " "))
    return re.split(r"\s{2,}", line.strip())


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
        "1.000",
        "1.000",
        "0.667",
        "0",
    ]
    assert _cells(text, "multi_hop") == [
        "multi_hop",
        "1",
        "2",
        "2",
        "1",
        "0.500",
        "0.500",
        "0.500",
        "0",
    ]
    assert _cells(text, "abstention") == ["abstention", "1", "0", "0", "0", "-", "-", "-", "0"]
    assert _cells(text, "all") == ["all", "3", "3", "3", "2", "0.667", "0.667", "0.600", "0"]
    assert "baseline: none given (metrics only)" in text


def test_formation_distance_and_attribution(standard_run: DeterministicRun) -> None:
    text = " ".join(_text(standard_run).split())
    assert (
        "Formation: expected 5, supported 4, formed 5, stale live 0, fabricated 1, policy "
        "failures 0, dropped for the ceiling 0; precision 0.800 (4/5), recall 0.800 (4/5)"
    ) in text
    assert "Recall attribution: snapshot only 1, in-turn only 1, both 0." in text
    table = _text(standard_run)
    assert _cells(table, "1") == ["1", "2", "2", "2", "1.000 (2/2)", "1.000 (2/2)"]
    assert _cells(table, "2") == ["2", "1", "1", "0", "0.000 (0/1)", "0.000 (0/1)"]


def test_fits_an_80_column_terminal(standard_run: DeterministicRun) -> None:
    console = Console(record=True, width=80, color_system=None)
    console.print(render_report(standard_run))
    lines = console.export_text().splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert not any("…" in line for line in lines)


def test_verdicts(build: Any, standard_run: DeterministicRun) -> None:
    baseline = Baseline.from_run(
        standard_run, source=SourceTree(commit=None), recorded_at=datetime(2026, 5, 1, tzinfo=UTC)
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
