"""A recorded secret is in no PostgreSQL table (a session message, a run prompt), read directly."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from memory_core import Principal
from memory_core.bootstrap import build
from memory_core.runtime.scripted import FakeModelScript, ScriptedTurn
from memory_store_pg import PostgresStorage
from memory_store_pg._schema import metadata

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SECRET = "hunter2-Secret!"


def _rows_mentioning(pg: PostgresStorage, needle: str) -> dict[str, int]:
    """Per table, the rows whose whole text (every column) mentions ``needle``."""
    with pg.engine.connect() as connection:
        return {
            table.name: int(
                connection.execute(
                    sa.text(f'SELECT count(*) FROM "{table.name}" AS t WHERE t::text ILIKE :n'),
                    {"n": f"%{needle}%"},
                ).scalar_one()
            )
            for table in metadata.sorted_tables
        }


def test_a_secret_said_in_a_session_or_a_run_prompt_is_in_no_table(pg: PostgresStorage) -> None:
    app = build(
        storage=pg,
        principal=Principal("acme", "alice"),
        fixed_clock_at=T0,
        sequential_ids=True,
        script=FakeModelScript(turns=[ScriptedTurn(text="Noted.")]),
    )
    session = app.sessions.create()
    app.sessions.record_user_message(session.id, f"My password is {SECRET}")
    app.sessions.record_user_message(session.id, "I live in Vermilion Bay.")
    app.sessions.close(session.id)
    chat = app.sessions.create()
    app.runs.submit(f"Remember that my password is {SECRET}", chat.id)
    app.sessions.close(chat.id)
    app.memory.recall("What is my password?")
    assert set(_rows_mentioning(pg, "hunter2").values()) == {0}
    masks = _rows_mentioning(pg, "[redacted:secret")
    assert masks["events"] == 2
    assert masks["memories"] == 0
    assert _rows_mentioning(pg, "Vermilion")["memories"] == 1
