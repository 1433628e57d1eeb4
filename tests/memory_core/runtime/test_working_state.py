"""WorkingState: facts carry provenance, restating unions it, the event log holds the state."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_core import InMemoryStorage, Principal
from memory_core.base.events import EventType, EventWriter
from memory_core.base.working_state import Fact, WorkingState
from memory_core.clock import FixedClock
from memory_core.ids import SequentialIdFactory
from memory_core.runtime.working_state import WorkingStateService

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_with_fact_appends_and_restating_unions_provenance() -> None:
    state = WorkingState(session_id="s").with_fact("The flight is on Friday.", ["e1"])
    state = state.with_fact("The hotel is booked.", ["e2", "e2"])
    state = state.with_fact(" The flight is on Friday. ", ["e3", "e1"])
    assert state.facts == (
        Fact(statement="The flight is on Friday.", source_event_ids=("e1", "e3")),
        Fact(statement="The hotel is booked.", source_event_ids=("e2",)),
    )
    assert WorkingState.from_payload("s", state.to_payload()) == state


def test_service_records_the_whole_state_and_reads_the_latest(alice: Principal) -> None:
    storage = InMemoryStorage()
    writer = EventWriter(events=storage.events, clock=FixedClock(T0), ids=SequentialIdFactory())
    service = WorkingStateService(events=storage.events, writer=writer)
    assert service.get(alice, "s1").facts == ()
    service.establish(alice, "s1", "The user is vegetarian.", ["e1"])
    state = service.establish(alice, "s1", "Dinner is at eight.", [])
    events = storage.events.read_session(alice, "s1")
    assert [e.event_type for e in events] == [EventType.WORKING_STATE_UPDATED] * 2
    assert len(events[-1].payload["facts"]) == 2
    assert service.get(alice, "s1") == state
    assert state.facts[1].source_event_ids == ()
