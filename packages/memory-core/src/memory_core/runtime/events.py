"""Event types the runtime writes, and the small writer that stamps them.

Every event carries a fresh id from the composition's ``IdFactory`` and a timestamp from its
``Clock``, so a run under ``FixedClock`` and ``SequentialIdFactory`` writes byte-identical
events. Payloads hold ids, counts and message text. Message events
(``user.message.created``, ``assistant.message.created``) keep the text verbatim, so they
may hold a secret the formation hazard screen refused: the log is the raw record, and whatever
reads message text back into a model's context must screen it first, as
``memory.recall_episodes`` does. Other statement text is a rendered block of formed beliefs
(``session.opened``'s snapshot block, which passed the screen) or facts the agent
established (``working_state.updated``, recorded as given); run, model, tool, recall and
session-close payloads carry ids, counts and statuses only.
"""

from __future__ import annotations

from collections.abc import Mapping

from memory_core.clock import Clock
from memory_core.domain import Event, JsonValue, Principal, Trust
from memory_core.ids import IdFactory
from memory_core.ports import EventLog

USER_MESSAGE_CREATED = "user.message.created"
"""A user's message (trust ``user``): the only formation source."""
ASSISTANT_MESSAGE_CREATED = "assistant.message.created"
"""The assistant's final message of a run (or one recorded by a downstream agent)."""
RUN_STARTED = "run.started"
"""A run began: payload ``policy_version``, ``provider``, ``model``, ``limits``."""
RUN_COMPLETED = "run.completed"
"""A run ended: payload ``status``, ``policy_version``, ``steps``, ``usage``, ``cost_usd``."""
MODEL_CALLED = "model.called"
"""One model call: payload ``step``, ``prefix_digest``, ``usage``, ``cost_usd``."""
CONTEXT_PLANNED = "context.planned"
"""The first context of a run: payload ``snapshot_id``, ``prefix_digest`` and the budget."""
MEMORY_RECALLED = "memory.recalled"
"""A recall happened: payload ``trace_id``, ``moment``, ``turn_id``."""
TOOL_CALLED = "tool.called"
"""The model called a tool: payload ``tool``, ``call_id``, ``ok`` (never the arguments)."""
WORKING_STATE_UPDATED = "working_state.updated"
"""The session's working state changed: payload ``facts`` (statement, ``source_event_ids``)."""
SESSION_OPENED = "session.opened"
"""A session opened: payload ``snapshot_id``, ``snapshot_watermark``, ``snapshot_block``."""
SESSION_CLOSED = "session.closed"
"""A session closed: payload ``trigger``, ``scope`` and the consolidation counts."""
HOOK_FAILED = "run.hook_failed"
"""A completion hook raised: payload ``hook`` and ``error_class`` (the run is unaffected)."""


class EventWriter:
    """Appends runtime events with ids and timestamps from the composition."""

    def __init__(self, *, events: EventLog, clock: Clock, ids: IdFactory) -> None:
        self._events = events
        self._clock = clock
        self._ids = ids

    def append(
        self,
        event_type: str,
        *,
        principal: Principal,
        session_id: str | None,
        run_id: str | None = None,
        actor: str,
        trust: Trust,
        payload: Mapping[str, JsonValue] | None = None,
    ) -> Event:
        """Append one event and return it stamped with its sequence number."""
        event = Event(
            event_id=self._ids.new_id(),
            tenant_id=principal.tenant_id,
            principal_id=principal.principal_id,
            session_id=session_id,
            run_id=run_id,
            event_type=event_type,
            actor=actor,
            trust=trust,
            payload=dict(payload or {}),
            created_at=self._clock.now(),
        )
        return self._events.append(event)
