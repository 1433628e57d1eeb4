"""The tracked metrics of a deterministic or live run, recorded through
:mod:`memory_core.telemetry` (OpenTelemetry when installed, else nothing).

Values are derived from the run's integer counts; attributes are the arm, the benchmark
version, the corpus digest, and (per metric) the category, the attribution moment or the live
outcome: identifiers only, never a statement, a model name, a path or a question.
"""

from __future__ import annotations

from memory_bench.live.arm import LiveBenchmarkResult
from memory_bench.metrics import DeterministicRun, ProbeCounts, ratio
from memory_core.telemetry import AttributeValue, Telemetry, telemetry


def _recall_pair(
    meter: Telemetry, counts: ProbeCounts, attributes: dict[str, AttributeValue]
) -> None:
    """End-to-end recall, recall given formed and noise ratio: recorded together, always."""
    meter.record("memory.benchmark.recall.end_to_end", counts.end_to_end_recall(), attributes)
    meter.record("memory.benchmark.recall.given_formed", counts.recall_given_formed(), attributes)
    meter.record("memory.benchmark.noise.ratio", counts.noise_ratio(), attributes)
    for moment, value in (
        ("snapshot_only", counts.recalled_snapshot_only),
        ("in_turn_only", counts.recalled_in_turn_only),
        ("both", counts.recalled_both),
    ):
        meter.record(
            "memory.benchmark.recall.attributed", value, {**attributes, "memory.moment": moment}
        )


def record_deterministic_run(
    run: DeterministicRun, *, wall_seconds: float, recorder: Telemetry | None = None
) -> None:
    """Record one deterministic run: the run itself, formation, recall and attribution."""
    meter = recorder if recorder is not None else telemetry()
    base: dict[str, AttributeValue] = {
        "memory.arm": "deterministic",
        "memory.benchmark_version": run.benchmark_version,
        "memory.corpus_digest": run.corpus_digest,
    }
    meter.record("memory.benchmark.runs", 1, {**base, "memory.outcome": "completed"})
    meter.record("memory.benchmark.duration", wall_seconds, {"memory.arm": "deterministic"})
    formation = run.metrics.formation
    retrieval = run.metrics.retrieval
    meter.record("memory.benchmark.formation.precision", formation.precision(), base)
    meter.record("memory.benchmark.formation.recall", formation.recall(), base)
    meter.record("memory.benchmark.formation.fabricated", formation.fabricated, base)
    meter.record("memory.benchmark.formation.stale_live", formation.stale_live, base)
    meter.record(
        "memory.benchmark.formation.unformed",
        retrieval.needed_total - retrieval.needed_formed,
        base,
    )
    meter.record("memory.benchmark.dropped_for_budget", retrieval.dropped_for_budget, base)
    _recall_pair(meter, retrieval, {**base, "memory.category": "all"})
    for row in run.metrics.by_category:
        _recall_pair(meter, row.counts, {**base, "memory.category": row.category})


def record_live_result(
    result: LiveBenchmarkResult, *, wall_seconds: float, recorder: Telemetry | None = None
) -> None:
    """Record one live invocation: the run, and (when it ran) lift, correctness and cost."""
    meter = recorder if recorder is not None else telemetry()
    base: dict[str, AttributeValue] = {
        "memory.arm": "live",
        "memory.benchmark_version": result.benchmark_version,
        "memory.outcome": result.outcome,
    }
    if result.provenance is not None:
        base["memory.corpus_digest"] = result.provenance.inputs["corpus"]
    meter.record("memory.benchmark.runs", 1, base)
    meter.record("memory.benchmark.duration", wall_seconds, {"memory.arm": "live"})
    counts = result.counts
    if counts is None:
        return
    meter.record("memory.benchmark.live.lift", counts.lift, base)
    meter.record(
        "memory.benchmark.live.recoverable_correct",
        ratio(counts.recoverable_correct, counts.recoverable_probe_count),
        base,
    )
    meter.record(
        "memory.benchmark.live.abstention_correct",
        ratio(counts.abstain_with_memory_correct, counts.abstain_expected),
        base,
    )
    meter.record("memory.benchmark.live.cost", result.total_cost_usd, base)


__all__ = ["record_deterministic_run", "record_live_result"]
