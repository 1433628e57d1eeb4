"""Fixtures for the formation tests: a harness that opens sessions and records turns, and a
reader that runs the deterministic extractor over one hazard-screened message."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from memory_core import (
    Belief,
    Event,
    InMemoryStorage,
    Principal,
    Session,
    SessionMetadata,
    Storage,
    Trust,
)
from memory_core.clock import FixedClock
from memory_core.formation import GovernedMemoryService
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import load_profiles

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@dataclass
class Harness:
    """A storage tier, a fixed clock, sequential ids and a service for one principal."""

    storage: Storage
    clock: FixedClock
    ids: SequentialIdFactory
    principal: Principal
    service: GovernedMemoryService

    def open(
        self, session_id: str, project: str | None = None, principal: Principal | None = None
    ) -> Session:
        owner = principal or self.principal
        now = self.clock.now()
        return self.storage.sessions.create(
            Session(
                id=session_id,
                tenant_id=owner.tenant_id,
                principal_id=owner.principal_id,
                agent="test-agent",
                metadata=SessionMetadata(project_scope=project),
                opened_at=now,
                last_activity_at=now,
            )
        )

    def event(
        self,
        session_id: str,
        text: str,
        *,
        event_type: str = "user.message.created",
        trust: Trust = Trust.USER,
        actor: str = "user",
        principal: Principal | None = None,
        advance: float = 60,
    ) -> Event:
        owner = principal or self.principal
        self.clock.advance(advance)
        return self.storage.events.append(
            Event(
                event_id=self.ids.new_id(),
                tenant_id=owner.tenant_id,
                principal_id=owner.principal_id,
                session_id=session_id,
                event_type=event_type,
                actor=actor,
                trust=trust,
                payload={"text": text},
                created_at=self.clock.now(),
            )
        )

    def say(self, session_id: str, text: str, **kwargs: Any) -> Event:
        return self.event(session_id, text, **kwargs)

    def live(self) -> list[Belief]:
        return [b for b in self.service.list_memories() if b.is_live]

    def statements(self, *, live_only: bool = True) -> list[str]:
        beliefs = self.live() if live_only else self.service.list_memories()
        return [b.statement for b in beliefs]

    def memory_events(self, principal: Principal | None = None) -> list[Event]:
        owner = principal or self.principal
        return [e for e in self.storage.events.page(owner, limit=10_000) if e.trust is Trust.MEMORY]

    def snapshot(self, session_ids: tuple[str, ...] = ()) -> tuple[object, ...]:
        """Everything formation can write, for before/after comparisons."""
        owner = self.principal
        return (
            self.storage.memories.list_beliefs(owner),
            self.storage.events.page(owner, limit=10_000),
            tuple(self.storage.formation.watermark(owner, s) for s in session_ids),
            self.storage.formation.rejections(owner),
            self.storage.memories.head_position(owner),
        )


HarnessFactory = Callable[..., Harness]


def build_harness(
    storage: Storage | None = None,
    *,
    principal: Principal | None = None,
    overlay: Mapping[str, Any] | None = None,
) -> Harness:
    tier = storage if storage is not None else InMemoryStorage()
    clock = FixedClock(START)
    ids = SequentialIdFactory("formation-tests")
    owner = principal or Principal("tenant-1", "alice")
    service = GovernedMemoryService(
        storage=tier,
        clock=clock,
        ids=ids,
        principal=owner,
        profiles=load_profiles(overlay),
    )
    return Harness(storage=tier, clock=clock, ids=ids, principal=owner, service=service)


@pytest.fixture
def harness(storage: Storage, alice: Principal) -> Harness:
    """A harness over every storage tier in turn."""
    return build_harness(storage, principal=alice)


@pytest.fixture(scope="session")
def make_harness() -> HarnessFactory:
    """A stateless factory of fresh in-memory harnesses (property tests build one per example)."""
    return build_harness


Reading = tuple[str, str, str]
"""One candidate as (belief type, subject, statement)."""


@pytest.fixture
def read() -> Callable[[str], list[Reading]]:
    """What the deterministic extractor reads from one user message, screened like a turn, at
    the case clock (Monday 2026-01-05 09:00 UTC)."""
    from memory_core.formation import DeterministicExtractor, Turn, screen_turn

    extractor = DeterministicExtractor()
    at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def reading(text: str) -> list[Reading]:
        turn = Turn(event_id="e1", created_at=at, sentences=screen_turn(text).sentences)
        return [(c.belief_type.value, c.subject, c.statement) for c in extractor.extract(turn)]

    return reading


@pytest.fixture
def answered() -> Callable[[str, str], list[str]]:
    """The statements the deterministic extractor reads from a user's reply to ``prompt`` (the
    other speaker's message just before it), screened like a turn, at the case clock."""
    from memory_core.formation import DeterministicExtractor, Turn, screen_turn

    extractor = DeterministicExtractor()
    at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def statements(prompt: str, text: str) -> list[str]:
        sentences = screen_turn(text).sentences
        turn = Turn(event_id="e1", created_at=at, sentences=sentences, prompt=prompt)
        return [c.statement for c in extractor.extract(turn)]

    return statements
