"""A session's kind lives in the ``metadata`` JSON column: no migration, validated on read."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_core import Principal, SessionKind, SessionMetadata
from memory_core.domain import Session
from memory_store_pg import PostgresStorage

pytestmark = pytest.mark.postgres
ALICE = Principal("tenant-1", "alice")
PG_T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _session(session_id: str, kind: SessionKind) -> Session:
    return Session(
        id=session_id,
        tenant_id=ALICE.tenant_id,
        principal_id=ALICE.principal_id,
        agent="assistant",
        metadata=SessionMetadata(kind=kind),
        opened_at=PG_T0,
        last_activity_at=PG_T0,
    )


def _set_metadata(pg: PostgresStorage, session_id: str, document: str) -> None:
    with pg.engine.begin() as connection:
        connection.exec_driver_sql(
            "UPDATE sessions SET metadata = %(doc)s::json WHERE id = %(id)s",
            {"doc": document, "id": session_id},
        )


def test_the_kind_is_stored_in_the_metadata_column(pg: PostgresStorage) -> None:
    pg.sessions.create(_session("s-child", SessionKind.CHILD))
    with pg.engine.connect() as connection:
        stored = connection.exec_driver_sql(
            "SELECT metadata FROM sessions WHERE id = 's-child'"
        ).scalar_one()
    assert stored == {"project_scope": None, "kind": "child"}


def test_a_row_written_before_kinds_reads_as_interactive(pg: PostgresStorage) -> None:
    pg.sessions.create(_session("s-old", SessionKind.ASYNC))
    _set_metadata(pg, "s-old", '{"project_scope": null}')
    loaded = pg.sessions.get(ALICE, "s-old")
    assert loaded is not None
    assert loaded.metadata.kind is SessionKind.INTERACTIVE


def test_a_row_with_an_unknown_kind_is_refused_on_read(pg: PostgresStorage) -> None:
    pg.sessions.create(_session("s-bad", SessionKind.CHILD))
    _set_metadata(pg, "s-bad", '{"project_scope": null, "kind": "batch"}')
    with pytest.raises(ValueError, match="kind"):
        pg.sessions.get(ALICE, "s-bad")
