"""``PostgresStorage``: the five adapters over one engine, and the entry point that builds it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import sqlalchemy as sa

from memory_core.ports import Storage
from memory_store_pg._adapters import (
    PostgresEventLog,
    PostgresFormationStateStore,
    PostgresMemoryStore,
    PostgresSessionStore,
    PostgresTraceStore,
)
from memory_store_pg._database import Database
from memory_store_pg._engine import (
    IDLE_PING_SECONDS,
    RECYCLE_SECONDS,
    check_schema_name,
    create_engine,
    ping_after_idle,
    redact,
    resolve_url,
    translated_errors,
)
from memory_store_pg._erasure import PostgresErasure
from memory_store_pg._migrations import check_schema_current, upgrade
from memory_store_pg._schema import memories


class PostgresStorage:
    """The PostgreSQL storage tier.

    Construction does not connect; :meth:`check` (called by :func:`build_storage`) does, and
    raises ``StorageUnavailableError`` when the server is unreachable or the schema is behind.

    Args:
        database_url: a PostgreSQL URL; ``None`` reads ``MEMORY_DATABASE_URL``.
        schema: keep the tables in this schema (its connections use it as search path).
        pool_size: connections kept open (each open unit of work holds one).
        max_overflow: extra connections allowed under load.
        idle_ping_seconds: a pooled connection idle this long is pinged before reuse (see
            ``memory_store_pg._engine.ping_after_idle``); one reused sooner is not.
    """

    def __init__(
        self,
        database_url: str | None = None,
        *,
        schema: str | None = None,
        pool_size: int = 5,
        max_overflow: int = 10,
        idle_ping_seconds: float = IDLE_PING_SECONDS,
    ) -> None:
        url = resolve_url(database_url)
        self.schema = None if schema is None else check_schema_name(schema)
        engine = create_engine(
            url,
            schema=self.schema,
            pool_size=pool_size,
            max_overflow=max_overflow,
            pool_recycle=RECYCLE_SECONDS,
        )
        ping_after_idle(engine, idle_ping_seconds)
        where = redact(url) if self.schema is None else f"{redact(url)} (schema {self.schema})"
        self._db = Database(engine, where)
        self._events = PostgresEventLog(self._db)
        self._sessions = PostgresSessionStore(self._db)
        self._memories = PostgresMemoryStore(self._db)
        self._traces = PostgresTraceStore(self._db)
        self._formation = PostgresFormationStateStore(self._db)
        self._erasure = PostgresErasure(self._db)

    @property
    def events(self) -> PostgresEventLog:
        """The event log."""
        return self._events

    @property
    def sessions(self) -> PostgresSessionStore:
        """The session store."""
        return self._sessions

    @property
    def memories(self) -> PostgresMemoryStore:
        """The belief store."""
        return self._memories

    @property
    def traces(self) -> PostgresTraceStore:
        """The recall trace store."""
        return self._traces

    @property
    def formation(self) -> PostgresFormationStateStore:
        """Formation watermarks and rejections."""
        return self._formation

    @property
    def erasure(self) -> PostgresErasure:
        """Short-id lookup, erasure and redaction (``forget`` and ``forget_principal``)."""
        return self._erasure

    @property
    def engine(self) -> sa.Engine:
        """The SQLAlchemy engine (for operators and tests; adapters never need it)."""
        return self._db.engine

    def unit_of_work(self) -> AbstractContextManager[None]:
        """One transaction: everything the block writes commits together or not at all.

        Inside the block every adapter call of this context (thread or task) uses the unit's
        connection. An exception rolls the unit back; a nested unit is a savepoint, so an
        exception leaving it undoes only its own writes.
        """
        return self._db.unit_of_work()

    def check(self) -> None:
        """Connect and verify the schema is at this package's newest revision.

        Raises:
            StorageUnavailableError: the server is unreachable or the schema is behind.
        """
        with translated_errors(self._db.where), self._db.engine.connect() as connection:
            check_schema_current(connection, self._db.where)

    def analyze(self) -> None:
        """Refresh the planner's statistics of the memory tables (``ANALYZE``).

        Autovacuum does this on its own schedule; call it right after a bulk load
        (:meth:`PostgresMemoryStore.put_many`) so the next queries are planned for the rows
        that are there rather than for an empty table.

        Raises:
            StorageUnavailableError: the server is unreachable.
        """
        with translated_errors(self._db.where), self._db.engine.connect() as connection:
            connection.exec_driver_sql(f'ANALYZE "{memories.name}"')
            connection.commit()

    def close(self) -> None:
        """Close every pooled connection."""
        self._db.dispose()


def build_storage(database_url: str | None = None, *, upgrade_schema: bool = False) -> Storage:
    """The ``memory_core.storage`` entry point: a checked ``PostgresStorage``.

    Args:
        database_url: a PostgreSQL URL; ``None`` reads ``MEMORY_DATABASE_URL``.
        upgrade_schema: apply pending migrations first instead of refusing a schema behind.

    Raises:
        UsageError: no URL was given (and ``MEMORY_DATABASE_URL`` is unset), or it is invalid.
        StorageUnavailableError: the server is unreachable or the schema is behind.
    """
    if upgrade_schema:
        upgrade(database_url)
    storage = PostgresStorage(database_url)
    try:
        storage.check()
    except BaseException:
        storage.close()
        raise
    return storage


@contextmanager
def temporary_storage(database_url: str | None = None, **options: Any) -> Iterator[PostgresStorage]:
    """A ``PostgresStorage`` in a fresh, migrated schema that is dropped on exit.

    For contract tests and throwaway benchmark runs: nothing outside the schema is touched.

    Raises:
        StorageUnavailableError: the server is unreachable.
    """
    schema = f"memory_tmp_{uuid.uuid4().hex[:16]}"
    upgrade(database_url, schema=schema)
    try:
        storage = PostgresStorage(database_url, schema=schema, **options)
        try:
            yield storage
        finally:
            storage.close()
    finally:
        url = resolve_url(database_url)
        engine = create_engine(url, poolclass=sa.NullPool)
        try:
            with translated_errors(redact(url)), engine.begin() as connection:
                connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            engine.dispose()


__all__ = ["PostgresStorage", "build_storage", "temporary_storage"]
