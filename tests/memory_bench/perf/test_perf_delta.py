"""The delta-cost benchmark measures the production path and reports consistent counts."""

from __future__ import annotations

import json

import pytest

from memory_bench.perf import BENCH_PRINCIPAL
from memory_bench.perf_delta import DELTA_BENCHMARK_VERSION, run_delta_benchmark
from memory_cli.app import main
from memory_core import InMemoryStorage, Storage
from memory_core.errors import UsageError


def test_a_small_run_reports_every_part_of_the_turn(storage: Storage) -> None:
    bulk = getattr(storage.memories, "put_many", None)
    report = run_delta_benchmark(
        storage, storage_name="tier", beliefs=400, since=15, queries=4, warmup=1, bulk_put=bulk
    )
    assert report.benchmark == DELTA_BENCHMARK_VERSION
    assert report.beliefs == 400
    assert storage.memories.head_position(BENCH_PRINCIPAL) > 400  # retirements moved the head
    assert report.corrections.returned_mean == report.corrected == 2
    assert report.head.returned_mean == 1.0  # the head moved past the watermark
    assert 0 < report.delta.returned_mean <= 8
    assert 0 <= report.issued <= report.queries == report.base.samples == 4
    assert report.delta_to_base == pytest.approx(
        report.delta.mean_ms / report.base.mean_ms, abs=1e-3
    )


def test_bad_counts_are_refused_and_the_command_prints_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(UsageError, match="beliefs > since"):
        run_delta_benchmark(InMemoryStorage(), storage_name="memory", beliefs=10, since=10)
    assert main(["bench", "delta", "--beliefs", "200", "--queries", "2", "--since", "5"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["storage"] == "memory"
    assert report["since_watermark"] == 5
