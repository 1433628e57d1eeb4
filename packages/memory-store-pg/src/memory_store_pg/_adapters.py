"""PostgreSQL adapters for the five storage ports.

Each method is one statement (plus the principal's advisory lock where a write needs it, see
``_database``), so no call fans out into a query per row. Semantics match the in-memory
reference tier (``memory_core.stores.memory``): ordering, limits, conflicts and not-found
errors, any-term lexical search, subject-named matching, ``terms=None`` meaning no lexical
predicate. Every write validates its record again first (``revalidated``: ``model_copy``
skips validation), so an invalid record is refused with its ``ValidationError`` before it
reaches a row, exactly as the reference tier refuses it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, NoReturn

import psycopg
import sqlalchemy as sa
from pydantic import ValidationError
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import postgresql

from memory_core.clock import require_aware
from memory_core.domain import (
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    Principal,
    RecallQuery,
    RecallTrace,
    Rejection,
    Session,
)
from memory_core.errors import (
    ConflictError,
    DuplicateIdError,
    NotFoundError,
    SessionClosedError,
    UsageError,
)
from memory_core.ports import IDEMPOTENCY_KEY_FIELD, BeliefKey
from memory_core.stores.memory import revalidated
from memory_store_pg._database import Database
from memory_store_pg._engine import BINARY_RESULTS, driver_execute
from memory_store_pg._queries import (
    copy_rows,
    event_page_statement,
    expire_statement,
    find_by_subject_sql,
    head_position_statement,
    idle_principals_statement,
    idle_statement,
    insert_or_nothing_sql,
    insert_rows_sql,
    insert_unless_exists,
    json_params,
    list_statement,
    owned_by,
    rows_json,
    search_many_sql,
    search_sql,
    update_rows_sql,
    update_values,
)
from memory_store_pg._rows import (
    belief_copy_row,
    belief_values,
    beliefs_from_rows,
    event_values,
    rejection_values,
    session_values,
    to_record,
    trace_values,
)
from memory_store_pg._schema import (
    BELIEF_COLUMNS,
    BULK_BELIEF_COLUMNS,
    EVENT_COLUMNS,
    event_sequence_seq,
    events,
    formation_watermarks,
    memories,
    rejections,
    sessions,
    store_position_seq,
    traces,
)

_log = logging.getLogger(__name__)
_BINARY = {BINARY_RESULTS: True}  # belief reads: rows in binary format (see ``_engine``)
_EVENTS = events  # the table, where a parameter named ``events`` hides it


def _one_principal(principals: Sequence[Principal], call: str) -> Principal:
    """The one principal of a batch, or ``UsageError`` naming the others."""
    first = principals[0]
    others = sorted({str(p) for p in principals if p != first})
    if others:
        raise UsageError(
            f"{call} takes the records of one principal, got {first} and "
            f"{', '.join(others)}; call it once per principal"
        )
    return first


def _check_limit(limit: int, what: str) -> int:
    if limit < 0:
        raise UsageError(f"{what} limit must be >= 0, got {limit}; pass a row count of 0 or more")
    return limit


class PostgresEventLog:
    """The event log: ``sequence`` comes from ``events_sequence_seq``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def append(self, event: Event) -> Event:
        """Store ``event`` with the next sequence number.

        Raises:
            DuplicateIdError: the event id is already stored.
            ConflictError: the principal's session already holds this idempotency key.
        """
        event = revalidated(event)
        statement = insert_unless_exists(
            events,
            event_values(event),
            exists=events.c.event_id == event.event_id,
            stamped={"sequence": event_sequence_seq.next_value()},
        ).returning(events.c.sequence)
        with self._db.connect(event.principal, write=True) as connection:
            sequence = connection.execute(statement).scalar_one_or_none()
        if sequence is None:
            # ON CONFLICT DO NOTHING covers the idempotency index too: say which one it was.
            key = event.payload.get(IDEMPOTENCY_KEY_FIELD)
            if event.session_id is not None and isinstance(key, str):
                held = self.find_by_idempotency_key(event.principal, event.session_id, key)
                if held is not None and held.event_id != event.event_id:
                    raise ConflictError(
                        f"session {event.session_id} already has an event with idempotency "
                        f"key {key!r}; a retried record returns that event instead of storing "
                        "again"
                    )
            raise DuplicateIdError("event", event.event_id)
        return event.model_copy(update={"sequence": sequence})

    def append_many(self, events: Sequence[Event]) -> list[Event]:
        """Store events of one principal with the next sequence numbers, in the order given.

        Two statements for the whole batch (one event is :meth:`append`): the sequence
        numbers drawn in one, only when no id or key of the batch is held (so a refused batch
        writes nothing and leaves an enclosing unit usable), the rows inserted by one
        multi-row ``INSERT`` (from a JSON array).

        Raises:
            UsageError: the events belong to more than one principal.
            DuplicateIdError: an event id is already stored or given twice.
            ConflictError: an idempotency key is already held in its session or given twice.
        """
        if not events:
            return []
        validated = [revalidated(event) for event in events]
        principal = _one_principal([e.principal for e in validated], "append_many")
        ids: set[str] = set()
        keys: set[tuple[str, str]] = set()
        for event in validated:
            if event.event_id in ids:
                raise DuplicateIdError("event", event.event_id)
            ids.add(event.event_id)
            key = event.payload.get(IDEMPOTENCY_KEY_FIELD)
            if event.session_id is not None and isinstance(key, str):
                if (event.session_id, key) in keys:
                    raise ConflictError(
                        f"idempotency key {key!r} appears twice in the batch for session "
                        f"{event.session_id}; nothing of the batch was stored"
                    )
                keys.add((event.session_id, key))
        if len(validated) == 1:
            return [self.append(validated[0])]
        keyed = sorted(keys)
        with self._db.connect(principal, write=True) as connection:
            # Sequences are drawn only when no id or key of the batch is held, so a refused
            # batch writes nothing (and leaves an enclosing unit usable).
            held = sa.or_(
                _EVENTS.c.event_id.in_(sorted(ids)),
                sa.and_(
                    owned_by(_EVENTS, principal),
                    sa.tuple_(_EVENTS.c.session_id, _EVENTS.c.idempotency_key).in_(keyed),
                )
                if keyed
                else sa.false(),
            )
            drawn = connection.execute(
                sa.select(event_sequence_seq.next_value())
                .select_from(sa.func.generate_series(1, len(validated)))
                .where(~sa.exists().where(held))
            ).scalars()
            sequences = sorted(int(value) for value in drawn)
            if not sequences:
                taken = next((e for e in validated if self.get(principal, e.event_id)), None)
                if taken is not None:
                    raise DuplicateIdError("event", taken.event_id)
                raise ConflictError(
                    "an idempotency key of this batch is already held in its session; a "
                    "retried record returns that event instead of storing again"
                )
            rows = [
                {**event_values(event), "sequence": sequence}
                for event, sequence in zip(validated, sequences, strict=True)
            ]
            inserted = connection.exec_driver_sql(
                insert_rows_sql(_EVENTS, "event_id"), {"rows": rows_json(rows)}
            ).scalars()
            if len(list(inserted)) < len(validated):
                # a concurrent writer took an id or key since the check: the enclosing
                # transaction (the unit's, or this call's own) must not commit half a batch
                raise ConflictError("a concurrent writer stored an event of this batch; retry")
        return [
            event.model_copy(update={"sequence": sequence})
            for event, sequence in zip(validated, sequences, strict=True)
        ]

    def find_by_idempotency_key(
        self, principal: Principal, session_id: str, key: str
    ) -> Event | None:
        """The principal's event of the session carrying idempotency ``key``, or ``None``."""
        statement = sa.select(*EVENT_COLUMNS).where(
            owned_by(events, principal),
            events.c.session_id == session_id,
            events.c.idempotency_key == key,
        )
        with self._db.connect(principal, write=False) as connection:
            row = connection.execute(statement).mappings().one_or_none()
        return None if row is None else to_record(Event, row)

    def get(self, principal: Principal, event_id: str) -> Event | None:
        """Return the principal's event, or ``None`` (another principal's id is invisible)."""
        statement = sa.select(*EVENT_COLUMNS).where(
            owned_by(events, principal), events.c.event_id == event_id
        )
        with self._db.connect(principal, write=False) as connection:
            row = connection.execute(statement).mappings().one_or_none()
        return None if row is None else to_record(Event, row)

    def read_session(
        self, principal: Principal, session_id: str, *, after_sequence: int = 0
    ) -> list[Event]:
        """The principal's events of one session past the cursor, in sequence order."""
        statement = (
            sa.select(*EVENT_COLUMNS)
            .where(
                owned_by(events, principal),
                events.c.session_id == session_id,
                events.c.sequence > after_sequence,
            )
            .order_by(events.c.sequence)
        )
        with self._db.connect(principal, write=False) as connection:
            rows = connection.execute(statement).mappings().all()
        return [to_record(Event, row) for row in rows]

    def page(
        self,
        principal: Principal,
        *,
        after_sequence: int = 0,
        before_sequence: int | None = None,
        limit: int = 100,
        event_types: Sequence[str] | None = None,
        descending: bool = False,
    ) -> list[Event]:
        """Up to ``limit`` of the principal's events strictly between the cursors.

        Oldest first, or newest first when ``descending``.
        """
        if limit < 1:
            raise UsageError(f"page limit must be >= 1, got {limit}")
        statement = event_page_statement(
            principal,
            after_sequence=after_sequence,
            before_sequence=before_sequence,
            limit=limit,
            event_types=event_types,
            descending=descending,
        )
        with self._db.connect(principal, write=False) as connection:
            rows = connection.execute(statement).mappings().all()
        return [to_record(Event, row) for row in rows]


class PostgresSessionStore:
    """Sessions."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def create(self, session: Session) -> Session:
        """Insert a new session; a known session id is a ``ConflictError``."""
        session = revalidated(session)
        statement = insert_unless_exists(
            sessions, session_values(session), exists=sessions.c.id == session.id
        ).returning(sessions.c.id)
        with self._db.connect(session.principal, write=True) as connection:
            created = connection.execute(statement).scalar_one_or_none()
        if created is None:
            raise DuplicateIdError("session", session.id)
        return session

    def get(self, principal: Principal, session_id: str) -> Session | None:
        """Return the principal's session, or ``None``."""
        statement = sa.select(sessions).where(
            owned_by(sessions, principal), sessions.c.id == session_id
        )
        with self._db.connect(principal, write=False) as connection:
            row = connection.execute(statement).mappings().one_or_none()
        return None if row is None else to_record(Session, row)

    def update(self, session: Session) -> Session:
        """Replace an existing session of the same principal; a closed one never reopens.

        One conditional ``UPDATE``: an open record is written only over an open row.

        Raises:
            NotFoundError: no such session for the principal.
            SessionClosedError: the stored session is closed and ``session`` is open.
        """
        session = revalidated(session)
        values = session_values(session)
        where = [owned_by(sessions, session.principal), sessions.c.id == session.id]
        if session.is_open:
            where.append(sessions.c.closed_at.is_(None))
        statement = (
            sa.update(sessions)
            .where(*where)
            .values(update_values(sessions, values))
            .returning(sessions.c.id)
        )
        with self._db.connect(session.principal, write=True) as connection:
            updated = connection.execute(statement).scalar_one_or_none()
        if updated is None:
            self._refuse(session.principal, session.id)
        return session

    def touch(self, principal: Principal, session_id: str, at: datetime) -> Session:
        """Move an open session's last activity to ``at`` (never backwards), in one
        conditional ``UPDATE ... WHERE closed_at IS NULL``.

        Raises:
            NotFoundError: no such session for the principal.
            SessionClosedError: the session is closed.
        """
        instant = require_aware(at, "at")
        statement = (
            sa.update(sessions)
            .where(
                owned_by(sessions, principal),
                sessions.c.id == session_id,
                sessions.c.closed_at.is_(None),
            )
            .values(
                last_activity_at=sa.func.greatest(
                    sessions.c.last_activity_at, sa.literal(instant, sessions.c.opened_at.type)
                )
            )
            .returning(*sessions.c)
        )
        with self._db.connect(principal, write=True) as connection:
            row = connection.execute(statement).mappings().one_or_none()
        if row is None:
            self._refuse(principal, session_id)
        return to_record(Session, row)

    def close(self, principal: Principal, session_id: str, at: datetime) -> Session | None:
        """Mark an open session closed at ``at`` (``UPDATE ... WHERE closed_at IS NULL``);
        ``None`` when it was already closed.

        Raises:
            NotFoundError: no such session for the principal.
        """
        instant = require_aware(at, "at")
        statement = (
            sa.update(sessions)
            .where(
                owned_by(sessions, principal),
                sessions.c.id == session_id,
                sessions.c.closed_at.is_(None),
            )
            .values(closed_at=sa.literal(instant, sessions.c.closed_at.type))
            .returning(*sessions.c)
        )
        with self._db.connect(principal, write=True) as connection:
            row = connection.execute(statement).mappings().one_or_none()
        if row is not None:
            return to_record(Session, row)
        if self.get(principal, session_id) is None:
            raise NotFoundError(f"session {session_id} does not exist for this principal")
        return None

    def lock(self, principal: Principal, session_id: str) -> Session | None:
        """Read the session ``FOR UPDATE``: its row stays locked until the unit of work ends."""
        statement = (
            sa.select(sessions)
            .where(owned_by(sessions, principal), sessions.c.id == session_id)
            .with_for_update()
        )
        with self._db.connect(principal, write=True) as connection:
            row = connection.execute(statement).mappings().one_or_none()
        return None if row is None else to_record(Session, row)

    def _refuse(self, principal: Principal, session_id: str) -> NoReturn:
        """Raise why a conditional write changed no row: no such session, or it is closed."""
        current = self.get(principal, session_id)
        if current is None:
            raise NotFoundError(f"session {session_id} does not exist for this principal")
        raise SessionClosedError(session_id)

    def list_open_idle(
        self,
        last_activity_before: datetime,
        limit: int = 100,
        *,
        after: tuple[datetime, str] | None = None,
    ) -> list[Session]:
        """Open sessions (any principal) idle since at or before the instant, oldest first.

        ``after`` is a keyset cursor over ``(last_activity_at, id)``. A row that is not a
        valid session (written by another version, or by hand) is logged and skipped, and the
        page is filled from the rows after it, so one unreadable session never stops a sweep
        (the reference tier validates every write and cannot hold such a row).
        """
        instant = require_aware(last_activity_before, "last_activity_before")
        limit = _check_limit(limit, "list_open_idle")
        listed: list[Session] = []
        cursor = None if after is None else (require_aware(after[0], "after"), after[1])
        while len(listed) < limit:
            want = limit - len(listed)
            with self._db.connect(None, write=False) as connection:
                rows = connection.execute(_idle_sessions(instant, cursor, want)).mappings().all()
            for row in rows:
                try:
                    listed.append(to_record(Session, row))
                except ValidationError as exc:
                    _log.warning(
                        "skipping unreadable session %s of %s/%s in the idle listing: %s",
                        row["id"],
                        row["tenant_id"],
                        row["principal_id"],
                        exc.errors(include_url=False, include_input=False),
                    )
            if len(rows) < want:
                break
            cursor = (rows[-1]["last_activity_at"], rows[-1]["id"])
        return listed


def _idle_sessions(
    instant: datetime, after: tuple[datetime, str] | None, limit: int
) -> sa.Select[tuple[object, ...]]:
    """Open sessions idle at ``instant``, past the ``(last_activity_at, id)`` cursor."""
    where = [sessions.c.closed_at.is_(None), sessions.c.last_activity_at <= instant]
    if after is not None:
        where.append(
            sa.tuple_(sessions.c.last_activity_at, sessions.c.id)
            > sa.tuple_(
                sa.literal(after[0], sessions.c.last_activity_at.type),
                sa.literal(after[1], sessions.c.id.type),
            )
        )
    return (
        sa.select(sessions)
        .where(*where)
        .order_by(sessions.c.last_activity_at, sessions.c.id)
        .limit(limit)
    )


class PostgresMemoryStore:
    """Beliefs: positions from ``memories_store_position_seq``, lexical search over GIN."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def _beliefs(self, result: sa.CursorResult[Any], *, reuse: bool = True) -> list[Belief]:
        """Every row of ``result`` as a ``Belief``, read by column position: through the
        shared reader, which gives a row read before its record again (the recall reads:
        ``get``, ``get_many``, and ``search`` and ``search_many``, which read their driver
        rows straight into it), or with ``reuse=False`` each row converted afresh (the
        listings, ``find_by_subject`` and ``list_idle``, which read rows of any number and
        would crowd out the rows recalls read again)."""
        if not reuse:
            return beliefs_from_rows(result.keys(), result.all())
        return self._db.beliefs.beliefs(result.keys(), result.all())

    def put(self, belief: Belief) -> Belief:
        """Insert a new belief with a fresh store position; a known id is a ``ConflictError``."""
        belief = revalidated(belief)
        statement = insert_unless_exists(
            memories,
            belief_values(belief),
            exists=memories.c.id == belief.id,
            stamped={"store_position": store_position_seq.next_value()},
        ).returning(memories.c.store_position)
        with self._db.connect(belief.principal, write=True) as connection:
            position = connection.execute(statement).scalar_one_or_none()
        if position is None:
            raise DuplicateIdError("belief", belief.id)
        return belief.model_copy(update={"store_position": position})

    def put_many(self, beliefs: Sequence[Belief]) -> list[Belief]:
        """Insert new beliefs of one principal in bulk (``COPY``), with fresh store positions.

        The fast path for loading many beliefs at once (imports, benchmarks): each belief is
        validated as :meth:`put` validates it, the batch draws its store positions from the
        sequence in one statement (increasing in the order given, under the principal's
        lock), and the rows stream to the server with ``COPY``. All or nothing: the batch
        runs in a savepoint, so a duplicate id writes none of it and leaves an enclosing unit
        of work usable, as :meth:`put` does.

        Returns:
            The stored beliefs with their store positions, in the order given.

        Raises:
            UsageError: the beliefs belong to more than one principal.
            ConflictError: an id is already stored or appears twice in the batch.
        """
        if not beliefs:
            return []
        validated = [revalidated(belief) for belief in beliefs]
        principal = validated[0].principal
        others = sorted({str(b.principal) for b in validated if b.principal != principal})
        if others:
            raise UsageError(
                f"put_many takes the beliefs of one principal, got {principal} and "
                f"{', '.join(others)}; call it once per principal"
            )
        seen: set[str] = set()
        for belief in validated:
            if belief.id in seen:
                raise ConflictError(f"belief {belief.id} appears twice in the batch")
            seen.add(belief.id)
        with self._db.connect(principal, write=True) as connection:
            drawn = connection.execute(
                sa.select(store_position_seq.next_value()).select_from(
                    sa.func.generate_series(1, len(validated))
                )
            )
            positions = sorted(int(value) for value in drawn.scalars())
            with connection.begin_nested():
                try:
                    copy_rows(
                        connection,
                        memories,
                        BULK_BELIEF_COLUMNS,
                        (
                            belief_copy_row(belief, position, BULK_BELIEF_COLUMNS)
                            for belief, position in zip(validated, positions, strict=True)
                        ),
                    )
                except sa_exc.IntegrityError as exc:
                    if not isinstance(exc.orig, psycopg.errors.UniqueViolation):
                        raise
                    raise ConflictError(
                        f"a belief of this batch already exists "
                        f"({exc.orig.diag.message_detail}); nothing of the batch was written"
                    ) from exc
        return [
            belief.model_copy(update={"store_position": position})
            for belief, position in zip(validated, positions, strict=True)
        ]

    def update(self, belief: Belief) -> Belief:
        """Replace an existing belief of the same principal; it takes a fresh position."""
        belief = revalidated(belief)
        values = update_values(memories, belief_values(belief))
        statement = (
            sa.update(memories)
            .where(owned_by(memories, belief.principal), memories.c.id == belief.id)
            .values({**values, "store_position": store_position_seq.next_value()})
            .returning(memories.c.store_position)
        )
        with self._db.connect(belief.principal, write=True) as connection:
            position = connection.execute(statement).scalar_one_or_none()
        if position is None:
            raise NotFoundError(f"belief {belief.id} does not exist for this principal")
        return belief.model_copy(update={"store_position": position})

    def update_many(self, beliefs: Sequence[Belief]) -> list[Belief]:
        """Replace existing beliefs of one principal, fresh positions in the order given.

        Two statements for the whole batch (a supersession of many beliefs; one belief is
        :meth:`update`): the positions drawn in one, only when every belief exists (so an
        unknown one changes nothing and leaves an enclosing unit usable), the rows replaced
        by one ``UPDATE ... FROM json_populate_recordset``.

        Raises:
            UsageError: the beliefs belong to more than one principal.
            NotFoundError: a belief does not exist for the principal (nothing changes).
            ConflictError: an id appears twice in the batch.
        """
        if not beliefs:
            return []
        validated = [revalidated(belief) for belief in beliefs]
        principal = _one_principal([b.principal for b in validated], "update_many")
        seen: set[str] = set()
        for belief in validated:
            if belief.id in seen:
                raise ConflictError(f"belief {belief.id} appears twice in the batch")
            seen.add(belief.id)
        if len(validated) == 1:
            return [self.update(validated[0])]
        ids = sorted(seen)
        with self._db.connect(principal, write=True) as connection:
            # Positions are drawn only when every belief exists (under the principal's lock
            # nothing deletes them before the update): a refused batch writes nothing.
            existing = (
                sa.select(sa.func.count())
                .select_from(memories)
                .where(owned_by(memories, principal), memories.c.id.in_(ids))
                .scalar_subquery()
            )
            drawn = connection.execute(
                sa.select(store_position_seq.next_value()).select_from(
                    sa.func.generate_series(1, existing)
                )
            ).scalars()
            positions = sorted(int(value) for value in drawn)
            if len(positions) < len(validated):
                found = {b.id for b in self.get_many(principal, ids)}
                missing = next(b.id for b in validated if b.id not in found)
                raise NotFoundError(
                    f"belief {missing} does not exist for this principal; nothing of the "
                    "batch was updated"
                )
            rows = [
                {**belief_values(belief), "store_position": position}
                for belief, position in zip(validated, positions, strict=True)
            ]
            params = {
                "rows": rows_json(rows),
                "tenant_id": principal.tenant_id,
                "principal_id": principal.principal_id,
            }
            connection.exec_driver_sql(update_rows_sql(memories, "id"), params)
        return [
            belief.model_copy(update={"store_position": position})
            for belief, position in zip(validated, positions, strict=True)
        ]

    def update_in_place(self, belief: Belief) -> Belief:
        """Replace an existing belief of the same principal; it keeps its store position."""
        belief = revalidated(belief)
        values = update_values(memories, belief_values(belief))
        statement = (
            sa.update(memories)
            .where(owned_by(memories, belief.principal), memories.c.id == belief.id)
            .values(values)
            .returning(memories.c.store_position)
        )
        with self._db.connect(belief.principal, write=True) as connection:
            position = connection.execute(statement).scalar_one_or_none()
        if position is None:
            raise NotFoundError(f"belief {belief.id} does not exist for this principal")
        return belief.model_copy(update={"store_position": position})

    def get(self, principal: Principal, belief_id: str) -> Belief | None:
        """Return the principal's belief, or ``None``."""
        statement = sa.select(*BELIEF_COLUMNS).where(
            owned_by(memories, principal), memories.c.id == belief_id
        )
        with self._db.connect(principal, write=False) as connection:
            result = connection.execute(statement, execution_options=_BINARY)
            columns, row = result.keys(), result.one_or_none()
        return None if row is None else self._db.beliefs.beliefs(columns, [row])[0]

    def get_many(self, principal: Principal, belief_ids: Sequence[str]) -> list[Belief]:
        """The principal's beliefs among ``belief_ids`` (any status), sorted by id.

        One statement over the primary key, however many ids are asked for.
        """
        wanted = sorted(set(belief_ids))
        if not wanted:
            return []
        statement = (
            sa.select(*BELIEF_COLUMNS)
            .where(owned_by(memories, principal), memories.c.id.in_(wanted))
            .order_by(memories.c.id)
        )
        with self._db.connect(principal, write=False) as connection:
            return self._beliefs(connection.execute(statement, execution_options=_BINARY))

    def list_beliefs(
        self, principal: Principal, statuses: frozenset[BeliefStatus] | None = None
    ) -> list[Belief]:
        """The principal's beliefs (optionally of some statuses) in store-position order."""
        with self._db.connect(principal, write=False) as connection:
            return self._beliefs(
                connection.execute(list_statement(principal, statuses), execution_options=_BINARY),
                reuse=False,
            )

    def search(self, query: RecallQuery) -> list[Belief]:
        """Beliefs passing the query's predicates, newest store position first, capped."""
        search = search_sql(query)
        if search is None:
            return []
        sql, params = search
        with self._db.connect(query.principal, write=False) as connection:
            columns, rows = driver_execute(connection, sql, params, binary=True, raw_instants=True)
        return self._db.beliefs.beliefs(columns, rows)

    def search_many(self, queries: Sequence[RecallQuery]) -> list[list[Belief]]:
        """``search`` of each query, in order, as one statement (one snapshot, one round trip)
        when the queries are one principal's; a belief two of them find is read once."""
        principals = {query.principal for query in queries}
        if len(principals) != 1:
            return [self.search(query) for query in queries]
        search = search_many_sql(queries)
        if search is None:
            return [[] for _ in queries]
        sql, params = search
        with self._db.connect(principals.pop(), write=False) as connection:
            columns, rows = driver_execute(connection, sql, params, binary=True, raw_instants=True)
        return self._db.beliefs.branches(columns, rows, len(queries))

    def search_keyed(
        self, keyed: RecallQuery, queries: Sequence[RecallQuery]
    ) -> tuple[list[BeliefKey], list[list[Belief]]]:
        """``search`` of ``keyed`` as keys and of each query as beliefs, in one statement as
        :meth:`search_many` reads them (when the searches are one principal's): the keyed
        branch reads the key columns only, so none of its rows is made a ``Belief``."""
        principals = {keyed.principal, *(query.principal for query in queries)}
        if len(principals) != 1:
            keys: list[BeliefKey] = list(self.search(keyed))
            return keys, [self.search(query) for query in queries]
        search = search_many_sql([keyed, *queries], keyed=(0,))
        if search is None:
            return [], [[] for _ in queries]
        sql, params = search
        with self._db.connect(principals.pop(), write=False) as connection:
            columns, rows = driver_execute(connection, sql, params, binary=True, raw_instants=True)
        found, found_many = self._db.beliefs.keyed_branches(
            columns, rows, 1 + len(queries), keyed=0
        )
        return list(found), found_many[1:]

    def find_by_subject(
        self,
        principal: Principal,
        subjects: Sequence[str],
        *,
        belief_types: frozenset[BeliefType] | None = None,
        scopes: Sequence[str] | None = None,
        statuses: frozenset[BeliefStatus] | None = None,
    ) -> list[Belief]:
        """The principal's beliefs about one of ``subjects`` (by ``text.matching_key``), in
        store-position order: one read of ``ix_memories_principal_subject_match``."""
        lookup = find_by_subject_sql(
            principal,
            subjects,
            belief_types=None if belief_types is None else (t.value for t in belief_types),
            scopes=scopes,
            statuses=None if statuses is None else (s.value for s in statuses),
        )
        if lookup is None:
            return []
        sql, params = lookup
        with self._db.connect(principal, write=False) as connection:
            columns, rows = driver_execute(connection, sql, params, binary=True, raw_instants=True)
        return beliefs_from_rows(columns, rows)

    def pinned(self) -> AbstractContextManager[None]:
        """Run the block's calls to this storage's ports on one pooled connection.

        A recall's arms and its trace write then take one connection from the pool between
        them. No transaction and no lock: each call outside a unit of work still commits on
        its own, and writes needing the principal's lock still take their own connection.
        """
        return self._db.pinned()

    def list_idle(
        self,
        principal: Principal,
        evidence_before: datetime,
        limit: int,
        *,
        type_evidence_before: Mapping[str, datetime] | None = None,
        touched_before: datetime | None = None,
    ) -> list[Belief]:
        """Decay-eligible beliefs (``memory_core.idle.is_idle``), least recently evidenced first."""
        instant = require_aware(evidence_before, "evidence_before")
        cuts = (
            None
            if type_evidence_before is None
            else {
                str(t): require_aware(at, f"type_evidence_before[{t!s}]")
                for t, at in type_evidence_before.items()
            }
        )
        touched = (
            None if touched_before is None else require_aware(touched_before, "touched_before")
        )
        statement = idle_statement(
            principal,
            instant,
            _check_limit(limit, "list_idle"),
            type_evidence_before=cuts,
            touched_before=touched,
        )
        with self._db.connect(principal, write=False) as connection:
            return self._beliefs(
                connection.execute(statement, execution_options=_BINARY), reuse=False
            )

    def list_principals_with_idle(
        self, evidence_before: datetime, limit: int, *, after: Principal | None = None
    ) -> list[Principal]:
        """Principals owning a decay-eligible belief evidenced at or before the instant.

        Ordered by ``(tenant_id, principal_id)`` under the ``"C"`` collation, strictly after
        ``after``, at most ``limit`` (the maintenance worker's cross-principal listing).
        """
        instant = require_aware(evidence_before, "evidence_before")
        statement = idle_principals_statement(
            instant, _check_limit(limit, "list_principals_with_idle"), after
        )
        with self._db.connect(None, write=False) as connection:
            rows = connection.execute(statement).all()
        return [Principal(str(tenant), str(principal)) for tenant, principal in rows]

    def head_position(self, principal: Principal) -> int:
        """The newest store position the principal has written (any status); 0 if none."""
        with self._db.connect(principal, write=False) as connection:
            head = connection.execute(head_position_statement(principal)).scalar_one()
        return int(head or 0)


class PostgresTraceStore:
    """Recall traces."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def record(self, trace: RecallTrace) -> RecallTrace:
        """Store a new trace; a known trace id is a ``ConflictError``.

        One ``INSERT ... ON CONFLICT DO NOTHING`` (a known id inserts no row). Outside a unit
        of work it commits on its own in autocommit, without the principal's lock (a trace
        draws no store position, so nothing orders it against the principal's other
        writes), and asynchronously: the statement lowers ``synchronous_commit`` for its own
        implicit transaction (``ASYNCHRONOUS_COMMIT_SQL``), so the recall does not wait for
        the WAL flush. A server crash can then lose the traces of the last moments (up to
        three ``wal_writer_delay``; never a torn or partial row), and a trace is durable as
        soon as any later durable commit on the server flushes the WAL past it. Inside a
        unit of work the trace commits with the unit, durably.
        """
        trace = revalidated(trace)
        values = trace_values(trace)
        sql = insert_or_nothing_sql(
            traces, tuple(values), "trace_id", asynchronous_commit=not self._db.in_unit()
        )
        with self._db.connect(trace.principal, write=False) as connection:
            _, recorded = driver_execute(connection, sql, json_params(traces, values))
        if not recorded:
            raise DuplicateIdError("trace", trace.trace_id)
        return trace

    def get(self, principal: Principal, trace_id: str) -> RecallTrace | None:
        """Return the principal's trace, or ``None``."""
        statement = sa.select(traces).where(
            owned_by(traces, principal), traces.c.trace_id == trace_id
        )
        with self._db.connect(principal, write=False) as connection:
            row = connection.execute(statement).mappings().one_or_none()
        return None if row is None else to_record(RecallTrace, row)

    def mark_cited(self, trace_id: str, principal: Principal, cited: Sequence[str]) -> RecallTrace:
        """Union ``cited`` into the trace's cited ids (first-cited order) under a row lock."""
        locked = (
            sa.select(traces)
            .where(owned_by(traces, principal), traces.c.trace_id == trace_id)
            .with_for_update()
        )
        with self._db.connect(principal, write=True) as connection:
            row = connection.execute(locked).mappings().one_or_none()
            if row is None:
                raise NotFoundError(f"trace {trace_id} does not exist for this principal")
            trace = to_record(RecallTrace, row)
            merged = tuple(dict.fromkeys((*trace.cited, *cited)))
            if merged == trace.cited:
                return trace
            connection.execute(
                sa.update(traces)
                .where(owned_by(traces, principal), traces.c.trace_id == trace_id)
                .values(update_values(traces, {"cited": list(merged)}))
            )
        return trace.model_copy(update={"cited": merged})

    def expire_operator_fields(self, now: datetime, limit: int = 1000) -> int:
        """Null the operator tier of up to ``limit`` traces past expiry; return how many."""
        instant = require_aware(now, "now")
        if _check_limit(limit, "expire_operator_fields") == 0:
            return 0
        with self._db.connect(None, write=True) as connection:
            result = connection.execute(expire_statement(instant, limit))
        return int(result.rowcount)


class PostgresFormationStateStore:
    """Formation watermarks and durable rejections."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def watermark(self, principal: Principal, session_id: str) -> int:
        """The last event sequence consolidated for the session (0 if none)."""
        statement = sa.select(formation_watermarks.c.sequence).where(
            owned_by(formation_watermarks, principal),
            formation_watermarks.c.session_id == session_id,
        )
        with self._db.connect(principal, write=False) as connection:
            sequence = connection.execute(statement).scalar_one_or_none()
        return int(sequence or 0)

    def set_watermark(self, principal: Principal, session_id: str, sequence: int) -> None:
        """Record that events up to ``sequence`` were consolidated."""
        if sequence < 0:
            raise UsageError(f"a watermark is an event sequence >= 0, got {sequence}")
        statement = postgresql.insert(formation_watermarks).values(
            tenant_id=principal.tenant_id,
            principal_id=principal.principal_id,
            session_id=session_id,
            sequence=sequence,
        )
        statement = statement.on_conflict_do_update(
            constraint="pk_formation_watermarks",
            set_={"sequence": statement.excluded.sequence},
        )
        with self._db.connect(principal, write=True) as connection:
            connection.execute(statement)

    def record_rejection(self, rejection: Rejection) -> None:
        """Store a rejection durably; the first record of a belief id wins (idempotent)."""
        rejection = revalidated(rejection)
        principal = Principal(rejection.tenant_id, rejection.principal_id)
        statement = (
            postgresql.insert(rejections)
            .values(rejection_values(rejection))
            .on_conflict_do_nothing(constraint="pk_rejections")
        )
        with self._db.connect(principal, write=True) as connection:
            connection.execute(statement)

    def rejections(self, principal: Principal) -> list[Rejection]:
        """The principal's recorded rejections, oldest first (by ``rejected_at``, then id)."""
        statement = (
            sa.select(rejections)
            .where(owned_by(rejections, principal))
            .order_by(rejections.c.rejected_at, rejections.c.belief_id)
        )
        with self._db.connect(principal, write=False) as connection:
            rows = connection.execute(statement).mappings().all()
        return [to_record(Rejection, row) for row in rows]


__all__ = [
    "PostgresEventLog",
    "PostgresFormationStateStore",
    "PostgresMemoryStore",
    "PostgresSessionStore",
    "PostgresTraceStore",
]
