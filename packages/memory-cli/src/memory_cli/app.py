"""The ``agent`` console script: parses arguments and calls library functions, nothing more."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

USAGE_EXIT = 2


def _gates(args: argparse.Namespace) -> int:
    from memory_bench.gates import GATES

    table = Table(title="Registered gates")
    for column in ("gate", "kind", "milestone", "implemented", "title"):
        table.add_column(column)
    for gate in GATES:
        table.add_row(
            gate.id, gate.kind, gate.milestone, "yes" if gate.implemented else "no", gate.title
        )
    Console().print(table)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``agent`` command."""
    parser = argparse.ArgumentParser(prog="agent", description="Agent memory and its yardstick.")
    commands = parser.add_subparsers(dest="command", required=True)
    gates = commands.add_parser("gates", help="print the gate registry")
    gates.set_defaults(handler=_gates)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``agent`` command; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
