"""``agent bench recall``: recall latency of one principal holding N beliefs.

``--storage memory`` measures a fresh in-memory tier; ``--storage postgres`` a fresh,
migrated temporary schema in the database at ``--url`` (or ``MEMORY_DATABASE_URL``), loaded
with ``COPY`` and dropped afterwards, so nothing else in that database is touched. The report
(see :mod:`memory_bench.perf`) is JSON on stdout; the rich table goes to stderr when it is a
terminal, or always with ``--table always``. Exit 0 on a completed run, 1 when PostgreSQL
cannot be reached (one line on stderr), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console

from memory_cli.app import print_error
from memory_core.errors import StorageUnavailableError, UsageError

if TYPE_CHECKING:
    from memory_core.ports import Storage

UNAVAILABLE_EXIT = 1


@contextmanager
def bench_storage(args: argparse.Namespace) -> Iterator[tuple[Storage, str, dict[str, Any]]]:
    """The storage tier ``--storage``/``--url`` name: (storage, its name, its load hooks).

    The hooks (``bulk_put``, ``after_load``) are the keyword arguments a benchmark runner takes
    for a fast load; a PostgreSQL tier is a temporary schema, dropped when the block ends.
    """
    from memory_core import InMemoryStorage

    if args.storage == "memory":
        if args.url is not None:
            raise UsageError("--url applies to --storage postgres, not memory")
        yield InMemoryStorage(), "memory", {}
        return
    try:
        from memory_store_pg import temporary_storage
    except ImportError as exc:  # the optional extra is not installed
        raise UsageError(
            "the PostgreSQL store is not installed: install memory-cli[postgres] "
            "(or the memory-store-pg package)"
        ) from exc
    with temporary_storage(args.url) as pg:
        yield pg, "postgres", {"bulk_put": pg.memories.put_many, "after_load": pg.analyze}


def run_report(report_json: Callable[[argparse.Namespace], str], args: argparse.Namespace) -> int:
    """Print ``report_json(args)`` on stdout: exit 0, or 1 with one line when storage is down."""
    try:
        text = report_json(args)
    except StorageUnavailableError as exc:
        print_error(exc)
        return UNAVAILABLE_EXIT
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0


def add_storage_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``--storage`` choice every ``agent bench`` storage run takes."""
    parser.add_argument("--storage", choices=("memory", "postgres"), default="memory")


def add_url_and_seed_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``--url`` and ``--seed`` options every ``agent bench`` storage run takes."""
    parser.add_argument(
        "--url",
        default=None,
        help="PostgreSQL URL for --storage postgres (default: $MEMORY_DATABASE_URL); the run "
        "uses a temporary schema there and drops it",
    )
    parser.add_argument("--seed", type=int, default=0, help="data and question seed (default 0)")


def _report_json(args: argparse.Namespace) -> str:
    from memory_bench.perf import render_table, run_recall_benchmark

    with bench_storage(args) as (storage, name, hooks):
        report = run_recall_benchmark(
            storage,
            storage_name=name,
            beliefs=args.beliefs,
            queries=args.queries,
            seed=args.seed,
            **hooks,
        )
    show = args.table == "always" or (args.table == "auto" and sys.stderr.isatty())
    if show:
        Console(stderr=True).print(render_table(report))
    return report.model_dump_json(indent=2)


def _run(args: argparse.Namespace) -> int:
    return run_report(_report_json, args)


def whole_number_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


positive_int = whole_number_at_least(1)
"""An argparse type: a whole number of at least 1."""


def register(groups: dict[str, Any]) -> None:
    """Add ``agent bench recall``."""
    parser = groups["bench"].add_parser(
        "recall",
        help="time MemoryRetriever.recall for one principal holding N generated beliefs",
        description=(
            "Load N generated beliefs for one principal into a fresh storage tier, then time "
            "real in-turn and snapshot recalls; print p50/p95/mean latency and the load rate "
            "as JSON on stdout."
        ),
    )
    add_storage_arguments(parser)
    parser.add_argument(
        "--beliefs", type=positive_int, required=True, help="beliefs to load (any status)"
    )
    parser.add_argument(
        "--queries", type=positive_int, default=200, help="timed recalls per moment (default 200)"
    )
    add_url_and_seed_arguments(parser)
    parser.add_argument(
        "--table",
        choices=("auto", "always", "never"),
        default="auto",
        help="print the table on stderr: when it is a terminal (auto), always or never",
    )
    parser.set_defaults(handler=_run)


__all__ = [
    "UNAVAILABLE_EXIT",
    "add_storage_arguments",
    "add_url_and_seed_arguments",
    "bench_storage",
    "positive_int",
    "register",
    "run_report",
]
