"""``agent gates``: print the gate registry (a table on a terminal, JSON when piped)."""

from __future__ import annotations

import argparse
from typing import Any

from memory_cli.output import add_json_flag, print_json, wants_json


def _run(args: argparse.Namespace) -> int:
    from memory_bench.gates import GATES

    if wants_json(args):
        print_json(
            [
                {
                    "gate": gate.id,
                    "kind": gate.kind,
                    "milestone": gate.milestone,
                    "implemented": gate.implemented,
                    "title": gate.title,
                }
                for gate in GATES
            ]
        )
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Registered gates (run `nox -s gates` for pass/fail)")
    for column in ("gate", "kind", "milestone", "implemented", "title"):
        table.add_column(column)
    for gate in GATES:
        implemented = "yes" if gate.implemented else "no"
        table.add_row(gate.id, gate.kind, gate.milestone, implemented, gate.title)
    Console().print(table)
    return 0


def register(groups: dict[str, Any]) -> None:
    """Add ``agent gates``."""
    parser = groups[""].add_parser("gates", help="print the gate registry")
    add_json_flag(parser)
    parser.set_defaults(handler=_run)
