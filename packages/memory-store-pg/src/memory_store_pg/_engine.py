"""Database URLs, engines, and the translation of driver errors into memory-core errors."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import psycopg
import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, Connection, Engine, make_url

from memory_core.errors import ConflictError, StorageError, StorageUnavailableError, UsageError

DATABASE_URL_ENV = "MEMORY_DATABASE_URL"
"""The environment variable read when no database URL is passed."""

_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
_CONNECT_TIMEOUT_SECONDS = 5
IDLE_PING_SECONDS = 30.0
"""A pooled connection idle at least this long is pinged before reuse (see
:func:`ping_after_idle`)."""
RECYCLE_SECONDS = 1800
"""Pooled connections older than this are replaced at checkout (``pool_recycle``)."""
_IDLE_SINCE = "memory_store_pg.idle_since"
BINARY_RESULTS = "memory_store_pg_binary_results"
"""An execution option: ``True`` has the statement's rows sent in PostgreSQL's binary format
(see :func:`create_engine`)."""
# SQLSTATE classes meaning "the server is not there for us": connection exceptions (08),
# operator intervention such as a terminated backend or a shutdown (57P), insufficient
# resources (53).
_UNAVAILABLE_STATES = ("08", "57P", "53")
_SCHEMA_STATES = {"42P01": "table", "42703": "column", "42883": "function"}
_NO_SCHEMA_SELECTED = "3F000"
_RETRYABLE_STATES = {"40001": "serialization failure", "40P01": "deadlock"}
_DATA_EXCEPTION = "22"  # the value cannot be stored (NUL in text, out of range, bad encoding)
_INTEGRITY_VIOLATION = "23"


def resolve_url(database_url: str | None) -> URL:
    """Parse ``database_url`` (or ``$MEMORY_DATABASE_URL``) into a psycopg 3 SQLAlchemy URL.

    ``postgresql://`` and ``postgres://`` URLs are given the ``psycopg`` driver.

    Raises:
        UsageError: no URL was given and the environment variable is unset, or the URL is not
            a PostgreSQL URL.
    """
    raw = database_url if database_url else os.environ.get(DATABASE_URL_ENV)
    if not raw:
        raise UsageError(
            f"no PostgreSQL database URL: pass one (e.g. --url postgresql://user@host/db) "
            f"or set {DATABASE_URL_ENV}"
        )
    try:
        url = make_url(raw)
    except sa_exc.ArgumentError as exc:
        raise UsageError(
            f"invalid database URL {raw!r}: expected postgresql://user[:password]@host[:port]/db"
        ) from exc
    backend, _, driver = url.drivername.partition("+")
    if backend not in ("postgresql", "postgres"):
        raise UsageError(
            f"database URL {redact(url)!r} is not a PostgreSQL URL; expected postgresql://..."
        )
    if driver not in ("", "psycopg"):
        raise UsageError(
            f"database URL {redact(url)!r} names driver {driver!r}; memory-store-pg uses "
            "psycopg 3: write postgresql://... or postgresql+psycopg://..."
        )
    return url.set(drivername="postgresql+psycopg")


def redact(url: URL) -> str:
    """The URL as text with its password hidden (safe for error messages)."""
    return url.render_as_string(hide_password=True)


def check_schema_name(schema: str) -> str:
    """Return ``schema`` if it is a plain lowercase identifier, else raise ``UsageError``."""
    if not _SCHEMA_NAME.match(schema):
        raise UsageError(
            f"invalid schema name {schema!r}: use lowercase letters, digits and underscores"
        )
    return schema


UTC_ZONE_ALIASES: frozenset[str] = frozenset(
    {"Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "UCT", "Universal", "Zulu"}
)
"""Names of the zone ``UTC`` itself (tz database links to it): a session in one of them is
renamed ``UTC`` when it connects (see :func:`create_engine`)."""


def create_engine(url: URL, *, schema: str | None = None, **options: Any) -> Engine:
    """An engine whose connections use ``schema`` (when given) as their search path.

    A connection whose session zone (``TimeZone``) is another name of UTC
    (:data:`UTC_ZONE_ALIASES`, e.g. a server's default ``Etc/UTC``) is set to ``UTC`` itself,
    in the same statement as the search path: the same zone, so no value or comparison
    changes, but psycopg then reads each ``timestamptz`` as ``datetime.UTC`` rather than as
    a ``ZoneInfo``, and a read record needs no conversion per timestamp. Any other zone is
    left as it is (records still come back in UTC, converted when read).

    A statement executed with the execution option :data:`BINARY_RESULTS` set has its rows
    sent in PostgreSQL's binary format (the cursor's ``format``, set just before it
    executes): psycopg then loads instants, arrays and numbers from their binary form, the
    same values several times cheaper than parsing their text. It is for statements whose
    result columns all have binary loaders (the belief reads: text, integers, floats,
    booleans, ``timestamptz`` and ``text[]``); the statement still goes through SQLAlchemy
    and its events as any other.
    """
    connect_args: dict[str, Any] = {}
    if "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = _CONNECT_TIMEOUT_SECONDS
    engine = sa.create_engine(url, connect_args=connect_args, **options)
    search_path = None if schema is None else f'SET search_path TO "{check_schema_name(schema)}"'

    @sa.event.listens_for(engine, "connect")
    def _set_session(dbapi_connection: psycopg.Connection[Any], _record: Any) -> None:
        settings = [] if search_path is None else [search_path]
        if dbapi_connection.info.parameter_status("TimeZone") in UTC_ZONE_ALIASES:
            settings.append("SET TIME ZONE 'UTC'")
        if not settings:
            return
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True
        dbapi_connection.execute("; ".join(settings))
        dbapi_connection.autocommit = autocommit

    @sa.event.listens_for(engine, "before_cursor_execute")
    def _binary_results(
        _connection: Any,
        cursor: psycopg.Cursor[Any],
        _statement: str,
        _parameters: Any,
        context: Any,
        _executemany: bool,
    ) -> None:
        if context is not None and context.execution_options.get(BINARY_RESULTS):
            cursor.format = psycopg.pq.Format.BINARY

    return engine


_TIMESTAMPTZ_OID = psycopg.adapters.types["timestamptz"].oid


def _int8_binary_loader() -> type[psycopg.abc.Loader]:
    """psycopg's binary int8 loader (its C one, where psycopg has its C extension)."""
    loader = psycopg.adapters.get_loader(
        psycopg.adapters.types["int8"].oid, psycopg.pq.Format.BINARY
    )
    if loader is None:  # pragma: no cover - psycopg always loads int8
        raise ImportError("psycopg has no binary int8 loader")
    return loader


_INT8_BINARY_LOADER = _int8_binary_loader()


def driver_execute(
    connection: Connection,
    sql: str,
    parameters: Mapping[str, Any],
    *,
    binary: bool = False,
    raw_instants: bool = False,
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one statement of driver SQL (``%(name)s`` parameters) on ``connection``'s psycopg
    connection: its column names and every row (``binary``: in PostgreSQL's binary format,
    as :data:`BINARY_RESULTS` has them), rows as plain tuples.

    With ``binary`` and ``raw_instants``, each ``timestamptz`` value is its binary wire value
    as an ``int``: microseconds since 2000-01-01 UTC (``_rows.PG_EPOCH``), loaded by
    psycopg's int8 loader. A ``datetime`` costs several times more to build than the int,
    and the belief reads build one only for a row they have not read before
    (``_rows.BeliefReader``); ``_rows`` turns the int into the same UTC instant.

    The recall's statements (its searches and its trace insert) go this way rather than
    through ``Connection.exec_driver_sql``: SQLAlchemy's execution context, result metadata
    and row objects cost it more Python than the statement's rows do. The statement sent is
    the same; SQLAlchemy's ``before_cursor_execute`` and ``after_cursor_execute`` listeners
    are called with it as for any statement (with no execution context), so a listener
    capturing the SQL still sees every statement. It runs in whatever transaction state
    ``connection`` is in (autocommit, or the unit of work's transaction).

    Driver errors go through SQLAlchemy's handling of a statement's error: raised wrapped as
    ``DBAPIError`` (``IntegrityError`` for a constraint), so the usual error translation
    applies, and a disconnect invalidates the connection and the pool, as it would have.
    """
    driver = connection.connection.driver_connection
    if not isinstance(driver, psycopg.Connection):  # pragma: no cover - the engine is psycopg
        raise TypeError(f"driver SQL needs a psycopg connection, got {type(driver).__name__}")
    dispatch = connection.dispatch
    try:
        with driver.cursor(binary=binary) as cursor:
            if raw_instants:
                cursor.adapters.register_loader(_TIMESTAMPTZ_OID, _INT8_BINARY_LOADER)
            for before in dispatch.before_cursor_execute:
                sql, parameters = before(connection, cursor, sql, parameters, None, False)
            cursor.execute(sql, parameters)
            for after in dispatch.after_cursor_execute:
                after(connection, cursor, sql, parameters, None, False)
            result = cursor.pgresult
            if result is None or not result.nfields:
                return [], []
            # The names straight from the result (``description`` builds a column object each).
            names = [(result.fname(i) or b"").decode() for i in range(result.nfields)]
            return names, cursor.fetchall()
    except psycopg.Error as exc:
        # SQLAlchemy's own handling of a driver error, as for a statement it executed itself
        # (it does the same for an error before its execution context exists): wrapped as
        # DBAPIError, ``handle_error`` listeners called, and on a disconnect the connection
        # and the pool invalidated. It always raises.
        connection._handle_dbapi_exception(exc, sql, dict(parameters), None, None)
        raise  # pragma: no cover - unreachable


def ping_after_idle(engine: Engine, idle_seconds: float = IDLE_PING_SECONDS) -> None:
    """Ping a pooled connection at checkout only when it sat idle ``idle_seconds`` or more.

    The liveness strategy of the store's pool, instead of ``pool_pre_ping`` (one round trip on
    every checkout): a connection back in use within ``idle_seconds`` is reused as is; one
    idle longer (a server restart or an idle timeout may have dropped it) is pinged, and a
    dead one is replaced by a fresh connection before the caller sees it. ``pool_recycle``
    (:data:`RECYCLE_SECONDS`) bounds a connection's age. A connection that dies while in
    recent use fails its statement as ``StorageUnavailableError``; SQLAlchemy then
    invalidates the pool, so the next call reconnects.
    """

    @sa.event.listens_for(engine, "checkin")
    def _mark_idle(_dbapi_connection: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.pop(_IDLE_SINCE, None)
        if idle_since is None or time.monotonic() - idle_since < idle_seconds:
            return
        try:
            autocommit = dbapi_connection.autocommit
            dbapi_connection.autocommit = True  # a ping must not open a transaction
            dbapi_connection.execute("SELECT 1")
            dbapi_connection.autocommit = autocommit
        except psycopg.Error as exc:
            # The pool discards this connection and checks out a fresh one.
            raise sa_exc.DisconnectionError(str(exc)) from exc


def translate(exc: sa_exc.DBAPIError, where: str) -> Exception:
    """The memory-core error for a driver error.

    Unreachable servers and dropped connections become ``StorageUnavailableError``; a missing
    table or column (a schema behind the package) too, naming the upgrade command; deadlocks
    and serialization failures become ``ConflictError`` (retry the unit of work); a value the
    server cannot store (SQLSTATE class 22, or psycopg refusing NUL in text) ``UsageError``;
    another constraint violation (class 23) ``ConflictError``; anything else ``StorageError``.
    No raw driver error leaves the store.
    """
    original = exc.orig
    state = getattr(original, "sqlstate", None) or ""
    text = str(original).strip()
    first_line = text.splitlines()[0] if text else type(original).__name__
    if (
        exc.connection_invalidated
        or state.startswith(_UNAVAILABLE_STATES)
        or (isinstance(original, psycopg.OperationalError) and not state)
    ):
        return StorageUnavailableError(
            f"PostgreSQL at {where} is unavailable ({first_line}); check that the server is "
            f"running and that the URL (or {DATABASE_URL_ENV}) points at it"
        )
    if state == _NO_SCHEMA_SELECTED:
        return StorageUnavailableError(
            f"the search path at {where} names no existing schema ({first_line}); create the "
            "schema or fix the URL's options=-csearch_path=..."
        )
    if state in _SCHEMA_STATES:
        return StorageUnavailableError(
            f"the memory store schema at {where} is missing or behind this package "
            f"({first_line}); run `agent db upgrade --url URL`"
        )
    if state in _RETRYABLE_STATES:
        return ConflictError(
            f"a concurrent writer conflicted with this unit of work "
            f"({_RETRYABLE_STATES[state]}); retry it"
        )
    if state.startswith(_DATA_EXCEPTION) or (isinstance(original, psycopg.DataError) and not state):
        # psycopg refuses some values before they reach the server (NUL in text: no state)
        return UsageError(
            f"PostgreSQL at {where} cannot store a value of this record ({first_line}); "
            "fix the value (text must be valid Unicode without NUL)"
        )
    if state.startswith(_INTEGRITY_VIOLATION):
        return ConflictError(f"the write would break a store constraint ({first_line})")
    return StorageError(
        f"PostgreSQL at {where} failed the operation (SQLSTATE {state or 'none'}: "
        f"{first_line}); this is a bug or an unsupported server - report it"
    )


@contextmanager
def translated_errors(where: str) -> Iterator[None]:
    """Re-raise driver errors as memory-core errors (see :func:`translate`)."""
    try:
        yield
    except sa_exc.DBAPIError as exc:
        raise translate(exc, where) from exc
    except UnicodeEncodeError as exc:
        # psycopg encodes text as UTF-8 before sending it: a surrogate code point cannot be
        raise UsageError(
            f"a value for PostgreSQL at {where} is not valid Unicode ({exc.reason} at index "
            f"{exc.start}); text must not hold surrogate code points"
        ) from exc


__all__ = [
    "BINARY_RESULTS",
    "DATABASE_URL_ENV",
    "IDLE_PING_SECONDS",
    "RECYCLE_SECONDS",
    "UTC_ZONE_ALIASES",
    "check_schema_name",
    "create_engine",
    "driver_execute",
    "ping_after_idle",
    "redact",
    "resolve_url",
    "translate",
    "translated_errors",
]
