"""Fixtures for the PostgreSQL tier's own tests (the contract suites use ``storage``).

Every fixture that needs a server goes through the root ``postgres_url`` fixture: it skips
with a one-line reason when no server is reachable, and fails instead when ``CI=true``.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from memory_core import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    Principal,
    SequentialIdFactory,
    Trust,
)
from memory_store_pg import PostgresStorage, temporary_storage

PG_T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


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
def ids() -> SequentialIdFactory:
    """Deterministic ids for one test."""
    return SequentialIdFactory(namespace="memory-store-pg-tests")


@pytest.fixture
def make_belief(ids: SequentialIdFactory) -> Callable[..., Belief]:
    """Build a valid ACTIVE user-scope fact; keyword overrides replace any field."""

    def build(principal: Principal, **overrides: Any) -> Belief:
        fields: dict[str, Any] = {
            "id": ids.new_id(),
            "tenant_id": principal.tenant_id,
            "principal_id": principal.principal_id,
            "belief_type": BeliefType.FACT,
            "subject": "home city",
            "statement": "User lives in Portland.",
            "scope": "user",
            "status": BeliefStatus.ACTIVE,
            "authority": Authority.USER,
            "confidence": 0.9,
            "source_event_ids": (f"evt-{ids.new_id()}",),
            "valid_from": PG_T0,
            "last_evidence_at": PG_T0,
            "created_at": PG_T0,
            "updated_at": PG_T0,
            "consolidation_policy_version": "formation@5",
        }
        fields.update(overrides)
        return Belief(**fields)

    return build


@pytest.fixture
def make_event(ids: SequentialIdFactory) -> Callable[..., Event]:
    """Build a user message event in session ``s-1``; keyword overrides replace any field."""

    def build(principal: Principal, **overrides: Any) -> Event:
        fields: dict[str, Any] = {
            "event_id": ids.new_id(),
            "tenant_id": principal.tenant_id,
            "principal_id": principal.principal_id,
            "session_id": "s-1",
            "event_type": "user.message.created",
            "actor": "user",
            "trust": Trust.USER,
            "payload": {"text": "I live in Portland."},
            "created_at": PG_T0,
        }
        fields.update(overrides)
        return Event(**fields)

    return build
