"""The ``agent`` console script: parses arguments and calls library functions, nothing more.

Each command lives in its own module exposing ``register(groups)``; ``groups`` maps a command
group (``eval``, ``memory``, ``db``, ``bench``) to its subparsers, and top-level commands use
the ``""`` key. Handlers return the process exit status; ``UsageError`` exits 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from memory_core.errors import UsageError

USAGE_EXIT = 2

COMMAND_MODULES: tuple[str, ...] = (
    "memory_cli.gates",
    "memory_cli.eval_benchmark",
    "memory_cli.eval_formation",
    "memory_cli.db",
    "memory_cli.memory_replay",
    "memory_cli.bench_recall",
    "memory_cli.bench_delta",
    "memory_cli.report",
)
"""Modules whose ``register(groups)`` adds their subcommands."""

GROUPS: dict[str, str] = {
    "eval": "run the memory benchmark and the formation evaluation",
    "memory": "operate on a principal's memory",
    "db": "manage the PostgreSQL schema",
    "bench": "measure performance",
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``agent`` command."""
    parser = argparse.ArgumentParser(prog="agent", description="Agent memory and its yardstick.")
    top = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    groups: dict[str, argparse._SubParsersAction[argparse.ArgumentParser]] = {"": top}
    for name, help_text in GROUPS.items():
        group = top.add_parser(name, help=help_text)
        groups[name] = group.add_subparsers(
            dest=f"{name}_command", required=True, metavar="COMMAND"
        )
    for module in COMMAND_MODULES:
        importlib.import_module(module).register(groups)
    return parser


def print_error(message: object, *, console: Console | None = None) -> None:
    """Print ``error: <message>`` on stderr with the message as literal text.

    Exception text carries paths, regular expressions and URLs (``[a-z0-9]``, ``[/x]``), so it
    is never parsed as Rich markup: a message cannot be mangled, and printing it cannot raise
    ``MarkupError`` in place of the exit status the caller returns.

    Args:
        message: The exception or text to print.
        console: Where to print (default: a new stderr console that does not wrap lines).
    """
    target = console if console is not None else Console(stderr=True, soft_wrap=True)
    target.print(Text.assemble(("error:", "red"), " ", str(message)), highlight=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``agent`` command; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except UsageError as exc:
        print_error(exc)
        return USAGE_EXIT


if __name__ == "__main__":
    sys.exit(main())
