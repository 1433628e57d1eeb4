"""Helpers for profile tests: a retriever built from loaded profiles over a filled store."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from memory_core import InMemoryStorage, Principal
from memory_core.clock import FixedClock
from memory_core.domain import Authority, Belief, BeliefStatus, BeliefType
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import MemoryProfiles
from memory_core.retrieval import MemoryRetriever, RecallRequest, RecallResult

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALICE = Principal("tenant-1", "alice")

Recall = Callable[..., RecallResult]


@pytest.fixture
def recall_with() -> Callable[[MemoryProfiles], Recall]:
    """``recall_with(profiles)(text=None, **request)`` over a store of nine beliefs.

    Three share the subject ``home location`` (the oldest the most trusted); three are
    project-local decisions; three are user-scope preferences, so the per-subject cap, the
    item budget, the ranking weights and the durable share each change what recall returns.
    """

    def build(profiles: MemoryProfiles) -> Recall:
        storage, clock, ids = InMemoryStorage(), FixedClock(T0), SequentialIdFactory()

        def put(
            statement: str,
            subject: str,
            belief_type: BeliefType,
            scope: str,
            confidence: float = 0.9,
            authority: Authority = Authority.USER,
        ) -> Belief:
            return storage.memories.put(
                Belief(
                    id=ids.new_id(),
                    tenant_id=ALICE.tenant_id,
                    principal_id=ALICE.principal_id,
                    belief_type=belief_type,
                    subject=subject,
                    statement=statement,
                    scope=scope,
                    status=BeliefStatus.ACTIVE,
                    authority=authority,
                    confidence=confidence,
                    source_event_ids=("event-1",),
                    valid_from=T0,
                    last_evidence_at=T0,
                    created_at=T0,
                    updated_at=T0,
                    consolidation_policy_version="formation@5",
                )
            )

        # oldest is the most trusted, newest the least: fusion and confidence disagree
        for city, confidence, authority in (
            ("Lisbon", 0.95, Authority.USER),
            ("Porto", 0.8, Authority.AFFIRMED),
            ("Faro", 0.5, Authority.INFERRED),
        ):
            put(
                f"User lives near {city}.",
                "home location",
                BeliefType.USER_MODEL_ATTR,
                "user",
                confidence,
                authority,
            )
        for i in range(3):
            put(f"User prefers style {i}.", f"style {i}", BeliefType.PREFERENCE, "user")
        for i in range(3):
            put(f"Orbit ships on day {i}.", f"ship day {i}", BeliefType.FACT, "project:orbit")
        retriever = MemoryRetriever(
            memories=storage.memories,
            traces=storage.traces,
            clock=clock,
            ids=ids,
            profiles=profiles,
            timer=lambda: 0.0,
        )

        def recall(text: str | None = None, **request: object) -> RecallResult:
            moment = "in_turn" if text is not None else "snapshot"
            return retriever.recall(
                RecallRequest(principal=ALICE, moment=moment, text=text, **request)  # type: ignore[arg-type]
            )

        return recall

    return build
