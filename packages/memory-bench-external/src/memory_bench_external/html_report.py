"""The report page of an external run: formed memory against raw-turn BM25 at every k.

Built from an :class:`ExternalMetrics` document with the page primitives of
:mod:`memory_bench.html_report`: evidence-provenance recall@k of both arms side by side with
the words each returned at that k (what the recall cost), recall@k per benchmark category,
where the memory arm's evidence arrived from (snapshot, in-turn, both), what formed, the
probe and evidence tallies, the caveats, and the run's provenance (dataset, license, sample,
seed, the file's sha256; never a local path). Every figure is derived from the document's
integer counts.
"""

from __future__ import annotations

from memory_bench.html_report import (
    Bar,
    BarChart,
    Page,
    Section,
    Series,
    Table,
    count_bar,
    fraction_label,
    provenance_rows,
    ratio_bar,
    ratio_label,
    ratio_of,
)
from memory_bench_external.metrics import ArmFigures, ExternalMetrics

MEMORY = Series(key="memory", name="formed memory", colour="#0969da")
RAW_TURNS = Series(key="raw_turn_bm25", name="raw turns (BM25)", colour="#bf8700")
SNAPSHOT_ONLY = Series(key="snapshot_only", name="snapshot only", colour="#8250df")
IN_TURN_ONLY = Series(key="in_turn_only", name="in-turn only", colour="#1a7f37")
BOTH = Series(key="both", name="both", colour="#0969da")


def _arms(metrics: ExternalMetrics) -> tuple[tuple[Series, ArmFigures], ...]:
    return ((MEMORY, metrics.memory), (RAW_TURNS, metrics.raw_turn_bm25))


def recall_chart(metrics: ExternalMetrics) -> BarChart:
    """Recall@k of both arms, one group per k."""
    bars = [
        ratio_bar(str(k), series, arm.recall_at_k.hits[str(k)], arm.recall_at_k.probes)
        for k in metrics.ks
        for series, arm in _arms(metrics)
    ]
    return BarChart(
        key="external-recall",
        title="Evidence-provenance recall@k: formed memory against raw-turn BM25",
        caption=metrics.provenance_rule,
        scale="ratio",
        groups=tuple((str(k), f"k = {k}") for k in metrics.ks),
        series=(MEMORY, RAW_TURNS),
        bars=tuple(bars),
    )


def words_chart(metrics: ExternalMetrics) -> BarChart:
    """Words of the first k items returned, per probe, for both arms."""
    bars = []
    for k in metrics.ks:
        for series, arm in _arms(metrics):
            words, probes = arm.words_at_k.words[str(k)], arm.words_at_k.probes
            value = ratio_of(words, probes)
            bars.append(
                Bar(
                    group=str(k),
                    series=series.key,
                    value=value,
                    label="-" if value is None else f"{value:.1f}",
                    detail=f"{words} words, {probes} probes",
                )
            )
    return BarChart(
        key="external-words",
        title="Words returned per probe at k (what the recall cost)",
        caption=metrics.words_rule,
        scale="count",
        groups=tuple((str(k), f"k = {k}") for k in metrics.ks),
        series=(MEMORY, RAW_TURNS),
        bars=tuple(bars),
    )


def moments_chart(metrics: ExternalMetrics) -> BarChart:
    """Eligible probes whose evidence the memory arm found in the snapshot, in-turn, or both."""
    m = metrics.memory.moments
    parts = (
        (SNAPSHOT_ONLY, m.evidence_in_snapshot - m.evidence_in_both),
        (IN_TURN_ONLY, m.evidence_in_turn - m.evidence_in_both),
        (BOTH, m.evidence_in_both),
    )
    return BarChart(
        key="external-moments",
        title="Where formed memory found the evidence",
        caption="Eligible probes with an evidence-matching belief in the session snapshot "
        "only, in in-turn recall only, or in both.",
        scale="count",
        groups=(("memory", "formed memory"),),
        series=tuple(series for series, _ in parts),
        bars=tuple(count_bar("memory", series, count) for series, count in parts),
        stacked=True,
    )


def _category_table(metrics: ExternalMetrics) -> Table:
    names = sorted(set(metrics.memory.by_category) | set(metrics.raw_turn_bm25.by_category))
    columns = [f"{arm} @{k}" for arm in ("memory", "bm25") for k in metrics.ks]
    header = ("category", "probes", *columns)
    rows = []
    for name in names:
        cells = [name]
        memory = metrics.memory.by_category.get(name)
        baseline = metrics.raw_turn_bm25.by_category.get(name)
        cells.append(str(memory.probes if memory is not None else 0))
        for figures in (memory, baseline):
            for k in metrics.ks:
                cells.append(
                    "-"
                    if figures is None
                    else ratio_label(ratio_of(figures.hits[str(k)], figures.probes))
                )
        rows.append(tuple(cells))
    return Table(
        key="external-categories", title="Recall@k by category", header=header, rows=tuple(rows)
    )


def _arm_table(metrics: ExternalMetrics) -> Table:
    rows = []
    for series, arm in _arms(metrics):
        rows.append(
            (
                series.name,
                str(arm.probes_run),
                str(arm.returned),
                str(arm.matched),
                f"{fraction_label(arm.noise, arm.returned)} ({arm.noise}/{arm.returned})",
                "-" if arm.tokens_per_probe is None else f"{arm.tokens_per_probe:.1f}",
                str(arm.abstention_returned),
            )
        )
    return Table(
        key="external-arms",
        title="Noise and tokens",
        header=(
            "arm",
            "probes run",
            "returned",
            "matched",
            "noise ratio",
            "tokens/probe",
            "returned to abstention",
        ),
        rows=tuple(rows),
    )


def _counts_table(key: str, title: str, values: dict[str, object]) -> Table:
    return Table(
        key=key,
        title=title,
        header=("count", "value"),
        rows=tuple((name.replace("_", " "), str(value)) for name, value in values.items()),
    )


def external_page(metrics: ExternalMetrics) -> Page:
    """The report page of one external run's metrics document."""
    memory, baseline = metrics.memory.recall_at_k, metrics.raw_turn_bm25.recall_at_k
    last = str(metrics.ks[-1]) if metrics.ks else None
    summary = (
        f"{metrics.dataset}: {metrics.sample_size} of {metrics.population} instances, "
        f"{metrics.probes.run} probes run, {metrics.probes.eligible} eligible."
    )
    if last is not None:
        summary += (
            f" Recall@{last}: memory "
            f"{fraction_label(memory.hits[last], memory.probes)}, raw-turn BM25 "
            f"{fraction_label(baseline.hits[last], baseline.probes)}."
        )
    split = metrics.split
    provenance = (
        ("arm", "external (deterministic)"),
        ("dataset", metrics.dataset),
        ("license", metrics.license),
        ("file sha256", metrics.provenance.inputs["dataset_file"]),
        ("instances", f"{metrics.sample_size} of {metrics.population}"),
        ("sample", "every instance" if metrics.sample is None else str(metrics.sample)),
        ("seed", str(metrics.seed)),
        ("principal speaker", metrics.principal_speaker or "n/a"),
        ("split", "n/a" if split is None else split.name),
        ("benchmark", metrics.benchmark_version),
        *provenance_rows(metrics.provenance),
        ("extractor", metrics.extractor),
    )
    tables = [_arm_table(metrics), _category_table(metrics)]
    sections = [
        Section(
            key="external-recall",
            title="Formed memory against raw-turn BM25",
            charts=(recall_chart(metrics), words_chart(metrics)),
            tables=tuple(tables),
            notes=(metrics.baseline_method,),
        ),
        Section(
            key="external-moments", title="Where recall happened", charts=(moments_chart(metrics),)
        ),
        Section(
            key="external-tallies",
            title="Formation, probes and evidence",
            tables=(
                _counts_table("external-formation", "Formation", metrics.formation.model_dump()),
                _counts_table(
                    "external-probes",
                    "Probes",
                    {
                        **metrics.probes.model_dump(exclude={"excluded"}),
                        **{f"excluded: {k}": v for k, v in metrics.probes.excluded.items()},
                    },
                ),
                _counts_table(
                    "external-evidence", "Evidence references", metrics.evidence.model_dump()
                ),
            ),
        ),
    ]
    if metrics.end_to_end is not None:
        e = metrics.end_to_end
        sections.append(
            Section(
                key="external-end-to-end",
                title="Against labeled beliefs",
                tables=(
                    _counts_table(
                        "external-end-to-end",
                        "",
                        {
                            "formation recall": f"{ratio_label(e.formation_recall)} "
                            f"({e.supported}/{e.expected})",
                            "recall": f"{ratio_label(e.recall)} ({e.needed_recalled}/{e.needed})",
                            "noise ratio": f"{ratio_label(e.noise_ratio)} "
                            f"({e.returned_unmatched}/{e.returned})",
                            "stale live": e.stale_live,
                        },
                    ),
                ),
                notes=(e.match_rule,),
            )
        )
    sections.append(Section(key="caveats", title="Caveats", notes=tuple(metrics.caveats)))
    return Page(
        title=f"Memory benchmark: {metrics.dataset}",
        summary=summary,
        provenance=provenance,
        sections=tuple(sections),
    )


__all__ = ["MEMORY", "RAW_TURNS", "external_page", "moments_chart", "recall_chart", "words_chart"]
