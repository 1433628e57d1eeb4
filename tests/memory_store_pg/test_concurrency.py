"""Concurrent writers on real connections: no lost update, unique ordered positions.

Threads share one ``PostgresStorage``; each unit of work runs on its own pooled connection.
Threads start together behind a barrier. Nothing here asserts a duration.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa

from memory_core import Belief, ConflictError, Event, Principal, RecallTrace
from memory_store_pg import PostgresStorage

pytestmark = pytest.mark.postgres

ALICE = Principal("tenant-1", "alice")
BOB = Principal("tenant-1", "bob")
WORKERS = 6


def _run_together(count: int, work: Callable[[int, threading.Barrier], Any]) -> list[Any]:
    barrier = threading.Barrier(count)
    with ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(work, n, barrier) for n in range(count)]
        return [future.result() for future in futures]


@contextmanager
def _backend_pids(storage: PostgresStorage) -> Iterator[set[int]]:
    """The server processes (one per connection) that ran the adapters' statements."""
    pids: set[int] = set()

    def listen(conn: sa.Connection, *_: Any) -> None:
        pids.add(conn.connection.dbapi_connection.info.backend_pid)  # type: ignore[union-attr]

    sa.event.listen(storage.engine, "before_cursor_execute", listen)
    try:
        yield pids
    finally:
        sa.event.remove(storage.engine, "before_cursor_execute", listen)


def test_concurrent_consolidations_of_one_principal_lose_no_update(
    pg: PostgresStorage,
    make_belief: Callable[..., Belief],
    make_event: Callable[..., Event],
) -> None:
    # One belief every session reinforces; each session consolidates its own user events,
    # one event per unit of work: read the watermark, read the next event, reinforce the
    # shared belief (read-modify-write), form a belief of its own, advance the watermark.
    shared = pg.memories.put(make_belief(ALICE, subject="answer style"))
    events_per_session = 8
    session_events = {
        n: [
            pg.events.append(make_event(ALICE, session_id=f"s-{n}"))
            for _ in range(events_per_session)
        ]
        for n in range(WORKERS)
    }
    # built up front: the id factory is not shared across threads
    to_form = {
        n: [make_belief(ALICE, subject=f"topic {n}") for _ in range(events_per_session)]
        for n in range(WORKERS)
    }

    def consolidate(n: int, barrier: threading.Barrier) -> list[int]:
        session_id = f"s-{n}"
        positions: list[int] = []
        barrier.wait()
        while True:
            with pg.unit_of_work():
                after = pg.formation.watermark(ALICE, session_id)
                pending = pg.events.read_session(ALICE, session_id, after_sequence=after)
                if not pending:
                    return positions
                event = pending[0]
                current = pg.memories.get(ALICE, shared.id)
                assert current is not None
                reinforced = pg.memories.update(
                    current.model_copy(
                        update={
                            "evidence_count": current.evidence_count + 1,
                            "source_event_ids": (*current.source_event_ids, event.event_id),
                        }
                    )
                )
                formed = pg.memories.put(
                    to_form[n][len(positions) // 2].model_copy(
                        update={"source_event_ids": (event.event_id,)}
                    )
                )
                pg.formation.set_watermark(ALICE, session_id, event.sequence)
                positions += [reinforced.store_position, formed.store_position]

    with _backend_pids(pg) as pids:
        per_worker = _run_together(WORKERS, consolidate)
    assert len(pids) >= 4  # real concurrent connections, not one shared

    final = pg.memories.get(ALICE, shared.id)
    assert final is not None
    every_event = {e.event_id for events in session_events.values() for e in events}
    assert final.evidence_count == 1 + len(every_event)  # no reinforcement lost
    assert set(final.source_event_ids[1:]) == every_event
    assert len(final.source_event_ids) == 1 + len(every_event)
    for n, events in session_events.items():
        assert pg.formation.watermark(ALICE, f"s-{n}") == events[-1].sequence

    positions = [p for worker in per_worker for p in worker]
    assert len(positions) == len(set(positions))  # unique under concurrent writers
    for worker in per_worker:
        assert worker == sorted(worker)  # increasing in each writer's order
    assert len(pg.memories.list_beliefs(ALICE)) == 1 + len(every_event)
    assert pg.memories.head_position(ALICE) == max(positions)


def test_concurrent_puts_across_principals_draw_unique_increasing_positions(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    principals = [Principal("tenant-1", f"user-{n}") for n in range(3)] + [ALICE]
    beliefs = {
        n: [make_belief(principals[n % len(principals)]) for _ in range(15)] for n in range(WORKERS)
    }

    def write(n: int, barrier: threading.Barrier) -> list[int]:
        barrier.wait()
        return [pg.memories.put(b).store_position for b in beliefs[n]]

    per_worker = _run_together(WORKERS, write)
    positions = [p for worker in per_worker for p in worker]
    assert len(positions) == len(set(positions))
    assert all(worker == sorted(worker) for worker in per_worker)


def test_concurrent_mark_cited_is_a_union_under_the_row_lock(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    trace = pg.traces.record(
        RecallTrace.model_validate(
            {
                "trace_id": "trace-1",
                "tenant_id": ALICE.tenant_id,
                "principal_id": ALICE.principal_id,
                "moment": "in_turn",
                "policy_version": "retrieval@1",
                "created_at": make_belief(ALICE).created_at,
                "cited": ("seed",),
            }
        )
    )
    rounds = 10

    def cite(n: int, barrier: threading.Barrier) -> None:
        barrier.wait()
        for r in range(rounds):
            pg.traces.mark_cited(trace.trace_id, ALICE, [f"w{n}-{r}", "shared", "seed"])

    with _backend_pids(pg) as pids:
        _run_together(WORKERS, cite)
    assert len(pids) >= 4

    cited = pg.traces.get(ALICE, trace.trace_id)
    assert cited is not None
    expected = {"seed", "shared"} | {f"w{n}-{r}" for n in range(WORKERS) for r in range(rounds)}
    assert set(cited.cited) == expected
    assert len(cited.cited) == len(expected)  # a union: nothing duplicated, nothing lost
    assert cited.cited[0] == "seed"
    for n in range(WORKERS):
        mine = [c for c in cited.cited if c.startswith(f"w{n}-")]
        assert mine == [f"w{n}-{r}" for r in range(rounds)]  # each writer's order kept


def _wait_for_a_blocked_advisory_lock(storage: PostgresStorage) -> None:
    """Poll pg_locks until some backend waits on an advisory lock (bounded, not timed)."""
    for _ in range(2000):
        with storage.engine.connect() as connection:
            waiting = connection.exec_driver_sql(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            ).scalar_one()
        if waiting:
            return
        time.sleep(0.005)
    pytest.fail("no writer ever waited on the principal's lock")


def test_a_principals_positions_commit_in_the_order_they_are_drawn(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    # A writer outside any unit waits for an open unit of the same principal to commit, so it
    # draws its position after every position of that unit: a reader that saw head N never
    # later finds a smaller position of the principal appear.
    holding = threading.Event()
    proceed = threading.Event()
    drawn: dict[str, int] = {}
    first, second, third, bobs = (make_belief(p) for p in (ALICE, ALICE, ALICE, BOB))

    def unit() -> None:
        with pg.unit_of_work():
            drawn["first"] = pg.memories.put(first).store_position
            holding.set()
            assert proceed.wait(timeout=60)
            drawn["second"] = pg.memories.put(second).store_position

    def outsider() -> None:
        assert holding.wait(timeout=60)
        drawn["outsider"] = pg.memories.put(third).store_position

    with ThreadPoolExecutor(max_workers=2) as pool:
        unit_done = pool.submit(unit)
        outsider_done = pool.submit(outsider)
        assert holding.wait(timeout=60)
        _wait_for_a_blocked_advisory_lock(pg)
        bob_position = pg.memories.put(bobs).store_position  # other principals do not wait
        proceed.set()
        unit_done.result()
        outsider_done.result()

    assert drawn["first"] < bob_position < drawn["second"] < drawn["outsider"]


def test_a_deadlock_between_units_is_a_conflict_error_and_the_other_unit_commits(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    beliefs = {
        0: (make_belief(ALICE), make_belief(BOB)),
        1: (make_belief(BOB), make_belief(ALICE)),
    }

    def cross(n: int, barrier: threading.Barrier) -> str:
        first, second = beliefs[n]
        try:
            with pg.unit_of_work():
                pg.memories.put(first)
                barrier.wait()
                pg.memories.put(second)
        except ConflictError as exc:
            return f"conflict: {exc}"
        return "committed"

    committed, conflict = sorted(_run_together(2, cross))
    assert committed == "committed"
    assert conflict.startswith("conflict: a concurrent writer conflicted")
    assert "deadlock" in conflict
    assert "retry" in conflict
    assert len(pg.memories.list_beliefs(ALICE)) + len(pg.memories.list_beliefs(BOB)) == 2
