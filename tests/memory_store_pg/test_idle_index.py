"""``ix_memories_principal_idle`` holds decay-eligible rows only, and ``list_idle`` reads it.

The plan is read with ``EXPLAIN (ANALYZE, FORMAT JSON)`` of the adapter's own statement over a
table whose oldest rows are user statements (never eligible): the index scan must return
exactly the window, with no row fetched and then thrown away. Migration 0003 rebuilds the index
with ``memory_core.idle.IDLE_SQL_PREDICATE``; the shipped predicate is compared with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from _support.pg_statements import captured_statements
from sqlalchemy.engine import make_url

from memory_core import Authority, Belief, BeliefStatus, BeliefType, Principal
from memory_core.formation.decay import idle_cuts
from memory_core.idle import IDLE_SQL_PREDICATE
from memory_core.profiles import load_profiles
from memory_store_pg import PostgresStorage, temporary_storage, upgrade
from memory_store_pg._engine import create_engine

pytestmark = pytest.mark.postgres

T0 = datetime(2025, 1, 1, tzinfo=UTC)
NOW = datetime(2026, 1, 1, tzinfo=UTC)
PRINCIPALS = [Principal("tenant-1", f"p{n}") for n in range(3)]
USER_ROWS = 3000
ELIGIBLE_ROWS = 300


def _belief(principal: Principal, n: int, *, user: bool) -> Belief:
    at = T0 + timedelta(minutes=n)
    return Belief(
        id=f"{principal.principal_id}-belief-{n:06d}",
        tenant_id=principal.tenant_id,
        principal_id=principal.principal_id,
        belief_type=BeliefType.FACT,
        subject=f"subject {n % 50}",
        statement=f"Statement number {n}.",
        scope="general",
        status=BeliefStatus.ACTIVE,
        authority=Authority.USER if user else Authority.INFERRED,
        confidence=0.9 if user else 0.6,
        source_event_ids=(f"e-{n}",),
        valid_from=at,
        last_evidence_at=at,
        created_at=at,
        updated_at=at,
        consolidation_policy_version="formation@6",
    )


@pytest.fixture(scope="module")
def seeded(postgres_url: str) -> Iterator[PostgresStorage]:
    with temporary_storage(postgres_url) as storage:
        for principal in PRINCIPALS:
            rows = [_belief(principal, n, user=True) for n in range(USER_ROWS)]
            rows += [_belief(principal, USER_ROWS + n, user=False) for n in range(ELIGIBLE_ROWS)]
            storage.memories.put_many(rows)
        with storage.engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE")
        yield storage


def _statement(storage: PostgresStorage, call: Callable[[], object]) -> tuple[str, Any]:
    return captured_statements(storage, call)[0]


def _scans(plan: Any) -> list[dict[str, Any]]:
    if isinstance(plan, dict):
        own = [plan] if "Index Name" in plan or "Relation Name" in plan else []
        return own + [s for value in plan.values() for s in _scans(value)]
    if isinstance(plan, list):
        return [s for item in plan for s in _scans(item)]
    return []


def test_a_sweep_window_is_an_index_scan_that_reads_only_eligible_rows(
    seeded: PostgresStorage,
) -> None:
    profiles = load_profiles()
    cut, by_type, touched = idle_cuts(now=NOW, profiles=profiles, interval=timedelta(days=1))
    window = 100
    statement, parameters = _statement(
        seeded,
        lambda: seeded.memories.list_idle(
            PRINCIPALS[1], cut, window, type_evidence_before=by_type, touched_before=touched
        ),
    )
    with seeded.engine.begin() as connection:
        plan = connection.exec_driver_sql(
            "EXPLAIN (ANALYZE, FORMAT JSON) " + statement, parameters
        ).scalar_one()
    (scan,) = _scans(plan)
    assert scan["Node Type"] == "Index Scan"
    assert scan["Index Name"] == "ix_memories_principal_idle"
    # the window is read without touching one of the 3,000 older user statements
    assert scan["Actual Rows"] == window
    assert scan.get("Rows Removed by Filter", 0) == 0
    rows = seeded.memories.list_idle(
        PRINCIPALS[1], cut, window, type_evidence_before=by_type, touched_before=touched
    )
    assert [b.id for b in rows] == [f"p1-belief-{USER_ROWS + n:06d}" for n in range(window)]


def _index_predicate(connection: sa.Connection, name: str) -> str:
    return str(
        connection.execute(
            sa.text(
                "SELECT pg_get_expr(i.indpred, i.indrelid) FROM pg_index i "
                "JOIN pg_class c ON c.oid = i.indexrelid "
                "WHERE c.relname = :name AND c.relnamespace = current_schema()::regnamespace"
            ),
            {"name": name},
        ).scalar_one()
    )


def _predicate_of(url: str, schema: str) -> tuple[str, str]:
    """(the shipped idle index's predicate, IDLE_SQL_PREDICATE's) as the server deparses them."""
    engine = create_engine(
        make_url(url).set(drivername="postgresql+psycopg"), schema=schema, poolclass=sa.NullPool
    )
    try:
        with engine.begin() as connection:
            shipped = _index_predicate(connection, "ix_memories_principal_idle")
            connection.exec_driver_sql(
                "CREATE INDEX ix_probe ON memories (tenant_id) WHERE " + IDLE_SQL_PREDICATE
            )
            wanted = _index_predicate(connection, "ix_probe")
            connection.rollback()
    finally:
        engine.dispose()
    return shipped, wanted


def test_migration_0003_narrows_the_idle_index_to_the_eligibility_predicate(
    postgres_url: str, scratch_schema: str
) -> None:
    upgrade(postgres_url, schema=scratch_schema, revision="0002")
    before, wanted = _predicate_of(postgres_url, scratch_schema)
    assert before != wanted
    assert "authority" not in before  # 0002: every live row

    result = upgrade(postgres_url, schema=scratch_schema, revision="0003")
    assert (result.before, result.after) == ("0002", "0003")
    after, wanted = _predicate_of(postgres_url, scratch_schema)
    assert after == wanted


def test_the_principal_listing_walks_the_idle_index_in_key_order(
    seeded: PostgresStorage,
) -> None:
    cut = T0 + timedelta(days=400)
    statement, parameters = _statement(
        seeded, lambda: seeded.memories.list_principals_with_idle(cut, 2, after=PRINCIPALS[0])
    )
    with seeded.engine.begin() as connection:
        plan = connection.exec_driver_sql(
            "EXPLAIN (ANALYZE, FORMAT JSON) " + statement, parameters
        ).scalar_one()
    scans = [s for s in _scans(plan) if s.get("Relation Name") == "memories"]
    assert scans
    for scan in scans:
        assert scan["Node Type"] in ("Index Scan", "Index Only Scan")
        assert scan["Index Name"] == "ix_memories_principal_idle"
        # one index probe per step: the first row past the cursor, not every eligible row
        assert scan["Actual Rows"] <= 1
    assert "Sort" not in str(plan)  # the index order is the listing's order
    assert seeded.memories.list_principals_with_idle(cut, 2, after=PRINCIPALS[0]) == [
        PRINCIPALS[1],
        PRINCIPALS[2],
    ]
