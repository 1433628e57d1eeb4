"""Forgetting on PostgreSQL: the forgotten text is gone from every table, read directly."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from memory_core import Principal
from memory_core.bootstrap import build
from memory_store_pg import PostgresStorage
from memory_store_pg._schema import metadata

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALICE = Principal("acme", "alice")


def _rows_mentioning(pg: PostgresStorage, needle: str) -> dict[str, int]:
    """Per table, the rows whose whole text (every column) mentions ``needle``."""
    found: dict[str, int] = {}
    with pg.engine.connect() as connection:
        for table in metadata.sorted_tables:
            count = connection.execute(
                sa.text(f'SELECT count(*) FROM "{table.name}" AS t WHERE t::text ILIKE :needle'),
                {"needle": f"%{needle}%"},
            ).scalar_one()
            found[table.name] = int(count)
    return found


def test_forget_leaves_no_row_holding_the_statement_or_its_source_text(
    pg: PostgresStorage,
) -> None:
    app = build(storage=pg, principal=ALICE, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    app.sessions.record_user_message(session.id, "I live in Vermilion Bay.")
    app.sessions.record_user_message(session.id, "I prefer concise answers.")
    app.sessions.close(session.id)
    app.memory.recall("Where do I live?")
    belief = next(b for b in app.memory.list_memories() if "Vermilion" in b.statement)
    before = _rows_mentioning(pg, "Vermilion")
    assert before["memories"] == 1
    assert before["events"] == 1
    assert before["recall_traces"] >= 1
    app.memory.reject(belief.short_id)
    assert _rows_mentioning(pg, "Vermilion")["rejections"] == 1
    app.memory.forget(belief.short_id)
    assert set(_rows_mentioning(pg, "Vermilion").values()) == {0}
    # the other belief, and the log's shape, are untouched
    assert _rows_mentioning(pg, "concise")["memories"] == 1
    # stated again, it is refused by the tombstone and leaves only the new turn's text
    again = app.sessions.create()
    app.sessions.record_user_message(again.id, "I live in Vermilion Bay.")
    app.sessions.close(again.id)
    assert not any("Vermilion" in b.statement for b in app.memory.list_memories())
    assert _rows_mentioning(pg, "Vermilion")["memories"] == 0


def test_forget_principal_leaves_no_row_of_the_principal(pg: PostgresStorage) -> None:
    app = build(storage=pg, principal=ALICE, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    app.sessions.record_user_message(session.id, "I live in Vermilion Bay.")
    app.sessions.close(session.id)
    app.memory.reject(app.memory.list_memories()[0].id)
    app.memory.recall("home")
    app.memory.forget_principal(ALICE)
    with pg.engine.connect() as connection:
        for table in metadata.sorted_tables:
            left = connection.execute(
                sa.select(sa.func.count())
                .select_from(table)
                .where(table.c.principal_id == ALICE.principal_id)
            ).scalar_one()
            assert left == 0, table.name
