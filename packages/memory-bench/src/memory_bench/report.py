"""Rich rendering of a deterministic run and its baseline comparison.

Rendering is separate from data: every function here takes the result models of
:mod:`memory_bench.metrics` and :mod:`memory_bench.baseline` and returns rich renderables; the
numbers come from the models' integer counts and their derived ratios. End-to-end recall,
retrieval recall given formed and the noise ratio are always shown side by side.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from memory_bench.baseline import BaselineComparison, Difference
from memory_bench.metrics import DeterministicRun, ProbeCounts, ratio

_MAX_LISTED = 40
"""At most this many differences are listed per comparison bucket; the rest are counted."""


def format_ratio(numerator: int, denominator: int) -> str:
    """``0.750 (3/4)``, or ``- (0/0)`` when the denominator is zero."""
    value = ratio(numerator, denominator)
    shown = "-" if value is None else f"{value:.3f}"
    return f"{shown} ({numerator}/{denominator})"


def _retrieval_cells(counts: ProbeCounts) -> list[str]:
    return [
        str(counts.needed_total),
        str(counts.needed_formed),
        str(counts.needed_recalled),
        format_ratio(counts.needed_recalled, counts.needed_total),
        format_ratio(counts.needed_recalled, counts.needed_formed),
        format_ratio(counts.noise_total, counts.returned_total),
        f"{counts.recalled_snapshot_only}/{counts.recalled_in_turn_only}/{counts.recalled_both}",
    ]


_RETRIEVAL_COLUMNS = (
    "needed",
    "formed",
    "recalled",
    "end-to-end recall",
    "recall | formed",
    "noise ratio",
    "snap/turn/both",
)


def formation_table(run: DeterministicRun) -> Table:
    """Aggregate formation: expected, supported, formed, stale, fabricated, precision, recall."""
    counts = run.metrics.formation
    table = Table(title="Formation (all scenarios)", title_justify="left")
    for column in (
        "expected",
        "supported",
        "formed",
        "stale live",
        "fabricated",
        "policy failures",
        "dropped (ceiling)",
        "precision",
        "recall",
    ):
        table.add_column(column, justify="right")
    table.add_row(
        str(counts.expected),
        str(counts.supported),
        str(counts.formed),
        str(counts.stale_live),
        str(counts.fabricated),
        str(counts.policy_failures),
        str(counts.dropped_for_ceiling),
        format_ratio(counts.supported, counts.formed),
        format_ratio(counts.supported, counts.expected),
    )
    return table


def category_table(run: DeterministicRun) -> Table:
    """Per-category retrieval with the aggregate as the last row."""
    table = Table(title="Retrieval by category", title_justify="left")
    table.add_column("category")
    table.add_column("probes", justify="right")
    for column in _RETRIEVAL_COLUMNS:
        table.add_column(column, justify="right")
    table.add_column("forbidden rendered", justify="right")
    for row in run.metrics.by_category:
        table.add_row(
            row.category, str(row.probes), *_retrieval_cells(row.counts), _bucket_text(row.counts)
        )
    total = run.metrics.retrieval
    table.add_section()
    table.add_row(
        "all",
        str(run.metrics.probes),
        *_retrieval_cells(total),
        _bucket_text(total),
        style="bold",
    )
    return table


def _bucket_text(counts: ProbeCounts) -> str:
    parts = [
        ("currency", counts.currency_violations),
        ("unformed", counts.currency_unformed),
        ("leak", counts.abstention_leaks),
        ("transfer", counts.false_transfers),
        ("other", counts.other_forbidden_rendered),
        ("protected", counts.protected_rendered),
    ]
    shown = [f"{name} {value}" for name, value in parts if value]
    return ", ".join(shown) if shown else "0"


def distance_table(run: DeterministicRun) -> Table:
    """Needed labels binned by how many sessions back they were stated (last session = 1)."""
    table = Table(title="Recall by session distance", title_justify="left")
    for column in ("distance", "needed", "formed", "recalled", "end-to-end", "recall | formed"):
        table.add_column(column, justify="right")
    for item in run.metrics.by_distance:
        table.add_row(
            str(item.distance),
            str(item.needed),
            str(item.formed),
            str(item.recalled),
            format_ratio(item.recalled, item.needed),
            format_ratio(item.recalled, item.formed),
        )
    return table


def runtime_line(run: DeterministicRun) -> Text:
    """Returned, noise, budget, blocked, prefix and completion counts on one line."""
    counts = run.metrics.retrieval
    return Text(
        f"returned {counts.returned_total} (snapshot {counts.returned_snapshot}, in-turn "
        f"{counts.returned_in_turn}); noise {counts.noise_total}; dropped for budget "
        f"{counts.dropped_for_budget}; blocked {counts.blocked_rendered}; runs completed "
        f"{counts.runs_completed}/{run.metrics.probes}; max distinct prefixes per probe "
        f"{run.metrics.max_distinct_prefixes_per_probe}"
    )


def _difference_line(diff: Difference) -> str:
    return f"  {diff.key}: {diff.baseline} -> {diff.current}"


def comparison_text(comparison: BaselineComparison) -> Text:
    """The verdict and the drift, regression, improvement, shift and change lists."""
    text = Text()
    if comparison.current:
        text.append("baseline: current (exact match)\n", style="green")
        return text
    if comparison.no_regression:
        text.append(
            "baseline: no drift, no regression, but stale (re-record it in this change)\n",
            style="yellow",
        )
    elif comparison.drift:
        text.append("baseline: DRIFT, the run is not comparable to the baseline\n", style="red")
    else:
        text.append("baseline: REGRESSION\n", style="red")
    for name in ("drift", "regressions", "improvements", "shifts", "changes"):
        items: tuple[Difference, ...] = getattr(comparison, name)
        if not items:
            continue
        text.append(f"{name} ({len(items)}):\n", style="bold")
        for diff in items[:_MAX_LISTED]:
            text.append(_difference_line(diff) + "\n")
        if len(items) > _MAX_LISTED:
            text.append(f"  ... and {len(items) - _MAX_LISTED} more\n")
    return text


def render_report(
    run: DeterministicRun, comparison: BaselineComparison | None = None
) -> RenderableType:
    """The full terminal summary of one run, with the comparison when there is a baseline."""
    header = Text(
        f"memory benchmark, deterministic arm ({run.benchmark_version}; corpus "
        f"{run.corpus_digest[:12]}; {run.formation_policy}, {run.retrieval_policy}; extractor "
        f"{run.extractor}; storage {run.storage}; {run.metrics.scenarios} scenarios, "
        f"{run.metrics.probes} probes)",
        style="bold",
    )
    parts: list[RenderableType] = [
        header,
        formation_table(run),
        category_table(run),
        distance_table(run),
        runtime_line(run),
    ]
    failing = run.failing_structural_probes()
    if failing:
        keys = ", ".join(row.key for row in failing)
        parts.append(Text(f"structural zeros broken by: {keys}", style="red"))
    if comparison is None:
        parts.append(Text("baseline: none given (metrics only)"))
    else:
        parts.append(comparison_text(comparison))
    return Group(*parts)


__all__ = [
    "category_table",
    "comparison_text",
    "distance_table",
    "format_ratio",
    "formation_table",
    "render_report",
    "runtime_line",
]
