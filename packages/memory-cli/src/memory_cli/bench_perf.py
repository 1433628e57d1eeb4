"""``agent bench perf``: the perf lane (``nox -s perf``), every issue-19 figure beside its peer.

``--storage both`` (default) runs the in-memory and the PostgreSQL tier; PostgreSQL stores are
fresh temporary schemas of ``--url`` (or ``MEMORY_DATABASE_URL``), dropped afterwards. Sizes
are options (``--beliefs 100000 --small 1000 --mid 20000``), so a smoke run can be tiny. The
JSON report (:class:`memory_bench.perf_lane.PerfReport`) is written atomically to ``--output``
(default: a new file in a fresh temporary folder, whose path is printed); the rich table goes
to stderr. Exit 0 on a completed run, 1 when PostgreSQL cannot be reached, 2 for a usage error
(including an ``--output`` that already exists).
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from memory_cli.bench_recall import positive_int, run_report, whole_number_at_least
from memory_core.errors import UsageError

if TYPE_CHECKING:
    from memory_bench.perf_lane import Tier


def _tier_opener(url: str | None) -> Any:
    @contextmanager
    def open_tier(name: str) -> Iterator[Tier]:
        from memory_bench.perf_lane import Tier
        from memory_core import InMemoryStorage

        if name == "memory":
            yield Tier(name="memory", storage=InMemoryStorage())
            return
        try:
            from memory_store_pg import resolve_url, temporary_storage
        except ImportError as exc:  # the optional extra is not installed
            raise UsageError(
                "the PostgreSQL store is not installed: install memory-cli[postgres] "
                "(or the memory-store-pg package), or pass --storage memory"
            ) from exc
        with temporary_storage(url) as pg:
            yield Tier(
                name="postgres",
                storage=pg,
                bulk_put=pg.memories.put_many,
                after_load=pg.analyze,
                engine=pg.engine,
                url=resolve_url(url).render_as_string(hide_password=False),
                schema=pg.schema,
            )

    return open_tier


def _output_path(args: argparse.Namespace) -> Path:
    if args.output is not None:
        path = Path(args.output)
        if path.exists():
            raise UsageError(f"--output {path} already exists; a report is never overwritten")
        return path
    return Path(tempfile.mkdtemp(prefix="memory-perf-")) / "perf-report.json"


def _report_json(args: argparse.Namespace) -> str:
    from memory_bench.artifacts import write_new_text
    from memory_bench.perf_lane import LaneSizes, render_lane_table, run_perf_lane

    if args.url is not None and args.storage == "memory":
        raise UsageError("--url applies to --storage postgres or both, not memory")
    path = _output_path(args)
    sizes = LaneSizes(
        beliefs=args.beliefs,
        small=args.small,
        mid=args.mid,
        footprint=args.footprint,
        turns=args.turns,
        rounds=args.rounds,
        per_round=args.per_round,
        startup_rounds=args.startup_rounds,
        seed=args.seed,
    )
    tiers = ("memory", "postgres") if args.storage == "both" else (args.storage,)
    if "postgres" in tiers:
        with _tier_opener(args.url)("postgres"):
            pass  # a missing URL or an unreachable server fails now, not after the memory tier
    report = run_perf_lane(sizes, tiers=tiers, open_tier=_tier_opener(args.url))
    text = report.model_dump_json(indent=2)
    write_new_text(path, text + "\n")
    if args.table != "never":
        Console(stderr=True, width=160).print(render_lane_table(report))
    return f"perf report: {path}"


def _run(args: argparse.Namespace) -> int:
    return run_report(_report_json, args)


def register(groups: dict[str, Any]) -> None:
    """Add ``agent bench perf``."""
    parser = groups["bench"].add_parser(
        "perf",
        help="the perf lane: every performance figure beside its peer, as ratios",
        description=(
            "Load generated beliefs into fresh stores of each tier and time, interleaved with "
            "its peer, every issue-19 figure (recall scaling, recall vs bm25s and vs its SQL, "
            "formation and reject scaling, bytes per belief, CLI start-up); write the JSON "
            "report atomically and print a table of medians with min-max."
        ),
    )
    parser.add_argument("--storage", choices=("both", "memory", "postgres"), default="both")
    parser.add_argument(
        "--url", default=None, help="PostgreSQL URL (default: $MEMORY_DATABASE_URL)"
    )
    parser.add_argument("--beliefs", type=positive_int, default=100_000, help="large store size")
    parser.add_argument("--small", type=positive_int, default=1_000, help="small store (recall)")
    parser.add_argument("--mid", type=positive_int, default=20_000, help="mid store (reject)")
    parser.add_argument(
        "--footprint", type=positive_int, default=20_000, help="beliefs traced for bytes/belief"
    )
    parser.add_argument("--turns", type=positive_int, default=20, help="turns per session")
    parser.add_argument("--rounds", type=positive_int, default=5, help="rounds per figure")
    parser.add_argument(
        "--per-round", type=positive_int, default=20, help="recalls per side per round"
    )
    parser.add_argument(
        "--startup-rounds",
        type=whole_number_at_least(0),
        default=3,
        help="start-up rounds (0 skips it)",
    )
    parser.add_argument("--seed", type=int, default=0, help="data and question seed (default 0)")
    parser.add_argument("--output", default=None, help="JSON report path (must not exist)")
    parser.add_argument("--table", choices=("always", "never"), default="always")
    parser.set_defaults(handler=_run)


__all__ = ["register"]
