"""The pytest plugin of the shipped storage contract suite: record builders and settings.

A backend's root ``conftest.py`` loads it with ``pytest_plugins = ["memory_core.testing.plugin"]``
and defines one fixture, ``storage``, yielding a fresh, isolated ``Storage`` per test (see
:mod:`memory_core.testing`). The plugin provides everything else the contract modules ask for:
``t0``, ``id_factory``, the builders ``make_belief``, ``make_event``, ``make_session``,
``make_trace`` and ``make_rejection``, ``new_tenant``, ``property_settings``, the principals
``alice`` and ``bob``, and the ``gate`` marker the suites carry.

Each builder is a fixture returning a callable. Builders draw ids from one
``SequentialIdFactory`` per test, so records built in one test (and across the examples of one
hypothesis test that reuses a storage tier) never collide on an id.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from memory_core import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    Principal,
    RecallTrace,
    Rejection,
    Session,
    SessionMetadata,
    Trust,
)
from memory_core.domain import TracedBelief
from memory_core.ids import SequentialIdFactory

FOUNDATION_T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``gate`` marker the contract suites carry (inert outside this repository)."""
    config.addinivalue_line(
        "markers", "gate(id): the specification gate a test proves (memory-core's registry)"
    )


@pytest.fixture
def alice() -> Principal:
    """A principal of tenant ``tenant-1``."""
    return Principal("tenant-1", "alice")


@pytest.fixture
def bob() -> Principal:
    """A second principal of the same tenant, who must never see alice's records."""
    return Principal("tenant-1", "bob")


@pytest.fixture
def t0() -> datetime:
    """The suites' reference instant (timezone-aware UTC)."""
    return FOUNDATION_T0


@pytest.fixture
def id_factory() -> SequentialIdFactory:
    """One deterministic id sequence shared by every builder of a test."""
    return SequentialIdFactory(namespace="foundation-tests")


@pytest.fixture
def make_belief(id_factory: SequentialIdFactory) -> Callable[..., Belief]:
    """Build a valid ACTIVE user-scope preference; keyword overrides replace any field.

    ``evidenced_at`` sets ``valid_from``, ``last_evidence_at``, ``created_at`` and
    ``updated_at`` together (each can still be overridden on its own).
    """

    def build(
        principal: Principal, *, evidenced_at: datetime = FOUNDATION_T0, **overrides: Any
    ) -> Belief:
        fields: dict[str, Any] = {
            "id": id_factory.new_id(),
            "tenant_id": principal.tenant_id,
            "principal_id": principal.principal_id,
            "belief_type": BeliefType.PREFERENCE,
            "subject": "answer style",
            "statement": "User prefers concise answers.",
            "scope": "user",
            "status": BeliefStatus.ACTIVE,
            "authority": Authority.USER,
            "confidence": 0.9,
            "source_event_ids": (f"evt-{id_factory.new_id()}",),
            "valid_from": evidenced_at,
            "last_evidence_at": evidenced_at,
            "created_at": evidenced_at,
            "updated_at": evidenced_at,
            "consolidation_policy_version": "formation@5",
        }
        fields.update(overrides)
        return Belief(**fields)

    return build


@pytest.fixture
def make_event(id_factory: SequentialIdFactory) -> Callable[..., Event]:
    """Build a user message event in session ``s-1``; keyword overrides replace any field."""

    def build(principal: Principal, **overrides: Any) -> Event:
        fields: dict[str, Any] = {
            "event_id": id_factory.new_id(),
            "tenant_id": principal.tenant_id,
            "principal_id": principal.principal_id,
            "session_id": "s-1",
            "event_type": "user.message.created",
            "actor": "user",
            "trust": Trust.USER,
            "payload": {"text": "I prefer concise answers."},
            "created_at": FOUNDATION_T0,
        }
        fields.update(overrides)
        return Event(**fields)

    return build


@pytest.fixture
def make_session(id_factory: SequentialIdFactory) -> Callable[..., Session]:
    """Build an open session; ``project`` sets ``metadata.project_scope``."""

    def build(principal: Principal, *, project: str | None = None, **overrides: Any) -> Session:
        fields: dict[str, Any] = {
            "id": f"sess-{id_factory.new_id()}",
            "tenant_id": principal.tenant_id,
            "principal_id": principal.principal_id,
            "agent": "assistant",
            "metadata": SessionMetadata(project_scope=project),
            "opened_at": FOUNDATION_T0,
            "last_activity_at": FOUNDATION_T0,
        }
        fields.update(overrides)
        return Session(**fields)

    return build


@pytest.fixture
def make_trace(id_factory: SequentialIdFactory) -> Callable[..., RecallTrace]:
    """Build an in-turn trace that returned one belief, with both retention tiers filled."""

    def build(principal: Principal, **overrides: Any) -> RecallTrace:
        belief_id = id_factory.new_id()
        fields: dict[str, Any] = {
            "trace_id": f"trace-{id_factory.new_id()}",
            "tenant_id": principal.tenant_id,
            "principal_id": principal.principal_id,
            "session_id": "s-1",
            "moment": "in_turn",
            "policy_version": "retrieval@1",
            "created_at": FOUNDATION_T0,
            "returned": (belief_id,),
            "beliefs": (
                TracedBelief(
                    id=belief_id,
                    short_id=belief_id[:8],
                    belief_type=BeliefType.PREFERENCE,
                    subject="answer style",
                    statement="User prefers concise answers.",
                    scope="user",
                ),
            ),
            "candidate_total": 3,
            "returned_count": 1,
            "dropped_count": 2,
            "rendered_tokens": 12,
            "user_expires_at": FOUNDATION_T0 + timedelta(days=365),
            "arm_latencies_ms": {"lexical": 1.5},
            "candidate_counts": {"lexical": 3},
            "dropped_for_budget": ("dropped-1", "dropped-2"),
            "operator_expires_at": FOUNDATION_T0 + timedelta(days=30),
        }
        fields.update(overrides)
        return RecallTrace(**fields)

    return build


@pytest.fixture
def make_rejection(id_factory: SequentialIdFactory) -> Callable[..., Rejection]:
    """Build a rejection of a preference belief; keyword overrides replace any field."""

    def build(principal: Principal, **overrides: Any) -> Rejection:
        fields: dict[str, Any] = {
            "belief_id": id_factory.new_id(),
            "tenant_id": principal.tenant_id,
            "principal_id": principal.principal_id,
            "belief_type": BeliefType.PREFERENCE,
            "subject": "answer style",
            "statement": "User prefers verbose answers.",
            "rejected_at": FOUNDATION_T0,
        }
        fields.update(overrides)
        return Rejection(**fields)

    return build


@pytest.fixture
def new_tenant() -> Callable[[], str]:
    """A source of tenant ids unused so far in the test.

    Property tests reuse one storage tier across hypothesis examples (a fresh tier per example
    would be too slow on PostgreSQL); giving each example its own tenant keeps examples apart.
    """
    counter = iter(range(1, 1_000_000))

    def fresh() -> str:
        return f"tenant-p{next(counter)}"

    return fresh


PROPERTY_EXAMPLES = {"memory": 40}
"""Hypothesis examples per storage adapter; adapters not listed (a server round trip per call)
get ``PROPERTY_EXAMPLES_DEFAULT`` so the folder stays fast while every adapter is exercised."""
PROPERTY_EXAMPLES_DEFAULT = 10


@pytest.fixture
def property_settings(request: pytest.FixtureRequest) -> settings:
    """Hypothesis settings for a storage property test, scaled to the adapter under test."""
    callspec = getattr(request.node, "callspec", None)
    adapter = callspec.params.get("storage") if callspec is not None else None
    return settings(
        max_examples=PROPERTY_EXAMPLES.get(str(adapter), PROPERTY_EXAMPLES_DEFAULT),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
