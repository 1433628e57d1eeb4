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
from typing import Any

from memory_cli.bench_recall import (
    add_storage_arguments,
    add_url_and_seed_arguments,
    bench_storage,
    positive_int,
    run_report,
)


def _report_json(args: argparse.Namespace) -> str:
    from memory_bench.perf_delta import run_delta_benchmark

    with bench_storage(args) as (storage, name, hooks):
        report = run_delta_benchmark(
            storage,
            storage_name=name,
            beliefs=args.beliefs,
            since=args.since,
            corrected=args.corrected,
            queries=args.queries,
            seed=args.seed,
            **hooks,
        )
    return report.model_dump_json(indent=2)


def _run(args: argparse.Namespace) -> int:
    return run_report(_report_json, args)


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
    add_storage_arguments(parser)
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
    add_url_and_seed_arguments(parser)
    parser.set_defaults(handler=_run)


__all__ = ["register"]
