"""Helpers for retrieval tests: a small world (storage, fixed clock, sequential ids) to fill."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from memory_core import InMemoryStorage, Principal, Storage
from memory_core.clock import FixedClock
from memory_core.domain import Authority, Belief, BeliefStatus, BeliefType
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import MemoryProfiles, load_profiles
from memory_core.retrieval import MemoryRetriever, RecallRequest, RecallResult

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def zero_timer() -> float:
    """A timer that never moves: arm latencies become 0.0, traces byte-identical."""
    return 0.0


@dataclass
class World:
    """A storage tier with a fixed clock and sequential ids, and a way to fill it."""

    storage: Storage
    clock: FixedClock = field(default_factory=lambda: FixedClock(T0))
    ids: SequentialIdFactory = field(default_factory=SequentialIdFactory)

    def put(
        self,
        principal: Principal,
        statement: str,
        *,
        subject: str = "topic",
        belief_type: BeliefType | str = BeliefType.FACT,
        scope: str = "general",
        status: BeliefStatus | str = BeliefStatus.ACTIVE,
        authority: Authority | str = Authority.USER,
        confidence: float = 0.9,
        evidence_count: int = 1,
        utility: float = 0.0,
        **extra: Any,
    ) -> Belief:
        """Store a belief for ``principal`` and return it with its store position."""
        now = self.clock.now()
        belief = Belief(
            id=self.ids.new_id(),
            tenant_id=principal.tenant_id,
            principal_id=principal.principal_id,
            belief_type=BeliefType(belief_type),
            subject=subject,
            statement=statement,
            scope=scope,
            status=BeliefStatus(status),
            authority=Authority(authority),
            confidence=confidence,
            evidence_count=evidence_count,
            utility=utility,
            source_event_ids=(f"event-{statement[:12]}",),
            valid_from=now,
            last_evidence_at=now,
            created_at=now,
            updated_at=now,
            consolidation_policy_version="formation@5",
            **extra,
        )
        return self.storage.memories.put(belief)

    def retriever(self, profiles: MemoryProfiles | None = None) -> MemoryRetriever:
        """A retriever over this world with a constant timer (deterministic traces)."""
        return MemoryRetriever(
            memories=self.storage.memories,
            traces=self.storage.traces,
            clock=self.clock,
            ids=self.ids,
            profiles=profiles or load_profiles(),
            timer=zero_timer,
        )

    def recall(self, principal: Principal, text: str | None = None, **request: Any) -> RecallResult:
        """Recall in-turn when ``text`` is given, else a snapshot, with the shipped profiles."""
        moment = request.pop("moment", "in_turn" if text is not None else "snapshot")
        return self.retriever(request.pop("profiles", None)).recall(
            RecallRequest(principal=principal, moment=moment, text=text, **request)
        )


@pytest.fixture
def world(storage: Storage) -> World:
    """A world over each storage tier in turn."""
    return World(storage=storage)


@pytest.fixture
def make_world() -> type[World]:
    """Build fresh in-memory worlds inside a test (property tests need one per example)."""

    class _InMemoryWorld(World):
        def __init__(self) -> None:
            super().__init__(storage=InMemoryStorage())

    return _InMemoryWorld
