"""``build(storage="postgres", upgrade_schema=True)`` applies migrations when asked, only then."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from memory_core import Principal, build
from memory_core.errors import StorageUnavailableError

OWNER = Principal("tests", "owner")
"""The principal the compositions of this module belong to."""


@pytest.fixture
def empty_schema_url(postgres_url: str) -> Iterator[str]:
    """A URL whose connections use a fresh, empty schema (dropped afterwards)."""
    schema = f"memory_tmp_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    separator = "&" if "?" in postgres_url else "?"
    try:
        yield f"{postgres_url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_a_schema_behind_is_refused_without_upgrade(empty_schema_url: str) -> None:
    with pytest.raises(StorageUnavailableError):
        build(principal=OWNER, storage="postgres", database_url=empty_schema_url)


def test_upgrade_schema_migrates_then_the_composition_works(empty_schema_url: str) -> None:
    app = build(
        principal=OWNER, storage="postgres", database_url=empty_schema_url, upgrade_schema=True
    )
    try:
        chat = app.sessions.create(metadata={})
        app.sessions.record_user_message(chat.id, "I live in Portland.")
        app.sessions.close(chat.id)
        assert [b.statement for b in app.memory.list_memories()] == ["User lives in Portland."]
    finally:
        app.close()
    # A second build without upgrade now finds the schema current.
    build(principal=OWNER, storage="postgres", database_url=empty_schema_url).close()
