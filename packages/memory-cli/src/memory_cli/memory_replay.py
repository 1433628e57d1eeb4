"""``agent memory replay --session ID --confirm``: governed re-derivation of one session.

Re-derivation is opt-in per principal, so the command refuses (exit 2) without ``--confirm``.
With it, the session is re-consolidated from its first event under the current formation
policy; recorded rejections are re-applied before commit, so nothing the user rejected returns.
The consolidation record is printed as JSON. The memory lives in PostgreSQL (``--url`` or
``MEMORY_DATABASE_URL``): an in-process store has nothing to replay between commands.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

from memory_cli.app import print_error
from memory_core.domain import Principal
from memory_core.errors import NotFoundError, StorageUnavailableError, UsageError

UNAVAILABLE_EXIT = 1

CONFIRMATION_REQUIRED = (
    "replay re-derives the session's beliefs from its original evidence under the current "
    "formation policy; it is opt-in per principal. Re-run with --confirm to proceed "
    "(recorded rejections are re-applied, so nothing the user rejected returns)."
)


def _run(args: argparse.Namespace) -> int:
    if not args.confirm:
        raise UsageError(CONFIRMATION_REQUIRED)
    from memory_core.bootstrap import build

    principal = Principal(args.tenant, args.principal)
    try:
        app = build(storage="postgres", database_url=args.url, principal=principal)
    except StorageUnavailableError as exc:
        print_error(exc)
        return UNAVAILABLE_EXIT
    try:
        result = app.memory.replay(args.session, principal=principal)
    except NotFoundError as exc:
        raise UsageError(
            f"session {args.session} does not exist for principal "
            f"{args.tenant}/{args.principal}: {exc}"
        ) from exc
    finally:
        app.close()
    record = {"session_id": args.session, "trigger": "replay", **dataclasses.asdict(result)}
    print(json.dumps(record, indent=2, sort_keys=True))
    return 0


def register(groups: dict[str, Any]) -> None:
    """Add ``agent memory replay``."""
    parser = groups["memory"].add_parser(
        "replay",
        help="re-derive one session's beliefs from its original evidence (needs --confirm)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--session", required=True, help="the session id to replay")
    parser.add_argument("--principal", required=True, help="the principal owning the session")
    parser.add_argument("--tenant", default="default", help="the principal's tenant")
    parser.add_argument(
        "--url", default=None, help="PostgreSQL URL (default: $MEMORY_DATABASE_URL)"
    )
    parser.add_argument(
        "--confirm", action="store_true", help="confirm the re-derivation (required)"
    )
    parser.set_defaults(handler=_run)
