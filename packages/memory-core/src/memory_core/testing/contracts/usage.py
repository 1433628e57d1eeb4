"""gate.memory.usage_feedback: usage feedback, run against every storage adapter.

A cited belief gains utility and a usage time, an uncited one it was shown loses utility,
confidence and the evidence clock never move, an ambiguous short id credits and charges
nothing, and a run's feedback is recorded once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from memory_core import Belief, Principal, RecallTrace, Session, Storage
from memory_core.base.events import EventType
from memory_core.clock import FixedClock
from memory_core.domain import TracedBelief
from memory_core.formation import GovernedMemoryService
from memory_core.formation.usage import cited_short_ids
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import MemoryProfiles, load_profiles

GATE = pytest.mark.gate("gate.memory.usage_feedback")
MakeBelief = Callable[..., Belief]
_IDS = SequentialIdFactory(namespace="usage-tests")
RUN = "run-0001"


class _World:
    """A session with a snapshot trace and one in-turn trace over stored beliefs."""

    def __init__(
        self, storage: Storage, principal: Principal, t0: datetime, profiles: MemoryProfiles
    ) -> None:
        self.storage = storage
        self.principal = principal
        self.clock = FixedClock(t0 + timedelta(days=3))
        self.service = GovernedMemoryService(
            storage=storage, clock=self.clock, ids=_IDS, principal=principal, profiles=profiles
        )
        self.session = storage.sessions.create(
            Session(
                id=f"sess-{principal.principal_id}",
                tenant_id=principal.tenant_id,
                principal_id=principal.principal_id,
                agent="assistant",
                opened_at=t0,
                last_activity_at=t0,
            )
        )
        self._t0 = t0
        self._traces = 0

    def trace(self, beliefs: list[Belief], moment: str = "in_turn") -> RecallTrace:
        self._traces += 1
        trace = self.storage.traces.record(
            RecallTrace(
                trace_id=f"trace-{self._traces}",
                tenant_id=self.principal.tenant_id,
                principal_id=self.principal.principal_id,
                session_id=self.session.id,
                run_id=RUN if moment == "in_turn" else None,
                moment=moment,
                policy_version="retrieval@1",
                created_at=self._t0,
                returned=tuple(b.id for b in beliefs),
                beliefs=tuple(
                    TracedBelief(
                        id=b.id,
                        short_id=b.short_id,
                        belief_type=b.belief_type,
                        subject=b.subject,
                        statement=b.statement,
                        scope=b.scope,
                    )
                    for b in beliefs
                ),
                returned_count=len(beliefs),
            )
        )
        if moment == "snapshot":
            self.session = self.storage.sessions.update(
                self.session.model_copy(update={"snapshot_id": trace.trace_id})
            )
        return trace

    def record(self, message: str, trace_ids: tuple[str, ...], run_id: str = RUN) -> Any:
        return self.service.record_usage(
            run_id=run_id, session_id=self.session.id, final_message=message, trace_ids=trace_ids
        )

    def belief(self, belief_id: str) -> Belief:
        found = self.storage.memories.get(self.principal, belief_id)
        assert found is not None
        return found


def _put(storage: Storage, make_belief: MakeBelief, principal: Principal, **fields: Any) -> Belief:
    return storage.memories.put(make_belief(principal, **fields))


@GATE
def test_a_cited_belief_gains_utility_an_uncited_one_loses_it_and_confidence_never_moves(
    storage: Storage, alice: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    world = _World(storage, alice, t0, load_profiles())
    cited = _put(storage, make_belief, alice, statement="User lives in Seattle.")
    shown = _put(storage, make_belief, alice, statement="User likes tea.", utility=0.5)
    snapshot_only = _put(storage, make_belief, alice, statement="User prefers dark mode.")
    in_turn = world.trace([cited, shown])
    snapshot = world.trace([cited, snapshot_only], moment="snapshot")
    head = storage.memories.head_position(alice)

    result = world.record(f"You live in Seattle [m:{cited.short_id}].", (in_turn.trace_id,))
    assert (result.traces, result.citations, result.uncited, result.ambiguous) == (2, 1, 2, 0)

    after = world.belief(cited.id)
    assert after.utility == pytest.approx(0.1)
    assert after.last_used_at == world.clock.now()
    for field in ("confidence", "last_evidence_at", "evidence_count", "store_position"):
        assert getattr(after, field) == getattr(cited, field)
    assert world.belief(shown.id).utility == pytest.approx(0.48)
    assert world.belief(shown.id).last_used_at is None
    assert world.belief(snapshot_only.id).utility == pytest.approx(-0.02)
    assert all(world.belief(b.id).confidence == b.confidence for b in (cited, shown, snapshot_only))
    assert storage.memories.head_position(alice) == head  # usage is not a change to report

    for trace in (in_turn, snapshot):
        stored = storage.traces.get(alice, trace.trace_id)
        assert stored is not None
        assert stored.cited == (cited.id,)
    events = storage.events.page(alice, event_types=[EventType.MEMORY_CITED], limit=100)
    assert len(events) == 1
    assert events[0].payload["derivation_key"] == f"usage:{RUN}"
    assert events[0].payload["cited"] == [cited.id]
    assert events[0].run_id == RUN


@GATE
def test_a_runs_feedback_is_recorded_once(
    storage: Storage, alice: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    world = _World(storage, alice, t0, load_profiles())
    cited = _put(storage, make_belief, alice)
    trace = world.trace([cited])
    message = f"Concise it is [m:{cited.short_id}]."
    assert world.record(message, (trace.trace_id,)).citations == 1
    again = world.record(message, (trace.trace_id,))
    assert again.already_recorded
    assert again.citations == 0
    assert world.belief(cited.id).utility == pytest.approx(0.1)
    assert len(storage.events.page(alice, event_types=[EventType.MEMORY_CITED], limit=100)) == 1
    # another run citing the same belief is new usage
    assert world.record(message, (trace.trace_id,), run_id="run-0002").citations == 1
    assert world.belief(cited.id).utility == pytest.approx(0.2)


@GATE
def test_an_ambiguous_short_id_credits_and_charges_nothing(
    storage: Storage, alice: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    world = _World(storage, alice, t0, load_profiles())
    twin_a = _put(storage, make_belief, alice, id="abcdef12-0000-0000-0000-000000000001")
    twin_b = _put(
        storage,
        make_belief,
        alice,
        id="abcdef12-0000-0000-0000-000000000002",
        statement="User likes tea.",
    )
    other = _put(storage, make_belief, alice, statement="User lives in Seattle.")
    assert twin_a.short_id == twin_b.short_id
    trace = world.trace([twin_a, twin_b, other])
    result = world.record("Per [m:abcdef12], yes.", (trace.trace_id,))
    assert (result.citations, result.uncited, result.ambiguous) == (0, 1, 1)
    assert world.belief(twin_a.id) == twin_a
    assert world.belief(twin_b.id) == twin_b
    assert world.belief(other.id).utility == pytest.approx(-0.02)
    stored = storage.traces.get(alice, trace.trace_id)
    assert stored is not None
    assert stored.cited == ()


@GATE
def test_utility_is_bounded_and_the_usage_knobs_are_read(
    storage: Storage, alice: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    overlay = {"retrieval": {"usage": {"cited_utility_delta": 0.3, "uncited_utility_delta": 0.5}}}
    world = _World(storage, alice, t0, load_profiles(overlay))
    high = _put(storage, make_belief, alice, utility=0.8)
    low = _put(storage, make_belief, alice, statement="User likes tea.", utility=-0.7)
    mid = _put(storage, make_belief, alice, statement="User hikes.", utility=0.0)
    trace = world.trace([high, low, mid])
    world.record(f"[m:{high.short_id}]", (trace.trace_id,))
    assert world.belief(high.id).utility == 1.0  # 0.8 + 0.3, at the ceiling
    assert world.belief(low.id).utility == -1.0  # -0.7 - 0.5, at the floor
    assert world.belief(mid.id).utility == pytest.approx(-0.5)


@GATE
def test_usage_is_principal_scoped_and_skips_missing_traces(
    storage: Storage, alice: Principal, bob: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    world = _World(storage, alice, t0, load_profiles())
    mine = _put(storage, make_belief, alice)
    trace = world.trace([mine])
    bob_world = _World(storage, bob, t0, load_profiles())
    result = bob_world.record(f"[m:{mine.short_id}]", (trace.trace_id, "no-such-trace"))
    assert (result.traces, result.citations) == (0, 0)
    assert world.belief(mine.id) == mine


def test_citations_are_read_in_the_renderers_form_only() -> None:
    text = "[m:0a1b2c3d] and [m:0a1b2c3d], [m:ffffffff]; not m:12345678, [m:1234567], [M:ABCDEF12]"
    assert cited_short_ids(text) == ["0a1b2c3d", "ffffffff"]


@GATE
def test_a_citation_holds_off_decay_for_one_interval_without_renewing_evidence(
    storage: Storage, alice: Principal, make_belief: MakeBelief, t0: datetime
) -> None:
    world = _World(storage, alice, t0, load_profiles())
    inferred: dict[str, Any] = {"authority": "INFERRED", "confidence": 0.7, "scope": "general"}
    cited = _put(storage, make_belief, alice, belief_type="fact", **inferred)
    uncited = _put(
        storage, make_belief, alice, belief_type="fact", statement="User hikes.", **inferred
    )
    world.clock.advance(31 * 86_400)  # both idle past the fact tau
    trace = world.trace([cited, uncited])
    world.record(f"[m:{cited.short_id}]", (trace.trace_id,))
    assert world.service.decay().decayed == 1
    assert world.belief(cited.id).confidence == 0.7
    assert world.belief(cited.id).last_evidence_at == cited.last_evidence_at
    assert world.belief(uncited.id).confidence == pytest.approx(0.6)
    world.clock.advance(86_400)  # one interval after the citation, it decays like any other
    assert world.service.decay().decayed == 2
    assert world.belief(cited.id).confidence == pytest.approx(0.6)
