"""Migrations, the schema check, the entry point and the errors a caller sees."""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib.metadata import entry_points

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from memory_core import (
    Authority,
    BeliefStatus,
    BeliefType,
    Polarity,
    Principal,
    StorageUnavailableError,
    Trust,
    UsageError,
)
from memory_store_pg import (
    PostgresStorage,
    build_storage,
    current_revision,
    head_revision,
    temporary_storage,
    upgrade,
)
from memory_store_pg._schema import _LIVE_PREDICATE, SUBJECT_MATCH_SQL, VERSION_TABLE, metadata
from memory_store_pg.migrations.versions import (
    rev_0004_subject_match_index,
    rev_0005_live_subject_position_index,
)

pytestmark = pytest.mark.postgres

ALICE = Principal("tenant-1", "alice")


def test_upgrade_creates_the_schema_once_and_is_idempotent(
    postgres_url: str, scratch_schema: str
) -> None:
    first = upgrade(postgres_url, schema=scratch_schema)
    assert (first.before, first.after, first.changed) == (None, head_revision(), True)

    second = upgrade(postgres_url, schema=scratch_schema)
    assert (second.before, second.after, second.changed) == (
        head_revision(),
        head_revision(),
        False,
    )


def test_the_migrations_build_exactly_the_tables_the_adapters_query(pg: PostgresStorage) -> None:
    with pg.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "version_table": VERSION_TABLE}
        )
        assert compare_metadata(context, metadata) == []
        assert current_revision(connection) == head_revision()


@pytest.mark.parametrize(
    ("constraint", "enum"),
    [
        ("ck_events_trust", Trust),
        ("ck_memories_belief_type", BeliefType),
        ("ck_memories_polarity", Polarity),
        ("ck_memories_status", BeliefStatus),
        ("ck_memories_authority", Authority),
        ("ck_rejections_belief_type", BeliefType),
        ("ck_rejections_polarity", Polarity),
    ],
)
def test_check_constraints_list_exactly_the_domain_enum_values(
    pg: PostgresStorage, constraint: str, enum: type[Trust]
) -> None:
    # A value added to a domain enum needs a migration; this test says so before a write fails.
    with pg.engine.connect() as connection:
        definition = connection.execute(
            sa.text(
                "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conname = :name AND connamespace = current_schema()::regnamespace"
            ),
            {"name": constraint},
        ).scalar_one()
    assert sorted(re.findall(r"'([^']+)'", definition)) == sorted(m.value for m in enum)


def test_the_entry_point_names_build_storage() -> None:
    (entry,) = entry_points(group="memory_core.storage", name="postgres")
    assert entry.load() is build_storage


def test_build_storage_on_an_unreachable_server_raises_storage_unavailable() -> None:
    with pytest.raises(StorageUnavailableError, match=r"127\.0\.0\.1:1/test is unavailable"):
        build_storage("postgresql://postgres@127.0.0.1:1/test")


def test_build_storage_without_a_url_names_the_environment_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MEMORY_DATABASE_URL", raising=False)
    with pytest.raises(UsageError, match="MEMORY_DATABASE_URL"):
        build_storage(None)


@pytest.mark.parametrize(
    "url", ["sqlite:///memory.db", "postgresql+asyncpg://u@127.0.0.1/db", "not a url"]
)
def test_build_storage_refuses_a_url_it_cannot_use(url: str) -> None:
    with pytest.raises(UsageError, match="postgresql"):
        build_storage(url)


def test_build_storage_refuses_a_database_without_the_schema(
    postgres_url: str, scratch_schema: str, schema_url: Callable[[str], str]
) -> None:
    with pytest.raises(
        StorageUnavailableError, match=r"has no memory store schema.*agent db upgrade"
    ):
        build_storage(schema_url(scratch_schema))


def test_build_storage_refuses_a_schema_behind_the_package(
    postgres_url: str,
    scratch_schema: str,
    schema_url: Callable[[str], str],
    run_sql: Callable[[str], None],
) -> None:
    upgrade(postgres_url, schema=scratch_schema)
    run_sql(f"UPDATE \"{scratch_schema}\".{VERSION_TABLE} SET version_num = '0000'")
    with pytest.raises(
        StorageUnavailableError,
        match=f"at schema revision 0000, this package needs {head_revision()}.*agent db upgrade",
    ):
        build_storage(schema_url(scratch_schema))


def test_build_storage_reads_the_url_from_the_environment_and_can_upgrade(
    empty_schema: str, schema_url: Callable[[str], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_DATABASE_URL", schema_url(empty_schema))

    storage = build_storage(None, upgrade_schema=True)
    try:
        assert storage.memories.head_position(ALICE) == 0
    finally:
        storage.close()
    build_storage(None).close()  # now current: no upgrade needed


def test_upgrade_into_a_search_path_naming_no_schema_says_what_to_do(
    scratch_schema: str, schema_url: Callable[[str], str]
) -> None:
    with pytest.raises(StorageUnavailableError, match="search path"):
        upgrade(schema_url(scratch_schema))


def test_a_table_missing_at_run_time_is_reported_as_a_schema_behind(postgres_url: str) -> None:
    with temporary_storage(postgres_url) as storage:
        with storage.engine.begin() as connection:
            connection.exec_driver_sql("DROP TABLE memories")
        with pytest.raises(StorageUnavailableError, match="agent db upgrade"):
            storage.memories.head_position(ALICE)


def test_migration_0004_indexes_the_adapters_subject_match_expression() -> None:
    # the migration is frozen: its expression must stay the one find_by_subject queries
    assert rev_0004_subject_match_index._MATCH_KEY == SUBJECT_MATCH_SQL


def test_migration_0005_indexes_the_live_rows_the_adapters_subject_arm_reads() -> None:
    # the migration is frozen: its predicate must stay the schema's live predicate
    assert rev_0005_live_subject_position_index._LIVE == _LIVE_PREDICATE
