"""The recall's driver-level statements (``_engine.driver_execute``): SQLAlchemy's cursor
listeners still see each one, rows come back as the SQLAlchemy path returns them, and driver
errors are translated as any statement's."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa

from memory_core import Belief, Principal
from memory_core.domain import LIVE_STATUSES, RecallQuery
from memory_core.errors import StorageUnavailableError, UsageError
from memory_core.ports import BELIEF_KEY_FIELDS
from memory_store_pg import PostgresStorage
from memory_store_pg._engine import BINARY_RESULTS, driver_execute, translated_errors
from memory_store_pg._queries import search_many_sql, search_sql
from memory_store_pg._rows import PG_EPOCH, beliefs_from_rows
from memory_store_pg._schema import BELIEF_COLUMNS

pytestmark = pytest.mark.postgres


def _query(principal: Principal, **changes: Any) -> RecallQuery:
    values: dict[str, Any] = {
        "principal": principal,
        "scopes": ("user",),
        "statuses": LIVE_STATUSES,
        "terms": ("portland",),
        "limit": 10,
    }
    values.update(changes)
    return RecallQuery(**values)


def test_listeners_see_every_driver_statement(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    pg.memories.put(make_belief(alice))
    seen: list[tuple[str, Any]] = []

    def listen(_c: Any, _cur: Any, statement: str, parameters: Any, _ctx: Any, _m: Any) -> None:
        seen.append((statement, parameters))

    sa.event.listen(pg.engine, "before_cursor_execute", listen)
    try:
        query = _query(alice)
        found = pg.memories.search(query)
        pg.memories.search_many([query, _query(alice, terms=None)])
    finally:
        sa.event.remove(pg.engine, "before_cursor_execute", listen)
    search = search_sql(query)
    assert search is not None
    assert [len(found)] == [1]
    assert seen[0] == search
    assert len(seen) == 2 and seen[1][0].startswith("(SELECT 0 AS branch, ")


def test_driver_rows_are_the_sqlalchemy_rows(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    pg.memories.put(make_belief(alice))
    search = search_sql(_query(alice))
    assert search is not None
    sql, params = search
    with pg.engine.connect() as connection:
        result = connection.exec_driver_sql(sql, params, execution_options={BINARY_RESULTS: True})
        expected = (list(result.keys()), [tuple(row) for row in result.all()])
        assert driver_execute(connection, sql, params, binary=True) == expected
        assert driver_execute(connection, "SET LOCAL work_mem = '4MB'", {}) == ([], [])


def test_driver_errors_are_translated(pg: PostgresStorage, alice: Principal) -> None:
    with pytest.raises(UsageError, match="cannot store a value"):
        pg.memories.search(_query(alice, terms=("nul\x00here",)))
    with pg.engine.connect() as connection:
        driver = connection.connection.driver_connection
        assert driver is not None
        driver.close()  # the server side of a dropped connection, as a client sees it
        with pytest.raises(StorageUnavailableError), translated_errors("test"):
            driver_execute(connection, "SELECT 1", {})
        assert connection.invalidated
    assert pg.memories.search(_query(alice)) == []  # the next call has a live connection


@pytest.mark.parametrize(
    "instant",
    [
        datetime(2026, 3, 2, 9, 0, 0, 123456, tzinfo=UTC),
        datetime(1999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),  # before PostgreSQL's epoch
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    ],
)
def test_raw_instants_read_as_the_same_records(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal, instant: datetime
) -> None:
    stored = pg.memories.put(
        make_belief(
            alice,
            valid_from=instant,
            last_evidence_at=instant,
            created_at=instant,
            updated_at=instant,
            last_used_at=instant + timedelta(microseconds=0),
        )
    )
    search = search_sql(_query(alice, as_of=None))
    assert search is not None
    sql, params = search
    with pg.engine.connect() as connection:
        columns, raw = driver_execute(connection, sql, params, binary=True, raw_instants=True)
        _, typed = driver_execute(connection, sql, params, binary=True)
    at = columns.index("valid_from")
    assert raw[0][at] == (instant - PG_EPOCH) // timedelta(microseconds=1)
    assert beliefs_from_rows(columns, raw) == beliefs_from_rows(columns, typed) == [stored]
    assert pg.memories.search(_query(alice, as_of=None)) == [stored]


def test_a_keyed_branch_reads_only_the_key_columns(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    stored = pg.memories.put(make_belief(alice))
    queries = [_query(alice, terms=None), _query(alice)]
    search = search_many_sql(queries, keyed=(0,))
    assert search is not None
    with pg.engine.connect() as connection:
        columns, rows = driver_execute(connection, *search, binary=True)
    keyed, full = (dict(zip(columns, row, strict=True)) for row in rows)
    assert keyed["branch"] == 0 and full["branch"] == 1
    assert {name: keyed[name] for name in BELIEF_KEY_FIELDS} == {
        name: full[name] for name in BELIEF_KEY_FIELDS
    }
    assert full["statement"] == stored.statement
    unread = set(columns) - {"branch", *BELIEF_KEY_FIELDS}
    assert unread and all(keyed[name] is None for name in unread)
    keys, (found,) = pg.memories.search_keyed(queries[0], queries[1:])
    assert [key.id for key in keys] == [b.id for b in found] == [stored.id]


def test_a_keyed_search_has_the_full_searchs_column_types(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    stored = pg.memories.put(make_belief(alice))
    keyed, full = search_sql(_query(alice), keys_only=True), search_sql(_query(alice))
    assert keyed is not None and full is not None
    unread = {c.name for c in BELIEF_COLUMNS} - set(BELIEF_KEY_FIELDS)
    assert not any(f"memories.{name}" in keyed[0] for name in unread)  # constants only
    pooled = pg.engine.raw_connection()
    driver = pooled.driver_connection
    assert isinstance(driver, psycopg.Connection)
    try:
        types = []
        for sql, params in (keyed, full):
            with driver.cursor() as cursor:
                cursor.execute(sql, params)
                assert cursor.description is not None and len(cursor.fetchall()) == 1
                types.append([(d.name, d.type_code) for d in cursor.description])
        assert types[0] == types[1]
    finally:
        pooled.close()
    assert pg.memories.search(_query(alice)) == [stored]


def test_one_branch_is_its_search_alone(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    stored = pg.memories.put(make_belief(alice))
    query = _query(alice)
    search, alone = search_many_sql([query]), search_sql(query)
    assert search is not None and alone is not None
    sql, params = search
    assert "UNION" not in sql and not sql.startswith("(")
    assert sql.startswith("SELECT 0 AS branch, ") and sql.endswith(alone[0].split(" FROM ", 1)[1])
    assert params == alone[1]  # no parameter renamed
    # a query that cannot match has no branch: the other is alone, with its index
    empty = _query(alice, statuses=frozenset())
    again = search_many_sql([empty, query])
    assert again is not None and again[0].startswith("SELECT 1 AS branch, ")
    assert "UNION" not in again[0] and again[1] == alone[1]
    assert search_many_sql([empty]) is None
    assert pg.memories.search_many([query]) == [[stored]]
    assert pg.memories.search_many([empty, query]) == [[], [stored]]


def test_branches_bind_shared_parameters_once(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    older = pg.memories.put(make_belief(alice, statement="User lives in Portland."))
    newer = pg.memories.put(make_belief(alice, statement="User moved to Portland, Maine."))
    queries = [_query(alice, terms=None), _query(alice), _query(alice, limit=1)]
    search = search_many_sql(queries)
    assert search is not None
    sql, params = search
    assert sql.count(" UNION ALL ") == 2 and sql.startswith("(SELECT 0 AS branch, ")
    assert "hit" not in sql and "hits" not in sql  # no derived table around a branch
    # the principal, scopes and terms are the same in every branch: bound once
    assert {"tenant_id", "principal_id", "scopes", "term_0"} <= set(params)
    assert "q0_tenant_id" not in params and "q1_term_0" not in params
    # the limit differs: each branch binds its own
    assert {params["q0_limit"], params["q1_limit"], params["q2_limit"]} == {10, 1}
    assert "limit" not in params
    found = pg.memories.search_many(queries)
    assert found == [pg.memories.search(q) for q in queries]
    assert found == [[newer, older], [newer, older], [newer]]


def test_the_subject_arm_passes_its_keys_as_values(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    coffee = pg.memories.put(make_belief(alice, subject="coffee"))
    tea = pg.memories.put(make_belief(alice, subject="Tea", statement="User drinks tea."))
    query = _query(alice, terms=(), subjects=("Tea", "coffee", "tea"))
    search = search_sql(query)
    assert search is not None
    sql, params = search
    # one parameter per distinct key, in the text: a generic plan knows how many there are
    assert "(VALUES (%(subject_0)s::text), (%(subject_1)s::text)) AS named (key)" in sql
    assert "unnest" not in sql and "subjects" not in params
    assert (params["subject_0"], params["subject_1"]) == ("coffee", "tea")
    assert pg.memories.search(query) == [tea, coffee]
    one = search_many_sql([_query(alice, terms=(), subjects=("coffee",)), _query(alice)])
    assert one is not None and "(VALUES (%(subject_0)s::text)) AS named (key)" in one[0]
    assert pg.memories.search_many([_query(alice, terms=(), subjects=("coffee",)), query]) == [
        [coffee],
        [tea, coffee],
    ]
