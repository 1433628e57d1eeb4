"""Hand-built inputs for the pure scoring tests: the spec's two worked scenarios, beliefs and
recall traces made directly (no store, no retriever, no model)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from memory_bench.corpus import BenchmarkScenario
from memory_core.domain import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    RecallMoment,
    RecallTrace,
    TracedBelief,
)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

RELOCATION: dict[str, Any] = {
    "id": "mb-relocation-update-001",
    "title": "Relocation, spouse, team decision, answer style",
    "start_at": "2026-03-02T09:00:00Z",
    "sessions": [
        {
            "id": "s01",
            "turns": [
                {"text": "Hi! I live in Seattle. I work at Acme Labs as a data engineer."},
                {"text": "By the way, I prefer concise answers."},
            ],
        },
        {
            "id": "s02",
            "advance_seconds": 259200,
            "turns": [
                {"text": "My wife is Morgan."},
                {"text": "Also, we decided to deploy on Fridays for the rest of the quarter."},
            ],
        },
        {
            "id": "s03",
            "advance_seconds": 3888000,
            "turns": [{"text": "Big news! I live in Portland now."}],
        },
    ],
    "beliefs": [
        {
            "label": "home_seattle",
            "session": "s01",
            "belief_type": "user_model_attr",
            "subjects": ["home location", "location"],
            "statements": ["User lives in Seattle."],
        },
        {
            "label": "employer_acme",
            "session": "s01",
            "belief_type": "user_model_attr",
            "subjects": ["employment"],
            "statements": [
                "User works at Acme Labs.",
                "User works at Acme Labs as a data engineer.",
            ],
        },
        {
            "label": "pref_concise",
            "session": "s01",
            "belief_type": "preference",
            "subjects": ["answer style"],
            "statements": ["User prefers concise answers."],
        },
        {
            "label": "wife_morgan",
            "session": "s02",
            "belief_type": "relationship",
            "subjects": ["wife", "spouse"],
            "statements": ["User's wife is Morgan.", "User has a wife."],
        },
        {
            "label": "deploy_fridays",
            "session": "s02",
            "belief_type": "fact",
            "subjects": ["project decision"],
            "statements": ["The team decided to deploy on Fridays."],
        },
        {
            "label": "home_portland",
            "session": "s03",
            "supersedes": "home_seattle",
            "belief_type": "user_model_attr",
            "subjects": ["home location", "location"],
            "statements": ["User lives in Portland now.", "User lives in Portland."],
        },
    ],
    "protected_statements": ["REDACTED-DEPLOY-TOKEN", "manager is Dana"],
    "probes": [
        {
            "id": "p01",
            "category": "update",
            "advance_seconds": 86400,
            "question": "Where do I live now?",
            "needed": ["home_portland"],
            "answer": {"kind": "alternatives", "values": ["Portland"]},
            "forbidden_statements": ["User lives in Seattle."],
        },
        {
            "id": "p02",
            "category": "multi_hop",
            "question": "Who is my spouse, and which company do I work for?",
            "needed": ["wife_morgan", "employer_acme"],
            "answer": {"kind": "all_of", "values": ["Morgan", "Acme Labs"]},
        },
        {
            "id": "p03",
            "category": "abstention",
            "question": "What is the deploy token?",
            "needed": [],
            "answer": {"kind": "abstain", "values": []},
            "forbidden_statements": ["REDACTED-DEPLOY-TOKEN", "User's manager is Dana."],
        },
        {
            "id": "p04",
            "category": "transfer",
            "project_scope": "orbit-app",
            "question": "What did we decide about deploy days?",
            "needed": [],
            "answer": {"kind": "abstain", "values": []},
            "forbidden_statements": ["The team decided to deploy on Fridays."],
        },
        {
            "id": "p05",
            "category": "preference",
            "question": "How do I like my answers?",
            "needed": ["pref_concise"],
            "answer": {"kind": "alternatives", "values": ["concise"]},
            "forbidden_statements": ["User prefers long answers."],
        },
    ],
}


class Make:
    """Builders of beliefs and traces with sequential ids."""

    def __init__(self) -> None:
        self._n = 0

    def _id(self) -> str:
        self._n += 1
        return f"{self._n:08x}-0000-4000-8000-000000000000"

    def belief(
        self,
        belief_type: str,
        subject: str,
        statement: str,
        status: BeliefStatus = BeliefStatus.ACTIVE,
        *,
        belief_id: str | None = None,
    ) -> Belief:
        """A belief of the eval principal."""
        return Belief(
            id=belief_id or self._id(),
            tenant_id="t",
            principal_id="p",
            belief_type=BeliefType(belief_type),
            subject=subject,
            statement=statement,
            scope="user",
            status=status,
            authority=Authority.USER,
            confidence=0.9,
            source_event_ids=("e1",),
            valid_from=T0,
            last_evidence_at=T0,
            created_at=T0,
            updated_at=T0,
            consolidation_policy_version="formation@5",
        )

    def trace(
        self,
        moment: RecallMoment,
        beliefs: Sequence[Belief],
        *,
        extra_traced: Sequence[Belief] = (),
        blocked: tuple[str, ...] = (),
        dropped: tuple[str, ...] | None = (),
        dropped_count: int = 0,
    ) -> RecallTrace:
        """A trace returning ``beliefs``; ``extra_traced`` are traced but not returned."""

        def traced(item: Belief) -> TracedBelief:
            return TracedBelief(
                id=item.id,
                short_id=item.short_id,
                belief_type=item.belief_type,
                subject=item.subject,
                statement=item.statement,
                scope=item.scope,
            )

        return RecallTrace(
            trace_id=self._id(),
            tenant_id="t",
            principal_id="p",
            moment=moment,
            policy_version="retrieval@1",
            created_at=T0,
            returned=tuple(item.id for item in beliefs),
            beliefs=tuple(traced(item) for item in [*beliefs, *extra_traced]),
            blocked=blocked,
            returned_count=len(beliefs),
            dropped_count=dropped_count,
            dropped_for_budget=dropped,
        )


@pytest.fixture
def make() -> Make:
    """Belief and trace builders."""
    return Make()


@pytest.fixture
def relocation() -> BenchmarkScenario:
    """The spec's first worked scenario, extended with protected content and more probes."""
    return BenchmarkScenario.model_validate(RELOCATION)
