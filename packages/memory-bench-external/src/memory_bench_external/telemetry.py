"""The tracked metrics of an external run, recorded through :mod:`memory_core.telemetry`.

Evidence-provenance recall@k and words@k of both retrievers at every k, each carrying what
produced it: the dataset, its license, the sample (``all`` for every instance) and the sha256
of the local file. Never the file's path, a question or any dataset text.
"""

from __future__ import annotations

from memory_bench_external.metrics import ExternalMetrics
from memory_core.telemetry import AttributeValue, Telemetry, telemetry


def record_external_metrics(
    metrics: ExternalMetrics, *, wall_seconds: float, recorder: Telemetry | None = None
) -> None:
    """Record one external run: the run, and recall@k and words@k per retriever and k."""
    meter = recorder if recorder is not None else telemetry()
    meter.record(
        "memory.benchmark.runs",
        1,
        {
            "memory.arm": "external",
            "memory.benchmark_version": metrics.benchmark_version,
            "memory.dataset": metrics.dataset,
            "memory.outcome": "completed",
        },
    )
    meter.record(
        "memory.benchmark.duration",
        wall_seconds,
        {"memory.arm": "external", "memory.dataset": metrics.dataset},
    )
    base: dict[str, AttributeValue] = {
        "memory.arm": "external",
        "memory.dataset": metrics.dataset,
        "memory.license": metrics.license,
        "memory.sample": "all" if metrics.sample is None else metrics.sample,
        "memory.file_sha256": metrics.provenance.inputs["dataset_file"],
    }
    for retriever, arm in (("memory", metrics.memory), ("raw_turn_bm25", metrics.raw_turn_bm25)):
        for k in metrics.ks:
            attributes = {**base, "memory.retriever": retriever, "memory.k": k}
            recall, words = arm.recall_at_k, arm.words_at_k
            meter.record(
                "memory.benchmark.external.recall_at_k",
                None if recall.probes == 0 else recall.hits[str(k)] / recall.probes,
                attributes,
            )
            meter.record(
                "memory.benchmark.external.words_at_k",
                None if words.probes == 0 else words.words[str(k)] / words.probes,
                attributes,
            )


__all__ = ["record_external_metrics"]
