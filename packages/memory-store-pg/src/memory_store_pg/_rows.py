"""Records to column values and back, exactly.

Enums are stored by value, tuples as ``text[]``, nested records and dicts as ``json`` text
(key order and number spelling kept), timestamps as ``timestamptz`` and read back as UTC.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, TypeVar

import sqlalchemy as sa
from pydantic import BaseModel
from sqlalchemy.dialects import postgresql
from sqlalchemy.sql.elements import ColumnElement

from memory_core.domain import Belief, Event, RecallTrace, Rejection, Session
from memory_core.errors import UsageError
from memory_core.ports import IDEMPOTENCY_KEY_FIELD
from memory_core.tokenizer import normalize_subject

_Model = TypeVar("_Model", bound=BaseModel)


def dump_json(value: Any, *, field: str) -> str:
    """Serialize a JSON column value, refusing what JSON cannot hold (NaN, objects)."""
    try:
        return json.dumps(value, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise UsageError(
            f"{field} must hold JSON values only (str, int, float, bool, None, lists, dicts "
            f"with str keys; no NaN): {exc}"
        ) from exc


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def bind(table: sa.Table, column: str, value: Any) -> ColumnElement[Any]:
    """A bound value typed (and, by the psycopg dialect, cast) as ``table.c[column]``.

    JSON is serialized here, strictly, so a value JSON cannot hold is a ``UsageError`` naming
    the field rather than a driver error.
    """
    column_type = table.c[column].type
    if isinstance(column_type, postgresql.JSON):
        if value is None:
            return sa.null()
        return sa.cast(sa.literal(dump_json(value, field=column), sa.Text), column_type)
    return sa.literal(value, column_type)


def event_values(event: Event) -> dict[str, Any]:
    """Column values of an event (without its sequence, which the store stamps).

    ``idempotency_key`` is the payload's key of that name when it is a str (else ``NULL``).
    """
    values = {name: _plain(value) for name, value in event.model_dump().items()}
    values.pop("sequence")
    key = event.payload.get(IDEMPOTENCY_KEY_FIELD)
    values["idempotency_key"] = key if isinstance(key, str) else None
    return values


def session_values(session: Session) -> dict[str, Any]:
    """Column values of a session."""
    values = {name: _plain(value) for name, value in session.model_dump().items()}
    values["metadata"] = session.metadata.model_dump(mode="json")
    return values


def belief_values(belief: Belief) -> dict[str, Any]:
    """Column values of a belief (without its store position, which the store stamps)."""
    values = {name: _plain(value) for name, value in belief.model_dump().items()}
    values.pop("store_position")
    values["subject_key"] = normalize_subject(belief.subject)
    return values


def belief_copy_row(belief: Belief, store_position: int, columns: Sequence[str]) -> tuple[Any, ...]:
    """One ``COPY`` row of a belief: its column values in ``columns`` order."""
    values = belief_values(belief)
    values["store_position"] = store_position
    return tuple(values[name] for name in columns)


def trace_values(trace: RecallTrace) -> dict[str, Any]:
    """Column values of a recall trace."""
    values = {name: _plain(value) for name, value in trace.model_dump().items()}
    values["beliefs"] = [traced.model_dump(mode="json") for traced in trace.beliefs]
    return values


def rejection_values(rejection: Rejection) -> dict[str, Any]:
    """Column values of a rejection."""
    return {name: _plain(value) for name, value in rejection.model_dump().items()}


def to_record(model: type[_Model], row: Mapping[Any, Any], *, drop: tuple[str, ...] = ()) -> _Model:
    """Validate a row into a record.

    Timestamps come back as UTC: every timestamp field of a record is a ``UtcDatetime``,
    whose validator converts whatever zone the session reports (``TimeZone``) to UTC.
    """
    data = {name: value for name, value in row.items() if name not in drop} if drop else dict(row)
    return model.model_validate(data)


__all__ = [
    "belief_copy_row",
    "belief_values",
    "bind",
    "dump_json",
    "event_values",
    "rejection_values",
    "session_values",
    "to_record",
    "trace_values",
]
