"""How the PostgreSQL tier uses its pool: one connection per recall, liveness after idle."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa

from memory_core import Belief, Principal
from memory_core.clock import FixedClock
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import load_profiles
from memory_core.retrieval import MemoryRetriever, RecallRequest
from memory_store_pg import PostgresStorage, temporary_storage

pytestmark = pytest.mark.postgres

ALICE = Principal("tenant-1", "alice")


def _retriever(storage: PostgresStorage, namespace: str) -> MemoryRetriever:
    """A retriever over ``storage`` on a fixed clock, with sequential ids and a zero timer."""
    return MemoryRetriever(
        memories=storage.memories,
        traces=storage.traces,
        clock=FixedClock(datetime(2026, 6, 1, tzinfo=UTC)),
        ids=SequentialIdFactory(namespace=namespace),
        profiles=load_profiles(),
        timer=lambda: 0.0,
    )


def _checkouts(engine: sa.Engine) -> list[int]:
    counted: list[int] = []

    @sa.event.listens_for(engine, "checkout")
    def _count(*_args: Any) -> None:
        counted.append(1)

    return counted


def test_a_recall_takes_one_connection_for_its_arms_and_its_trace(
    postgres_url: str, make_belief: Callable[..., Belief]
) -> None:
    with temporary_storage(postgres_url) as storage:
        storage.memories.put(
            make_belief(ALICE, subject="coffee", statement="User drinks espresso daily.")
        )
        storage.memories.put(make_belief(ALICE, statement="User prefers concise answers."))
        retriever = _retriever(storage, "pinned")
        counted = _checkouts(storage.engine)
        result = retriever.recall(
            RecallRequest(principal=ALICE, moment="in_turn", text="What coffee do I drink?")
        )
        assert len(counted) == 1  # the arms and the trace write shared one connection
        assert result.trace.returned
        assert storage.traces.get(ALICE, result.trace.trace_id) == result.trace


def test_a_pooled_connection_dropped_while_idle_is_replaced_before_use(
    postgres_url: str,
) -> None:
    with temporary_storage(postgres_url, idle_ping_seconds=0.0) as storage:
        assert storage.schema is not None
        storage.memories.head_position(ALICE)  # one connection now sits in the pool
        with storage.engine.connect() as connection:
            pid = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)
        # the checkout pings the idle connection, finds it dead and connects afresh
        assert storage.memories.head_position(ALICE) == 0


def _sent(engine: sa.Engine) -> list[str]:
    """The first words of every statement ``engine`` sends from now on, and ``COMMIT`` for
    each commit SQLAlchemy runs."""
    sent: list[str] = []

    @sa.event.listens_for(engine, "before_cursor_execute")
    def _note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(" ".join(statement.split()[:3]))

    @sa.event.listens_for(engine, "commit")
    def _commit(_conn: Any) -> None:
        sent.append("COMMIT")

    return sent


@pytest.mark.parametrize(
    ("text", "statements"),
    [
        # no subject named: the recency and lexical arms in one statement, then the trace
        ("Do I drink espresso daily?", ["(SELECT 0 AS", 'INSERT INTO "recall_traces"']),
        # a named subject's arm reads what the first statement's subjects name
        (
            "What coffee do I drink?",
            ["(SELECT 0 AS", "SELECT found.* FROM", 'INSERT INTO "recall_traces"'],
        ),
    ],
)
def test_a_recall_sends_its_arms_in_one_statement_and_its_trace_in_one_more(
    postgres_url: str, make_belief: Callable[..., Belief], text: str, statements: list[str]
) -> None:
    with temporary_storage(postgres_url) as storage:
        storage.memories.put(
            make_belief(ALICE, subject="coffee", statement="User drinks espresso daily.")
        )
        retriever = _retriever(storage, "statements")
        retriever.recall(RecallRequest(principal=ALICE, moment="in_turn", text="warm up"))
        sent = _sent(storage.engine)
        result = retriever.recall(RecallRequest(principal=ALICE, moment="in_turn", text=text))
        # no BEGIN, SET or COMMIT around the trace insert: it commits on its own, asynchronously
        assert sent == statements
        assert result.trace.returned
