"""The runtime's working-state service: reads and extends a session's established facts.

The facts and their payload are the base layer's :mod:`memory_core.base.working_state`; this
service stores each new state as a ``working_state.updated`` event.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_core.base.events import EventType, EventWriter
from memory_core.base.working_state import WorkingState
from memory_core.domain import Principal, Trust
from memory_core.ports import EventLog


class WorkingStateService:
    """Reads and extends a session's working state through the event log."""

    def __init__(self, *, events: EventLog, writer: EventWriter) -> None:
        self._events = events
        self._writer = writer

    def get(self, principal: Principal, session_id: str) -> WorkingState:
        """The session's current working state (empty when nothing was established)."""
        latest: WorkingState | None = None
        for event in self._events.read_session(principal, session_id):
            if event.event_type == EventType.WORKING_STATE_UPDATED:
                latest = WorkingState.from_payload(session_id, event.payload)
        return latest or WorkingState(session_id=session_id)

    def establish(
        self,
        principal: Principal,
        session_id: str,
        statement: str,
        source_event_ids: Sequence[str],
        *,
        run_id: str | None = None,
    ) -> WorkingState:
        """Add a fact to the session's working state and record the new state."""
        state = self.get(principal, session_id).with_fact(statement, source_event_ids)
        self._writer.append(
            EventType.WORKING_STATE_UPDATED,
            principal=principal,
            session_id=session_id,
            run_id=run_id,
            actor="agent",
            trust=Trust.SYSTEM,
            payload=state.to_payload(),
        )
        return state
