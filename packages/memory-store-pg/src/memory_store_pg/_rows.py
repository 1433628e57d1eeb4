"""Records to column values and back, exactly.

Enums are stored by value, tuples as ``text[]``, nested records and dicts as ``json`` text
(key order and number spelling kept), timestamps as ``timestamptz`` and read back as UTC.
"""

from __future__ import annotations

import functools
import json
import operator
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any, NamedTuple, TypeVar

import sqlalchemy as sa
from pydantic import AwareDatetime, BaseModel, TypeAdapter
from sqlalchemy.dialects import postgresql
from sqlalchemy.sql.elements import ColumnElement

from memory_core.domain import (
    Belief,
    BeliefStatus,
    Event,
    RecallTrace,
    Rejection,
    Session,
    TracedBelief,
)
from memory_core.errors import UsageError
from memory_core.ports import BELIEF_KEY_FIELDS, IDEMPOTENCY_KEY_FIELD
from memory_core.text import fold

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
        return [_plain(item) if isinstance(item, _NESTED) else item for item in value]
    return value


_NESTED = (Enum, tuple)
"""What :func:`_plain` converts: an item of another type is kept as it is, uncalled."""


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
    values["subject_key"] = fold(belief.subject)
    return values


def belief_copy_row(belief: Belief, store_position: int, columns: Sequence[str]) -> tuple[Any, ...]:
    """One ``COPY`` row of a belief: its column values in ``columns`` order."""
    values = belief_values(belief)
    values["store_position"] = store_position
    return tuple(values[name] for name in columns)


_TRACED_BELIEFS: TypeAdapter[tuple[TracedBelief, ...]] = TypeAdapter(tuple[TracedBelief, ...])


def trace_values(trace: RecallTrace) -> dict[str, Any]:
    """Column values of a recall trace, in field order.

    Read from the record's own fields (a trace holds no computed field, and its one nested
    record, ``beliefs``, is dumped as JSON values in one call), not from a ``model_dump``
    that would copy every value first.
    """
    return {
        name: _TRACED_BELIEFS.dump_python(value, mode="json")
        if name == "beliefs"
        else _plain(value)
        for name, value in trace.__dict__.items()
    }


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


PG_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
"""PostgreSQL's epoch: a ``timestamptz`` in binary format is the microseconds since it."""


INSTANT_MEMO_SIZE = 4096
"""Raw instants remembered as their ``datetime`` (see :func:`_instant`); past it the memo is
emptied."""

_instants: dict[int, datetime] = {}


def _instant(micros: int) -> datetime:
    """The UTC instant ``micros`` microseconds after :data:`PG_EPOCH`, remembered.

    A belief's timestamps mostly hold one instant (created, updated, valid from, last
    evidenced at once), and the beliefs one write formed share it, so a read meets the same
    few values over and over; building a ``datetime`` costs several times a lookup. A
    ``datetime`` is immutable, so records sharing one cannot tell.
    """
    found = _instants.get(micros)
    if found is None:
        if len(_instants) >= INSTANT_MEMO_SIZE:
            _instants.clear()
        found = _instants[micros] = PG_EPOCH + timedelta(microseconds=micros)
    return found


def _utc(value: datetime | int) -> datetime:
    """An instant read from a row, in UTC: a ``datetime`` (in the session's zone), or the
    ``int`` microseconds since :data:`PG_EPOCH` of a binary ``timestamptz`` read raw (see
    ``_engine.driver_execute``); the same instant either way."""
    if type(value) is int:
        return _instant(value)
    assert isinstance(value, datetime)
    return value if value.tzinfo is UTC else value.astimezone(UTC)


def _field_reader(annotation: Any) -> Callable[[Any], Any] | None:
    """How a column value becomes a field value: ``None`` when it is one already."""
    if typing.get_origin(annotation) is typing.Annotated:
        return _field_reader(typing.get_args(annotation)[0])
    arguments = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in (
        arguments
    ):
        (inner,) = (a for a in arguments if a is not type(None))
        return _field_reader(inner)  # a NULL stays None
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return annotation._value2member_map_.__getitem__  # the member, without Enum.__call__
    if typing.get_origin(annotation) is tuple:
        return tuple
    if annotation in (datetime, AwareDatetime):
        return _utc
    if annotation in (str, int, float, bool):
        return None
    raise TypeError(f"no row reader for a Belief field of type {annotation!r}")


_BELIEF_READERS: tuple[tuple[str, Callable[[Any], Any]], ...] = tuple(
    (name, read)
    for name, field in Belief.model_fields.items()
    if (read := _field_reader(field.annotation)) is not None
)
_BELIEF_FIELDS = tuple(Belief.model_fields)
if Belief.__pydantic_post_init__ is not None or Belief.__private_attributes__:
    raise TypeError("belief_from_row builds Belief without post-init or private attributes")


def belief_from_row(row: Mapping[Any, Any]) -> Belief:
    """A stored row as a ``Belief``, without validating it again (the read path).

    Every row was validated on its way in (each write revalidates its record; ``COPY`` rows
    too) and the table's constraints hold its enums, so a read only converts: enum values to
    members, arrays to tuples, timestamps to UTC, the values ``to_record`` produces (a test
    compares the two). The record is assembled as ``BaseModel.model_construct`` assembles
    one, minus its per-field Python loop, which costs more than validating. Rows of unknown
    origin go through ``to_record`` instead.
    """
    data = {name: row[name] for name in _BELIEF_FIELDS}
    for name, read in _BELIEF_READERS:
        value = data[name]
        if value is not None:
            data[name] = read(value)
    return _assembled(data)


def beliefs_from_rows(columns: Iterable[str], rows: Iterable[Sequence[Any]]) -> list[Belief]:
    """Rows whose values come in ``columns`` order (a result's keys) as ``Belief`` records,
    each exactly what :func:`belief_from_row` makes of it as a mapping.

    The fields are read by position, each column's place looked up once per column list
    rather than once per value.
    """
    pick = _field_picker(tuple(columns))
    return [_belief_of(pick(row)) for row in rows]


class BeliefReader:
    """Reads belief rows as records, reusing the record of a row it read before when the
    row's values are the same.

    A recall reads the same rows turn after turn (the recency arm of a snapshot or a delta:
    the newest live beliefs, which change only when a belief is written) and, within one turn,
    the same row in more than one arm. A row is read as a record once; a later read whose
    values equal the held row's (every belief column compared, so any change to the row is a
    new record) gets the same immutable record back, as the in-memory tier returns its stored
    records. At most ``capacity`` rows are held (the hold is emptied when it is full);
    :meth:`forget` empties it at once (erasure calls it, so an erased row's text is not kept
    here).
    """

    def __init__(self, capacity: int = 2048) -> None:
        self._capacity = capacity
        self._held: dict[str, tuple[tuple[Any, ...], Belief]] = {}

    def beliefs(self, columns: Iterable[str], rows: Iterable[Sequence[Any]]) -> list[Belief]:
        """Rows whose values come in ``columns`` order as records (:func:`beliefs_from_rows`)."""
        pick = _field_picker(tuple(columns))
        return [self._belief(pick(row)) for row in rows]

    def branches(
        self, columns: Sequence[str], rows: Iterable[Sequence[Any]], searches: int
    ) -> list[list[Belief]]:
        """Rows of one statement reading ``searches`` searches (``_queries.search_many_sql``:
        column ``branch`` holds a search's index) as each search's records, in row order.

        The statement reads one snapshot, so rows of one id are the same row: they share
        one record.
        """
        _, found = self.keyed_branches(columns, rows, searches, keyed=None)
        return found

    def keyed_branches(
        self,
        columns: Sequence[str],
        rows: Iterable[Sequence[Any]],
        searches: int,
        *,
        keyed: int | None,
    ) -> tuple[list[StoredBeliefKey], list[list[Belief]]]:
        """:meth:`branches`, with the rows of branch ``keyed`` (read by ``search_many_sql``
        with ``keyed=(keyed,)``; ``None``: no branch) as their keys, in row order, and
        nothing in that branch's list of records.

        Each branch's rows are returned newest store position first, as its search orders
        them: ``search_many_sql`` sorts nothing over the union, and PostgreSQL's ``Append``
        yields each branch's rows in the branch's own order, so a branch is sorted here
        (stably) only when its rows did not come in that order.
        """
        names = tuple(columns)
        pick = _field_picker(names)
        pick_key = _key_picker(names)
        branch_at = names.index("branch")
        position_at = names.index("store_position")
        keys: list[StoredBeliefKey] = []
        found: list[list[Belief]] = [[] for _ in range(searches)]
        last: list[int | None] = [None] * searches
        unordered: set[int] = set()
        for row in rows:
            branch = row[branch_at]
            position = row[position_at]
            previous = last[branch]
            if previous is not None and position > previous:
                unordered.add(branch)
            last[branch] = position
            if branch == keyed:
                keys.append(_key_of(pick_key(row)))
            else:
                found[branch].append(self._belief(pick(row)))
        for branch in unordered:
            if branch == keyed:
                keys.sort(key=_newest_first)
            else:
                found[branch].sort(key=_newest_first)
        return keys, found

    def __len__(self) -> int:
        """How many records are held."""
        return len(self._held)

    def forget(self) -> None:
        """Drop every held record."""
        self._held = {}

    def _belief(self, values: tuple[Any, ...]) -> Belief:
        held = self._held.get(values[_ID_AT])
        if held is not None and held[0] == values:
            return held[1]
        belief = _belief_of(values)
        if len(self._held) >= self._capacity:
            self._held = {}
        self._held[values[_ID_AT]] = (values, belief)
        return belief


def _newest_first(record: Belief | StoredBeliefKey) -> int:
    """The sort key of newest store position first."""
    return -record.store_position


_ID_AT = _BELIEF_FIELDS.index("id")
_CONVERSIONS: tuple[tuple[int, Callable[[Any], Any]], ...] = tuple(
    (_BELIEF_FIELDS.index(name), read) for name, read in _BELIEF_READERS
)


@functools.lru_cache(maxsize=16)
def _field_picker(columns: tuple[str, ...]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """The row's values of the belief fields, in field order, from rows in ``columns`` order."""
    at = {name: index for index, name in enumerate(columns)}
    missing = [name for name in _BELIEF_FIELDS if name not in at]
    if missing:
        raise TypeError(f"belief rows lack the columns {missing}")
    return operator.itemgetter(*(at[name] for name in _BELIEF_FIELDS))


class StoredBeliefKey(NamedTuple):
    """A stored belief's key fields (``memory_core.ports.BeliefKey``), as a keyed search
    reads them: the values its ``Belief`` holds."""

    id: str
    tenant_id: str
    principal_id: str
    scope: str
    status: BeliefStatus
    store_position: int
    subject: str


if StoredBeliefKey._fields != BELIEF_KEY_FIELDS:
    raise TypeError("StoredBeliefKey must hold memory_core.ports.BELIEF_KEY_FIELDS in order")

_STATUS_AT = BELIEF_KEY_FIELDS.index("status")
_status_of = BeliefStatus._value2member_map_.__getitem__


@functools.lru_cache(maxsize=16)
def _key_picker(columns: tuple[str, ...]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """The row's values of the key fields, in field order, from rows in ``columns`` order."""
    at = {name: index for index, name in enumerate(columns)}
    return operator.itemgetter(*(at[name] for name in BELIEF_KEY_FIELDS))


def _key_of(values: tuple[Any, ...]) -> StoredBeliefKey:
    """The key of a row's key field values (in field order): the status as its member."""
    key = list(values)
    key[_STATUS_AT] = _status_of(key[_STATUS_AT])
    return StoredBeliefKey._make(key)


def _belief_of(values: tuple[Any, ...]) -> Belief:
    """The record of a row's belief field values (in field order), converted."""
    converted = list(values)
    for index, convert in _CONVERSIONS:
        value = converted[index]
        if value is not None:
            converted[index] = convert(value)
    return _assembled(dict(zip(_BELIEF_FIELDS, converted, strict=True)))


_new_belief = Belief.__new__
_set_slot = object.__setattr__


def _assembled(data: dict[str, Any]) -> Belief:
    """A ``Belief`` holding ``data`` (every field, converted) as ``model_construct`` would."""
    belief = _new_belief(Belief)
    _set_slot(belief, "__dict__", data)
    _set_slot(belief, "__pydantic_fields_set__", set(data))
    _set_slot(belief, "__pydantic_extra__", None)
    _set_slot(belief, "__pydantic_private__", None)
    return belief


__all__ = [
    "PG_EPOCH",
    "BeliefReader",
    "StoredBeliefKey",
    "belief_copy_row",
    "belief_from_row",
    "belief_values",
    "beliefs_from_rows",
    "bind",
    "dump_json",
    "event_values",
    "rejection_values",
    "session_values",
    "to_record",
    "trace_values",
]
