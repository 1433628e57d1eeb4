"""Statement builders shared by the adapters and the index (``EXPLAIN``) tests."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import psycopg
import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from memory_core.domain import BeliefStatus, Principal, RecallQuery
from memory_core.idle import IDLE_SQL_PREDICATE
from memory_core.ports import BELIEF_KEY_FIELDS
from memory_core.text import fold, matching_key
from memory_core.tokenizer import tokenize
from memory_store_pg._rows import bind, dump_json
from memory_store_pg._schema import (
    BELIEF_COLUMNS,
    EVENT_COLUMNS,
    LEXICAL_CONFIG,
    SUBJECT_MATCH_SQL,
    events,
    memories,
    traces,
)


def owned_by(table: sa.Table, principal: Principal) -> ColumnElement[bool]:
    """The isolation predicate: the principal's rows only."""
    return sa.and_(
        table.c.tenant_id == principal.tenant_id, table.c.principal_id == principal.principal_id
    )


def constant_in(column: sa.Column[Any], values: Iterable[str]) -> ColumnElement[bool]:
    """``column IN ('a', 'b')`` rendered with literal constants.

    Status and type values come from closed enums; as constants (not parameters) the planner
    can prove that a query's status list implies a partial index's predicate, even in a
    generic prepared plan.
    """
    constants: sa.BindParameter[list[str]] = sa.bindparam(
        f"{column.name}_values", sorted(values), literal_execute=True, unique=True
    )
    return column.in_(constants)


def insert_unless_exists(
    table: sa.Table,
    values: Mapping[str, Any],
    *,
    exists: ColumnElement[bool],
    stamped: Mapping[str, ColumnElement[Any]] | None = None,
) -> postgresql.Insert:
    """``INSERT ... SELECT values WHERE NOT EXISTS (...) ON CONFLICT DO NOTHING``.

    A duplicate returns no row (the caller raises ``ConflictError``) without aborting the
    transaction, and draws nothing from a ``stamped`` sequence, as the in-memory tier checks
    before it stamps.
    """
    stamped = stamped or {}
    columns = [bind(table, name, value) for name, value in values.items()]
    select = sa.select(*columns, *stamped.values()).where(~sa.exists().where(exists))
    statement = postgresql.insert(table).from_select([*values, *stamped], select)
    return statement.on_conflict_do_nothing()


ASYNCHRONOUS_COMMIT_SQL = "set_config('synchronous_commit', 'off', true)"
"""Lowers ``synchronous_commit`` for the rest of the current transaction only (``is_local``):
evaluated inside a statement run in autocommit, it makes that statement's own implicit
commit asynchronous, with no ``BEGIN``, ``SET LOCAL`` or ``COMMIT`` round trip around it."""


@functools.lru_cache(maxsize=32)
def insert_or_nothing_sql(
    table: sa.Table, names: tuple[str, ...], returning: str, *, asynchronous_commit: bool = False
) -> str:
    """``INSERT INTO table (names) VALUES (...) ON CONFLICT DO NOTHING RETURNING returning``.

    One statement, with driver parameters named after the columns (JSON columns cast from
    their serialized text, see :func:`json_params`); a conflict on any unique key returns no
    row. For rows no sequence stamps: nothing is drawn, so nothing needs checking first.

    With ``asynchronous_commit``, the ``RETURNING`` list also evaluates
    :data:`ASYNCHRONOUS_COMMIT_SQL` (a second column) for the row it inserts, so the
    transaction the statement runs in commits without waiting for its WAL flush. Only for a
    statement run in autocommit: inside a unit of work it would lower the whole unit's commit.
    """
    placeholders = ", ".join(
        f"%({name})s::json" if isinstance(table.c[name].type, postgresql.JSON) else f"%({name})s"
        for name in names
    )
    columns = ", ".join(f'"{name}"' for name in names)
    also = f", {ASYNCHRONOUS_COMMIT_SQL}" if asynchronous_commit else ""
    return (
        f'INSERT INTO "{table.name}" ({columns}) VALUES ({placeholders}) '
        f'ON CONFLICT DO NOTHING RETURNING "{returning}"{also}'
    )


def json_params(table: sa.Table, values: Mapping[str, Any]) -> dict[str, Any]:
    """Driver parameters of a row: JSON columns serialized strictly (``dump_json``)."""
    json_columns = _json_columns(table)
    return {
        name: (
            dump_json(value, field=name) if value is not None and name in json_columns else value
        )
        for name, value in values.items()
    }


@functools.lru_cache(maxsize=16)
def _json_columns(table: sa.Table) -> frozenset[str]:
    """The names of ``table``'s JSON columns."""
    return frozenset(c.name for c in table.c if isinstance(c.type, postgresql.JSON))


def rows_json(rows: Sequence[Mapping[str, Any]]) -> str:
    """Rows of column values as one JSON array (instants in ISO 8601), for
    ``json_populate_recordset``: a batch of any size is one statement parameter."""

    def instant(value: object) -> str:
        if isinstance(value, datetime):
            return value.isoformat()
        raise TypeError(f"a row value of type {type(value).__name__} is not JSON")

    return json.dumps(list(rows), default=instant, allow_nan=False, ensure_ascii=False)


@functools.lru_cache(maxsize=8)
def update_rows_sql(table: sa.Table, key: str) -> str:
    """``UPDATE table SET every column = the row's`` for the rows of ``%(rows)s`` (JSON),
    matched by ``key`` within the principal; returns the keys it updated.

    Generated columns are left to the server; the principal columns are the match.
    """
    fixed = {"tenant_id", "principal_id", key}
    assignments = ", ".join(
        f'"{column.name}" = r."{column.name}"'
        for column in table.c
        if column.name not in fixed and column.computed is None
    )
    return (
        f'UPDATE "{table.name}" AS m SET {assignments} '
        f'FROM json_populate_recordset(NULL::"{table.name}", %(rows)s::json) AS r '
        f"WHERE m.tenant_id = %(tenant_id)s AND m.principal_id = %(principal_id)s "
        f'AND m."{key}" = r."{key}" RETURNING m."{key}"'
    )


@functools.lru_cache(maxsize=8)
def insert_rows_sql(table: sa.Table, key: str) -> str:
    """``INSERT`` the rows of ``%(rows)s`` (JSON) into ``table``; a row conflicting with a
    unique key is skipped (``ON CONFLICT DO NOTHING``); returns the keys it inserted."""
    columns = ", ".join(f'"{column.name}"' for column in table.c if column.computed is None)
    return (
        f'INSERT INTO "{table.name}" ({columns}) SELECT {columns} '
        f'FROM json_populate_recordset(NULL::"{table.name}", %(rows)s::json) '
        f'ON CONFLICT DO NOTHING RETURNING "{key}"'
    )


def lexical_terms(terms: Iterable[str]) -> list[str]:
    """The distinct terms that can match, sorted: a term with no lexeme matches nothing.

    Lexemes are judged by the shared tokenizer, exactly as the in-memory tier drops such terms.
    PostgreSQL's parser reads the digits after a hyphen as a signed integer (``2026-01-21`` is
    ``2026``, ``-01``, ``-21``) where the shared tokenizer reads ``01`` and ``21``, so a term
    of digits also searches its signed form: both tiers then find a resolved date by its day
    or month.
    """
    kept = {term for term in terms if tokenize(term)}
    return sorted(kept | {f"-{term}" for term in kept if term.isdigit()})


_BELIEF_SELECT = "SELECT {columns} FROM memories".format(
    columns=", ".join(f"memories.{column.name}" for column in BELIEF_COLUMNS)
)
_DIALECT: sa.Dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
_KEY_SELECT = "SELECT {columns} FROM memories".format(
    columns=", ".join(
        f"memories.{column.name}"
        if column.name in BELIEF_KEY_FIELDS
        else f"NULL::{column.type.compile(dialect=_DIALECT)} AS {column.name}"
        for column in BELIEF_COLUMNS
    )
)
"""The belief columns with only the key fields (``memory_core.ports.BELIEF_KEY_FIELDS``)
read: every other column is a ``NULL`` of its column's type and collation, so a keyed branch
of :func:`search_many_sql` has the same columns as the others and sends no statement, array
or instant. A typed constant rather than an expression over the column: the branch then
references only the key columns, which the planner (every recall's statement is planned
anew, for its terms) handles measurably faster, 0.04-0.1 ms of 0.4-0.5 ms."""


def _constants(values: Iterable[str]) -> str:
    """``'a', 'b'``: closed-enum values inlined as SQL string constants, sorted."""
    return ", ".join("'" + value.replace("'", "''") + "'" for value in sorted(values))


def search_sql(query: RecallQuery, *, keys_only: bool = False) -> tuple[str, dict[str, Any]] | None:
    """The search as one SQL text and its parameters, or ``None`` when nothing can match.

    Predicates mirror the in-memory tier: principal, scope, status, store position, excluded
    ids, belief types, validity at ``as_of``; with ``terms`` not ``None``, a record must match
    a term (one ``plainto_tsquery`` per term, OR'd) or have a named subject. Newest store
    position first, capped at ``limit``. With subjects but no term that can match (the recall
    subject arm), the read runs once per subject (:func:`_per_subject_sql`).

    Written as text with driver parameters rather than built as a SQLAlchemy expression: the
    recall arms issue it several times per recall, and building and compiling an expression
    cost more than the server spends on the query. Its text depends only on which predicates
    apply, the status and type sets and the number of terms (and of subjects, for the subject
    arm), so the driver prepares each shape once per connection and reuses the plan. Statuses
    and types are inlined as constants (they come from closed enums): the planner can then
    prove that a query's status list implies a partial index's predicate, even in a generic
    prepared plan. Other lists go as array parameters (``= ANY``), so their length does not
    change the text.

    With ``keys_only``, only the key columns are read (:data:`_KEY_SELECT`), the same rows.
    """
    return _search(query, keys_only=keys_only, branch=None)


def _search(
    query: RecallQuery, *, keys_only: bool, branch: int | None
) -> tuple[str, dict[str, Any]] | None:
    """:func:`search_sql`, its rows tagged with ``branch`` (a first column ``branch``) unless
    that is ``None``."""
    select = _KEY_SELECT if keys_only else _BELIEF_SELECT
    if not query.statuses:
        return None
    if query.belief_types is not None and not query.belief_types:
        return None
    where = [
        "memories.tenant_id = %(tenant_id)s",
        "memories.principal_id = %(principal_id)s",
        f"memories.status IN ({_constants(s.value for s in query.statuses)})",
        "memories.scope = ANY(%(scopes)s)",
    ]
    params: dict[str, Any] = {
        "tenant_id": query.principal.tenant_id,
        "principal_id": query.principal.principal_id,
        "scopes": sorted(set(query.scopes)),
        "limit": query.limit,
    }
    if query.min_store_position:
        where.append("memories.store_position > %(min_store_position)s")
        params["min_store_position"] = query.min_store_position
    if query.exclude_ids:
        where.append("NOT (memories.id = ANY(%(exclude_ids)s))")
        params["exclude_ids"] = sorted(query.exclude_ids)
    if query.belief_types is not None:
        where.append(f"memories.belief_type IN ({_constants(t.value for t in query.belief_types)})")
    if query.as_of is not None:
        where.append("memories.valid_from <= %(as_of)s")
        where.append("(memories.valid_to IS NULL OR memories.valid_to > %(as_of)s)")
        params["as_of"] = query.as_of
    if query.terms is not None:
        arms: list[str] = []
        terms = lexical_terms(query.terms)
        subjects = sorted({fold(subject) for subject in query.subjects})
        if not terms and subjects:
            params.update({f"subject_{n}": subject for n, subject in enumerate(subjects)})
            return _per_subject_sql(tuple(where), select, len(subjects), branch), params
        if terms:
            tsquery = " || ".join(
                f"plainto_tsquery('{LEXICAL_CONFIG}'::regconfig, %(term_{n})s)"
                for n in range(len(terms))
            )
            arms.append(f"memories.lexical @@ ({tsquery})")
            params.update({f"term_{n}": term for n, term in enumerate(terms)})
        if subjects:
            arms.append("memories.subject_key = ANY(%(subjects)s)")
            params["subjects"] = subjects
        if not arms:
            return None
        where.append("(" + " OR ".join(arms) + ")")
    sql = (
        f"{_tagged(select, branch)} WHERE {' AND '.join(where)} "
        "ORDER BY memories.store_position DESC LIMIT %(limit)s"
    )
    return sql, params


def _tagged(select: str, branch: int | None) -> str:
    """``select`` (``SELECT columns FROM ...``) with ``branch`` as a first column named
    ``branch``; unchanged when ``branch`` is ``None``."""
    if branch is None:
        return select
    return f"SELECT {branch:d} AS branch, {select.removeprefix('SELECT ')}"


_PARAMETER = re.compile(r"%\((\w+)\)s")


def search_many_sql(
    queries: Sequence[RecallQuery], *, keyed: Collection[int] = ()
) -> tuple[str, dict[str, Any]] | None:
    """The searches as one statement: each query's :func:`search_sql` a branch, its rows
    tagged with the query's index (a first column ``branch``); ``None`` when no query can
    match (a query that cannot has no branch). The branches of the indexes in ``keyed`` read
    the key columns only (``search_sql(keys_only=True)``).

    Several branches are a ``UNION ALL`` of the branches themselves, each in the parentheses
    its own ``ORDER BY ... LIMIT`` needs: no derived table around a branch or around the
    union, and no sort over the union (the reader routes rows by ``branch`` and orders each
    branch's rows, see ``_rows.BeliefReader.keyed_branches``). One branch is that branch's
    statement alone, with no ``UNION``. The branches read one snapshot, so a belief found by
    two of them is the same row twice.

    A parameter holding the same value (of the same type) in every branch that uses it, such
    as the principal, the scopes, ``as_of`` and the limit of a recall's arms, is bound once
    under its own name; any other is renamed ``q<index>_<name>`` in its branch. The text
    depends only on the branches' shapes and on which parameters they share.
    """
    searches: list[tuple[int, str, dict[str, Any]]] = []
    for index, query in enumerate(queries):
        search = _search(query, keys_only=index in keyed, branch=index)
        if search is not None:
            searches.append((index, *search))
    if not searches:
        return None
    if len(searches) == 1:
        _, sql, params = searches[0]
        return sql, params
    shared = _shared_names([own for _, _, own in searches])
    params = {}
    branches: list[str] = []
    for index, sql, own in searches:
        apart = frozenset(own) - shared
        params.update(
            {name if name in shared else f"q{index:d}_{name}": v for name, v in own.items()}
        )
        branches.append(_renamed(index, sql, apart))
    return " UNION ALL ".join(f"({branch})" for branch in branches), params


def _shared_names(branches: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    """The parameter names whose value is the same, of the same type, in every one of
    ``branches`` that has them."""
    first: dict[str, Any] = {}
    differing: set[str] = set()
    for own in branches:
        for name, value in own.items():
            if name not in first:
                first[name] = value
            elif type(first[name]) is not type(value) or first[name] != value:
                differing.add(name)
    return frozenset(first.keys() - differing)


@functools.lru_cache(maxsize=64)
def _renamed(index: int, sql: str, names: frozenset[str]) -> str:
    """``sql`` with its parameters among ``names`` renamed ``q<index>_<name>``. Cached: a
    recall's branches recur in few shapes."""
    if not names:
        return sql
    return _PARAMETER.sub(lambda m: f"%(q{index:d}_{m[1]})s" if m[1] in names else m[0], sql)


@functools.lru_cache(maxsize=64)
def _per_subject_sql(
    where: tuple[str, ...], select: str, subjects: int, branch: int | None = None
) -> str:
    """The subject arm alone: per named subject (``%(subject_0)s`` ... , ``subjects``
    distinct keys), its newest ``limit`` rows passing ``where``, then the newest ``limit`` of
    them all; tagged with ``branch`` as :func:`_tagged` tags a row.

    The same rows, in the same order, as ``subject_key = ANY(...)`` under ``where``, newest
    first and capped: each row has one key, so the newest ``limit`` overall are among the
    newest ``limit`` of their own key. Each key's read is a backward range scan of
    ``ix_memories_principal_live_subject_position`` (for live statuses) that stops at the
    limit, where the ``ANY`` form read, filtered and sorted every row of a common subject.

    The keys are a ``VALUES`` list, one parameter each, so the planner knows how many there
    are from the text: a prepared statement's generic plan then costs what a custom plan
    does, and PostgreSQL reuses it. (Over ``unnest`` of an array parameter, a generic plan
    assumes ten keys, so every call was planned anew for its own array.)
    """
    keys = ", ".join(f"(%(subject_{n:d})s::text)" for n in range(subjects))
    inner = " AND ".join([*where, "memories.subject_key = named.key"])
    return (
        f"{_tagged('SELECT found.*', branch)} FROM (VALUES {keys}) AS named (key) "
        f"CROSS JOIN LATERAL ({select} WHERE {inner} "
        "ORDER BY memories.store_position DESC LIMIT %(limit)s) AS found "
        "ORDER BY found.store_position DESC LIMIT %(limit)s"
    )


def find_by_subject_sql(
    principal: Principal,
    subjects: Iterable[str],
    *,
    belief_types: Iterable[str] | None,
    scopes: Iterable[str] | None,
    statuses: Iterable[str] | None,
) -> tuple[str, dict[str, Any]] | None:
    """The principal's beliefs whose subject match key is one of ``subjects``' keys, in store
    order, through ``ix_memories_principal_subject_match``; ``None`` when nothing can match.

    The key expression is :data:`SUBJECT_MATCH_SQL` verbatim (the index's). Types and
    statuses are inlined constants (closed enums), subjects and scopes array parameters.
    """
    keys = sorted({matching_key(subject) for subject in subjects})
    type_values = None if belief_types is None else sorted(set(belief_types))
    status_values = None if statuses is None else sorted(set(statuses))
    scope_values = None if scopes is None else sorted(set(scopes))
    if not keys or type_values == [] or status_values == [] or scope_values == []:
        return None
    where = [
        "memories.tenant_id = %(tenant_id)s",
        "memories.principal_id = %(principal_id)s",
        f"{SUBJECT_MATCH_SQL} = ANY(%(keys)s)",
    ]
    params: dict[str, Any] = {
        "tenant_id": principal.tenant_id,
        "principal_id": principal.principal_id,
        "keys": keys,
    }
    if type_values is not None:
        where.append(f"memories.belief_type IN ({_constants(type_values)})")
    if status_values is not None:
        where.append(f"memories.status IN ({_constants(status_values)})")
    if scope_values is not None:
        where.append("memories.scope = ANY(%(scopes)s)")
        params["scopes"] = scope_values
    sql = f"{_BELIEF_SELECT} WHERE {' AND '.join(where)} ORDER BY memories.store_position"
    return sql, params


def idle_statement(
    principal: Principal,
    evidence_before: datetime,
    limit: int,
    *,
    type_evidence_before: Mapping[str, datetime] | None = None,
    touched_before: datetime | None = None,
) -> sa.Select[Any]:
    """Decay-eligible beliefs (``memory_core.idle.is_idle``), least recently evidenced first.

    The static half of the rule is :data:`~memory_core.idle.IDLE_SQL_PREDICATE` verbatim, the
    predicate of the partial index ``ix_memories_principal_idle``, so the planner can prove the
    index serves the query (even in a generic plan); the range scan runs in
    ``last_evidence_at`` order, applies the per-type and touched cuts as filters, and stops
    after ``limit`` eligible rows.
    """
    conditions: list[ColumnElement[bool] | sa.TextClause] = [
        owned_by(memories, principal),
        sa.text(IDLE_SQL_PREDICATE),
        memories.c.last_evidence_at <= evidence_before,
    ]
    if type_evidence_before:
        instant = sa.DateTime(timezone=True)
        per_type = sa.case(
            {str(t): sa.literal(at, instant) for t, at in sorted(type_evidence_before.items())},
            value=memories.c.belief_type,
            else_=sa.literal(evidence_before, instant),
        )
        conditions.append(memories.c.last_evidence_at <= per_type)
    if touched_before is not None:
        conditions.append(memories.c.updated_at <= touched_before)
        conditions.append(
            sa.or_(memories.c.last_used_at.is_(None), memories.c.last_used_at <= touched_before)
        )
    return (
        sa.select(*BELIEF_COLUMNS)
        .where(*conditions)
        .order_by(memories.c.last_evidence_at, memories.c.store_position)
        .limit(limit)
    )


def idle_principals_statement(
    evidence_before: datetime, limit: int, after: Principal | None
) -> sa.TextClause:
    """Principals with a decay-eligible row evidenced at or before the instant, in key order.

    The maintenance worker's one cross-principal read, as a loose index scan of
    ``ix_memories_principal_idle`` (whose predicate the query repeats, and whose leading
    columns are the sort key): each step of the recursive query descends the index once to the
    next principal past the previous one that has such a row, so a page costs one index probe
    per principal rather than a read of every eligible row the principals own.
    """
    step = (
        "SELECT m.tenant_id, m.principal_id FROM memories m "
        f"WHERE {IDLE_SQL_PREDICATE} AND m.last_evidence_at <= :cut{{cursor}} "
        "ORDER BY m.tenant_id, m.principal_id LIMIT 1"
    )
    first = step.format(
        cursor="" if after is None else " AND (m.tenant_id, m.principal_id) > (:tenant, :principal)"
    )
    following = step.format(
        cursor=" AND (m.tenant_id, m.principal_id) > (p.tenant_id, p.principal_id)"
    )
    sql = (
        f"WITH RECURSIVE p (tenant_id, principal_id) AS (({first}) UNION ALL "
        f"SELECT n.tenant_id, n.principal_id FROM p CROSS JOIN LATERAL ({following}) n) "
        "SELECT tenant_id, principal_id FROM p LIMIT :limit"
    )
    params: dict[str, Any] = {"limit": limit}
    if after is not None:
        params.update(tenant=after.tenant_id, principal=after.principal_id)
    cut = sa.bindparam("cut", evidence_before, type_=sa.DateTime(timezone=True))
    return sa.text(sql).bindparams(cut, **params)


def event_page_statement(
    principal: Principal,
    *,
    after_sequence: int,
    before_sequence: int | None,
    limit: int,
    event_types: Sequence[str] | None,
    descending: bool,
) -> sa.Select[Any]:
    """The principal's events strictly between the sequence cursors, in sequence order.

    Newest first when ``descending``; either direction is a range scan of
    ``ix_events_principal_sequence`` that stops after ``limit`` rows.
    """
    statement = sa.select(*EVENT_COLUMNS).where(
        owned_by(events, principal), events.c.sequence > after_sequence
    )
    if before_sequence is not None:
        statement = statement.where(events.c.sequence < before_sequence)
    if event_types is not None:
        statement = statement.where(events.c.event_type.in_(sorted(set(event_types))))
    order = events.c.sequence.desc() if descending else events.c.sequence
    return statement.order_by(order).limit(limit)


def head_position_statement(principal: Principal) -> sa.Select[Any]:
    """The newest store position the principal has written (``NULL`` when none)."""
    return sa.select(sa.func.max(memories.c.store_position)).where(owned_by(memories, principal))


def list_statement(
    principal: Principal, statuses: frozenset[BeliefStatus] | None
) -> sa.Select[Any]:
    """The principal's beliefs (optionally of some statuses) in store-position order."""
    statement = sa.select(*BELIEF_COLUMNS).where(owned_by(memories, principal))
    if statuses is not None:
        statement = statement.where(
            constant_in(memories.c.status, (s.value for s in statuses)) if statuses else sa.false()
        )
    return statement.order_by(memories.c.store_position)


def expire_statement(now: datetime, limit: int) -> sa.Update:
    """Null the operator tier of up to ``limit`` due traces, oldest expiry first.

    The bounded id-subquery (``ix_traces_operator_expiry``) locks the rows it picks and skips
    rows another transaction holds (a concurrent ``mark_cited`` or sweep): those are due again
    on the next sweep.
    """
    due = (
        sa.select(traces.c.tenant_id, traces.c.principal_id, traces.c.trace_id)
        .where(sa.not_(traces.c.operator_expired), traces.c.operator_expires_at <= now)
        .order_by(traces.c.operator_expires_at, traces.c.trace_id)
        .limit(limit)
        .with_for_update(skip_locked=True)
        .cte("due")
    )
    return (
        sa.update(traces)
        .where(
            traces.c.tenant_id == due.c.tenant_id,
            traces.c.principal_id == due.c.principal_id,
            traces.c.trace_id == due.c.trace_id,
        )
        .values(
            arm_latencies_ms=sa.null(),
            candidate_counts=sa.null(),
            dropped_for_budget=sa.null(),
            operator_expired=True,
        )
    )


def copy_rows(
    connection: Connection, table: sa.Table, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """Stream ``rows`` into ``table`` with ``COPY ... FROM STDIN`` on ``connection``.

    Driver errors are raised wrapped as SQLAlchemy ``DBAPIError`` (``IntegrityError`` for a
    constraint), exactly as a statement executed through SQLAlchemy raises them, so the usual
    error translation applies.
    """
    quoted = ", ".join(f'"{name}"' for name in columns)
    sql = f'COPY "{table.name}" ({quoted}) FROM STDIN'
    driver = connection.connection.driver_connection
    if not isinstance(driver, psycopg.Connection):  # pragma: no cover - the engine is psycopg
        raise TypeError(f"COPY needs a psycopg connection, got {type(driver).__name__}")
    try:
        with driver.cursor() as cursor, cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)
    except psycopg.Error as exc:
        raise sa_exc.DBAPIError.instance(
            sql, None, exc, psycopg.Error, connection_invalidated=driver.closed
        ) from exc


def update_values(table: sa.Table, values: Mapping[str, Any]) -> dict[str, ColumnElement[Any]]:
    """Typed, cast SET values for an ``UPDATE``."""
    return {name: bind(table, name, value) for name, value in values.items()}


__all__ = [
    "ASYNCHRONOUS_COMMIT_SQL",
    "constant_in",
    "copy_rows",
    "expire_statement",
    "find_by_subject_sql",
    "head_position_statement",
    "idle_statement",
    "insert_or_nothing_sql",
    "insert_rows_sql",
    "insert_unless_exists",
    "json_params",
    "lexical_terms",
    "list_statement",
    "owned_by",
    "rows_json",
    "search_many_sql",
    "search_sql",
    "update_rows_sql",
    "update_values",
]
