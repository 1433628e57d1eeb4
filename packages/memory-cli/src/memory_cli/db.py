"""``agent db upgrade``: apply the PostgreSQL store's migrations.

The URL comes from ``--url`` or ``MEMORY_DATABASE_URL``. The command needs the ``postgres``
extra (``memory-store-pg``). Exit 0 when the schema is current, 1 when the server cannot be
reached (one line on stderr, never a traceback), 2 for a missing or malformed URL.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from memory_cli.app import print_error
from memory_core.errors import StorageUnavailableError, UsageError

UNAVAILABLE_EXIT = 1


def _run_upgrade(args: argparse.Namespace) -> int:
    try:
        from memory_store_pg import upgrade
    except ImportError as exc:  # the optional extra is not installed
        raise UsageError(
            "the PostgreSQL store is not installed: install memory-cli[postgres] "
            "(or the memory-store-pg package)"
        ) from exc
    try:
        result = upgrade(args.url, revision=args.revision)
    except StorageUnavailableError as exc:
        print_error(exc)
        return UNAVAILABLE_EXIT
    before = result.before or "empty"
    if result.changed:
        message = f"memory store schema upgraded: {before} -> {result.after}"
    else:
        message = f"memory store schema already at {result.after}; nothing to do"
    Console().print(message, highlight=False)
    return 0


def register(groups: dict[str, Any]) -> None:
    """Add ``agent db upgrade``."""
    parser = groups["db"].add_parser(
        "upgrade",
        help="create or migrate the PostgreSQL memory store schema",
        description=(
            "Apply memory-store-pg's migrations, in one transaction, up to the newest revision "
            "(or --revision)."
        ),
    )
    parser.add_argument(
        "--url",
        default=None,
        help="PostgreSQL URL, e.g. postgresql://user@127.0.0.1:5432/agent "
        "(default: $MEMORY_DATABASE_URL)",
    )
    parser.add_argument(
        "--revision", default="head", help="target revision (default: head, the newest)"
    )
    parser.set_defaults(handler=_run_upgrade)
