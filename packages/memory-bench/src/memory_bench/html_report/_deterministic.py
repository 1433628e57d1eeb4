"""The report page of a deterministic run and its baseline comparison.

Every figure is derived here from the run's integer counts: end-to-end recall
(``needed_recalled / needed_total``), retrieval recall given formed
(``needed_recalled / needed_formed``) and the noise ratio (``noise_total / returned_total``)
per category side by side, recall by session distance, where recall happened (snapshot only,
in-turn only, both), formation, and the baseline comparison's five lists highlighted.
"""

from __future__ import annotations

from memory_bench.baseline import BaselineComparison, Difference
from memory_bench.html_report._page import (
    Bar,
    BarChart,
    Page,
    Section,
    Series,
    Table,
    Tone,
    Verdict,
    count_bar,
    fraction_label,
    ratio_bar,
)
from memory_bench.metrics import DeterministicRun, ProbeCounts
from memory_bench.report import category_rows, forbidden_text

MAX_LISTED = 40
"""At most this many differences are listed per comparison list; the rest are counted."""

RECALL = Series(key="end_to_end_recall", name="end-to-end recall", colour="#0969da")
RECALL_GIVEN_FORMED = Series(
    key="recall_given_formed", name="recall given formed", colour="#54aeff"
)
NOISE = Series(key="noise_ratio", name="noise ratio", colour="#cf222e")
SNAPSHOT_ONLY = Series(key="snapshot_only", name="snapshot only", colour="#8250df")
IN_TURN_ONLY = Series(key="in_turn_only", name="in-turn only", colour="#1a7f37")
BOTH = Series(key="both", name="both", colour="#0969da")

_LIST_TONES: tuple[tuple[str, str, Tone], ...] = (
    ("drift", "Drift (not comparable)", "bad"),
    ("regressions", "Regressions", "bad"),
    ("improvements", "Improvements", "good"),
    ("shifts", "Shifts (where recall happened moved)", "warn"),
    ("changes", "Changes (neutral, but the baseline is stale)", "muted"),
)


def _breaks_a_zero(counts: ProbeCounts) -> bool:
    return bool(
        counts.currency_violations
        or counts.abstention_leaks
        or counts.false_transfers
        or counts.protected_rendered
    )


def category_section(run: DeterministicRun) -> Section:
    """Recall and noise per category side by side, with the aggregate as ``all``."""
    rows = category_rows(run)
    bars: list[Bar] = []
    for name, _, counts in rows:
        bars.append(ratio_bar(name, RECALL, counts.needed_recalled, counts.needed_total))
        bars.append(
            ratio_bar(name, RECALL_GIVEN_FORMED, counts.needed_recalled, counts.needed_formed)
        )
        bars.append(ratio_bar(name, NOISE, counts.noise_total, counts.returned_total))
    chart = BarChart(
        key="category",
        title="Recall and noise by category",
        caption=(
            "End-to-end recall is needed labels recalled over needed labels; recall given "
            "formed divides by the needed labels that formed; the noise ratio is returned "
            "beliefs matching no needed label over beliefs returned. '-': nothing to divide by."
        ),
        scale="ratio",
        groups=tuple((name, name) for name, _, _ in rows),
        series=(RECALL, RECALL_GIVEN_FORMED, NOISE),
        bars=tuple(bars),
    )
    table = Table(
        key="category",
        title="Counts by category",
        header=(
            "category",
            "probes",
            "needed",
            "formed",
            "recalled",
            "returned",
            "noise",
            "forbidden rendered",
        ),
        rows=tuple(
            (
                name,
                str(probes),
                str(c.needed_total),
                str(c.needed_formed),
                str(c.needed_recalled),
                str(c.returned_total),
                str(c.noise_total),
                forbidden_text(c),
            )
            for name, probes, c in rows
        ),
        tones=tuple("bad" if _breaks_a_zero(c) else "plain" for _, _, c in rows),
    )
    return Section(key="category", title="Recall and noise", charts=(chart,), tables=(table,))


def distance_section(run: DeterministicRun) -> Section:
    """Recall by how many sessions back a needed label was stated (the last session is 1)."""
    bins = run.metrics.by_distance
    bars: list[Bar] = []
    for item in bins:
        group = str(item.distance)
        bars.append(ratio_bar(group, RECALL, item.recalled, item.needed))
        bars.append(ratio_bar(group, RECALL_GIVEN_FORMED, item.recalled, item.formed))
    chart = BarChart(
        key="distance",
        title="Recall by session distance",
        caption="Distance 1 is the last session before the probe; 'needed' is each bin's "
        "population, a function of the corpus alone.",
        scale="ratio",
        groups=tuple(
            (str(item.distance), f"{item.distance} back (needed {item.needed})") for item in bins
        ),
        series=(RECALL, RECALL_GIVEN_FORMED),
        bars=tuple(bars),
    )
    return Section(key="distance", title="Recall by session distance", charts=(chart,))


def attribution_section(run: DeterministicRun) -> Section:
    """Where recall happened: snapshot only, in-turn only, both; per category and overall."""
    rows = category_rows(run)
    bars: list[Bar] = []
    for name, _, counts in rows:
        bars.append(count_bar(name, SNAPSHOT_ONLY, counts.recalled_snapshot_only))
        bars.append(count_bar(name, IN_TURN_ONLY, counts.recalled_in_turn_only))
        bars.append(count_bar(name, BOTH, counts.recalled_both))
    chart = BarChart(
        key="attribution",
        title="Where recall happened",
        caption="Recalled needed labels by the moment that returned them: the session "
        "snapshot only, in-turn recall only, or both (the three add up to 'recalled').",
        scale="count",
        groups=tuple((name, name) for name, _, _ in rows),
        series=(SNAPSHOT_ONLY, IN_TURN_ONLY, BOTH),
        bars=tuple(bars),
        stacked=True,
    )
    counts = run.metrics.retrieval
    table = Table(
        key="moments",
        title="Returned and noise by moment",
        header=("moment", "returned", "noise"),
        rows=(
            ("snapshot", str(counts.returned_snapshot), str(counts.noise_snapshot)),
            ("in-turn", str(counts.returned_in_turn), str(counts.noise_in_turn)),
            ("union", str(counts.returned_total), str(counts.noise_total)),
        ),
        caption=f"Dropped for budget {counts.dropped_for_budget}; blocked rendered "
        f"{counts.blocked_rendered}; runs completed {counts.runs_completed}/"
        f"{run.metrics.probes}; max distinct prefixes per probe "
        f"{run.metrics.max_distinct_prefixes_per_probe}.",
    )
    return Section(
        key="attribution", title="Where recall happened", charts=(chart,), tables=(table,)
    )


def formation_section(run: DeterministicRun) -> Section:
    """Formation counts with precision and recall."""
    f = run.metrics.formation
    table = Table(
        key="formation",
        title="",
        header=(
            "expected",
            "supported",
            "formed",
            "stale live",
            "fabricated",
            "policy failures",
            "dropped for ceiling",
            "precision",
            "recall",
        ),
        rows=(
            (
                str(f.expected),
                str(f.supported),
                str(f.formed),
                str(f.stale_live),
                str(f.fabricated),
                str(f.policy_failures),
                str(f.dropped_for_ceiling),
                f"{fraction_label(f.supported, f.formed)} ({f.supported}/{f.formed})",
                f"{fraction_label(f.supported, f.expected)} ({f.supported}/{f.expected})",
            ),
        ),
        tones=("bad" if f.policy_failures else "plain",),
    )
    return Section(key="formation", title="Formation", tables=(table,))


def _verdict(comparison: BaselineComparison) -> Verdict:
    if comparison.current:
        return Verdict(text="Baseline: current (the run equals the baseline exactly)", tone="good")
    if comparison.drift:
        return Verdict(text="Baseline: DRIFT (the run is not comparable to it)", tone="bad")
    if comparison.regressions:
        return Verdict(text="Baseline: REGRESSION", tone="bad")
    return Verdict(
        text="Baseline: no drift, no regression, but stale (re-record it in this change)",
        tone="warn",
    )


def _shown(value: int | str | None) -> str:
    return "none" if value is None else str(value)


def baseline_section(comparison: BaselineComparison | None, baseline_name: str | None) -> Section:
    """The verdict, then the drift, regression, improvement, shift and change lists."""
    if comparison is None:
        return Section(
            key="baseline",
            title="Baseline comparison",
            verdicts=(Verdict(text="Baseline: none given (metrics only)", tone="plain"),),
        )
    tables: list[Table] = []
    notes: list[str] = []
    for name, title, tone in _LIST_TONES:
        items: tuple[Difference, ...] = getattr(comparison, name)
        if not items:
            continue
        shown = items[:MAX_LISTED]
        tables.append(
            Table(
                key=f"baseline-{name}",
                title=f"{title}: {len(items)}",
                header=("count", "baseline", "this run"),
                rows=tuple((d.key, _shown(d.baseline), _shown(d.current)) for d in shown),
                tones=tuple(tone for _ in shown),
                caption=f"... and {len(items) - MAX_LISTED} more"
                if len(items) > MAX_LISTED
                else "",
            )
        )
    if baseline_name is not None:
        notes.append(f"Compared with {baseline_name}.")
    return Section(
        key="baseline",
        title="Baseline comparison",
        verdicts=(_verdict(comparison),),
        tables=tuple(tables),
        notes=tuple(notes),
    )


def deterministic_page(
    run: DeterministicRun,
    comparison: BaselineComparison | None = None,
    *,
    baseline_name: str | None = None,
    structural_zero_failures: tuple[str, ...] = (),
) -> Page:
    """The report page of one deterministic run (and its comparison, when there was one)."""
    counts = run.metrics.retrieval
    summary = (
        f"{run.metrics.scenarios} scenarios, {run.metrics.probes} probes; end-to-end recall "
        f"{fraction_label(counts.needed_recalled, counts.needed_total)} "
        f"({counts.needed_recalled}/{counts.needed_total}), noise ratio "
        f"{fraction_label(counts.noise_total, counts.returned_total)} "
        f"({counts.noise_total}/{counts.returned_total})."
    )
    zeros = Section(
        key="structural-zeros",
        title="Structural zeros",
        verdicts=(
            Verdict(text="Broken: " + ", ".join(structural_zero_failures), tone="bad")
            if structural_zero_failures
            else Verdict(
                text="Hold: no protected fragment formed or rendered, no currency violation, "
                "no false transfer, no abstention leak",
                tone="good",
            ),
        ),
    )
    return Page(
        title="Memory benchmark: deterministic arm",
        summary=summary,
        provenance=(
            ("arm", "deterministic"),
            ("benchmark", run.benchmark_version),
            ("corpus sha256", run.corpus_digest),
            ("formation policy", run.formation_policy),
            ("provider formation policy", run.provider_formation_policy),
            ("retrieval policy", run.retrieval_policy),
            ("extractor", run.extractor),
            ("storage", run.storage),
            ("baseline", baseline_name or "none"),
        ),
        sections=(
            baseline_section(comparison, baseline_name),
            category_section(run),
            distance_section(run),
            attribution_section(run),
            formation_section(run),
            zeros,
        ),
    )


__all__ = [
    "BOTH",
    "IN_TURN_ONLY",
    "MAX_LISTED",
    "NOISE",
    "RECALL",
    "RECALL_GIVEN_FORMED",
    "SNAPSHOT_ONLY",
    "attribution_section",
    "baseline_section",
    "category_section",
    "deterministic_page",
    "distance_section",
    "formation_section",
]
