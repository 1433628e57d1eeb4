"""memory-store-pg: the PostgreSQL storage tier of memory-core.

SQLAlchemy 2 Core tables over psycopg 3, migrations shipped as an Alembic script directory
inside the package (no ``alembic.ini``). Install it and ``memory_core.bootstrap`` finds it
through the ``memory_core.storage`` entry point named ``postgres``::

    from memory_store_pg import build_storage, upgrade

    upgrade("postgresql://user@127.0.0.1/agent")          # or: agent db upgrade --url URL
    storage = build_storage("postgresql://user@127.0.0.1/agent")
    with storage.unit_of_work():
        storage.memories.put(belief)

Errors: ``UsageError`` for a missing or malformed URL; ``StorageUnavailableError`` when the
server cannot be reached, a connection drops, or the schema is behind this package;
``ConflictError`` for duplicate ids and for deadlocks or serialization failures (retry the unit).
"""

from memory_store_pg._adapters import (
    PostgresEventLog,
    PostgresFormationStateStore,
    PostgresMemoryStore,
    PostgresSessionStore,
    PostgresTraceStore,
)
from memory_store_pg._engine import DATABASE_URL_ENV, resolve_url
from memory_store_pg._migrations import (
    UpgradeResult,
    alembic_config,
    current_revision,
    head_revision,
    upgrade,
)
from memory_store_pg._storage import PostgresStorage, build_storage, temporary_storage

__all__ = [
    "DATABASE_URL_ENV",
    "PostgresEventLog",
    "PostgresFormationStateStore",
    "PostgresMemoryStore",
    "PostgresSessionStore",
    "PostgresStorage",
    "PostgresTraceStore",
    "UpgradeResult",
    "alembic_config",
    "build_storage",
    "current_revision",
    "head_revision",
    "resolve_url",
    "temporary_storage",
    "upgrade",
]
