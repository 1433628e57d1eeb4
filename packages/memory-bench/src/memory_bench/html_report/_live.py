"""The report page of a live run: a live result document or published live evidence.

The figures are the live arm's counts: correct answers with and without memory per category
(the lift the arm exists to show), the pass conditions against their minimums, and the cost
against its ceiling. Answers are not reproduced; the page carries counts only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from memory_bench.html_report._page import (
    Bar,
    BarChart,
    Page,
    Section,
    Series,
    Table,
    Tone,
    Verdict,
    provenance_rows,
    ratio_bar,
)
from memory_bench.live.arm import LiveBenchmarkResult
from memory_bench.live.evidence import (
    LiveCounts,
    LiveProbeRow,
    MemoryBenchmarkEvidence,
    failed_conditions,
)
from memory_core.provenance import Provenance

WITH_MEMORY = Series(key="with_memory", name="with memory", colour="#0969da")
WITHOUT_MEMORY = Series(key="without_memory", name="without memory", colour="#8c959f")


@dataclass(frozen=True, kw_only=True)
class _LiveView:
    outcome: str
    notes: tuple[str, ...]
    provenance: tuple[tuple[str, str], ...]
    counts: LiveCounts | None
    rows: Sequence[LiveProbeRow]
    total_cost_usd: float
    cost_ceiling_usd: float | None
    per_run_ceiling_usd: float | None
    runs_admitted: int | None
    failed: tuple[str, ...]


def _name(path: str | None) -> str:
    """A file's name only: a report never carries a local directory."""
    return "none" if not path else PurePath(path).name


def _or_none(value: object) -> str:
    return "none" if value is None else str(value)


def _result_provenance(provenance: Provenance | None) -> tuple[tuple[str, str], ...]:
    """The corpus digest and the provenance rows, or ``none`` for a run that never started."""
    if provenance is None:
        return (("corpus sha256", "none"), ("provenance", "none (nothing ran)"))
    return (("corpus sha256", provenance.inputs["corpus"]), *provenance_rows(provenance))


def _correct_chart(counts: LiveCounts, rows: Sequence[LiveProbeRow]) -> BarChart:
    probes: Counter[str] = Counter(row.category for row in rows)
    with_memory: Counter[str] = Counter(row.category for row in rows if row.with_memory.correct)
    without: Counter[str] = Counter(row.category for row in rows if row.without_memory.correct)
    categories = list(dict.fromkeys(row.category for row in rows))
    bars: list[Bar] = []
    groups: list[tuple[str, str]] = []
    for name, total, yes, no in [
        *((c, probes[c], with_memory[c], without[c]) for c in categories),
        ("all", counts.probe_count, counts.with_memory_correct, counts.without_memory_correct),
    ]:
        groups.append((name, name))
        bars.extend(
            ratio_bar(name, series, correct, total)
            for series, correct in ((WITH_MEMORY, yes), (WITHOUT_MEMORY, no))
        )
    return BarChart(
        key="live-correct",
        title="Correct answers with and without memory",
        caption="Share of probes answered correctly (abstention probes: correct when the "
        "model abstained); the lift is with-memory correct minus without-memory correct.",
        scale="ratio",
        groups=tuple(groups),
        series=(WITH_MEMORY, WITHOUT_MEMORY),
        bars=tuple(bars),
    )


def _conditions(counts: LiveCounts) -> Table:
    rows = (
        ("lift (correct with minus without memory)", counts.lift, counts.minimum_lift, ">="),
        (
            "recoverable probes correct",
            counts.recoverable_correct,
            counts.minimum_recoverable_correct,
            ">=",
        ),
        (
            "abstention probes correct with memory",
            counts.abstain_with_memory_correct,
            counts.minimum_abstain_correct,
            ">=",
        ),
        ("protected leaks in answers", counts.protected_leaks_in_answers, 0, "=="),
        ("incomplete runs", counts.incomplete_runs, 0, "=="),
        ("cost ceiling hits", counts.ceiling_hits, 0, "=="),
    )
    held = [value >= bound if op == ">=" else value == bound for _, value, bound, op in rows]
    return Table(
        key="live-conditions",
        title="Pass conditions",
        header=("condition", "measured", "required", "holds"),
        rows=tuple(
            (name, str(value), f"{op} {bound}", "yes" if ok else "NO")
            for (name, value, bound, op), ok in zip(rows, held, strict=True)
        ),
        tones=tuple("good" if ok else "bad" for ok in held),
    )


def _page(view: _LiveView) -> Page:
    tones: dict[str, Tone] = {"passed": "good", "skipped": "plain"}
    verdicts = [Verdict(text=f"Outcome: {view.outcome}", tone=tones.get(view.outcome, "bad"))]
    verdicts += [Verdict(text=f"Failed: {item}", tone="bad") for item in view.failed]
    sections = [Section(key="outcome", title="Outcome", verdicts=tuple(verdicts), notes=view.notes)]
    summary = f"Live arm: {view.outcome}."
    if view.counts is not None:
        c = view.counts
        summary = (
            f"Live arm: {view.outcome}; {c.probe_count} probes, lift {c.lift} "
            f"(minimum {c.minimum_lift}), cost USD {view.total_cost_usd:.4f}."
        )
        sections.append(
            Section(
                key="live-correct",
                title="With and without memory",
                charts=(_correct_chart(c, view.rows),),
                tables=(_conditions(c),),
            )
        )
        classes = ", ".join(f"{k} {v}" for k, v in c.failure_classes.items()) or "none"
        sections.append(
            Section(
                key="live-cost",
                title="Runs and cost",
                tables=(
                    Table(
                        key="live-cost",
                        title="",
                        header=("figure", "value"),
                        rows=(
                            ("total cost (USD)", f"{view.total_cost_usd:.4f}"),
                            ("cost ceiling (USD)", _or_none(view.cost_ceiling_usd)),
                            ("per-run ceiling (USD)", _or_none(view.per_run_ceiling_usd)),
                            ("runs admitted", _or_none(view.runs_admitted)),
                            ("retried runs", str(c.retried_runs)),
                            (
                                "policy failures with / without memory",
                                f"{c.with_memory_policy_failures} / "
                                f"{c.without_memory_policy_failures}",
                            ),
                            ("failure classes", classes),
                        ),
                    ),
                ),
            )
        )
    return Page(
        title="Memory benchmark: live arm",
        summary=summary,
        provenance=view.provenance,
        sections=tuple(sections),
    )


def live_page(result: LiveBenchmarkResult) -> Page:
    """The report page of a live result document (passed, failed, aborted or skipped)."""
    notes = tuple(
        note
        for note in (
            f"Skipped: {result.skip_reason}" if result.skip_reason else "",
            f"Stopped by: {result.stopped_by}" if result.stopped_by else "",
            f"Error: {result.error}" if result.error else "",
            f"{len(result.incomplete)} incomplete runs" if result.incomplete else "",
        )
        if note
    )
    return _page(
        _LiveView(
            outcome=result.outcome,
            notes=notes,
            provenance=(
                ("arm", "live"),
                ("benchmark", result.benchmark_version),
                *_result_provenance(result.provenance),
                ("provider", _or_none(result.provider)),
                ("model", _or_none(result.model)),
                ("policy profile", _or_none(result.policy_profile)),
                ("compiled policy", _or_none(result.compiled_policy_version)),
                ("provider formation evidence", _name(result.provider_formation_evidence_file)),
                ("evidence written", _name(result.evidence_path)),
            ),
            counts=result.counts,
            rows=result.rows,
            total_cost_usd=result.total_cost_usd,
            cost_ceiling_usd=result.cost_ceiling_usd,
            per_run_ceiling_usd=result.per_run_ceiling_usd,
            runs_admitted=result.runs_admitted,
            failed=tuple(result.failed_conditions),
        )
    )


def live_evidence_page(evidence: MemoryBenchmarkEvidence) -> Page:
    """The report page of published live evidence (which passed every condition)."""
    return _page(
        _LiveView(
            outcome="passed",
            notes=(),
            provenance=(
                ("arm", "live (published evidence)"),
                ("benchmark", evidence.benchmark_version),
                ("corpus sha256", evidence.provenance.inputs["corpus"]),
                *provenance_rows(evidence.provenance),
                ("provider", evidence.provider),
                ("model", evidence.model),
                ("policy profile", evidence.policy_profile),
                ("compiled policy", evidence.compiled_policy_version),
                ("provider formation evidence", evidence.provider_formation_evidence_file),
            ),
            counts=evidence.counts,
            rows=evidence.rows,
            total_cost_usd=evidence.total_cost_usd,
            cost_ceiling_usd=evidence.cost_ceiling_usd,
            per_run_ceiling_usd=evidence.per_run_ceiling_usd,
            runs_admitted=None,
            failed=tuple(
                failed_conditions(
                    evidence.counts,
                    total_cost_usd=evidence.total_cost_usd,
                    cost_ceiling_usd=evidence.cost_ceiling_usd,
                )
            ),
        )
    )


__all__ = ["WITHOUT_MEMORY", "WITH_MEMORY", "live_evidence_page", "live_page"]
