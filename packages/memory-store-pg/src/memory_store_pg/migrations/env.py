"""Alembic environment: runs migrations on the connection ``memory_store_pg`` hands over.

There is no ``alembic.ini``: :func:`memory_store_pg.alembic_config` builds the configuration in
code and passes an open connection in ``config.attributes["connection"]``. Offline mode (``--sql``)
renders the DDL for the PostgreSQL dialect from the configured URL.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from memory_store_pg._schema import VERSION_TABLE, metadata

config = context.config


def _run_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=metadata,
        version_table=VERSION_TABLE,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def _run_online(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        version_table=VERSION_TABLE,
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    _run_offline()
else:
    connection = config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError(
            "memory_store_pg migrations run on a connection passed in "
            "config.attributes['connection']; use memory_store_pg.upgrade(url)"
        )
    _run_online(connection)
