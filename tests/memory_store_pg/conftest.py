"""Fixtures for the PostgreSQL tier's own tests (the contract suites use ``storage``).

Every fixture that needs a server goes through the root ``postgres_url`` fixture: it skips
with a one-line reason when no server is reachable, and fails instead when ``CI=true``.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from memory_core import Belief, BeliefType, Event, Principal
from memory_core.ids import SequentialIdFactory
from memory_core.testing import plugin
from memory_store_pg import PostgresStorage, temporary_storage

# The shipped contract suite's builders, registered under these names; the fixtures below
# keep this folder's defaults (a Portland fact, its message) on top of them.
shipped_make_belief = plugin.make_belief
shipped_make_event = plugin.make_event


@pytest.fixture
def pg(postgres_url: str) -> Iterator[PostgresStorage]:
    """A PostgreSQL tier in a fresh, migrated schema, dropped after the test."""
    with temporary_storage(postgres_url) as storage:
        yield storage


@pytest.fixture(scope="module")
def pg_module(postgres_url: str) -> Iterator[PostgresStorage]:
    """One PostgreSQL tier for a whole module (property tests isolate by principal)."""
    with temporary_storage(postgres_url) as storage:
        yield storage


def _run_sql(postgres_url: str, sql: str) -> None:
    engine = sa.create_engine(
        make_url(postgres_url).set(drivername="postgresql+psycopg"), poolclass=sa.NullPool
    )
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql(sql)
    finally:
        engine.dispose()


@pytest.fixture
def scratch_schema(postgres_url: str) -> Iterator[str]:
    """The name of a schema that does not exist yet; dropped (if created) after the test."""
    name = f"memory_test_{uuid.uuid4().hex[:12]}"
    yield name
    _run_sql(postgres_url, f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@pytest.fixture
def empty_schema(postgres_url: str, scratch_schema: str) -> str:
    """A schema that exists and holds nothing (dropped after the test)."""
    _run_sql(postgres_url, f'CREATE SCHEMA "{scratch_schema}"')
    return scratch_schema


@pytest.fixture
def run_sql(postgres_url: str) -> Callable[[str], None]:
    """``run_sql(statement)`` on a short-lived connection of its own (default search path)."""
    return functools.partial(_run_sql, postgres_url)


@pytest.fixture
def schema_url(postgres_url: str) -> Callable[[str], str]:
    """``schema_url(name)``: the test URL with libpq ``options`` setting the search path."""

    def build(schema: str) -> str:
        url = make_url(postgres_url).update_query_dict({"options": f"-csearch_path={schema}"})
        return url.render_as_string(hide_password=False)

    return build


@pytest.fixture
def id_factory() -> SequentialIdFactory:
    """Deterministic ids for one test (the shipped builders draw from it)."""
    return SequentialIdFactory(namespace="memory-store-pg-tests")


_PG_BELIEF: dict[str, Any] = {
    "belief_type": BeliefType.FACT,
    "subject": "home city",
    "statement": "User lives in Portland.",
}


@pytest.fixture
def make_belief(shipped_make_belief: Callable[..., Belief]) -> Callable[..., Belief]:
    """Build a valid ACTIVE user-scope fact; keyword overrides replace any field."""

    def build(principal: Principal, **overrides: Any) -> Belief:
        return shipped_make_belief(principal, **{**_PG_BELIEF, **overrides})

    return build


@pytest.fixture
def make_event(shipped_make_event: Callable[..., Event]) -> Callable[..., Event]:
    """Build a user message event in session ``s-1``; keyword overrides replace any field."""

    def build(principal: Principal, **overrides: Any) -> Event:
        return shipped_make_event(
            principal, **{"payload": {"text": "I live in Portland."}, **overrides}
        )

    return build
