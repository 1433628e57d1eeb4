"""The spec's tracked metrics of real runs reach an in-memory exporter, with the values the
results hold, and no statement, question, turn text, secret or path in any attribute.

The deterministic arm runs the checked-in corpus (its protected statements, injected claims
and forbidden statements are the adversarial fixtures); the external adapters run each
synthetic fixture. Every string of those inputs longer than a word is searched for in every
attribute value and metric name.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from _support.metrics_reader import MetricsCapture, Point
from _support.report_figures import live_result

import memory_core.telemetry
from memory_bench.corpus import load_corpus
from memory_bench.driver import run_deterministic_benchmark
from memory_bench.metrics import DeterministicRun
from memory_bench.source_tree import SourceTree
from memory_bench.telemetry import record_deterministic_run, record_live_result
from memory_bench_external import (
    ExternalMetrics,
    open_halumem,
    open_locomo,
    open_longmemeval,
    run_external,
)
from memory_bench_external.telemetry import record_external_metrics
from memory_cli.app import main
from memory_core.telemetry import INSTRUMENTS_BY_NAME

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "corpus" / "memory-benchmark.v1.json"
FIXTURES = ROOT / "tests" / "memory_bench_external" / "fixtures"
_IDENTIFIER = re.compile(r"[A-Za-z0-9_.:@+\-]{1,96}")


@pytest.fixture
def capture() -> Iterator[MetricsCapture]:
    found = MetricsCapture()
    yield found
    found.close()


@pytest.fixture(scope="module")
def run() -> DeterministicRun:
    corpus, digest = load_corpus(CORPUS)
    return run_deterministic_benchmark(corpus, digest)


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(key)
            yield from _strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)


def _text_of(path: Path) -> set[str]:
    """Every string in a JSON or JSON Lines file that is more than one word."""
    raw = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        documents = [json.loads(line) for line in raw.splitlines() if line.strip()]
    else:
        documents = [json.loads(raw)]
    return {s for s in _strings(documents) if " " in s.strip()}


def _assert_clean(points: list[Point], forbidden: set[str]) -> None:
    assert points
    assert forbidden
    for point in points:
        assert point.name in INSTRUMENTS_BY_NAME
        assert set(point.attributes) <= set(INSTRUMENTS_BY_NAME[point.name].attributes)
        for value in point.attributes.values():
            if isinstance(value, str):
                assert _IDENTIFIER.fullmatch(value), (point.name, value)
                assert "/" not in value and "\\" not in value
                assert str(ROOT) not in value
        shown = json.dumps([point.name, point.attributes])
        leaked = [text for text in forbidden if text in shown]
        assert not leaked, (point.name, leaked[:3])


def test_deterministic_run_metrics(capture: MetricsCapture, run: DeterministicRun) -> None:
    record_deterministic_run(run, wall_seconds=1.25, recorder=capture.recorder)
    points = capture.points()
    names = {p.name for p in points}
    assert names == {
        "memory.benchmark.runs",
        "memory.benchmark.duration",
        "memory.benchmark.formation.precision",
        "memory.benchmark.formation.recall",
        "memory.benchmark.formation.fabricated",
        "memory.benchmark.formation.stale_live",
        "memory.benchmark.formation.unformed",
        "memory.benchmark.recall.end_to_end",
        "memory.benchmark.recall.given_formed",
        "memory.benchmark.noise.ratio",
        "memory.benchmark.recall.attributed",
        "memory.benchmark.dropped_for_budget",
    }
    m = run.metrics
    digest = {"memory.corpus_digest": run.corpus_digest}
    assert capture.value("memory.benchmark.runs", **digest) == 1
    assert capture.value("memory.benchmark.duration") == 1.25
    assert capture.value("memory.benchmark.formation.precision") == pytest.approx(
        m.formation.supported / m.formation.formed
    )
    assert capture.value("memory.benchmark.formation.unformed") == (
        m.retrieval.needed_total - m.retrieval.needed_formed
    )
    for row in (*m.by_category, None):
        category = "all" if row is None else row.category
        counts = m.retrieval if row is None else row.counts
        pair = {"memory.category": category}
        # The pair (and the noise ratio) is recorded wherever it is defined, never alone.
        recall = [
            p
            for p in points
            if p.name.startswith("memory.benchmark.recall.")
            and p.name != "memory.benchmark.recall.attributed"
            and p.attributes["memory.category"] == category
        ]
        assert len(recall) == (2 if counts.needed_total else 0)
        if counts.needed_total:
            assert capture.value("memory.benchmark.recall.end_to_end", **pair) == pytest.approx(
                counts.needed_recalled / counts.needed_total
            )
        attributed = sum(
            capture.value("memory.benchmark.recall.attributed", **pair, **{"memory.moment": m_})
            for m_ in ("snapshot_only", "in_turn_only", "both")
        )
        assert attributed == counts.needed_recalled
        assert capture.value("memory.benchmark.noise.ratio", **pair) == pytest.approx(
            counts.noise_total / counts.returned_total
        )
    corpus_text = _text_of(CORPUS)
    assert "User lives in Seattle." in corpus_text  # the statements are searched for
    _assert_clean(points, corpus_text)


@pytest.mark.parametrize(
    ("name", "opener", "options"),
    [
        ("synthetic_longmemeval.json", open_longmemeval, {}),
        ("synthetic_locomo.json", open_locomo, {"principal_speaker": "a", "split": "all"}),
        ("synthetic_halumem.jsonl", open_halumem, {}),
    ],
)
def test_external_run_metrics(
    capture: MetricsCapture, name: str, opener: Any, options: dict[str, Any]
) -> None:
    path = FIXTURES / name
    metrics = ExternalMetrics.from_run(
        run_external(opener(path, sample=None, seed=0, **options)),
        source=SourceTree(commit=None),
        recorded_at=datetime(2026, 5, 1, tzinfo=UTC),
    )
    record_external_metrics(metrics, wall_seconds=0.5, recorder=capture.recorder)
    for retriever, arm in (("memory", metrics.memory), ("raw_turn_bm25", metrics.raw_turn_bm25)):
        for k in metrics.ks:
            where = {"memory.retriever": retriever, "memory.k": k}
            got = capture.value("memory.benchmark.external.recall_at_k", **where)
            assert got == pytest.approx(arm.recall_at_k.hits[str(k)] / arm.recall_at_k.probes)
            point = next(
                p
                for p in capture.points()
                if p.name == "memory.benchmark.external.recall_at_k"
                and all(p.attributes[a] == b for a, b in where.items())
            )
            assert point.attributes["memory.dataset"] == metrics.dataset
            assert point.attributes["memory.license"] == metrics.license
            assert point.attributes["memory.sample"] == "all"
            sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
            assert metrics.provenance.inputs == {"dataset_file": sha256}
            assert point.attributes["memory.file_sha256"] == sha256
    forbidden = _text_of(path) | {str(path), path.name, str(FIXTURES)}
    _assert_clean(capture.points(), forbidden)


def test_live_result_metrics(capture: MetricsCapture) -> None:
    result = live_result()
    record_live_result(result, wall_seconds=3.0, recorder=capture.recorder)
    counts = result.counts
    assert counts is not None
    assert capture.value("memory.benchmark.live.lift") == counts.lift
    assert capture.value("memory.benchmark.live.cost") == pytest.approx(result.total_cost_usd)
    assert capture.value("memory.benchmark.live.abstention_correct") == pytest.approx(
        counts.abstain_with_memory_correct / counts.abstain_expected
    )
    # The model name and the evidence path are not attributes.
    _assert_clean(capture.points(), {"local-test-model", "/home/someone", "provider-formation"})


def test_the_cli_records_into_the_global_provider(
    capture: MetricsCapture, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(memory_core.telemetry, "_global_provider", lambda: capture.provider)
    assert main(["eval", "memory-benchmark", "--deterministic-only"]) == 0
    capsys.readouterr()
    assert capture.value("memory.benchmark.runs", **{"memory.arm": "deterministic"}) == 1
    assert capture.value("memory.benchmark.recall.end_to_end", **{"memory.category": "all"}) > 0
