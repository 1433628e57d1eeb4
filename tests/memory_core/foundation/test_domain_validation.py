"""Bad input raises a typed error whose message names the offending field."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from pydantic import ValidationError

from memory_core import (
    Belief,
    BeliefStatus,
    Event,
    MemoryCoreError,
    NotFoundError,
    Principal,
    RecallTrace,
    SessionMetadata,
    UsageError,
)
from memory_core.domain import (
    GENERAL_SCOPE,
    USER_SCOPE,
    RecallQuery,
    scope_for_project,
    validate_scope,
    visible_scopes,
)

NAIVE = datetime(2026, 3, 2, 9, 0)


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"belief_type": "opinion"}, "belief_type"),
        ({"status": "LIVE"}, "status"),
        ({"authority": "ADMIN"}, "authority"),
        ({"polarity": "maybe"}, "polarity"),
        ({"valid_from": NAIVE}, "valid_from"),
        ({"last_evidence_at": NAIVE}, "last_evidence_at"),
        ({"valid_to": NAIVE}, "valid_to"),
        ({"scope": "team"}, "scope"),
        ({"scope": "project:"}, "scope"),
        ({"scope": "project:Orbit"}, "scope"),
        ({"source_event_ids": ()}, "source_event_ids"),
        ({"confidence": 1.5}, "confidence"),
        ({"utility": -2.0}, "utility"),
        ({"evidence_count": 0}, "evidence_count"),
        ({"principal_id": ""}, "principal_id"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_bad_belief_fields_raise_naming_the_field(
    make_belief: Callable[..., Belief], alice: Principal, override: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        make_belief(alice, **override)
    assert field in str(caught.value)
    assert {str(loc) for err in caught.value.errors() for loc in err["loc"]} >= {field}


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"trust": "admin"}, "trust"),
        ({"created_at": NAIVE}, "created_at"),
        ({"event_type": ""}, "event_type"),
        ({"sequence": -1}, "sequence"),
    ],
)
def test_bad_event_fields_raise_naming_the_field(
    make_event: Callable[..., Event], alice: Principal, override: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError, match=field):
        make_event(alice, **override)


def test_recall_query_without_a_principal_is_refused() -> None:
    with pytest.raises(ValidationError, match="principal") as caught:
        RecallQuery(scopes=(USER_SCOPE,))  # type: ignore[call-arg]
    assert caught.value.errors()[0]["type"] == "missing"


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"principal": None}, "principal"),
        ({"principal": "alice"}, "principal"),
        ({"scopes": ()}, "scopes"),
        ({"scopes": ("user", "org")}, "scopes"),
        ({"as_of": NAIVE}, "as_of"),
        ({"statuses": frozenset({"LIVE"})}, "statuses"),
        ({"belief_types": frozenset({"opinion"})}, "belief_types"),
        ({"limit": 0}, "limit"),
        ({"min_store_position": -1}, "min_store_position"),
    ],
)
def test_bad_recall_query_fields_raise_naming_the_field(
    alice: Principal, override: dict[str, Any], field: str
) -> None:
    fields: dict[str, Any] = {"principal": alice, "scopes": (USER_SCOPE,)}
    fields.update(override)
    with pytest.raises(ValidationError, match=field):
        RecallQuery(**fields)


def test_recall_query_defaults_to_live_statuses_and_no_lexical_predicate(
    alice: Principal,
) -> None:
    query = RecallQuery(principal=alice, scopes=(USER_SCOPE,))
    assert query.statuses == frozenset({BeliefStatus.ACTIVE, BeliefStatus.PROVISIONAL})
    assert query.terms is None


def test_bad_trace_moment_is_refused(
    make_trace: Callable[..., RecallTrace], alice: Principal
) -> None:
    with pytest.raises(ValidationError, match="moment"):
        make_trace(alice, moment="later")


def test_bad_project_scope_in_session_metadata_is_refused() -> None:
    with pytest.raises(ValidationError, match="project_scope"):
        SessionMetadata(project_scope="Orbit App")


def test_records_are_frozen(make_belief: Callable[..., Belief], alice: Principal) -> None:
    belief = make_belief(alice)
    with pytest.raises(ValidationError, match="frozen"):
        belief.statement = "changed"  # type: ignore[misc]


@pytest.mark.parametrize(("tenant", "principal"), [("", "alice"), ("tenant-1", "")])
def test_principal_needs_both_ids(tenant: str, principal: str) -> None:
    with pytest.raises(UsageError, match="tenant_id"):
        Principal(tenant, principal)


def test_scope_helpers() -> None:
    assert validate_scope("project:orbit-app") == "project:orbit-app"
    with pytest.raises(UsageError, match="invalid scope"):
        validate_scope("project:x")
    assert scope_for_project(None) == GENERAL_SCOPE
    assert scope_for_project("orbit") == "project:orbit"
    with pytest.raises(UsageError, match="invalid project name"):
        scope_for_project("Orbit")
    assert visible_scopes(None) == (USER_SCOPE, GENERAL_SCOPE)
    assert visible_scopes("orbit") == (USER_SCOPE, GENERAL_SCOPE, "project:orbit")


def test_error_hierarchy() -> None:
    assert issubclass(UsageError, ValueError)
    assert issubclass(UsageError, MemoryCoreError)
    assert issubclass(NotFoundError, LookupError)
