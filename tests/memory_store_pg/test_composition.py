"""``bootstrap.build(storage="postgres")`` finds this package and behaves like the memory tier."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from memory_core import Principal
from memory_core.bootstrap import build
from memory_core.errors import StorageUnavailableError
from memory_store_pg import upgrade

OWNER = Principal("tests", "owner")
"""The principal the compositions of this module belong to."""

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
MESSAGES = [
    "I live in Portland. I prefer concise answers.",
    "My manager is Dana. I moved to Seattle.",
]


def _two_sessions(storage: str, database_url: str | None) -> tuple[list[str], list[str]]:
    composition = build(
        principal=OWNER,
        storage=storage,
        database_url=database_url,
        sequential_ids=True,
        fixed_clock_at=T0,
    )
    try:
        first = composition.sessions.create(agent="assistant", metadata={})
        for text in MESSAGES:
            composition.sessions.record_user_message(first.id, text)
            composition.advance(60)
        composition.sessions.close(first.id)
        second = composition.sessions.create(agent="assistant", metadata={})
        snapshot = composition.sessions.snapshot_block(second.id)
        memories = [
            f"{b.short_id} {b.status.value} {b.statement}"
            for b in composition.memory.list_memories()
        ]
        return snapshot.splitlines(), memories
    finally:
        composition.close()


def test_a_composition_on_postgres_forms_and_recalls_exactly_as_in_memory(
    empty_schema: str, schema_url: Callable[[str], str]
) -> None:
    upgrade(schema_url(empty_schema))

    in_memory = _two_sessions("memory", None)
    on_postgres = _two_sessions("postgres", schema_url(empty_schema))

    assert in_memory[0][0].startswith("Memory (")  # something was formed and recalled
    assert len(in_memory[1]) >= 3
    assert on_postgres == in_memory


def test_the_composition_reads_the_url_from_the_environment(
    empty_schema: str, schema_url: Callable[[str], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    upgrade(schema_url(empty_schema))
    monkeypatch.setenv("MEMORY_DATABASE_URL", schema_url(empty_schema))
    composition = build(principal=OWNER, storage="postgres", sequential_ids=True, fixed_clock_at=T0)
    try:
        session = composition.sessions.create(agent="assistant", metadata={})
        composition.sessions.record_user_message(session.id, MESSAGES[0])
        composition.sessions.close(session.id)
        assert composition.memory.list_memories()
    finally:
        composition.close()


def test_an_unreachable_server_or_a_schema_behind_is_a_storage_unavailable_error(
    scratch_schema: str, schema_url: Callable[[str], str]
) -> None:
    with pytest.raises(StorageUnavailableError, match=r"127\.0\.0\.1:1/test is unavailable"):
        build(
            principal=OWNER,
            storage="postgres",
            database_url="postgresql://postgres@127.0.0.1:1/test",
        )
    with pytest.raises(StorageUnavailableError, match="agent db upgrade"):
        build(principal=OWNER, storage="postgres", database_url=schema_url(scratch_schema))
