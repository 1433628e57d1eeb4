"""``agent bench delta``: what a turn's recall delta and correction lines cost beside its base.

Loads N generated beliefs for one principal, takes the session snapshot, writes beliefs and
retires snapshot members past the watermark, then times each turn's base recall, head read,
correction read and delta recall (see :mod:`memory_bench.perf_delta`). ``--storage postgres``
uses a temporary schema at ``--url`` (or ``MEMORY_DATABASE_URL``), dropped afterwards. The
report is JSON on stdout. Exit 0 on a completed run, 1 when PostgreSQL cannot be reached, 2 for
a usage error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memory_cli.app import print_error
from memory_cli.bench_recall import UNAVAILABLE_EXIT, positive_int
from memory_core.errors import StorageUnavailableError, UsageError


def _report_json(args: argparse.Namespace) -> str:
    from memory_bench.perf_delta import run_delta_benchmark
    from memory_core import InMemoryStorage

    options = {
        "beliefs": args.beliefs,
        "since": args.since,
        "corrected": args.corrected,
        "queries": args.queries,
        "seed": args.seed,
    }
    if args.storage == "memory":
        if args.url is not None:
            raise UsageError("--url applies to --storage postgres, not memory")
        report = run_delta_benchmark(InMemoryStorage(), storage_name="memory", **options)
    else:
        try:
            from memory_store_pg import temporary_storage
        except ImportError as exc:  # the optional extra is not installed
            raise UsageError(
                "the PostgreSQL store is not installed: install memory-cli[postgres] "
                "(or the memory-store-pg package)"
            ) from exc
        with temporary_storage(args.url) as pg:
            report = run_delta_benchmark(
                pg,
                storage_name="postgres",
                bulk_put=pg.memories.put_many,
                after_load=pg.analyze,
                **options,
            )
    return report.model_dump_json(indent=2)


def _run(args: argparse.Namespace) -> int:
    try:
        text = _report_json(args)
    except StorageUnavailableError as exc:
        print_error(exc)
        return UNAVAILABLE_EXIT
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0


def register(groups: dict[str, Any]) -> None:
    """Add ``agent bench delta``."""
    parser = groups["bench"].add_parser(
        "delta",
        help="time a turn's recall delta and correction lines against its base recall",
        description=(
            "Load N generated beliefs for one principal, change things past the session's "
            "watermark, then time each turn's base recall, head read, corrections and delta "
            "recall; print the report as JSON on stdout."
        ),
    )
    parser.add_argument("--storage", choices=("memory", "postgres"), default="memory")
    parser.add_argument(
        "--beliefs", type=positive_int, default=100_000, help="beliefs loaded before the snapshot"
    )
    parser.add_argument(
        "--since", type=int, default=20, help="beliefs written past the watermark (default 20)"
    )
    parser.add_argument(
        "--corrected",
        type=int,
        default=2,
        help="snapshot members retired past the watermark (default 2)",
    )
    parser.add_argument(
        "--queries", type=positive_int, default=100, help="timed turns (default 100)"
    )
    parser.add_argument(
        "--url",
        default=None,
        help="PostgreSQL URL for --storage postgres (default: $MEMORY_DATABASE_URL); the run "
        "uses a temporary schema there and drops it",
    )
    parser.add_argument("--seed", type=int, default=0, help="data and question seed (default 0)")
    parser.set_defaults(handler=_run)


__all__ = ["register"]
