"""A unit of work is one transaction: killed mid-way, it leaves no partial write behind.

Every port writes inside the unit; if any adapter bypassed the unit's connection its write
would have committed on its own and would be visible after the kill.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from memory_core import (
    Belief,
    Event,
    Principal,
    RecallTrace,
    Rejection,
    Session,
    StorageUnavailableError,
)
from memory_store_pg import PostgresStorage, upgrade

pytestmark = pytest.mark.postgres

ALICE = Principal("tenant-1", "alice")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@contextmanager
def _last_backend_pid(storage: PostgresStorage) -> Iterator[list[int]]:
    seen: list[int] = []

    def listen(conn: sa.Connection, *_: Any) -> None:
        seen.append(conn.connection.dbapi_connection.info.backend_pid)  # type: ignore[union-attr]

    sa.event.listen(storage.engine, "before_cursor_execute", listen)
    try:
        yield seen
    finally:
        sa.event.remove(storage.engine, "before_cursor_execute", listen)


def _write_through_every_port(
    storage: PostgresStorage, belief: Belief, existing: Belief, event: Event
) -> None:
    storage.events.append(event)
    storage.sessions.create(
        Session(
            id="sess-killed",
            tenant_id=ALICE.tenant_id,
            principal_id=ALICE.principal_id,
            agent="assistant",
            opened_at=T0,
            last_activity_at=T0,
        )
    )
    storage.memories.put(belief)
    storage.memories.update(existing.model_copy(update={"evidence_count": 2}))
    storage.traces.record(
        RecallTrace(
            trace_id="trace-killed",
            tenant_id=ALICE.tenant_id,
            principal_id=ALICE.principal_id,
            moment="in_turn",
            policy_version="retrieval@1",
            created_at=T0,
        )
    )
    storage.traces.mark_cited("trace-killed", ALICE, ["x"])
    storage.formation.set_watermark(ALICE, "s-1", event.sequence + 1)
    storage.formation.record_rejection(
        Rejection(
            belief_id="rejected-1",
            tenant_id=ALICE.tenant_id,
            principal_id=ALICE.principal_id,
            belief_type=belief.belief_type,
            subject=belief.subject,
            statement=belief.statement,
            rejected_at=T0,
        )
    )


def _assert_nothing_of_the_unit(
    storage: PostgresStorage, belief: Belief, existing: Belief, event: Event
) -> None:
    assert storage.memories.get(ALICE, belief.id) is None
    assert storage.memories.get(ALICE, existing.id) == existing  # the update is gone too
    assert storage.memories.head_position(ALICE) == existing.store_position
    assert storage.events.get(ALICE, event.event_id) is None
    assert storage.sessions.get(ALICE, "sess-killed") is None
    assert storage.traces.get(ALICE, "trace-killed") is None
    assert storage.formation.watermark(ALICE, "s-1") == 0
    assert storage.formation.rejections(ALICE) == []


def test_a_unit_whose_connection_is_killed_leaves_no_partial_write(
    pg: PostgresStorage, make_belief: Callable[..., Belief], make_event: Callable[..., Event]
) -> None:
    existing = pg.memories.put(make_belief(ALICE))
    belief, event, never = (
        make_belief(ALICE, subject="manager"),
        make_event(ALICE),
        make_belief(ALICE, subject="never"),
    )

    def write_then_lose_the_connection() -> None:
        with _last_backend_pid(pg) as pids, pg.unit_of_work():
            _write_through_every_port(pg, belief, existing, event)
            unit_pid = pids[-1]
            assert set(pids) == {unit_pid}  # every port ran on the unit's connection
            with pg.engine.connect() as other:
                killed = other.execute(sa.select(sa.func.pg_terminate_backend(unit_pid)))
                assert killed.scalar_one()
            pg.memories.put(never)

    with pytest.raises(StorageUnavailableError, match="unavailable"):
        write_then_lose_the_connection()
    _assert_nothing_of_the_unit(pg, belief, existing, event)
    later = pg.memories.put(make_belief(ALICE, subject="after"))  # the tier recovers
    assert later.store_position > existing.store_position


_KILLED_WORKER = textwrap.dedent(
    """
    import sys
    from datetime import UTC, datetime

    from memory_core import Authority, Belief, BeliefStatus, BeliefType
    from memory_store_pg import PostgresStorage

    url, schema = sys.argv[1], sys.argv[2]
    t0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def belief(belief_id: str) -> Belief:
        return Belief(
            id=belief_id, tenant_id="tenant-1", principal_id="alice",
            belief_type=BeliefType.FACT, subject="home city",
            statement="User lives in Portland.", scope="user", status=BeliefStatus.ACTIVE,
            authority=Authority.USER, confidence=0.9, source_event_ids=("e-1",),
            valid_from=t0, last_evidence_at=t0, created_at=t0, updated_at=t0,
            consolidation_policy_version="formation@5",
        )

    storage = PostgresStorage(url, schema=schema)
    storage.memories.put(belief("before-the-unit"))
    with storage.unit_of_work():
        storage.memories.put(belief("inside-the-unit-1"))
        storage.memories.put(belief("inside-the-unit-2"))
        print("mid-unit", flush=True)
        sys.stdin.readline()  # the parent kills us here
        storage.memories.put(belief("inside-the-unit-3"))
    """
)


def test_a_process_killed_mid_unit_leaves_no_partial_belief(
    pg: PostgresStorage, postgres_url: str
) -> None:
    assert pg.schema is not None
    worker = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WORKER, postgres_url, pg.schema],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None
        assert worker.stdout.readline().strip() == "mid-unit"
    finally:
        worker.kill()  # SIGKILL: no rollback from the client, the server must discard it
        worker.wait()

    assert [b.id for b in pg.memories.list_beliefs(ALICE)] == ["before-the-unit"]
    with pg.unit_of_work():  # the dead session's principal lock was released with it
        assert pg.memories.get(ALICE, "inside-the-unit-1") is None


_KILLED_CONSOLIDATION = textwrap.dedent(
    """
    import sys
    from datetime import UTC, datetime

    from memory_core import Principal
    from memory_core.bootstrap import build

    composition = build(
        storage="postgres", database_url=sys.argv[1], sequential_ids=True,
        principal=Principal("tests", "killed"),
        fixed_clock_at=datetime(2026, 3, 2, 9, 0, tzinfo=UTC),
    )
    principal = composition.sessions.default_principal
    session = composition.sessions.create(agent="assistant", metadata={})
    composition.sessions.record_user_message(
        session.id, "I live in Portland. I prefer concise answers. My manager is Dana."
    )
    print(principal.tenant_id, principal.principal_id, session.id, flush=True)

    memories = composition.storage.memories
    put = memories.put

    def put_then_stall(belief):
        stored = put(belief)
        print("mid-consolidation", flush=True)
        sys.stdin.readline()  # the parent kills us here, one belief into the unit
        return stored

    memories.put = put_then_stall
    composition.sessions.close(session.id)
    """
)


def test_a_process_killed_mid_consolidation_leaves_no_partial_belief(
    empty_schema: str, schema_url: Callable[[str], str]
) -> None:
    upgrade(schema_url(empty_schema))
    worker = subprocess.Popen(
        [sys.executable, "-c", _KILLED_CONSOLIDATION, schema_url(empty_schema)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None
        tenant_id, principal_id, session_id = worker.stdout.readline().split()
        assert worker.stdout.readline().strip() == "mid-consolidation"
    finally:
        worker.kill()
        worker.wait()

    principal = Principal(tenant_id, principal_id)
    storage = PostgresStorage(schema_url(empty_schema))
    try:
        assert storage.events.read_session(principal, session_id)  # committed before the unit
        with storage.unit_of_work():  # waits for the killed session's lock to go
            assert storage.memories.list_beliefs(principal) == []
            assert storage.formation.watermark(principal, session_id) == 0
    finally:
        storage.close()
