"""The one output rule of the ``agent`` commands: a table on a terminal, JSON otherwise.

A command prints a readable Rich table when standard output is a terminal, and JSON when it
is piped or redirected, or when ``--json`` is given. The JSON is the data; the table is only
a rendering of it, so a script never parses a table.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--json``: print JSON even on a terminal."""
    parser.add_argument(
        "--json",
        action="store_true",
        help="print JSON even on a terminal (JSON is the default when output is piped)",
    )


def wants_json(args: argparse.Namespace) -> bool:
    """JSON when ``--json`` was given or standard output is not a terminal."""
    return bool(getattr(args, "json", False)) or not sys.stdout.isatty()


def print_json(data: Any) -> None:
    """Print ``data`` as indented, key-sorted JSON on standard output."""
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def print_table(
    title: str | None, columns: Sequence[str], rows: Sequence[Sequence[object]]
) -> None:
    """Print a Rich table of ``rows`` under ``columns`` on standard output."""
    from rich.console import Console  # imported when a table is printed, not at start-up
    from rich.table import Table

    table = Table(title=title)
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*("" if cell is None else str(cell) for cell in row))
    Console().print(table)


def print_fields(title: str | None, fields: Mapping[str, object]) -> None:
    """Print one record as a two-column (field, value) table."""
    print_table(title, ("field", "value"), [(name, value) for name, value in fields.items()])


__all__ = ["add_json_flag", "print_fields", "print_json", "print_table", "wants_json"]
