"""The event vocabulary: every event type memory-core writes, its payload model, the writer.

Every event carries a fresh id from the composition's ``IdFactory`` and a timestamp from its
``Clock``, so a run under ``FixedClock`` and ``SequentialIdFactory`` writes byte-identical
events. Payloads hold ids, counts and message text. Message events
(``user.message.created``, ``assistant.message.created``) keep the text verbatim (secret spans
masked), so whatever reads message text back into a model's context must screen it first, as
``memory.recall_episodes`` does. Other statement text is a rendered block of formed beliefs
(``session.opened``'s snapshot block, which passed the screen) or facts the agent established
(``working_state.updated``, recorded as given); run, model, tool, recall, session-close and
memory payloads carry ids, counts and statuses only.

Each :class:`EventType` has one payload model (:data:`PAYLOAD_MODELS`); read a stored payload
with ``event.payload_as(RunCompleted)``. The models describe what the writers put in the
payload; they keep fields they do not name (``extra="allow"``), so an event written by an older
version still reads. A forgotten belief's source events hold the redaction marker instead of
their payload and do not validate as a message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from enum import StrEnum
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from memory_core.clock import Clock
from memory_core.domain import Event, JsonValue, Principal, Trust
from memory_core.ids import IdFactory
from memory_core.ports import EventLog


class EventType(StrEnum):
    """Every event type memory-core writes; the value is what the event log stores."""

    USER_MESSAGE_CREATED = "user.message.created"
    """A user's message (trust ``user``): the only formation source."""
    ASSISTANT_MESSAGE_CREATED = "assistant.message.created"
    """The assistant's final message of a run (or one recorded by a downstream agent)."""
    RUN_STARTED = "run.started"
    """A run began."""
    RUN_COMPLETED = "run.completed"
    """A run ended."""
    RUN_HOOK_FAILED = "run.hook_failed"
    """A completion hook raised (the run is unaffected)."""
    MODEL_CALLED = "model.called"
    """One model call."""
    CONTEXT_PLANNED = "context.planned"
    """The first context of a run."""
    MEMORY_RECALLED = "memory.recalled"
    """A recall happened."""
    TOOL_CALLED = "tool.called"
    """The model called a tool (never its arguments)."""
    WORKING_STATE_UPDATED = "working_state.updated"
    """The session's working state changed (the whole state each time)."""
    SESSION_OPENED = "session.opened"
    """A session opened and froze its snapshot."""
    SESSION_CLOSED = "session.closed"
    """A session closed, with its consolidation counts."""
    MEMORY_FORMED = "memory.formed"
    """Formation committed a new belief."""
    MEMORY_REINFORCED = "memory.reinforced"
    """A duplicate candidate reinforced a live belief."""
    MEMORY_SUPERSEDED = "memory.superseded"
    """A change retired a belief in favour of its successor."""
    MEMORY_REJECTED = "memory.rejected"
    """The user rejected a belief."""
    MEMORY_NEEDS_CONFIRMATION = "memory.needs_confirmation"
    """A committed belief conflicts with live ones and asks the user to confirm."""
    MEMORY_DECAYED = "memory.decayed"
    """A decay sweep lowered an unused belief's confidence."""
    MEMORY_RETIRED = "memory.retired"
    """A decay sweep retired a belief below the confidence floor."""
    MEMORY_CITED = "memory.cited"
    """A run's final message cited (or did not cite) the beliefs it was shown."""
    MEMORY_FORGOTTEN = "memory.forgotten"
    """The user forgot a belief: its copies erased and its source events redacted."""


class EventPayload(BaseModel):
    """The payload of one event type; ``event_type`` names it."""

    model_config = ConfigDict(frozen=True, extra="allow")

    event_type: ClassVar[EventType]


class _Message(EventPayload):
    text: str
    redacted_secrets: int | None = None
    """How many secret spans were masked (absent when none was)."""
    idempotency_key: str | None = None


class UserMessageCreated(_Message):
    """``user.message.created``: the message ``text`` as stored."""

    event_type = EventType.USER_MESSAGE_CREATED


class AssistantMessageCreated(_Message):
    """``assistant.message.created``: the message ``text`` as stored."""

    event_type = EventType.ASSISTANT_MESSAGE_CREATED


class RunLimitsRecord(BaseModel):
    """The limits a run started under; an unlimited cost is ``None`` (JSON has no infinity)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    max_steps: int
    max_tokens: int
    max_cost_usd: float | None


class UsageRecord(BaseModel):
    """Token usage as recorded on ``run.completed`` and ``model.called``."""

    model_config = ConfigDict(frozen=True, extra="allow")

    input_tokens: int
    output_tokens: int


class RunStarted(EventPayload):
    """``run.started``: the policy, the model and the limits of the run."""

    event_type = EventType.RUN_STARTED

    policy_profile: str
    policy_version: str
    provider: str
    model: str
    enabled_tools: list[str]
    limits: RunLimitsRecord


class RunCompleted(EventPayload):
    """``run.completed``: the terminal status, steps, usage and cost of the run.

    ``error_status`` and ``error_body`` are present only when a model call failed.
    """

    event_type = EventType.RUN_COMPLETED

    status: str
    policy_profile: str
    policy_version: str
    steps: int
    usage: UsageRecord
    cost_usd: float
    cost_known: bool
    error_class: str | None
    error_status: int | None = None
    error_body: str | None = None


class RunHookFailed(EventPayload):
    """``run.hook_failed``: the hook's name and the class of what it raised."""

    event_type = EventType.RUN_HOOK_FAILED

    hook: str
    error_class: str


class ModelCalled(EventPayload):
    """``model.called``: one model call's step, prefix digest, usage, cost and finish reason."""

    event_type = EventType.MODEL_CALLED

    step: int
    prefix_digest: str
    provider: str
    model: str
    usage: UsageRecord
    cost_usd: float
    cost_known: bool
    finish_reason: str
    tool_calls: list[str]
    context_tokens: int
    recall_blocks_dropped: int


class ContextPlanned(EventPayload):
    """``context.planned``: the run's snapshot, prefix digest and context budget."""

    event_type = EventType.CONTEXT_PLANNED

    snapshot_id: str | None
    snapshot_watermark: int
    prefix_digest: str
    turn_id: str
    budget_tokens: int
    total_tokens: int
    history_dropped: int
    recall_blocks_kept: int
    recall_blocks_dropped: int
    corrections: list[str]


class MemoryRecalled(EventPayload):
    """``memory.recalled``: the trace of one recall and its moment (``snapshot``, ``in_turn``,
    ``delta``)."""

    event_type = EventType.MEMORY_RECALLED

    trace_id: str
    moment: str
    turn_id: str | None


class ToolCalled(EventPayload):
    """``tool.called``: which tool, its call id and whether it succeeded."""

    event_type = EventType.TOOL_CALLED

    step: int
    tool: str
    call_id: str
    ok: bool


class FactRecord(BaseModel):
    """One established fact as recorded on ``working_state.updated``."""

    model_config = ConfigDict(frozen=True, extra="allow")

    statement: str
    source_event_ids: list[str] = []


class WorkingStateUpdated(EventPayload):
    """``working_state.updated``: the session's whole working state."""

    event_type = EventType.WORKING_STATE_UPDATED

    facts: list[FactRecord] = []


class SessionOpened(EventPayload):
    """``session.opened``: who opened it, its scope and its frozen snapshot."""

    event_type = EventType.SESSION_OPENED

    agent: str | None
    kind: str
    project_scope: str | None
    snapshot_id: str
    snapshot_watermark: int
    snapshot_block: str


class SessionClosed(EventPayload):
    """``session.closed``: the trigger, the scope and, when it consolidated, the counts."""

    event_type = EventType.SESSION_CLOSED

    trigger: str
    scope: str
    consolidated: bool
    policy_version: str | None = None
    proposed: int | None = None
    committed: int | None = None
    reinforced: int | None = None
    superseded: int | None = None
    conflicted: int | None = None
    rejected: int | None = None
    ungrounded: int | None = None
    invalid_provenance: int | None = None
    refused_hazard: int | None = None
    dropped_for_ceiling: int | None = None


class _BeliefChange(EventPayload):
    belief_id: str
    short_id: str
    policy_version: str


class MemoryFormed(_BeliefChange):
    """``memory.formed``: the new belief's ids, type, scope, sources and what it supersedes."""

    event_type = EventType.MEMORY_FORMED

    belief_type: str
    scope: str
    polarity: str
    source_event_ids: list[str]
    supersedes: str | None
    trigger: str


class MemoryReinforced(_BeliefChange):
    """``memory.reinforced``: the belief's new evidence count and the sources that added it."""

    event_type = EventType.MEMORY_REINFORCED

    evidence_count: int
    source_event_ids: list[str]
    trigger: str


class MemorySuperseded(_BeliefChange):
    """``memory.superseded``: the retired belief and its successor."""

    event_type = EventType.MEMORY_SUPERSEDED

    superseded_by: str
    trigger: str


class MemoryRejected(_BeliefChange):
    """``memory.rejected``: the rejected belief."""

    event_type = EventType.MEMORY_REJECTED


class MemoryNeedsConfirmation(_BeliefChange):
    """``memory.needs_confirmation``: the flagged belief and the beliefs it disputes."""

    event_type = EventType.MEMORY_NEEDS_CONFIRMATION

    conflicts_with: list[str]
    conflicts_with_short_ids: list[str]
    authority: str
    trigger: str


class _Decay(_BeliefChange):
    previous_confidence: float
    confidence: float
    status: str
    trigger: str


class MemoryDecayed(_Decay):
    """``memory.decayed``: the belief's confidence before and after the step."""

    event_type = EventType.MEMORY_DECAYED


class MemoryRetired(_Decay):
    """``memory.retired``: the belief's confidence before and after, now retired."""

    event_type = EventType.MEMORY_RETIRED


class MemoryCited(EventPayload):
    """``memory.cited``: which shown beliefs a run's final message cited."""

    event_type = EventType.MEMORY_CITED

    derivation_key: str
    trace_ids: list[str]
    cited: list[str]
    uncited_count: int
    ambiguous_count: int


class MemoryForgotten(EventPayload):
    """``memory.forgotten``: the forgotten belief, the copies erased, the events redacted."""

    event_type = EventType.MEMORY_FORGOTTEN

    belief_id: str
    erased_belief_ids: list[str]
    redacted_events: int


PAYLOAD_MODELS: Mapping[EventType, type[EventPayload]] = {
    model.event_type: model
    for model in (
        UserMessageCreated,
        AssistantMessageCreated,
        RunStarted,
        RunCompleted,
        RunHookFailed,
        ModelCalled,
        ContextPlanned,
        MemoryRecalled,
        ToolCalled,
        WorkingStateUpdated,
        SessionOpened,
        SessionClosed,
        MemoryFormed,
        MemoryReinforced,
        MemorySuperseded,
        MemoryRejected,
        MemoryNeedsConfirmation,
        MemoryDecayed,
        MemoryRetired,
        MemoryCited,
        MemoryForgotten,
    )
}
"""The payload model of every event type."""


class EventWriter:
    """Appends events with ids and timestamps from the composition."""

    def __init__(self, *, events: EventLog, clock: Clock, ids: IdFactory) -> None:
        self._events = events
        self._clock = clock
        self._ids = ids

    def append(
        self,
        event_type: EventType,
        *,
        principal: Principal,
        session_id: str | None,
        run_id: str | None = None,
        actor: str,
        trust: Trust,
        payload: Mapping[str, JsonValue] | None = None,
        at: datetime | None = None,
    ) -> Event:
        """Append one event and return it stamped with its sequence number.

        ``at`` is the event's time when the caller already read the clock for the change the
        event records (the clock is read otherwise).
        """
        event = Event(
            event_id=self._ids.new_id(),
            tenant_id=principal.tenant_id,
            principal_id=principal.principal_id,
            session_id=session_id,
            run_id=run_id,
            event_type=str(event_type),
            actor=actor,
            trust=trust,
            payload=dict(payload or {}),
            created_at=self._clock.now() if at is None else at,
        )
        return self._events.append(event)

    def append_many(
        self,
        event_type: EventType,
        payloads: Sequence[Mapping[str, JsonValue]],
        *,
        principal: Principal,
        session_id: str | None,
        actor: str,
        trust: Trust,
    ) -> list[Event]:
        """Append one event of ``event_type`` per payload in one batch (all or nothing) and
        return them stamped, in order."""
        now = self._clock.now()
        return self._events.append_many(
            [
                Event(
                    event_id=self._ids.new_id(),
                    tenant_id=principal.tenant_id,
                    principal_id=principal.principal_id,
                    session_id=session_id,
                    event_type=str(event_type),
                    actor=actor,
                    trust=trust,
                    payload=dict(payload),
                    created_at=now,
                )
                for payload in payloads
            ]
        )


__all__ = [
    "PAYLOAD_MODELS",
    "AssistantMessageCreated",
    "ContextPlanned",
    "EventPayload",
    "EventType",
    "EventWriter",
    "FactRecord",
    "MemoryCited",
    "MemoryDecayed",
    "MemoryForgotten",
    "MemoryFormed",
    "MemoryNeedsConfirmation",
    "MemoryRecalled",
    "MemoryReinforced",
    "MemoryRejected",
    "MemoryRetired",
    "MemorySuperseded",
    "ModelCalled",
    "RunCompleted",
    "RunHookFailed",
    "RunLimitsRecord",
    "RunStarted",
    "SessionClosed",
    "SessionOpened",
    "ToolCalled",
    "UsageRecord",
    "UserMessageCreated",
    "WorkingStateUpdated",
]
