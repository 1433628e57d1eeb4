"""``agent memory list | show ID | history ID | forget ID | export | import FILE``.

Manage one principal's memory in PostgreSQL (``--url`` or ``MEMORY_DATABASE_URL``; an
in-process store holds nothing between two commands). Every command names the principal
with ``--tenant`` and ``--principal``: there is no default owner. ``ID`` is a belief id, its
short id (``4b64ba22``) or the cited form (``m:4b64ba22``); a short id fitting several
beliefs is refused (exit 2), never guessed.

``list``, ``show``, ``history``, ``forget`` and ``import`` print a table on a terminal and
JSON when piped or with ``--json``. ``export`` always writes JSON Lines (to ``--output`` or
standard output). ``forget`` erases (the belief, its copies and its source text) and needs
``--confirm``. Exit status: 0 done, 1 failure (storage unreachable), 2 usage (bad
arguments, an unknown or ambiguous id, a malformed import file).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory_cli.output import add_json_flag, print_fields, print_json, print_table, wants_json
from memory_core.domain import Belief, BeliefStatus, Event, Principal
from memory_core.errors import UsageError

if TYPE_CHECKING:
    from memory_core.bootstrap import Composition

FORGET_CONFIRMATION = (
    "forget erases the belief, its same-statement copies and the text of the turns it came "
    "from, on this store, for good (a tombstone keeps it from forming again). Re-run with "
    "--confirm to proceed."
)


@contextmanager
def _open(args: argparse.Namespace) -> Iterator[Composition]:
    """The PostgreSQL composition of ``--url``/``--tenant``/``--principal``, closed after."""
    from memory_core.bootstrap import build

    app = build(
        storage="postgres",
        database_url=args.url,
        principal=Principal(args.tenant, args.principal),
    )
    try:
        yield app
    finally:
        app.close()


def _belief_row(belief: Belief) -> tuple[object, ...]:
    return (
        belief.short_id,
        belief.status.value,
        belief.belief_type.value,
        belief.scope,
        belief.subject,
        belief.statement,
    )


_BELIEF_COLUMNS = ("id", "status", "type", "scope", "subject", "statement")


def _event_summary(event: Event) -> str:
    payload = event.payload
    if "text" in payload:
        return str(payload["text"])
    return ", ".join(f"{k}={payload[k]}" for k in sorted(payload) if k != "policy_version")


def _list(args: argparse.Namespace) -> int:
    statuses = None if not args.status else frozenset(BeliefStatus(s.upper()) for s in args.status)
    with _open(args) as app:
        beliefs = app.memory.list_memories(statuses)
    if wants_json(args):
        print_json([b.model_dump(mode="json") for b in beliefs])
    else:
        title = f"{len(beliefs)} beliefs of {args.tenant}/{args.principal}"
        print_table(title, _BELIEF_COLUMNS, [_belief_row(b) for b in beliefs])
    return 0


def _show(args: argparse.Namespace) -> int:
    with _open(args) as app:
        belief = app.memory.get(args.id)
    if wants_json(args):
        print_json(belief.model_dump(mode="json"))
    else:
        print_fields(f"belief {belief.short_id}", belief.model_dump(mode="json"))
    return 0


def _history(args: argparse.Namespace) -> int:
    with _open(args) as app:
        history = app.memory.history(args.id)
    record: dict[str, Any] = {
        "belief": history.belief.model_dump(mode="json"),
        "lineage": [b.model_dump(mode="json") for b in history.lineage],
        "events": [e.model_dump(mode="json") for e in history.events],
        "sources": [e.model_dump(mode="json") for e in history.sources],
        "rejection": None
        if history.rejection is None
        else history.rejection.model_dump(mode="json"),
    }
    if wants_json(args):
        print_json(record)
        return 0
    print_table(
        "lineage (oldest first)", _BELIEF_COLUMNS, [_belief_row(b) for b in history.lineage]
    )
    rows = [
        (e.sequence, e.created_at.isoformat(), e.event_type, _event_summary(e))
        for e in sorted((*history.events, *history.sources), key=lambda e: e.sequence)
    ]
    print_table("events", ("seq", "at", "type", "detail"), rows)
    if history.rejection is not None:
        print_fields("rejection", history.rejection.model_dump(mode="json"))
    return 0


def _forget(args: argparse.Namespace) -> int:
    if not args.confirm:
        raise UsageError(FORGET_CONFIRMATION)
    with _open(args) as app:
        report = app.memory.forget(args.id)
    record = {
        "belief_id": report.belief_id,
        "erased_belief_ids": list(report.erased_belief_ids),
        "redacted_event_ids": list(report.redacted_event_ids),
        "redacted_traces": report.redacted_traces,
        "erased_rejections": report.erased_rejections,
    }
    if wants_json(args):
        print_json(record)
    else:
        print_fields(f"forgot {report.belief_id}", record)
    return 0


def _export(args: argparse.Namespace) -> int:
    with _open(args) as app:
        lines = list(app.memory.export_jsonl())
    text = "".join(f"{line}\n" for line in lines)
    if args.output is None:
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


def _import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read import file {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"import file {path} is not UTF-8 text: {exc.reason}") from exc
    with _open(args) as app:
        report = app.memory.import_jsonl(lines)
    record = {"file": str(path), "beliefs": report.beliefs, "rejections": report.rejections}
    if wants_json(args):
        print_json(record)
    else:
        print_fields(f"imported into {args.tenant}/{args.principal}", record)
    return 0


def _common(parser: argparse.ArgumentParser, *, json_flag: bool = True) -> None:
    parser.add_argument("--tenant", required=True, help="the principal's tenant")
    parser.add_argument("--principal", required=True, help="whose memory (the principal id)")
    parser.add_argument(
        "--url", default=None, help="PostgreSQL URL (default: $MEMORY_DATABASE_URL)"
    )
    if json_flag:
        add_json_flag(parser)


def register(groups: dict[str, Any]) -> None:
    """Add ``agent memory list|show|history|forget|export|import``."""
    memory = groups["memory"]
    listing = memory.add_parser("list", help="list a principal's beliefs", description=__doc__)
    listing.add_argument(
        "--status",
        action="append",
        choices=[s.value.lower() for s in BeliefStatus],
        help="only beliefs of this status (repeatable)",
    )
    _common(listing)
    listing.set_defaults(handler=_list)
    for name, handler, help_text in (
        ("show", _show, "show one belief (id or short id)"),
        ("history", _history, "show a belief's lineage and events"),
    ):
        sub = memory.add_parser(name, help=help_text, description=__doc__)
        sub.add_argument("id", help="belief id, short id or m:<short id>")
        _common(sub)
        sub.set_defaults(handler=handler)
    forget = memory.add_parser(
        "forget", help="erase a belief and its source text (needs --confirm)", description=__doc__
    )
    forget.add_argument("id", help="belief id, short id or m:<short id>")
    forget.add_argument("--confirm", action="store_true", help="confirm the erasure (required)")
    _common(forget)
    forget.set_defaults(handler=_forget)
    export = memory.add_parser(
        "export", help="write a principal's beliefs and rejections as JSON Lines"
    )
    export.add_argument("--output", default=None, help="write here instead of standard output")
    _common(export, json_flag=False)
    export.set_defaults(handler=_export)
    importing = memory.add_parser(
        "import", help="import a JSON Lines export into a principal's memory (all or nothing)"
    )
    importing.add_argument("file", help="the export file (agent memory export)")
    _common(importing)
    importing.set_defaults(handler=_import)
