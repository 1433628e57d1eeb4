"""Export and import one principal's beliefs and rejections as JSON Lines.

The format (schema version :data:`EXPORT_SCHEMA_VERSION`), one JSON object per line::

    {"kind": "header", "schema_version": 1, "tenant_id": ..., "principal_id": ...,
     "beliefs": <count>, "rejections": <count>}
    {"kind": "belief", "belief": {<every Belief field>}}          (store-position order)
    {"kind": "rejection", "rejection": {<every Rejection field>}}  (oldest first)

Rejections include ``forget``'s tombstones, so a forgotten statement stays forgotten in the
store an export is imported into. Importing re-owns every record to the importing principal
and gives each belief a fresh store position in the exported order, so recall over the
imported store returns what it returned over the exported one. Import reads and validates
every line before it writes anything; a malformed line is an ``ImportFormatError`` naming
the line and the field, and nothing is written. The writes run in one unit of work, so an id
already in the target store writes nothing either.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memory_core.domain import Belief, Principal, Rejection
from memory_core.errors import ImportFormatError
from memory_core.ports import Storage

EXPORT_SCHEMA_VERSION = 1
"""The export format this package writes and reads."""

_log = logging.getLogger(__name__)
"""Records counts and line numbers only: never a statement or a field's value."""


class _Line(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ExportHeader(_Line):
    """The first line of an export: format version, owner and record counts."""

    kind: Literal["header"] = "header"
    schema_version: int
    tenant_id: str = Field(min_length=1)
    principal_id: str = Field(min_length=1)
    beliefs: int = Field(ge=0)
    rejections: int = Field(ge=0)


class BeliefLine(_Line):
    """One exported belief."""

    kind: Literal["belief"] = "belief"
    belief: Belief


class RejectionLine(_Line):
    """One exported rejection (or tombstone)."""

    kind: Literal["rejection"] = "rejection"
    rejection: Rejection


@dataclass(frozen=True, kw_only=True)
class ImportReport:
    """What an import wrote."""

    beliefs: int
    rejections: int


def export_lines(storage: Storage, principal: Principal) -> Iterator[str]:
    """The principal's beliefs and rejections as JSON Lines (no trailing newlines)."""
    beliefs = storage.memories.list_beliefs(principal)
    rejections = storage.formation.rejections(principal)
    header = ExportHeader(
        schema_version=EXPORT_SCHEMA_VERSION,
        tenant_id=principal.tenant_id,
        principal_id=principal.principal_id,
        beliefs=len(beliefs),
        rejections=len(rejections),
    )
    yield header.model_dump_json()
    for belief in beliefs:
        yield BeliefLine(belief=belief).model_dump_json()
    for rejection in rejections:
        yield RejectionLine(rejection=rejection).model_dump_json()


def _field(error: ValidationError, prefix: str = "") -> tuple[str, str]:
    first = error.errors()[0]
    loc = ".".join(str(part) for part in first["loc"]) or "-"
    return (f"{prefix}{loc}" if loc != "-" else prefix.rstrip(".") or "-"), first["msg"]


def parse_export(lines: Iterable[str]) -> tuple[ExportHeader, list[Belief], list[Rejection]]:
    """Read and validate a whole export (nothing is written).

    Raises:
        ImportFormatError: a line is not JSON, has an unknown ``kind`` or a bad field, the
            header is missing or of another schema version, or the counts disagree.
    """
    header: ExportHeader | None = None
    beliefs: list[Belief] = []
    rejections: list[Rejection] = []
    number = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ImportFormatError(number, "-", f"not JSON ({exc.msg})") from exc
        if not isinstance(data, dict):
            raise ImportFormatError(number, "-", "expected a JSON object")
        kind = data.get("kind")
        model: type[ExportHeader | BeliefLine | RejectionLine]
        if header is None:
            if kind != "header":
                raise ImportFormatError(
                    number, "kind", f"the first line must be the header, got kind {kind!r}"
                )
            model = ExportHeader
        elif kind == "belief":
            model = BeliefLine
        elif kind == "rejection":
            model = RejectionLine
        else:
            raise ImportFormatError(
                number, "kind", f"expected 'belief' or 'rejection', got {kind!r}"
            )
        try:
            parsed = model.model_validate(data)
        except ValidationError as exc:
            field, message = _field(exc)
            raise ImportFormatError(number, field, message) from exc
        if isinstance(parsed, ExportHeader):
            if parsed.schema_version != EXPORT_SCHEMA_VERSION:
                raise ImportFormatError(
                    number,
                    "schema_version",
                    f"this package reads schema version {EXPORT_SCHEMA_VERSION}, got "
                    f"{parsed.schema_version}; export again with a matching version",
                )
            header = parsed
            continue
        assert header is not None  # the first line parsed is the header (see above)
        owner = parsed.belief if isinstance(parsed, BeliefLine) else parsed.rejection
        if (owner.tenant_id, owner.principal_id) != (header.tenant_id, header.principal_id):
            raise ImportFormatError(
                number, f"{parsed.kind}.principal_id", "the record is not the header's principal"
            )
        if isinstance(parsed, BeliefLine):
            beliefs.append(parsed.belief)
        else:
            rejections.append(parsed.rejection)
    if header is None:
        raise ImportFormatError(max(number, 1), "kind", "the export is empty: no header line")
    for what, count, found in (
        ("beliefs", header.beliefs, len(beliefs)),
        ("rejections", header.rejections, len(rejections)),
    ):
        if count != found:
            raise ImportFormatError(
                1, what, f"the header announces {count} {what} but the export holds {found}"
            )
    return header, beliefs, rejections


def import_lines(storage: Storage, principal: Principal, lines: Iterable[str]) -> ImportReport:
    """Import an export into the principal's memory, all or nothing (see module docstring)."""
    try:
        _, beliefs, rejections = parse_export(lines)
    except ImportFormatError as exc:
        _log.warning("import refused: line %d, field %s is malformed", exc.line, exc.field)
        raise
    owner = {"tenant_id": principal.tenant_id, "principal_id": principal.principal_id}
    ordered = sorted(beliefs, key=lambda b: b.store_position)
    with storage.unit_of_work():
        for belief in ordered:
            storage.memories.put(belief.model_copy(update={**owner, "store_position": 0}))
        for rejection in rejections:
            storage.formation.record_rejection(rejection.model_copy(update=owner))
    _log.info("imported %d beliefs and %d rejections", len(beliefs), len(rejections))
    return ImportReport(beliefs=len(beliefs), rejections=len(rejections))


__all__ = [
    "EXPORT_SCHEMA_VERSION",
    "BeliefLine",
    "ExportHeader",
    "ImportReport",
    "RejectionLine",
    "export_lines",
    "import_lines",
    "parse_export",
]
