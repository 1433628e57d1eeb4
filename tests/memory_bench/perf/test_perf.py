"""``memory_bench.perf``: generated data, percentiles, loading and the report (never timings).

Durations come from a fake timer that advances one millisecond per reading, so every figure
the report derives from it is exact and nothing here depends on how fast the machine is.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from memory_bench.perf import (
    BENCH_NOW,
    BENCH_PRINCIPAL,
    RECALL_BENCHMARK_VERSION,
    generate_beliefs,
    generate_questions,
    load_beliefs,
    nearest_rank,
    render_table,
    run_recall_benchmark,
    summarize,
)
from memory_core import Belief, InMemoryStorage, UsageError
from memory_core.domain import LIVE_STATUSES, BeliefStatus, RecallTrace
from memory_core.policy import RETRIEVAL_POLICY


class FakeTimer:
    """A seconds counter that advances 1 ms per reading."""

    def __init__(self) -> None:
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return self.readings / 1000.0


def test_generated_beliefs_are_a_function_of_the_seed() -> None:
    first = list(generate_beliefs(BENCH_PRINCIPAL, 300, seed=7))
    again = list(generate_beliefs(BENCH_PRINCIPAL, 300, seed=7))
    other = list(generate_beliefs(BENCH_PRINCIPAL, 300, seed=8))

    assert first == again
    assert [b.statement for b in first] != [b.statement for b in other]
    assert len({b.id for b in first}) == 300
    assert len({b.short_id for b in first}) == 300
    assert all(b.principal == BENCH_PRINCIPAL for b in first)
    created = [b.created_at for b in first]
    assert created == sorted(created) and created[-1] < BENCH_NOW
    statuses = {b.status for b in first}
    assert statuses & LIVE_STATUSES and statuses - LIVE_STATUSES
    assert len({b.scope for b in first}) == 4
    assert all(b.valid_to is None for b in first if b.status in LIVE_STATUSES)
    assert all(b.valid_to is not None for b in first if b.status not in LIVE_STATUSES)


def test_questions_are_a_function_of_the_seed_and_share_the_vocabulary() -> None:
    questions = generate_questions(50, seed=3)
    assert questions == generate_questions(50, seed=3)
    assert questions != generate_questions(50, seed=4)
    statements = " ".join(b.statement for b in generate_beliefs(BENCH_PRINCIPAL, 500, seed=3))
    words = {w.strip("?.").lower() for q in questions for w in q.split()}
    assert any(word in statements.lower() for word in words if len(word) > 5)


def test_nearest_rank_percentiles() -> None:
    samples = [float(n) for n in range(10, 0, -1)]
    assert nearest_rank(samples, 0.5) == 5.0
    assert nearest_rank(samples, 0.95) == 10.0
    assert nearest_rank(samples, 0.1) == 1.0
    assert nearest_rank([4.0], 0.95) == 4.0
    with pytest.raises(UsageError):
        nearest_rank([], 0.5)
    with pytest.raises(UsageError):
        nearest_rank([1.0], 0.0)
    summary = summarize([1.0, 2.0, 3.0, 10.0], [2, 4, 0, 2])
    assert (summary.p50_ms, summary.p95_ms, summary.mean_ms, summary.max_ms) == (2, 10, 4, 10)
    assert summary.returned_mean == 2.0


def test_loading_goes_through_the_bulk_call_in_chunks() -> None:
    storage = InMemoryStorage()
    chunks: list[int] = []

    def bulk_put(batch: Sequence[Belief]) -> None:
        chunks.append(len(batch))
        for belief in batch:
            storage.memories.put(belief)

    beliefs = generate_beliefs(BENCH_PRINCIPAL, 50, seed=0)
    stored, live, seconds = load_beliefs(
        storage, beliefs, bulk_put=bulk_put, chunk=20, timer=FakeTimer()
    )

    assert chunks == [20, 20, 10]
    assert stored == 50 == len(storage.memories.list_beliefs(BENCH_PRINCIPAL))
    assert live == len(storage.memories.list_beliefs(BENCH_PRINCIPAL, LIVE_STATUSES))
    assert seconds == pytest.approx(0.003)  # one millisecond per chunk on the fake timer


def _recording_traces(storage: InMemoryStorage) -> list[RecallTrace]:
    """Record every trace the run writes (the run must go through the trace store)."""
    recorded: list[RecallTrace] = []
    record = storage.traces.record

    def recording(trace: RecallTrace) -> RecallTrace:
        recorded.append(trace)
        return record(trace)

    storage.traces.record = recording  # type: ignore[method-assign]
    return recorded


def test_a_run_loads_the_principal_and_records_a_trace_per_recall() -> None:
    storage = InMemoryStorage()
    traces = _recording_traces(storage)
    report = run_recall_benchmark(
        storage, storage_name="memory", beliefs=120, queries=6, seed=1, timer=FakeTimer()
    )

    assert report.benchmark == RECALL_BENCHMARK_VERSION
    assert report.retrieval_policy == RETRIEVAL_POLICY
    assert (report.storage, report.beliefs, report.queries, report.seed) == ("memory", 120, 6, 1)
    assert report.live_beliefs == len(
        storage.memories.list_beliefs(BENCH_PRINCIPAL, frozenset(LIVE_STATUSES))
    )
    assert report.in_turn.samples == report.snapshot.samples == 6
    assert report.snapshot.returned_mean > 0  # the snapshot always has something to return
    assert report.load_rate_beliefs_per_s > 0
    # Every recall, warm-up included, wrote its trace; recalls wrote no belief.
    assert len(storage.memories.list_beliefs(BENCH_PRINCIPAL)) == 120
    assert len(traces) == 2 * (report.queries + report.warmup)
    moments = [trace.moment for trace in traces]
    assert moments.count("in_turn") == moments.count("snapshot") == report.queries + report.warmup
    assert "p50 ms" in str([column.header for column in render_table(report).columns])


@pytest.mark.parametrize(
    ("beliefs", "queries", "message"),
    [(0, 5, "--beliefs must be at least 1"), (5, 0, "--queries must be at least 1")],
)
def test_sizes_below_one_are_usage_errors(beliefs: int, queries: int, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        run_recall_benchmark(
            InMemoryStorage(), storage_name="memory", beliefs=beliefs, queries=queries
        )


def test_non_live_beliefs_are_never_recalled() -> None:
    storage = InMemoryStorage()
    traces = _recording_traces(storage)
    run_recall_benchmark(storage, storage_name="memory", beliefs=200, queries=10, seed=2)
    dead = {
        b.id
        for b in storage.memories.list_beliefs(BENCH_PRINCIPAL)
        if b.status in (BeliefStatus.SUPERSEDED, BeliefStatus.RETIRED)
    }
    assert dead
    returned = {i for trace in traces for i in trace.returned}
    assert returned and not returned & dead
