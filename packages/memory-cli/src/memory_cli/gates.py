"""``agent gates``: print the gate registry."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table


def _run(args: argparse.Namespace) -> int:
    from memory_bench.gates import GATES

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
    parser.set_defaults(handler=_run)
