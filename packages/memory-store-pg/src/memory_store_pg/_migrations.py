"""Alembic, configured in code: the script location lives inside this package."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import sqlalchemy as sa
from alembic import command
from alembic import util as alembic_util
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

from memory_core.errors import StorageUnavailableError, UsageError
from memory_store_pg._engine import check_schema_name, create_engine, redact, resolve_url
from memory_store_pg._engine import translated_errors as _translated_errors
from memory_store_pg._schema import VERSION_TABLE

_log = logging.getLogger(__name__)

SCRIPT_LOCATION = "memory_store_pg:migrations"
"""Alembic's script location, as a package resource."""


@dataclass(frozen=True, kw_only=True)
class UpgradeResult:
    """What ``upgrade`` did: the revision before (``None`` on an empty database) and after."""

    before: str | None
    after: str

    @property
    def changed(self) -> bool:
        """True when at least one migration ran."""
        return self.before != self.after


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic ``Config`` for this package's migrations, without an ``alembic.ini``.

    Args:
        connection: the connection migrations run on (online mode).
    """
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision this package ships."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package always ships revisions
        raise RuntimeError("memory_store_pg ships no migrations")
    return head


def current_revision(connection: Connection) -> str | None:
    """The revision the connected schema is at, or ``None`` when it was never migrated."""
    context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
    return context.get_current_revision()


def upgrade(
    database_url: str | None = None, *, schema: str | None = None, revision: str = "head"
) -> UpgradeResult:
    """Apply this package's migrations up to ``revision``, in one transaction.

    Args:
        database_url: a PostgreSQL URL; ``None`` reads ``MEMORY_DATABASE_URL``.
        schema: create (if missing) and migrate this schema instead of the search path's first.
        revision: the target revision (default: the newest).

    Raises:
        UsageError: no or an invalid URL, or a revision alembic does not know.
        StorageUnavailableError: the server cannot be reached.
    """
    url = resolve_url(database_url)
    engine = create_engine(url, schema=schema, poolclass=sa.NullPool)
    where = redact(url)
    try:
        with _translated_errors(where), engine.begin() as connection:
            if schema is not None:
                connection.exec_driver_sql(
                    f'CREATE SCHEMA IF NOT EXISTS "{check_schema_name(schema)}"'
                )
            before = current_revision(connection)
            try:
                command.upgrade(alembic_config(connection), revision)
            except alembic_util.CommandError as exc:  # an unknown or malformed revision
                raise UsageError(
                    f"cannot upgrade to revision {revision!r}: {exc}; pass --revision head "
                    f"(the newest, {head_revision()}) or one of this package's revisions"
                ) from exc
            after = current_revision(connection)
    finally:
        engine.dispose()
    if after is None:  # pragma: no cover - alembic stamps the version table
        raise StorageUnavailableError(f"the upgrade of {where} recorded no revision")
    _log.info("schema of %s upgraded from %s to %s", where, before, after)
    return UpgradeResult(before=before, after=after)


def check_schema_current(connection: Connection, where: str) -> None:
    """Raise ``StorageUnavailableError`` unless the schema is at this package's head revision."""
    current = current_revision(connection)
    head = head_revision()
    if current == head:
        return
    if current is None:
        state = "has no memory store schema"
    else:
        state = f"is at schema revision {current}, this package needs {head}"
    raise StorageUnavailableError(
        f"the PostgreSQL database at {where} {state}; run `agent db upgrade --url URL` "
        "(or memory_store_pg.upgrade(url)) first"
    )


__all__ = [
    "SCRIPT_LOCATION",
    "UpgradeResult",
    "alembic_config",
    "check_schema_current",
    "current_revision",
    "head_revision",
    "upgrade",
]
