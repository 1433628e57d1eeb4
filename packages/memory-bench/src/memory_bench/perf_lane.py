"""The perf lane (``nox -s perf``): every figure of issue 19, each beside its peer, in one run.

Per tier (in-memory, PostgreSQL), four fresh stores are loaded with generated beliefs
(:mod:`memory_bench.perf`, bulk-loaded): ``beliefs`` (100k), ``small`` (1k), ``mid`` (20k)
and an empty one. Then, each figure interleaved with its peer (:mod:`memory_bench.perf_compare`)::

    recall  N / small        in-turn recall of the same questions at both sizes      (both tiers)
    recall / bm25s           against bm25s's fast path over the N store's statements (memory)
    recall / its SQL         against the statements it sends, replayed by psycopg    (postgres)
    recall / bare SELECT     against one lexical SELECT of the formed terms          (postgres)
    formation N / 0          consolidating a ``turns``-turn session, N held vs none  (both tiers)
    reject N / mid           ``MemoryAPI.reject`` of a newest live belief            (both tiers)

and, once: bytes per belief held by the in-memory tier (``tracemalloc``, ``footprint``
beliefs) and the deterministic arm against ``import memory_cli.app`` (subprocesses). Every
figure reports medians with min-max over its rounds; the report is JSON plus a rich table.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from pydantic import BaseModel, ConfigDict, Field
from rich.table import Table

from memory_bench.perf import (
    BENCH_PRINCIPAL,
    WARMUP_RECALLS,
    BulkPut,
    bench_retriever,
    generate_beliefs,
    generate_questions,
    in_turn_request,
    load_beliefs,
)
from memory_bench.perf_compare import Comparison, compare
from memory_bench.perf_footprint import Footprint, bytes_per_belief, startup_comparison
from memory_bench.perf_peers import (
    Bm25FastPath,
    SqlReplay,
    bare_lexical_select,
    capture_sql,
    connect,
)
from memory_bench.perf_workloads import FormationWorkload, RejectWorkload, compose
from memory_core.errors import UsageError
from memory_core.ports import Storage
from memory_core.retrieval import MemoryRetriever
from memory_core.retrieval.query import QueryFormer

if TYPE_CHECKING:
    import sqlalchemy as sa

PERF_LANE_VERSION: Final = "perf-lane@2"
"""Version of the lane's procedure; a change makes its figures incomparable."""

RECALL_TARGET: Final = 1.5
BM25_TARGET: Final = 1.0
SQL_TARGET: Final = 1.5
BARE_SELECT_TARGET: Final = 3.0
FORMATION_TARGET: Final = 1.2
REJECT_TARGET: Final = 1.2


class LaneSizes(BaseModel):
    """What the lane loads and how often it times (the defaults are the issue's sizes)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    beliefs: int = Field(default=100_000, ge=1)
    small: int = Field(default=1_000, ge=1)
    mid: int = Field(default=20_000, ge=1)
    footprint: int = Field(default=20_000, ge=1)
    turns: int = Field(default=20, ge=1)
    rounds: int = Field(default=5, ge=1)
    per_round: int = Field(default=20, ge=1)
    startup_rounds: int = Field(default=3, ge=0)
    seed: int = 0


class PerfReport(BaseModel):
    """One lane run: its sizes, every comparison, the footprint and the wall time."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    benchmark: str
    sizes: LaneSizes
    tiers: tuple[str, ...]
    comparisons: tuple[Comparison, ...]
    footprint: Footprint
    load_seconds: dict[str, float]
    elapsed_seconds: float


@dataclass(frozen=True, kw_only=True)
class Tier:
    """A fresh, empty store of one tier, with what the lane needs to load and peer it."""

    name: str
    storage: Storage
    bulk_put: BulkPut | None = None
    after_load: Callable[[], object] | None = None
    engine: sa.Engine | None = None
    url: str | None = None
    schema: str | None = None


TierOpener = Callable[[str], AbstractContextManager[Tier]]
"""Opens a fresh, empty store of the named tier (``memory`` or ``postgres``)."""


def _load(tier: Tier, count: int, seed: int) -> float:
    if count == 0:
        return 0.0
    beliefs = generate_beliefs(BENCH_PRINCIPAL, count, seed=seed)
    _, _, seconds = load_beliefs(tier.storage, beliefs, bulk_put=tier.bulk_put)
    if tier.after_load is not None:
        tier.after_load()
    return seconds


def _recaller(tier: Tier, seed: int, questions: Sequence[str]) -> MemoryRetriever:
    retriever = bench_retriever(
        tier.storage, version=PERF_LANE_VERSION, seed=seed, timer=time.perf_counter
    )
    for text in questions[:WARMUP_RECALLS]:
        retriever.recall(in_turn_request(text))
    return retriever


def _tier_figures(
    name: str, open_tier: TierOpener, sizes: LaneSizes, loads: dict[str, float]
) -> Iterator[Comparison]:
    timed = sizes.rounds * sizes.per_round
    questions = generate_questions(WARMUP_RECALLS + timed, seed=sizes.seed)
    asked = questions[WARMUP_RECALLS:]
    with ExitStack() as stack:
        big, small, mid, empty = (stack.enter_context(open_tier(name)) for _ in range(4))
        for label, tier, count in (
            ("beliefs", big, sizes.beliefs),
            ("small", small, sizes.small),
            ("mid", mid, sizes.mid),
        ):
            loads[f"{name}/{label}"] = round(_load(tier, count, sizes.seed), 3)
        at_big, at_small = (
            _recaller(big, sizes.seed, questions),
            _recaller(small, sizes.seed, questions),
        )
        n, k = f"{sizes.beliefs:,}", f"{sizes.small:,}"
        yield compare(
            f"in-turn recall {n} / {k}",
            name,
            (f"recall at {n}", lambda i: at_big.recall(in_turn_request(asked[i]))),
            (f"recall at {k}", lambda i: at_small.recall(in_turn_request(asked[i]))),
            rounds=sizes.rounds,
            per_round=sizes.per_round,
            target=RECALL_TARGET,
        )
        if name == "memory":
            yield _bm25_figure(big, at_big, asked, sizes)
        if big.engine is not None and big.url is not None:
            yield from _sql_figures(big, at_big, asked, sizes)
        yield _formation_figure(name, big, empty, sizes)
        yield _reject_figure(name, big, mid, sizes)


def _bm25_figure(
    big: Tier, retriever: MemoryRetriever, asked: Sequence[str], sizes: LaneSizes
) -> Comparison:
    texts = [
        f"{b.subject} {b.statement}" for b in big.storage.memories.list_beliefs(BENCH_PRINCIPAL)
    ]
    bm25 = Bm25FastPath(texts)
    return compare(
        f"in-turn recall / bm25s fast path at {sizes.beliefs:,}",
        "memory",
        ("MemoryRetriever.recall", lambda i: retriever.recall(in_turn_request(asked[i]))),
        ("bm25s get_scores + argpartition top 8", lambda i: bm25.top(asked[i])),
        rounds=sizes.rounds,
        per_round=sizes.per_round,
        target=BM25_TARGET,
    )


def _sql_figures(
    big: Tier, retriever: MemoryRetriever, asked: Sequence[str], sizes: LaneSizes
) -> Iterator[Comparison]:
    assert big.engine is not None and big.url is not None
    replays: list[SqlReplay] = []
    connection = connect(big.url, big.schema)
    try:
        for text in asked:
            with capture_sql(big.engine) as steps:
                result = retriever.recall(in_turn_request(text))
            replays.append(SqlReplay(connection, steps, result.trace.trace_id))
        yield compare(
            f"in-turn recall / the SQL it sends at {sizes.beliefs:,}",
            "postgres",
            ("MemoryRetriever.recall", lambda i: retriever.recall(in_turn_request(asked[i]))),
            ("its statements replayed by psycopg", lambda i: replays[i].run()),
            rounds=sizes.rounds,
            per_round=sizes.per_round,
            target=SQL_TARGET,
        )
        former = QueryFormer()
        terms = [former.form(text).terms for text in asked]
        limit = 64

        def bare(i: int) -> object:
            return bare_lexical_select(connection, BENCH_PRINCIPAL, terms[i], limit)

        yield compare(
            f"in-turn recall / bare lexical SELECT at {sizes.beliefs:,}",
            "postgres",
            ("MemoryRetriever.recall", lambda i: retriever.recall(in_turn_request(asked[i]))),
            (f"SELECT id ... lexical @@ any term LIMIT {limit}", bare),
            rounds=sizes.rounds,
            per_round=sizes.per_round,
            target=BARE_SELECT_TARGET,
        )
    finally:
        connection.close()


def _formation_figure(name: str, big: Tier, empty: Tier, sizes: LaneSizes) -> Comparison:
    held = FormationWorkload(
        compose(big.storage, "formation-big"),
        sessions=sizes.rounds,
        turns=sizes.turns,
        seed=sizes.seed,
    )
    none = FormationWorkload(
        compose(empty.storage, "formation-empty"),
        sessions=sizes.rounds,
        turns=sizes.turns,
        seed=sizes.seed,
    )
    return compare(
        f"consolidate a {sizes.turns}-turn session: {sizes.beliefs:,} held / 0",
        name,
        (f"with {sizes.beliefs:,} beliefs", held.run),
        ("with none", none.run),
        rounds=sizes.rounds,
        per_round=1,
        target=FORMATION_TARGET,
    )


def _reject_figure(name: str, big: Tier, mid: Tier, sizes: LaneSizes) -> Comparison:
    at_big = RejectWorkload(compose(big.storage, "reject-big"), count=sizes.rounds)
    at_mid = RejectWorkload(compose(mid.storage, "reject-mid"), count=sizes.rounds)
    return compare(
        f"reject(): {sizes.beliefs:,} / {sizes.mid:,}",
        name,
        (f"at {sizes.beliefs:,}", at_big.run),
        (f"at {sizes.mid:,}", at_mid.run),
        rounds=sizes.rounds,
        per_round=1,
        target=REJECT_TARGET,
    )


def run_perf_lane(
    sizes: LaneSizes,
    *,
    tiers: Sequence[str],
    open_tier: TierOpener,
    timer: Callable[[], float] = time.perf_counter,
) -> PerfReport:
    """Run every figure on ``tiers`` (``memory``, ``postgres``), then the footprint and,
    unless ``sizes.startup_rounds`` is 0, the start-up comparison.

    Raises:
        UsageError: an unknown tier, or no tier at all.
    """
    unknown = sorted(set(tiers) - {"memory", "postgres"})
    if unknown or not tiers:
        raise UsageError(f"tiers are memory and/or postgres, got {list(tiers)}")
    started = timer()
    loads: dict[str, float] = {}
    comparisons: list[Comparison] = []
    for name in tiers:
        comparisons.extend(_tier_figures(name, open_tier, sizes, loads))
    with open_tier("memory") as tier:
        footprint = bytes_per_belief(tier.storage, sizes.footprint, seed=sizes.seed)
    if sizes.startup_rounds:
        comparisons.append(startup_comparison(rounds=sizes.startup_rounds))
    return PerfReport(
        benchmark=PERF_LANE_VERSION,
        sizes=sizes,
        tiers=tuple(tiers),
        comparisons=tuple(comparisons),
        footprint=footprint,
        load_seconds=loads,
        elapsed_seconds=round(timer() - started, 1),
    )


def _spread(median: float, low: float, high: float, unit: str = "") -> str:
    return f"{median:,.3g}{unit} ({low:,.3g}-{high:,.3g})"


def render_lane_table(report: PerfReport) -> Table:
    """A rich table of ``report``: one row per comparison, then the footprint."""
    table = Table(title=f"{report.benchmark}: medians (min-max) over rounds")
    for column in ("tier", "figure", "subject ms", "peer ms", "ratio", "target", "ok"):
        table.add_column(column, justify="left" if column in ("tier", "figure") else "right")
    for c in report.comparisons:
        ok = "" if c.meets is None else ("yes" if c.meets else "NO")
        table.add_row(
            c.tier,
            c.figure,
            _spread(c.subject_ms.median, c.subject_ms.min, c.subject_ms.max),
            _spread(c.peer_ms.median, c.peer_ms.min, c.peer_ms.max),
            _spread(c.ratio.median, c.ratio.min, c.ratio.max, "x"),
            "" if c.target is None else f"<= {c.target}x",
            ok,
        )
    f = report.footprint
    table.add_row(
        "memory",
        f"bytes per belief ({f.beliefs:,} beliefs, tracemalloc)",
        f"{f.bytes_per_belief:,.0f} B",
        f"{f.before_bytes:,.0f} B before",
        f"{f.bytes_per_belief / f.before_bytes:.2f}x",
        "<= 0.5x",
        "yes" if f.meets else "NO",
    )
    table.caption = f"{report.elapsed_seconds:,.0f} s; loads (s): " + ", ".join(
        f"{k} {v:,.1f}" for k, v in report.load_seconds.items()
    )
    return table


__all__ = [
    "PERF_LANE_VERSION",
    "LaneSizes",
    "PerfReport",
    "Tier",
    "TierOpener",
    "render_lane_table",
    "run_perf_lane",
]
