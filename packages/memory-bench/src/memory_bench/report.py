"""Rich rendering of a deterministic run and its baseline comparison.

Rendering is separate from data: every function here takes the result models of
:mod:`memory_bench.metrics` and :mod:`memory_bench.baseline` and returns rich renderables; the
numbers come from the models' integer counts and their derived ratios. End-to-end recall,
retrieval recall given formed and the noise ratio are always shown side by side.
"""

from __future__ import annotations

from rich import box
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


def _plain_ratio(numerator: int, denominator: int) -> str:
    value = ratio(numerator, denominator)
    return "-" if value is None else f"{value:.3f}"


def _table(title: str) -> Table:
    # No vertical rules and folded cells: the summary stays whole in an 80-column terminal.
    return Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1),
        collapse_padding=True,
    )


def formation_text(run: DeterministicRun) -> Text:
    """Aggregate formation: expected, supported, formed, stale, fabricated, precision, recall."""
    counts = run.metrics.formation
    return Text(
        f"Formation: expected {counts.expected}, supported {counts.supported}, formed "
        f"{counts.formed}, stale live {counts.stale_live}, fabricated {counts.fabricated}, "
        f"policy failures {counts.policy_failures}, dropped for the ceiling "
        f"{counts.dropped_for_ceiling}; precision "
        f"{format_ratio(counts.supported, counts.formed)}, recall "
        f"{format_ratio(counts.supported, counts.expected)}"
    )


def category_rows(run: DeterministicRun) -> list[tuple[str, int, ProbeCounts]]:
    """(category, probes, counts) per category, then the aggregate as ``all``."""
    rows: list[tuple[str, int, ProbeCounts]] = [
        (row.category, row.probes, row.counts) for row in run.metrics.by_category
    ]
    rows.append(("all", run.metrics.probes, run.metrics.retrieval))
    return rows


def category_table(run: DeterministicRun) -> Table:
    """Per-category retrieval with the aggregate as the last row: end-to-end recall, recall
    given formed and the noise ratio side by side."""
    table = _table("Retrieval by category")
    table.add_column("category", overflow="fold")
    for column in (
        "n",
        "needed",
        "formed",
        "recalled",
        "end-to-\nend",
        "recall |\nformed",
        "noise\nratio",
    ):
        table.add_column(column, justify="right", overflow="fold")
    table.add_column("forbidden", overflow="fold")
    rows = category_rows(run)
    for index, (name, probes, counts) in enumerate(rows):
        last = index == len(rows) - 1
        if last:
            table.add_section()
        table.add_row(
            name,
            str(probes),
            str(counts.needed_total),
            str(counts.needed_formed),
            str(counts.needed_recalled),
            _plain_ratio(counts.needed_recalled, counts.needed_total),
            _plain_ratio(counts.needed_recalled, counts.needed_formed),
            _plain_ratio(counts.noise_total, counts.returned_total),
            forbidden_text(counts),
            style="bold" if last else None,
        )
    return table


def forbidden_text(counts: ProbeCounts) -> str:
    """The non-zero forbidden-rendering buckets, e.g. ``currency 1, leak 2``, or ``0``."""
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
    table = _table("Recall by session distance (the last session is distance 1)")
    for column in ("distance", "needed", "formed", "recalled", "end-to-end", "recall | formed"):
        table.add_column(column, justify="right", overflow="fold")
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
    """Attribution, returned, noise, budget, blocked, prefix and completion counts."""
    counts = run.metrics.retrieval
    return Text(
        f"Recall attribution: snapshot only {counts.recalled_snapshot_only}, in-turn only "
        f"{counts.recalled_in_turn_only}, both {counts.recalled_both}. Returned "
        f"{counts.returned_total} (snapshot {counts.returned_snapshot}, in-turn "
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
        formation_text(run),
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
    "category_rows",
    "category_table",
    "comparison_text",
    "distance_table",
    "forbidden_text",
    "format_ratio",
    "formation_text",
    "render_report",
    "runtime_line",
]
