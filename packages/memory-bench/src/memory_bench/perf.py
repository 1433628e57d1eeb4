"""Recall latency: load a principal with generated beliefs, then time real recalls.

``run_recall_benchmark`` is what ``agent bench recall`` runs::

    storage      = a fresh, empty tier (in-memory, or a temporary PostgreSQL schema)
    beliefs      = generate_beliefs(BENCH_PRINCIPAL, N, seed)  # in chunks, bulk-loaded, timed
    retriever    = MemoryRetriever(storage.memories, storage.traces, FixedClock(BENCH_NOW), ...)
    warm-up      : WARMUP_RECALLS untimed recalls of each moment
    in_turn      : Q timed recalls, each with a generated question (project BENCH_PROJECT)
    snapshot     : Q timed recalls (the context plan's snapshot budget)

Every recall is the production path: the arms read the store, the candidates are ranked and
rendered, and the trace is written to the trace store before the call returns, so a timing
includes the trace write. The data is a function of ``seed`` alone: a Zipf-distributed
vocabulary of generated words (a few common, most rare, as in real text), five belief types,
four scopes (user, general, the recall's project, another project) and statuses 80% ACTIVE,
8% PROVISIONAL, 8% SUPERSEDED and 4% RETIRED. Timings are wall-clock (``time.perf_counter``)
and are the only part of a report that varies between two runs of one seed.

Percentiles are nearest-rank: ``p95`` of ``n`` samples is the ``ceil(0.95 * n)``-th smallest.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Final, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from rich.table import Table

from memory_core.clock import FixedClock
from memory_core.domain import (
    LIVE_STATUSES,
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Principal,
    scope_for_project,
)
from memory_core.errors import UsageError
from memory_core.ids import SequentialIdFactory
from memory_core.policy import DETERMINISTIC_FORMATION_POLICY, RETRIEVAL_POLICY
from memory_core.ports import Storage
from memory_core.profiles import MemoryProfiles, load_profiles
from memory_core.retrieval import MemoryRetriever, RecallRequest
from memory_core.runtime.context import load_context_plan

RECALL_BENCHMARK_VERSION: Final = "recall-latency@1"
"""Version of the data generator and the procedure; a change makes figures incomparable."""

BENCH_PRINCIPAL: Final = Principal("recall-bench", "bench-user")
"""The one principal every generated belief belongs to."""

BENCH_PROJECT: Final = "orbit-app"
"""The project every timed recall runs in (its beliefs are visible, another project's not)."""

BENCH_NOW: Final = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
"""The fixed instant recalls run at; generated beliefs span the year before it."""

WARMUP_RECALLS: Final = 3
"""Untimed recalls of each moment before timing (connection pools, caches, plans)."""

LOAD_CHUNK: Final = 10_000
"""Beliefs generated and handed to the store per bulk call."""

VOCABULARY_SIZE: Final = 4_000
"""Distinct generated words the statements and questions draw from (Zipf, exponent 1)."""

_SYLLABLES: Final = tuple(c + v for c in "bdfgklmnprstvz" for v in "aeiou")
_ROLES: Final = ("manager", "dentist", "sister", "mentor", "landlord", "coach", "partner")
_STATUS_WEIGHTS: Final = (
    (BeliefStatus.ACTIVE, 80),
    (BeliefStatus.PROVISIONAL, 8),
    (BeliefStatus.SUPERSEDED, 8),
    (BeliefStatus.RETIRED, 4),
)
_SCOPE_WEIGHTS: Final = (
    ("user", 40),
    ("general", 30),
    (scope_for_project(BENCH_PROJECT), 20),
    (scope_for_project("other-project"), 10),
)
_QUESTION_TEMPLATES: Final = (
    "What do I prefer for {a}?",
    "Which {a} do I use for {b}?",
    "Who is my {role}?",
    "What did we decide about the {a} {b}?",
    "Where is the {a} runbook?",
    "Tell me what you remember about {a} and {b}.",
)

_T = TypeVar("_T")

BulkPut = Callable[[Sequence[Belief]], object]
"""Stores a batch of new beliefs of one principal (e.g. ``PostgresMemoryStore.put_many``)."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LatencySummary(_Model):
    """Latency of one recall moment over the timed calls (milliseconds, 3 decimals).

    Attributes:
        samples: Timed calls.
        p50_ms: Nearest-rank median.
        p95_ms: Nearest-rank 95th percentile.
        mean_ms: Arithmetic mean.
        max_ms: Slowest call.
        returned_mean: Beliefs returned per call, on average (a recall that returns nothing
            would be a fast, meaningless figure).
    """

    samples: int = Field(ge=1)
    p50_ms: float = Field(ge=0)
    p95_ms: float = Field(ge=0)
    mean_ms: float = Field(ge=0)
    max_ms: float = Field(ge=0)
    returned_mean: float = Field(ge=0)


class RecallBenchReport(_Model):
    """What one ``agent bench recall`` run measured.

    Attributes:
        benchmark: ``RECALL_BENCHMARK_VERSION``.
        storage: The tier measured (``memory`` or ``postgres``).
        beliefs: Beliefs loaded for the principal (any status).
        live_beliefs: Of those, ACTIVE or PROVISIONAL.
        queries: Timed recalls per moment.
        warmup: Untimed recalls per moment before timing.
        seed: The data and question seed.
        retrieval_policy: The retrieval policy version the recalls ran under.
        load_seconds: Wall time of the bulk store calls (generation excluded).
        load_rate_beliefs_per_s: ``beliefs / load_seconds``.
        in_turn: Latency of ``in_turn`` recalls (a generated question each).
        snapshot: Latency of ``snapshot`` recalls.
    """

    benchmark: str
    storage: str
    beliefs: int = Field(ge=1)
    live_beliefs: int = Field(ge=0)
    queries: int = Field(ge=1)
    warmup: int = Field(ge=0)
    seed: int
    retrieval_policy: str
    load_seconds: float = Field(ge=0)
    load_rate_beliefs_per_s: float = Field(ge=0)
    in_turn: LatencySummary
    snapshot: LatencySummary


def nearest_rank(samples: Sequence[float], quantile: float) -> float:
    """The nearest-rank ``quantile`` (0 < q <= 1) of ``samples``.

    Raises:
        UsageError: no samples, or the quantile is outside (0, 1].
    """
    if not samples:
        raise UsageError("a percentile needs at least one sample")
    if not 0 < quantile <= 1:
        raise UsageError(f"quantile must be in (0, 1], got {quantile}")
    ordered = sorted(samples)
    return ordered[max(math.ceil(quantile * len(ordered)), 1) - 1]


def summarize(durations_ms: Sequence[float], returned: Sequence[int]) -> LatencySummary:
    """Summarize timed calls: nearest-rank p50 and p95, mean and max, returned beliefs."""
    return LatencySummary(
        samples=len(durations_ms),
        p50_ms=round(nearest_rank(durations_ms, 0.50), 3),
        p95_ms=round(nearest_rank(durations_ms, 0.95), 3),
        mean_ms=round(sum(durations_ms) / len(durations_ms), 3),
        max_ms=round(max(durations_ms), 3),
        returned_mean=round(sum(returned) / len(returned), 3),
    )


def _vocabulary(seed: int) -> tuple[str, ...]:
    rng = random.Random(f"{RECALL_BENCHMARK_VERSION}/vocabulary/{seed}")
    words: dict[str, None] = {}
    while len(words) < VOCABULARY_SIZE:
        words.setdefault("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return tuple(words)


class ZipfWords:
    """Zipf-distributed draws from the seed's vocabulary (rank r has weight 1/r)."""

    def __init__(self, seed: int, stream: str) -> None:
        self._words = _vocabulary(seed)
        self._cumulative = list(
            itertools.accumulate(1.0 / rank for rank in range(1, 1 + len(self._words)))
        )
        self.rng = random.Random(f"{RECALL_BENCHMARK_VERSION}/{stream}/{seed}")

    def draw(self) -> str:
        """One word, rank ``r`` drawn with weight ``1/r``."""
        return self.rng.choices(self._words, cum_weights=self._cumulative)[0]

    def draw_uniform(self) -> str:
        """One word, every rank alike (a typical word rather than a typically common one)."""
        return self.rng.choice(self._words)


def _weighted(rng: random.Random, table: Sequence[tuple[_T, int]]) -> _T:
    return rng.choices([value for value, _ in table], weights=[w for _, w in table])[0]


def _belief_text(words: ZipfWords, belief_type: BeliefType) -> tuple[str, str]:
    a, b, c = words.draw(), words.draw(), words.draw()
    if belief_type is BeliefType.PREFERENCE:
        return f"{a} preference", f"User prefers {b} {c} for {a}."
    if belief_type is BeliefType.FACT:
        return f"{a} {b}", f"The team decided to use {c} for the {a} {b}."
    if belief_type is BeliefType.USER_MODEL_ATTR:
        return a, f"User uses {a} for {b} and {c}."
    if belief_type is BeliefType.RELATIONSHIP:
        role = words.rng.choice(_ROLES)
        return role, f"User's {role} is {a.capitalize()} {b.capitalize()}."
    return f"{a} runbook", f"The {a} runbook is at docs/{a}/{b}.md."


def generate_beliefs(
    principal: Principal, count: int, *, seed: int, now: datetime = BENCH_NOW
) -> Iterator[Belief]:
    """``count`` beliefs of ``principal``, oldest first, spread over the year before ``now``.

    Deterministic in ``seed``: the same arguments give the same beliefs (ids included).
    """
    if count < 0:
        raise UsageError(f"belief count must be >= 0, got {count}")
    words = ZipfWords(seed, "beliefs")
    ids = SequentialIdFactory(namespace=f"{RECALL_BENCHMARK_VERSION}/{seed}")
    types = sorted(BeliefType, key=lambda t: t.value)
    span = timedelta(days=365)
    for index in range(count):
        created = now - span + span * (index + 1) / (count + 1)
        belief_type = types[words.rng.randrange(len(types))]
        status = _weighted(words.rng, _STATUS_WEIGHTS)
        subject, statement = _belief_text(words, belief_type)
        live = status in LIVE_STATUSES
        yield Belief(
            id=ids.new_id(),
            tenant_id=principal.tenant_id,
            principal_id=principal.principal_id,
            belief_type=belief_type,
            subject=subject,
            statement=statement,
            scope=_weighted(words.rng, _SCOPE_WEIGHTS),
            status=status,
            authority=Authority.USER if status is BeliefStatus.ACTIVE else Authority.INFERRED,
            confidence=0.9 if status is BeliefStatus.ACTIVE else 0.6,
            evidence_count=1 + words.rng.randrange(3),
            source_event_ids=(f"evt-{index:08d}",),
            source_session_id=f"session-{index // 20:06d}",
            valid_from=created,
            valid_to=None if live else created + (now - created) / 2,
            last_evidence_at=created,
            created_at=created,
            updated_at=created,
            consolidation_policy_version=DETERMINISTIC_FORMATION_POLICY,
        )


def generate_questions(count: int, *, seed: int) -> tuple[str, ...]:
    """``count`` user turns drawn from the beliefs' vocabulary (deterministic in ``seed``)."""
    words = ZipfWords(seed, "questions")
    questions = []
    for _ in range(count):
        template = words.rng.choice(_QUESTION_TEMPLATES)
        questions.append(
            template.format(a=words.draw(), b=words.draw(), role=words.rng.choice(_ROLES))
        )
    return tuple(questions)


def load_beliefs(
    storage: Storage,
    beliefs: Iterator[Belief],
    *,
    bulk_put: BulkPut | None = None,
    chunk: int = LOAD_CHUNK,
    timer: Callable[[], float] = time.perf_counter,
) -> tuple[int, int, float]:
    """Store ``beliefs`` in chunks; return (stored, live, seconds spent in store calls).

    ``bulk_put`` stores one chunk in one call (e.g. PostgreSQL ``COPY``); without it each
    belief goes through ``storage.memories.put``, which is the in-memory tier's only path.
    """
    stored = live = 0
    seconds = 0.0
    while batch := list(itertools.islice(beliefs, chunk)):
        started = timer()
        if bulk_put is not None:
            bulk_put(batch)
        else:
            for belief in batch:
                storage.memories.put(belief)
        seconds += timer() - started
        stored += len(batch)
        live += sum(1 for belief in batch if belief.status in LIVE_STATUSES)
    return stored, live, seconds


def bench_retriever(
    storage: Storage,
    *,
    version: str,
    seed: int,
    timer: Callable[[], float],
    profiles: MemoryProfiles | None = None,
) -> MemoryRetriever:
    """The benchmarks' retriever over ``storage``: fixed clock, trace ids namespaced by run."""
    return MemoryRetriever(
        memories=storage.memories,
        traces=storage.traces,
        clock=FixedClock(BENCH_NOW),
        ids=SequentialIdFactory(namespace=f"{version}/traces/{seed}"),
        profiles=profiles if profiles is not None else load_profiles(),
        timer=timer,
    )


def in_turn_request(text: str) -> RecallRequest:
    """The in-turn recall of one generated question."""
    return RecallRequest(
        principal=BENCH_PRINCIPAL, moment="in_turn", text=text, project_scope=BENCH_PROJECT
    )


def snapshot_request() -> RecallRequest:
    """The session snapshot recall, at the context plan's snapshot budget."""
    budget = load_context_plan().snapshot
    return RecallRequest(
        principal=BENCH_PRINCIPAL,
        moment="snapshot",
        project_scope=BENCH_PROJECT,
        max_items=budget.max_items,
        max_tokens=budget.max_tokens,
    )


def run_recall_benchmark(
    storage: Storage,
    *,
    storage_name: str,
    beliefs: int,
    queries: int = 200,
    seed: int = 0,
    bulk_put: BulkPut | None = None,
    after_load: Callable[[], object] | None = None,
    warmup: int = WARMUP_RECALLS,
    timer: Callable[[], float] = time.perf_counter,
) -> RecallBenchReport:
    """Load ``beliefs`` generated beliefs into the empty ``storage``, then time recalls.

    Args:
        storage: An empty storage tier; the benchmark writes beliefs and traces into it.
        storage_name: The tier name the report records.
        beliefs: Beliefs to load for ``BENCH_PRINCIPAL`` (at least 1).
        queries: Timed recalls per moment (at least 1).
        seed: Seed of the beliefs and the questions.
        bulk_put: Stores a chunk of beliefs in one call (see :func:`load_beliefs`).
        after_load: Called once after loading, untimed (e.g. refresh planner statistics).
        warmup: Untimed recalls of each moment before timing.
        timer: Seconds counter for every timing.

    Raises:
        UsageError: ``beliefs`` or ``queries`` is below 1, or ``warmup`` is negative.
    """
    if beliefs < 1:
        raise UsageError(f"--beliefs must be at least 1, got {beliefs}")
    if queries < 1:
        raise UsageError(f"--queries must be at least 1, got {queries}")
    if warmup < 0:
        raise UsageError(f"warm-up recalls must be >= 0, got {warmup}")
    stored, live, load_seconds = load_beliefs(
        storage,
        generate_beliefs(BENCH_PRINCIPAL, beliefs, seed=seed),
        bulk_put=bulk_put,
        timer=timer,
    )
    if after_load is not None:
        after_load()
    retriever = bench_retriever(storage, version=RECALL_BENCHMARK_VERSION, seed=seed, timer=timer)
    questions = generate_questions(warmup + queries, seed=seed)
    snapshot = snapshot_request()

    def timed(requests: Sequence[RecallRequest]) -> LatencySummary:
        durations: list[float] = []
        returned: list[int] = []
        for request in requests:
            started = timer()
            result = retriever.recall(request)
            durations.append((timer() - started) * 1000.0)
            returned.append(len(result.beliefs))
        return summarize(durations, returned)

    for text in questions[:warmup]:
        retriever.recall(in_turn_request(text))
        retriever.recall(snapshot)
    in_turn_summary = timed([in_turn_request(text) for text in questions[warmup:]])
    snapshot_summary = timed([snapshot] * queries)
    return RecallBenchReport(
        benchmark=RECALL_BENCHMARK_VERSION,
        storage=storage_name,
        beliefs=stored,
        live_beliefs=live,
        queries=queries,
        warmup=warmup,
        seed=seed,
        retrieval_policy=RETRIEVAL_POLICY,
        load_seconds=round(load_seconds, 3),
        load_rate_beliefs_per_s=round(stored / load_seconds, 1) if load_seconds > 0 else 0.0,
        in_turn=in_turn_summary,
        snapshot=snapshot_summary,
    )


def render_table(report: RecallBenchReport) -> Table:
    """A rich table of one report: one row per moment, then the load rate."""
    table = Table(
        title=(
            f"recall latency: {report.storage}, {report.beliefs:,} beliefs "
            f"({report.live_beliefs:,} live), {report.queries} recalls per moment"
        )
    )
    table.add_column("moment")
    for column in ("p50 ms", "p95 ms", "mean ms", "max ms", "returned"):
        table.add_column(column, justify="right")
    for moment, summary in (("in_turn", report.in_turn), ("snapshot", report.snapshot)):
        table.add_row(
            moment,
            f"{summary.p50_ms:.3f}",
            f"{summary.p95_ms:.3f}",
            f"{summary.mean_ms:.3f}",
            f"{summary.max_ms:.3f}",
            f"{summary.returned_mean:.1f}",
        )
    table.caption = (
        f"load: {report.load_rate_beliefs_per_s:,.0f} beliefs/s "
        f"({report.load_seconds:.3f} s); seed {report.seed}; {report.retrieval_policy}"
    )
    return table


__all__ = [
    "BENCH_NOW",
    "BENCH_PRINCIPAL",
    "BENCH_PROJECT",
    "LOAD_CHUNK",
    "RECALL_BENCHMARK_VERSION",
    "VOCABULARY_SIZE",
    "WARMUP_RECALLS",
    "BulkPut",
    "LatencySummary",
    "RecallBenchReport",
    "ZipfWords",
    "bench_retriever",
    "generate_beliefs",
    "generate_questions",
    "in_turn_request",
    "load_beliefs",
    "nearest_rank",
    "render_table",
    "run_recall_benchmark",
    "snapshot_request",
    "summarize",
]
