"""``agent eval memory-formation``: score deterministic formation on the case file.

The report is JSON on stdout (always, so it stays parseable); the rich summary table goes to
stderr when stderr is a terminal, or always with ``--table always``. A malformed case file is a
usage error (exit 2); exit 1 when any formed belief carries forbidden content.
With ``--provider`` the command scores provider formation and publishes its evidence instead
(see :mod:`memory_cli.eval_provider_formation`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from memory_cli.eval_provider_formation import add_provider_arguments, run_provider, wants_provider


def _run(args: argparse.Namespace) -> int:
    if wants_provider(args):
        return run_provider(args)
    from memory_bench.formation_eval import (
        default_case_path,
        evaluate_formation,
        load_formation_cases,
        render_summary,
    )

    path = args.cases if args.cases is not None else default_case_path()
    report = evaluate_formation(load_formation_cases(path))
    sys.stdout.write(report.model_dump_json(indent=2) + "\n")
    sys.stdout.flush()
    show = args.table == "always" or (args.table == "auto" and sys.stderr.isatty())
    if show:
        Console(stderr=True).print(render_summary(report))
    return 1 if report.fabricated else 0


def register(groups: dict[str, Any]) -> None:
    """Add ``agent eval memory-formation``."""
    parser = groups["eval"].add_parser(
        "memory-formation",
        help="score deterministic formation (precision, recall, fabricated) on the case file",
        description=(
            "Run every case of the formation case file through the governed formation "
            "service and print the report as JSON on stdout."
        ),
    )
    parser.add_argument(
        "--cases",
        type=Path,
        default=None,
        help="case file (default: corpus/memory-formation.v2.json above the working directory)",
    )
    parser.add_argument(
        "--table",
        choices=("auto", "always", "never"),
        default="auto",
        help="print the summary table on stderr: when it is a terminal (auto), always or never",
    )
    add_provider_arguments(parser)
    parser.set_defaults(handler=_run)
