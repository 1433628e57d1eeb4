"""What the recall delta and correction lines cost a turn, against the turn's base recall.

``run_delta_benchmark`` measures one mid-session turn of a principal holding N beliefs::

    storage    = a fresh, empty tier; N - since generated beliefs bulk-loaded (memory_bench.perf)
    snapshot   = a snapshot recall; watermark = head_position (what a session open records)
    mid-session: `since` more beliefs are written and `corrected` snapshot members retired,
                 each taking a fresh store position past the watermark
    per timed question (Q of them, after WARMUP_RECALLS untimed):
      base        in_turn recall of the question                      (what every turn pays)
      head        head_position(principal)                            (what a quiet turn adds)
      corrections MemoryRetriever.corrections(snapshot, watermark)    (trace + one member read)
      delta       a delta recall at the whole in-turn allowance, the base's ids excluded
                  (the dearest delta a turn can issue; a base that used its allowance issues none)

Every call is the production path, trace writes included. The report gives each latency
summary and the ratios of mean latency to the base recall's; ``issued`` counts the questions
whose base left an allowance, i.e. where ``recall_delta`` would have issued the delta at all.

Run it as ``agent bench delta --storage memory --beliefs 100000`` (or ``--storage postgres``,
in a temporary schema of ``--url`` or ``MEMORY_DATABASE_URL``); the JSON report goes to stdout.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from memory_bench.perf import (
    BENCH_NOW,
    BENCH_PRINCIPAL,
    BENCH_PROJECT,
    WARMUP_RECALLS,
    BulkPut,
    LatencySummary,
    bench_retriever,
    generate_beliefs,
    generate_questions,
    in_turn_request,
    load_beliefs,
    snapshot_request,
    summarize,
)
from memory_core.domain import BeliefStatus
from memory_core.errors import UsageError
from memory_core.policy import RETRIEVAL_POLICY
from memory_core.ports import Storage
from memory_core.profiles import load_profiles
from memory_core.retrieval import RecallRequest
from memory_core.retrieval.lifecycle import delta_allowance

DELTA_BENCHMARK_VERSION: Final = "recall-delta-cost@1"
"""Version of the procedure; a change makes figures incomparable."""


class DeltaBenchReport(BaseModel):
    """What one delta-cost run measured (latencies in milliseconds).

    Attributes:
        benchmark: ``DELTA_BENCHMARK_VERSION``.
        storage: The tier measured.
        beliefs: Beliefs of the principal (any status), mid-session writes included.
        since_watermark: Beliefs written past the watermark.
        corrected: Snapshot members retired past the watermark.
        queries: Timed questions.
        seed: Data and question seed.
        retrieval_policy: The retrieval policy version.
        base: The in-turn recall of each question.
        head: ``head_position``.
        corrections: ``MemoryRetriever.corrections``.
        delta: The delta recall at the whole in-turn allowance.
        issued: Questions whose base left an allowance (``recall_delta`` would issue).
        base_reads_ms: Mean of the base traces' summed arm latencies (the store reads).
        delta_reads_ms: The same for the delta; the rest of a recall is ranking, rendering
            and the trace write.
        delta_to_base: ``delta.mean_ms / base.mean_ms``.
        turn_overhead_to_base: ``(head + corrections + delta) mean / base mean``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    benchmark: str
    storage: str
    beliefs: int = Field(ge=1)
    since_watermark: int = Field(ge=0)
    corrected: int = Field(ge=0)
    queries: int = Field(ge=1)
    seed: int
    retrieval_policy: str
    base: LatencySummary
    head: LatencySummary
    corrections: LatencySummary
    delta: LatencySummary
    issued: int = Field(ge=0)
    base_reads_ms: float = Field(ge=0)
    delta_reads_ms: float = Field(ge=0)
    delta_to_base: float = Field(ge=0)
    turn_overhead_to_base: float = Field(ge=0)


def run_delta_benchmark(
    storage: Storage,
    *,
    storage_name: str,
    beliefs: int,
    since: int = 20,
    corrected: int = 2,
    queries: int = 100,
    seed: int = 0,
    bulk_put: BulkPut | None = None,
    after_load: Callable[[], object] | None = None,
    warmup: int = WARMUP_RECALLS,
    timer: Callable[[], float] = time.perf_counter,
) -> DeltaBenchReport:
    """Load the principal, snapshot, change things mid-session, then time a turn's parts.

    Raises:
        UsageError: a count is out of range.
    """
    if beliefs <= since or since < 0 or corrected < 0 or queries < 1 or warmup < 0:
        raise UsageError(
            "need beliefs > since >= 0, corrected >= 0, queries >= 1 and warmup >= 0; got "
            f"beliefs={beliefs}, since={since}, corrected={corrected}, queries={queries}, "
            f"warmup={warmup}"
        )
    generated = generate_beliefs(BENCH_PRINCIPAL, beliefs, seed=seed)
    before = [next(generated) for _ in range(beliefs - since)]
    load_beliefs(storage, iter(before), bulk_put=bulk_put)
    if after_load is not None:
        after_load()
    profiles = load_profiles()
    retriever = bench_retriever(
        storage, version=DELTA_BENCHMARK_VERSION, seed=seed, timer=timer, profiles=profiles
    )
    watermark = storage.memories.head_position(BENCH_PRINCIPAL)
    snapshot = retriever.recall(snapshot_request())
    # Mid-session: new beliefs, and snapshot members retired (fresh positions past the mark).
    load_beliefs(storage, generated, bulk_put=bulk_put)
    for belief in snapshot.beliefs[:corrected]:
        storage.memories.update(
            belief.model_copy(update={"status": BeliefStatus.RETIRED, "valid_to": BENCH_NOW})
        )
    budget = profiles.retrieval.in_turn
    questions = generate_questions(warmup + queries, seed=seed)
    samples: dict[str, list[float]] = {k: [] for k in ("base", "head", "corrections", "delta")}
    returned: dict[str, list[int]] = {k: [] for k in samples}
    reads: dict[str, list[float]] = {"base": [], "delta": []}
    issued = 0
    for index, text in enumerate(questions):
        timed = index >= warmup
        started = timer()
        base = retriever.recall(in_turn_request(text))
        base_ms = (timer() - started) * 1000.0
        started = timer()
        head = storage.memories.head_position(BENCH_PRINCIPAL)
        head_ms = (timer() - started) * 1000.0
        started = timer()
        found = retriever.corrections(snapshot.trace.trace_id, watermark, principal=BENCH_PRINCIPAL)
        corrections_ms = (timer() - started) * 1000.0
        delta_request = RecallRequest(
            principal=BENCH_PRINCIPAL,
            moment="delta",
            project_scope=BENCH_PROJECT,
            max_items=budget.max_items,
            max_tokens=budget.max_tokens,
            min_store_position=watermark,
            exclude_ids=frozenset(base.trace.returned),
        )
        started = timer()
        delta = retriever.recall(delta_request)
        delta_ms = (timer() - started) * 1000.0
        if not timed:
            continue
        allowance = delta_allowance(
            budget, returned_items=len(base.beliefs), rendered_tokens=base.trace.rendered_tokens
        )
        issued += allowance is not None
        for key, result in (("base", base), ("delta", delta)):
            reads[key].append(sum((result.trace.arm_latencies_ms or {}).values()))
        for key, ms, count in (
            ("base", base_ms, len(base.beliefs)),
            ("head", head_ms, int(head > watermark)),
            ("corrections", corrections_ms, len(found.lines)),
            ("delta", delta_ms, len(delta.beliefs)),
        ):
            samples[key].append(ms)
            returned[key].append(count)
    summaries = {key: summarize(samples[key], returned[key]) for key in samples}
    base_mean = summaries["base"].mean_ms or 1e-9
    overhead = sum(summaries[k].mean_ms for k in ("head", "corrections", "delta"))
    return DeltaBenchReport(
        benchmark=DELTA_BENCHMARK_VERSION,
        storage=storage_name,
        beliefs=beliefs,
        since_watermark=since,
        corrected=min(corrected, len(snapshot.beliefs)),
        queries=queries,
        seed=seed,
        retrieval_policy=RETRIEVAL_POLICY,
        base=summaries["base"],
        head=summaries["head"],
        corrections=summaries["corrections"],
        delta=summaries["delta"],
        issued=issued,
        base_reads_ms=round(sum(reads["base"]) / len(reads["base"]), 3),
        delta_reads_ms=round(sum(reads["delta"]) / len(reads["delta"]), 3),
        delta_to_base=round(summaries["delta"].mean_ms / base_mean, 3),
        turn_overhead_to_base=round(overhead / base_mean, 3),
    )


__all__ = ["DELTA_BENCHMARK_VERSION", "DeltaBenchReport", "run_delta_benchmark"]
