"""The ``agent`` console script: parses arguments and calls library functions, nothing more.

Each command lives in its own module exposing ``register(groups)``; ``groups`` maps a command
group (``eval``, ``memory``, ``db``, ``bench``) to its subparsers, and top-level commands use
the ``""`` key. Handlers return the process exit status.

Exit status everywhere: 0 done, 2 usage (``UsageError``, an unknown record the caller
named), 1 failure (every other memory-core error, e.g. ``StorageUnavailableError``, and any
database driver or migration error, printed as one line, never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memory_core.errors import MemoryCoreError, NotFoundError, UsageError

if TYPE_CHECKING:
    from rich.console import Console

USAGE_EXIT = 2
FAILURE_EXIT = 1
DISTRIBUTIONS = ("memory-cli", "memory-core", "memory-bench", "memory-store-pg")
"""The distributions ``agent --version`` reports."""
_DRIVER_MODULES = ("sqlalchemy", "psycopg", "alembic")

COMMAND_MODULES: tuple[str, ...] = (
    "memory_cli.gates",
    "memory_cli.eval_benchmark",
    "memory_cli.eval_formation",
    "memory_cli.db",
    "memory_cli.memory_replay",
    "memory_cli.memory_manage",
    "memory_cli.bench_recall",
    "memory_cli.bench_delta",
    "memory_cli.bench_perf",
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
    parser.add_argument(
        "--version", action=_VersionAction, help="print the installed versions and exit"
    )
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


def version_text() -> str:
    """``agent <version> (memory-core <version>, ...)``: the installed distributions."""
    from importlib.metadata import PackageNotFoundError, version

    found: list[str] = []
    for name in DISTRIBUTIONS:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            continue
    return "agent: " + ", ".join(found)


class _VersionAction(argparse.Action):
    """``--version``: print :func:`version_text` on one line (argparse's own would wrap it)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        sys.stdout.write(version_text() + "\n")
        parser.exit(0)


def _driver_error(exc: Exception) -> bool:
    """An exception from the database driver, SQLAlchemy or alembic."""
    return type(exc).__module__.split(".")[0] in _DRIVER_MODULES


def _one_line(exc: BaseException) -> str:
    first = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {first[0] if first else ''}".rstrip(": ")


def print_error(message: object, *, console: Console | None = None) -> None:
    """Print ``error: <message>`` on stderr with the message as literal text.

    Exception text carries paths, regular expressions and URLs (``[a-z0-9]``, ``[/x]``), so it
    is never parsed as Rich markup: a message cannot be mangled, and printing it cannot raise
    ``MarkupError`` in place of the exit status the caller returns.

    Args:
        message: The exception or text to print.
        console: Where to print (default: a new stderr console that does not wrap lines).
    """
    from rich.console import Console  # imported when an error is printed, not at start-up
    from rich.text import Text

    target = console if console is not None else Console(stderr=True, soft_wrap=True)
    target.print(Text.assemble(("error:", "red"), " ", str(message)), highlight=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``agent`` command; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except (UsageError, NotFoundError) as exc:
        print_error(exc)
        return USAGE_EXIT
    except MemoryCoreError as exc:
        print_error(exc)
        return FAILURE_EXIT
    except Exception as exc:
        if not _driver_error(exc):
            raise
        print_error(_one_line(exc))
        return FAILURE_EXIT


if __name__ == "__main__":
    sys.exit(main())
