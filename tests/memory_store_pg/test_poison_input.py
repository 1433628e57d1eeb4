"""Poison that bypasses the input gate: no raw driver error escapes, no sweep is blocked.

The gate keeps NUL and surrogates out of every record; these tests write them straight into the
ports (as an older version or another writer might) and check that PostgreSQL's refusals come
back as memory-core errors, and that a session whose close fails on such a record is isolated
by the idle sweep while other principals' sessions close.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from memory_core import (
    Belief,
    Event,
    MemoryCoreError,
    Principal,
    StorageError,
    Trust,
    UsageError,
)
from memory_core.bootstrap import build
from memory_core.policy import SESSION_IDLE_SECONDS
from memory_store_pg import PostgresStorage
from memory_store_pg._engine import translated_errors

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALICE = Principal("tenant-1", "alice")
BOB = Principal("tenant-1", "bob")


def test_nul_and_surrogates_reaching_a_text_column_are_usage_errors(
    pg: PostgresStorage, make_belief: Callable[..., Belief], make_event: Callable[..., Event]
) -> None:
    with pytest.raises(UsageError, match="cannot store a value"):
        pg.memories.put(make_belief(ALICE, statement="User lives in Oslo\x00."))
    with pytest.raises(UsageError, match="not valid Unicode"):
        pg.events.append(make_event(ALICE, payload={"text": "I live in Oslo\ud800."}))
    with pytest.raises(UsageError):
        pg.events.append(make_event(ALICE, actor="us\x00er"))
    assert pg.memories.list_beliefs(ALICE) == []
    assert pg.events.read_session(ALICE, "s-1") == []


def test_an_unexpected_driver_error_is_a_storage_error(pg: PostgresStorage) -> None:
    def run_a_bad_statement() -> None:
        with translated_errors("test"), pg.engine.connect() as connection:
            connection.execute(sa.text("SELEC 1"))

    with pytest.raises(StorageError, match="SQLSTATE 42601"):
        run_a_bad_statement()


def test_a_nul_poisoned_session_never_blocks_another_principals_idle_sweep(
    pg: PostgresStorage, caplog: pytest.LogCaptureFixture
) -> None:
    app = build(storage=pg, fixed_clock_at=T0, sequential_ids=True, principal=ALICE)
    poisoned = app.sessions.create()
    # the poison, written past the gate: JSON stores \u0000, a belief's text cannot
    pg.events.append(
        Event(
            event_id="evt-poison",
            tenant_id=ALICE.tenant_id,
            principal_id=ALICE.principal_id,
            session_id=poisoned.id,
            event_type="user.message.created",
            actor="user",
            trust=Trust.USER,
            payload={"text": "I live in Oslo\x00. I work at Acme."},
            created_at=T0,
        )
    )
    app.advance(1)
    healthy = app.sessions.create(principal=BOB)
    app.sessions.record_user_message(healthy.id, "I live in Lisbon.", principal=BOB)
    app.advance(SESSION_IDLE_SECONDS)

    with pytest.raises(UsageError, match="cannot store a value"):
        app.sessions.close(poisoned.id)  # a typed error, not sqlalchemy's DataError
    report = app.maintenance_factory().run_once()
    assert (report.sessions_closed, report.sessions_failed, report.sweeps_failed) == (1, 1, 0)
    assert not app.sessions.get(healthy.id, principal=BOB).is_open
    assert app.sessions.get(poisoned.id).is_open
    assert [b.statement for b in app.memory.list_memories(principal=BOB)] == [
        "User lives in Lisbon."
    ]
    assert poisoned.id in caplog.text


def test_every_error_a_poisoned_close_raises_is_a_memory_core_error(pg: PostgresStorage) -> None:
    app = build(storage=pg, fixed_clock_at=T0, sequential_ids=True, principal=ALICE)
    session = app.sessions.create()
    pg.events.append(
        Event(
            event_id="evt-poison-2",
            tenant_id=ALICE.tenant_id,
            principal_id=ALICE.principal_id,
            session_id=session.id,
            event_type="user.message.created",
            actor="user",
            trust=Trust.USER,
            payload={"text": "My name is Ada\x00."},
            created_at=T0,
        )
    )
    with pytest.raises(MemoryCoreError):
        app.sessions.close(session.id)


@pytest.mark.parametrize("batch_size", [1, 100])
def test_an_unreadable_session_row_is_skipped_by_the_idle_listing(
    pg: PostgresStorage, caplog: pytest.LogCaptureFixture, batch_size: int
) -> None:
    app = build(storage=pg, fixed_clock_at=T0, sequential_ids=True, principal=ALICE)
    before = app.sessions.create(principal=ALICE)
    app.advance(1)
    bad = app.sessions.create(principal=ALICE)
    app.advance(1)
    after = app.sessions.create(principal=BOB)
    # a row no version of the record accepts: an invalid project name in its metadata
    with pg.engine.begin() as connection:
        connection.execute(
            sa.text("UPDATE sessions SET metadata = CAST(:m AS json) WHERE id = :id"),
            {"m": '{"project_scope": "Not A Name"}', "id": bad.id},
        )
    app.advance(SESSION_IDLE_SECONDS)
    listed = pg.sessions.list_open_idle(app.clock.now(), limit=1, after=None)
    assert [s.id for s in listed] == [before.id]
    page = pg.sessions.list_open_idle(
        app.clock.now(), limit=1, after=(before.last_activity_at, before.id)
    )
    assert [s.id for s in page] == [after.id]  # filled from past the unreadable row
    report = app.sessions.sweep_idle_report(batch_size=batch_size)
    assert (report.closed, report.failed) == (2, 0)
    assert not app.sessions.get(before.id).is_open
    assert not app.sessions.get(after.id, principal=BOB).is_open
    assert f"skipping unreadable session {bad.id}" in caplog.text
