"""Connections, the unit of work, and per-principal write serialization.

Every adapter call runs on one connection: the open unit of work's (a ``ContextVar`` holds it,
so each thread or task has its own) or, outside a unit, a short transaction of its own.

Serialization per principal: a write outside a unit, and the first principal-scoped call of
a unit (read or write), take ``pg_advisory_xact_lock`` on the principal. Two consolidations of
one principal therefore run one after the other, each reading what the other committed (no
lost update), and a principal's store positions commit in the order they were drawn from the
sequence, so a reader that saw head position N never later finds a smaller position appear.
Reads outside a unit take no lock.

A *pinned* block (:meth:`Database.pinned`, what ``PostgresMemoryStore.pinned`` opens for a
recall) checks one autocommit connection out of the pool for all the block's calls outside a
unit: a recall's arms and its trace write then share one connection (one pool checkout)
instead of taking one each. Writes that need a transaction and the principal's lock still
open their own.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from memory_core.domain import Principal
from memory_store_pg._engine import translated_errors
from memory_store_pg._rows import BeliefReader

_LOCK_NAMESPACE = b"memory_store_pg.principal\x1f"


def principal_lock_key(principal: Principal) -> int:
    """The advisory-lock key of a principal: a stable signed 64-bit hash of its identity."""
    digest = hashlib.blake2b(
        _LOCK_NAMESPACE + f"{principal.tenant_id}\x1f{principal.principal_id}".encode(),
        digest_size=8,
    ).digest()
    return int.from_bytes(digest, "big", signed=True)


def _lock(connection: Connection, principal: Principal) -> None:
    key = sa.literal(principal_lock_key(principal), sa.BigInteger)
    connection.execute(sa.select(sa.func.pg_advisory_xact_lock(key)))


@dataclass
class _Unit:
    connection: Connection
    locked: set[int] = field(default_factory=set)

    def lock(self, principal: Principal) -> None:
        key = principal_lock_key(principal)
        if key not in self.locked:
            _lock(self.connection, principal)
            self.locked.add(key)


class Database:
    """An engine plus the unit of work open in the current context, if any, and the belief
    reader the adapters share (``beliefs``: erasure empties what it holds)."""

    def __init__(self, engine: Engine, where: str) -> None:
        self.engine = engine
        self.where = where
        self.beliefs = BeliefReader()
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._unit: ContextVar[_Unit | None] = ContextVar(
            f"memory_store_pg.unit.{id(self):x}", default=None
        )
        self._pinned: ContextVar[Connection | None] = ContextVar(
            f"memory_store_pg.pinned.{id(self):x}", default=None
        )

    def in_unit(self) -> bool:
        """Whether a unit of work is open in the current context (its commit is the one
        that makes the context's writes durable)."""
        return self._unit.get() is not None

    @contextmanager
    def pinned(self) -> Iterator[None]:
        """Run the block's single-statement calls outside a unit on one autocommit connection.

        Nested in another pinned block, or inside a unit of work, this adds nothing (the
        connection already in use serves the block). The connection returns to the pool when
        the block ends.
        """
        if self._unit.get() is not None or self._pinned.get() is not None:
            yield
            return
        with translated_errors(self.where):
            connection = self._autocommit.connect()
        token = self._pinned.set(connection)
        try:
            yield
        finally:
            self._pinned.reset(token)
            self._close_quietly(connection)

    @contextmanager
    def unit_of_work(self) -> Iterator[None]:
        """One transaction for everything the block writes.

        A nested unit is a savepoint: an exception leaving it undoes its writes only, so an
        outer unit that catches the exception keeps its own (as the in-memory tier does).
        """
        unit = self._unit.get()
        if unit is not None:
            with self._savepoint(unit):
                yield
            return
        with translated_errors(self.where):
            connection = self.engine.connect()
        try:
            with translated_errors(self.where):
                transaction = connection.begin()
            token = self._unit.set(_Unit(connection))
            try:
                yield
            except BaseException:
                self._rollback_quietly(transaction)
                raise
            finally:
                self._unit.reset(token)
            with translated_errors(self.where):
                transaction.commit()
        finally:
            self._close_quietly(connection)

    @contextmanager
    def _savepoint(self, unit: _Unit) -> Iterator[None]:
        with translated_errors(self.where):
            savepoint = unit.connection.begin_nested()
        locked = set(unit.locked)
        try:
            yield
        except BaseException:
            # Rolling back to the savepoint also releases locks taken inside it.
            self._rollback_quietly(savepoint)
            unit.locked = locked
            raise
        with translated_errors(self.where):
            savepoint.commit()

    @contextmanager
    def connect(self, principal: Principal | None, *, write: bool) -> Iterator[Connection]:
        """The connection to run one adapter call on, with the principal's lock when due.

        Inside a unit of work: the unit's connection (the principal's lock taken on first
        use). Outside one, ``write=False`` is one statement needing neither a transaction nor
        the lock (a read, or an insert no sequence orders, such as a trace): it runs in
        autocommit on the pinned connection, if a block pinned one, else on its own;
        ``write=True`` runs in a transaction of its own holding the principal's lock.
        """
        unit = self._unit.get()
        with translated_errors(self.where):
            if unit is not None:
                if principal is not None:
                    unit.lock(principal)
                yield unit.connection
                return
            if not write:
                # A single read needs no transaction of its own: no BEGIN/COMMIT round trips.
                pinned = self._pinned.get()
                if pinned is not None:
                    yield pinned
                    return
                with self._autocommit.connect() as connection:
                    yield connection
                return
            with self.engine.begin() as connection:
                if principal is not None:
                    _lock(connection, principal)
                yield connection

    @staticmethod
    def _rollback_quietly(transaction: sa.engine.Transaction) -> None:
        # The connection may be gone (that is often why we roll back); the original error
        # is the one worth raising, and the server rolls back a dropped session by itself.
        with contextlib.suppress(sa.exc.DBAPIError):
            if transaction.is_active:
                transaction.rollback()

    @staticmethod
    def _close_quietly(connection: Connection) -> None:
        with contextlib.suppress(sa.exc.DBAPIError):
            connection.close()

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


__all__ = ["Database", "principal_lock_key"]
