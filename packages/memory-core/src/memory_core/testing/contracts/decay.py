"""gate.memory.decay_lifecycle: the decay sweep, run against every storage adapter.

Unused inferred and provisional beliefs lose ``decay.step`` per sweep, keep their store
position while they stay live, and retire (at a fresh position, ``valid_to`` the sweep
instant) once below ``decay.floor_confidence``; user statements and recently evidenced beliefs
never move, and the sweep never advances a session's activity time.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from memory_core import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    NotFoundError,
    Principal,
    Session,
    Storage,
)
from memory_core.base.events import EventType
from memory_core.clock import FixedClock
from memory_core.formation import GovernedMemoryService
from memory_core.formation.decay import MAX_INFERRED_CONFIDENCE
from memory_core.formation.provider import PROVIDER_CANDIDATE_CONFIDENCE
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import MemoryProfiles, load_profiles

GATE = pytest.mark.gate("gate.memory.decay_lifecycle")
MakeBelief = Callable[..., Belief]
DAY = 86_400


_IDS = SequentialIdFactory(namespace="decay-tests")


def _service(
    storage: Storage, clock: FixedClock, principal: Principal, profiles: MemoryProfiles
) -> GovernedMemoryService:
    return GovernedMemoryService(
        storage=storage,
        clock=clock,
        ids=_IDS,
        principal=principal,
        profiles=profiles,
    )


def _inferred(make_belief: MakeBelief, principal: Principal, at: datetime, **fields: Any) -> Belief:
    defaults: dict[str, Any] = {
        "belief_type": BeliefType.FACT,
        "subject": "build tool",
        "statement": "The project builds with Bazel.",
        "scope": "general",
        "authority": Authority.INFERRED,
        "confidence": 0.7,
    }
    return make_belief(principal, evidenced_at=at, **{**defaults, **fields})


def _events(storage: Storage, principal: Principal, event_type: str) -> list[Any]:
    return storage.events.page(principal, event_types=[event_type], limit=1000)


# -- update_in_place: the store method the decay step writes through ----------------------------


def test_update_in_place_keeps_the_position_and_the_head(
    storage: Storage, alice: Principal, bob: Principal, make_belief: MakeBelief
) -> None:
    first = storage.memories.put(make_belief(alice))
    second = storage.memories.put(make_belief(alice, statement="User likes tea."))
    head = storage.memories.head_position(alice)
    changed = storage.memories.update_in_place(first.model_copy(update={"confidence": 0.4}))
    assert changed.store_position == first.store_position
    assert storage.memories.get(alice, first.id) == changed
    assert storage.memories.head_position(alice) == head
    assert [b.id for b in storage.memories.list_beliefs(alice)] == [first.id, second.id]
    with pytest.raises(NotFoundError):
        storage.memories.update_in_place(make_belief(alice))
    with pytest.raises(NotFoundError):
        storage.memories.update_in_place(make_belief(bob, id=first.id))


# -- the sweep ----------------------------------------------------------------------------------


@GATE
def test_an_idle_inference_decays_in_place_then_retires_at_a_fresh_position(
    storage: Storage, alice: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    belief = storage.memories.put(_inferred(make_belief, alice, t0))
    clock = FixedClock(t0 + timedelta(days=31))
    service = _service(storage, clock, alice, load_profiles())

    confidences = []
    for _ in range(4):  # 0.7 -> 0.6 -> 0.5 -> 0.4 -> 0.3 (the floor itself stays live)
        result = service.decay()
        assert (result.decayed, result.retired) == (1, 0)
        current = storage.memories.get(alice, belief.id)
        assert current is not None
        assert current.status is BeliefStatus.ACTIVE
        assert current.store_position == belief.store_position  # a quiet loss keeps its place
        assert current.last_evidence_at == belief.last_evidence_at
        assert current.evidence_count == belief.evidence_count
        assert current.source_event_ids == belief.source_event_ids
        confidences.append(current.confidence)
        clock.advance(DAY)
    assert confidences == pytest.approx([0.6, 0.5, 0.4, 0.3])
    assert storage.memories.head_position(alice) == belief.store_position

    result = service.decay()
    assert (result.decayed, result.retired) == (0, 1)
    retired = storage.memories.get(alice, belief.id)
    assert retired is not None
    assert retired.status is BeliefStatus.RETIRED
    assert retired.valid_to == clock.now()
    assert retired.store_position > belief.store_position  # a retirement is a change
    assert storage.memories.head_position(alice) == retired.store_position
    assert storage.memories.list_idle(alice, clock.now(), 10) == []

    decayed = _events(storage, alice, EventType.MEMORY_DECAYED)
    retired_events = _events(storage, alice, EventType.MEMORY_RETIRED)
    assert len(decayed) == 4
    assert len(retired_events) == 1
    assert retired_events[0].payload["belief_id"] == belief.id
    assert retired_events[0].payload["confidence"] == pytest.approx(0.2)
    assert all(e.session_id is None for e in (*decayed, *retired_events))
    assert all(e.payload["short_id"] == belief.short_id for e in decayed)


@GATE
def test_user_statements_recent_evidence_and_durable_types_are_not_eligible(
    storage: Storage, alice: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    now = t0 + timedelta(days=40)
    user = storage.memories.put(
        _inferred(make_belief, alice, t0, authority=Authority.USER, confidence=0.9)
    )
    provisional_user = storage.memories.put(
        _inferred(
            make_belief,
            alice,
            t0,
            authority=Authority.USER,
            status=BeliefStatus.PROVISIONAL,
            statement="The project also builds with Make.",
        )
    )
    confident = storage.memories.put(
        _inferred(make_belief, alice, t0, authority=Authority.AFFIRMED, confidence=0.8)
    )
    recent = storage.memories.put(
        _inferred(make_belief, alice, now - timedelta(days=10), statement="It ships weekly.")
    )
    preference = storage.memories.put(
        _inferred(
            make_belief,
            alice,
            t0,
            belief_type=BeliefType.PREFERENCE,
            scope="user",
            statement="User prefers dark mode.",
        )
    )
    provisional = storage.memories.put(
        _inferred(
            make_belief,
            alice,
            t0,
            authority=Authority.AFFIRMED,
            status=BeliefStatus.PROVISIONAL,
            confidence=0.85,
            statement="The project deploys on Fridays.",
        )
    )
    untouched = [user, provisional_user, confident, recent, preference]
    result = _service(storage, FixedClock(now), alice, load_profiles()).decay()
    assert (result.decayed, result.retired) == (1, 0)
    for belief in untouched:
        assert storage.memories.get(alice, belief.id) == belief
    after = storage.memories.get(alice, provisional.id)
    assert after is not None
    assert after.confidence == pytest.approx(0.75)


@GATE
def test_a_belief_updated_within_one_interval_is_not_decayed_twice(
    storage: Storage, alice: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    belief = storage.memories.put(_inferred(make_belief, alice, t0))
    clock = FixedClock(t0 + timedelta(days=31))
    service = _service(storage, clock, alice, load_profiles())
    assert service.decay().decayed == 1
    assert service.decay().decayed == 0
    clock.advance(DAY - 1)
    assert service.decay().decayed == 0
    clock.advance(1)
    assert service.decay().decayed == 1
    current = storage.memories.get(alice, belief.id)
    assert current is not None
    assert current.confidence == pytest.approx(0.5)


@GATE
def test_the_sweep_is_principal_scoped_and_never_touches_a_sessions_activity(
    storage: Storage, alice: Principal, bob: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    mine = storage.memories.put(_inferred(make_belief, alice, t0))
    theirs = storage.memories.put(_inferred(make_belief, bob, t0))
    session = storage.sessions.create(
        Session(
            id="s-1",
            tenant_id=alice.tenant_id,
            principal_id=alice.principal_id,
            agent="agent",
            opened_at=t0,
            last_activity_at=t0,
        )
    )
    result = _service(storage, FixedClock(t0 + timedelta(days=31)), alice, load_profiles()).decay()
    assert result.decayed == 1
    assert storage.memories.get(bob, theirs.id) == theirs
    changed = storage.memories.get(alice, mine.id)
    assert changed is not None
    assert changed.confidence < mine.confidence
    assert storage.sessions.get(alice, session.id) == session
    assert storage.sessions.list_open_idle(t0, limit=10) == [session]


# -- the decay knobs are read -------------------------------------------------------------------


@pytest.mark.gate("gate.memory.profiles_wired")
@GATE
def test_decay_knobs_step_floor_tau_and_window_are_read(
    storage: Storage, alice: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    beliefs = [
        storage.memories.put(
            _inferred(make_belief, alice, t0 + timedelta(hours=i), statement=f"Fact {i} holds.")
        )
        for i in range(3)
    ]
    now = t0 + timedelta(days=31)

    def sweep(overlay: dict[str, Any]) -> tuple[int, int, int]:
        result = _service(storage, FixedClock(now), alice, load_profiles(overlay)).decay()
        return result.read, result.decayed, result.retired

    # tau: a 60-day fact clock makes nothing idle yet
    assert sweep({"retrieval": {"decay_tau_days": {"fact": 60}}}) == (0, 0, 0)
    # max_per_sweep bounds the window, least recently evidenced first
    assert sweep({"formation": {"decay": {"max_per_sweep": 1, "step": 0.25}}}) == (1, 1, 0)
    oldest = storage.memories.get(alice, beliefs[0].id)
    assert oldest is not None
    assert oldest.confidence == pytest.approx(0.45)  # step read: 0.7 - 0.25
    # floor: 0.7 - 0.1 = 0.6 falls below a 0.65 floor (the oldest, updated just now, is not
    # even read: the store returns eligible rows only)
    assert sweep({"formation": {"decay": {"floor_confidence": 0.65}}}) == (2, 0, 2)
    assert [b.status for b in storage.memories.list_beliefs(alice)] == [
        BeliefStatus.ACTIVE,
        BeliefStatus.RETIRED,
        BeliefStatus.RETIRED,
    ]


def test_the_inferred_ceiling_is_the_provider_extractors_confidence() -> None:
    assert MAX_INFERRED_CONFIDENCE == PROVIDER_CANDIDATE_CONFIDENCE
