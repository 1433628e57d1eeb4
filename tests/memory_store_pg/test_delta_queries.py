"""The recall delta and the correction read are index scans: ``EXPLAIN`` of the SQL they send.

The delta's store-position bound must be an index condition of the live-position index (a range
scan from the watermark), not a filter applied to rows already read; the correction lines read
the snapshot's members in one statement over the primary key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from _support.pg_statements import captured_statements

from memory_bench.perf import BENCH_NOW, BENCH_PRINCIPAL, BENCH_PROJECT, generate_beliefs
from memory_core.clock import FixedClock
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import load_profiles
from memory_core.retrieval import MemoryRetriever, RecallRequest
from memory_store_pg import PostgresStorage, temporary_storage

pytestmark = pytest.mark.postgres

BELIEFS = 6000
SINCE_WATERMARK = 25


@pytest.fixture(scope="module")
def loaded(postgres_url: str) -> Iterator[PostgresStorage]:
    with temporary_storage(postgres_url) as storage:
        storage.memories.put_many(list(generate_beliefs(BENCH_PRINCIPAL, BELIEFS, seed=3)))
        with storage.engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE")
        yield storage


def _statements(storage: PostgresStorage, call: Callable[[], object]) -> list[tuple[str, Any]]:
    return captured_statements(
        storage, call, keep=lambda statement: statement.lstrip().upper().startswith("SELECT")
    )


def _plan(storage: PostgresStorage, statement: str, parameters: Any) -> Any:
    with storage.engine.begin() as connection:
        connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
        return connection.exec_driver_sql(
            "EXPLAIN (FORMAT JSON) " + statement, parameters
        ).scalar_one()


def _nodes(plan: Any) -> Iterator[dict[str, Any]]:
    if isinstance(plan, dict):
        if "Node Type" in plan:
            yield plan
        for value in plan.values():
            yield from _nodes(value)
    elif isinstance(plan, list):
        for item in plan:
            yield from _nodes(item)


def _retriever(storage: PostgresStorage, namespace: str) -> MemoryRetriever:
    return MemoryRetriever(
        memories=storage.memories,
        traces=storage.traces,
        clock=FixedClock(BENCH_NOW),
        ids=SequentialIdFactory(namespace=namespace),
        profiles=load_profiles(),
        timer=lambda: 0.0,
    )


def test_the_delta_query_bounds_the_live_position_index_by_the_watermark(
    loaded: PostgresStorage,
) -> None:
    retriever = _retriever(loaded, "delta-explain")
    watermark = loaded.memories.head_position(BENCH_PRINCIPAL) - SINCE_WATERMARK
    request = RecallRequest(
        principal=BENCH_PRINCIPAL,
        moment="in_turn",
        text="Who is my dentist?",
        project_scope=BENCH_PROJECT,
    )
    base = retriever.recall(request)
    sent = _statements(loaded, lambda: retriever.recall_delta(request, base, watermark=watermark))
    searches = [(s, p) for s, p in sent if "FROM memories" in s and "store_position >" in s]
    assert len(searches) == 1  # the delta is one recency read, not a post-filtered scan
    statement, parameters = searches[0]
    scans = [n for n in _nodes(_plan(loaded, statement, parameters)) if "Index Name" in n]
    assert [n["Index Name"] for n in scans] == ["ix_memories_principal_live_position"]
    assert "store_position >" in scans[0]["Index Cond"]
    delta = retriever.recall_delta(request, base, watermark=watermark)
    assert delta is not None
    assert all(b.store_position > watermark for b in delta.beliefs)
    assert not set(delta.trace.returned) & set(base.trace.returned)


def test_the_correction_read_is_one_primary_key_lookup(loaded: PostgresStorage) -> None:
    retriever = _retriever(loaded, "corrections-explain")
    snapshot = retriever.recall(
        RecallRequest(principal=BENCH_PRINCIPAL, moment="snapshot", project_scope=BENCH_PROJECT)
    )
    watermark = loaded.memories.head_position(BENCH_PRINCIPAL)
    sent = _statements(
        loaded,
        lambda: retriever.corrections(
            snapshot.trace.trace_id, watermark, principal=BENCH_PRINCIPAL
        ),
    )
    members = [(s, p) for s, p in sent if "FROM memories" in s]
    assert len(members) == 1
    used = {n.get("Index Name") for n in _nodes(_plan(loaded, *members[0]))}
    assert "pk_memories" in used
