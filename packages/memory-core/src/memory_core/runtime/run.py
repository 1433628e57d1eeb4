"""``RunService``: one agent turn, from the user's prompt to a final message or a typed stop.

``submit(prompt, session_id)``:

1. appends ``run.started`` and the user's ``user.message.created`` (the turn id is that
   event's id);
2. recalls in-turn memory at the session's project scope and appends ``memory.recalled``;
   when the principal's store head has moved past the session's snapshot watermark and the
   snapshot trace is readable, also reads the correction lines and issues the recall delta
   within what the base recall left (``memory.recalled``, moment ``delta``);
3. builds the context (prefix = system instructions + the session's frozen snapshot block,
   whose digest never changes within the session; body = history, correction lines, base
   and delta blocks, the turn) and appends ``context.planned`` (with the corrected ids);
4. calls the model within the run limits, appending ``model.called`` per call and running the
   enabled memory tools the model asks for;
5. ends with a final message (``assistant.message.created``) or a typed terminal status, and
   appends ``run.completed`` with the status and the compiled policy version;
6. runs the completion hooks, each in its own error boundary.

Terminal statuses (``RunStatus``): ``completed``, ``budget_exhausted`` (tokens or cost),
``step_exhausted`` (still calling tools after ``max_steps``), ``context_overflow`` (the fixed
context does not fit), ``permanent_model_error`` (also a reply cut at the output-token limit,
``error_class`` ``TruncatedReply``), ``failed`` (anything else; ``error_class``
names the exception type, never its message). Logged failures name the exception type only,
too: an exception's message may quote what the user said.

A call whose cost is unknown (``cost_known=False``: no price, or no usage reported) makes the
run's cost unknown too (``Run.cost_known``), never free: under a finite ``max_cost_usd`` the run
makes no further call after it (``budget_exhausted``, ``error_class`` ``CostUnknown``).
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from memory_core.base.events import EventType, EventWriter
from memory_core.base.model import (
    Message,
    Model,
    PermanentModelError,
    Usage,
)
from memory_core.clock import Clock
from memory_core.domain import Event, JsonValue, Principal, Session, Trust
from memory_core.errors import NotFoundError, SessionClosedError, UsageError
from memory_core.formation.usage import UsageResult
from memory_core.ids import IdFactory
from memory_core.ports import Storage
from memory_core.recording import record_message
from memory_core.retrieval import Corrections, RecallRequest, RecallResult
from memory_core.runtime.context import BuiltContext, ContextBuilder, ContextOverflowError
from memory_core.runtime.failure import ModelFailure, model_failure
from memory_core.runtime.policy_profile import PolicyProfile
from memory_core.runtime.tools import ToolContext, ToolExecutor
from memory_core.text_gate import MAX_MESSAGE_BYTES, check_message_text

_log = logging.getLogger(__name__)


class RunStatus(StrEnum):
    """How a run ended."""

    COMPLETED = "completed"
    BUDGET_EXHAUSTED = "budget_exhausted"
    STEP_EXHAUSTED = "step_exhausted"
    CONTEXT_OVERFLOW = "context_overflow"
    PERMANENT_MODEL_ERROR = "permanent_model_error"
    FAILED = "failed"


@dataclass(frozen=True, kw_only=True)
class Run:
    """The record of one submitted turn.

    Attributes:
        run_id: The run's id (also on every event it wrote).
        session_id: The session the run belongs to.
        principal: Whose run it was.
        status: How it ended.
        final_message: The model's final text when ``status`` is ``completed``, else ``None``.
        steps: Model calls made.
        usage: Tokens summed over the calls.
        cost_usd: Cost summed over the calls (an estimate when ``cost_known`` is false).
        error_class: The exception class behind a failed status, else ``None``.
        policy_profile: Name of the runtime policy profile.
        policy_version: Compiled version (digest) of the policy profile.
        turn_id: Id of the run's ``user.message.created`` event.
        snapshot_id: Trace id of the session's snapshot recall.
        prefix_digest: sha256 of the cached prefix (``None`` when no context was built).
        trace_ids: Ids of the run's in-turn recall traces.
        started_at: When the run began.
        completed_at: When it ended.
        usage_feedback: What usage feedback recorded (citations, ambiguous ids), or ``None``
            when it did not run (no recorder, no final message, or it failed).
        cost_known: False when any call's cost was unknown (no price or no usage reported).
        error_status: The HTTP status of the failed model call behind the status, if any.
        error_body: A bounded, secret-masked excerpt of that call's reply body, if any.
    """

    run_id: str
    session_id: str
    principal: Principal
    status: RunStatus
    final_message: str | None
    steps: int
    usage: Usage
    cost_usd: float
    error_class: str | None
    policy_profile: str
    policy_version: str
    turn_id: str
    snapshot_id: str | None
    prefix_digest: str | None
    trace_ids: tuple[str, ...]
    started_at: datetime
    completed_at: datetime
    usage_feedback: UsageResult | None = None
    cost_known: bool = True
    error_status: int | None = None
    error_body: str | None = None

    @property
    def completed(self) -> bool:
        """True when the run ended with a final message."""
        return self.status is RunStatus.COMPLETED


CompletionHook = Callable[[Run], None]
"""Called with every finished run, after ``run.completed``; failures are recorded, not raised."""


class UsageRecorder(Protocol):
    """Usage feedback on run completion (``GovernedMemoryService`` satisfies it)."""

    def record_usage(
        self,
        *,
        run_id: str,
        session_id: str,
        final_message: str,
        trace_ids: Sequence[str],
        principal: Principal | None = None,
    ) -> UsageResult:
        """Credit the beliefs the final message cites; charge the rest the run was shown."""
        ...


class Recaller(Protocol):
    """What the runtime needs from retrieval (``MemoryRetriever`` satisfies it)."""

    def recall(self, request: RecallRequest) -> RecallResult:
        """Recall beliefs for ``request`` and record its trace."""
        ...

    def recall_delta(
        self, base_request: RecallRequest, base: RecallResult, *, watermark: int
    ) -> RecallResult | None:
        """The turn's recall delta past ``watermark`` within what ``base`` left, or ``None``."""
        ...

    def corrections(
        self,
        snapshot_id: str | None,
        watermark: int,
        as_of: datetime | None = None,
        *,
        principal: Principal,
    ) -> Corrections:
        """Correction lines for the snapshot members that no longer hold."""
        ...


@dataclass
class _Progress:
    steps: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True
    prefix_digest: str | None = None
    final_message: str | None = None
    error_class: str | None = None
    failure: ModelFailure | None = None

    def model_failed(self, run_id: str, exc: BaseException) -> None:
        """Record a failed model call: its class, HTTP status and body excerpt, and log it."""
        self.error_class = type(exc).__name__
        self.failure = model_failure(exc)
        _log.warning(
            "run %s failed calling the model: %s status=%s body=%r",
            run_id,
            self.error_class,
            self.failure.status,
            self.failure.body,
        )

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


def _failure_fields(failure: ModelFailure | None) -> dict[str, JsonValue]:
    """The ``run.completed`` fields of a failed model call (none when no call failed)."""
    if failure is None:
        return {}
    return {"error_status": failure.status, "error_body": failure.body}


def session_transcript(events: Sequence[Event]) -> tuple[str, list[Message]]:
    """The frozen snapshot block and the user/assistant history recorded in a session's events.

    Returns:
        The snapshot block of the session's ``session.opened`` event (``""`` when there is
        none) and the messages of its ``user.message.created`` and
        ``assistant.message.created`` events, in order.
    """
    snapshot_block = ""
    history: list[Message] = []
    for event in events:
        if event.event_type == EventType.SESSION_OPENED:
            block = event.payload.get("snapshot_block", "")
            snapshot_block = block if isinstance(block, str) else ""
        elif event.event_type in (
            EventType.USER_MESSAGE_CREATED,
            EventType.ASSISTANT_MESSAGE_CREATED,
        ):
            text = event.payload.get("text")
            if isinstance(text, str):
                if event.event_type == EventType.USER_MESSAGE_CREATED:
                    history.append(Message(role="user", content=text))
                else:
                    history.append(Message(role="assistant", content=text))
    return snapshot_block, history


class RunService:
    """Submits user turns to the model with memory recalled into the context."""

    def __init__(
        self,
        *,
        storage: Storage,
        clock: Clock,
        ids: IdFactory,
        writer: EventWriter,
        recaller: Recaller,
        model: Model | None,
        tools: ToolExecutor,
        context: ContextBuilder,
        policy: PolicyProfile,
        principal: Principal,
        completion_hooks: Sequence[CompletionHook] = (),
        usage_recorder: UsageRecorder | None = None,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
    ) -> None:
        self._usage_recorder = usage_recorder
        self._max_message_bytes = max_message_bytes  # the sessions' bound on one prompt
        self._storage = storage
        self._clock = clock
        self._ids = ids
        self._writer = writer
        self._recaller = recaller
        self._model = model
        self._tools = tools
        self._context = context
        self._policy = policy
        self._principal = principal
        self.completion_hooks: list[CompletionHook] = list(completion_hooks)
        """Hooks run after every run completes (later: usage feedback); append to add one."""

    @property
    def policy(self) -> PolicyProfile:
        """The effective policy profile every run records."""
        return self._policy

    @property
    def model(self) -> Model | None:
        """The model runs call (``None`` when the composition was built without one)."""
        return self._model

    def submit(self, prompt: str, session_id: str, *, principal: Principal | None = None) -> Run:
        """Run one user turn in an open session and return how it ended.

        Raises:
            UsageError: no model is configured, the prompt is empty, or the session is closed.
            NotFoundError: the session does not exist for the principal.
        """
        if self._model is None:
            raise UsageError(
                "this composition has no model; pass model= or script= to bootstrap.build()"
            )
        # the sessions' input gate, before any write
        check_message_text(prompt, field="prompt", max_bytes=self._max_message_bytes)
        who = principal or self._principal
        session = self._open_session(who, session_id)
        run_id = self._ids.new_id()
        started_at = self._clock.now()
        limits = self._policy.limits
        self._append(
            EventType.RUN_STARTED,
            session,
            run_id,
            {
                "policy_profile": self._policy.name,
                "policy_version": self._policy.compiled_version,
                "provider": self._model.provider,
                "model": self._model.model_name,
                "enabled_tools": list(self._tools.enabled_tools),
                "limits": {
                    "max_steps": limits.max_steps,
                    "max_tokens": limits.max_tokens,
                    # JSON has no infinity: an unlimited cost limit is recorded as null.
                    "max_cost_usd": (
                        limits.max_cost_usd if math.isfinite(limits.max_cost_usd) else None
                    ),
                },
            },
        )
        earlier = self._storage.events.read_session(who, session_id)
        snapshot_block, history = session_transcript(earlier)
        # event + session activity in one unit, refused if a close committed meanwhile
        user_event = record_message(
            self._storage,
            self._writer,
            self._clock,
            principal=who,
            session_id=session_id,
            event_type=EventType.USER_MESSAGE_CREATED,
            text=prompt,
            actor="user",
            trust=Trust.USER,
            run_id=run_id,
            max_bytes=self._max_message_bytes,
            field="prompt",
        )
        turn_id = user_event.event_id

        base_request = RecallRequest(
            principal=who,
            moment="in_turn",
            text=prompt,
            project_scope=session.metadata.project_scope,
            session_id=session_id,
            run_id=run_id,
            turn_id=turn_id,
        )
        recalled = self._recaller.recall(base_request)
        self._append(
            EventType.MEMORY_RECALLED,
            session,
            run_id,
            {"trace_id": recalled.trace.trace_id, "moment": "in_turn", "turn_id": turn_id},
        )
        delta, corrections = self._since_snapshot(session, run_id, base_request, recalled)
        recall_blocks = [r.block for r in (recalled, delta) if r is not None and r.block]
        trace_ids = tuple(r.trace.trace_id for r in (recalled, delta) if r is not None)

        progress = _Progress()
        status = self._loop(
            session=session,
            run_id=run_id,
            turn_id=turn_id,
            prompt=prompt,
            snapshot_block=snapshot_block,
            history=history,
            recall_blocks=recall_blocks,
            corrections=corrections,
            progress=progress,
        )
        if status is RunStatus.COMPLETED and progress.final_message is not None:
            self._writer.append(
                EventType.ASSISTANT_MESSAGE_CREATED,
                principal=who,
                session_id=session_id,
                run_id=run_id,
                actor="assistant",
                trust=Trust.SYSTEM,
                payload={"text": progress.final_message},
            )
        usage = Usage(input_tokens=progress.input_tokens, output_tokens=progress.output_tokens)
        self._append(
            EventType.RUN_COMPLETED,
            session,
            run_id,
            {
                "status": status.value,
                "policy_profile": self._policy.name,
                "policy_version": self._policy.compiled_version,
                "steps": progress.steps,
                "usage": {
                    "input_tokens": usage.input_tokens,
                    "output_tokens": usage.output_tokens,
                },
                "cost_usd": progress.cost_usd,
                "cost_known": progress.cost_known,
                "error_class": progress.error_class,
                **_failure_fields(progress.failure),
            },
        )
        self._touch(session)
        _log.info(
            "run %s in session %s ended %s after %d steps (%d tokens)",
            run_id,
            session_id,
            status.value,
            progress.steps,
            usage.input_tokens + usage.output_tokens,
        )
        run = Run(
            run_id=run_id,
            session_id=session_id,
            principal=who,
            status=status,
            final_message=progress.final_message if status is RunStatus.COMPLETED else None,
            steps=progress.steps,
            usage=usage,
            cost_usd=progress.cost_usd,
            error_class=progress.error_class,
            policy_profile=self._policy.name,
            policy_version=self._policy.compiled_version,
            turn_id=turn_id,
            snapshot_id=session.snapshot_id,
            prefix_digest=progress.prefix_digest,
            trace_ids=trace_ids,
            started_at=started_at,
            completed_at=self._clock.now(),
            cost_known=progress.cost_known,
            error_status=progress.failure.status if progress.failure else None,
            error_body=progress.failure.body if progress.failure else None,
        )
        if run.completed and run.final_message:
            run = replace(run, usage_feedback=self._record_usage(run, session))
        self._run_hooks(run, session)
        return run

    def _loop(
        self,
        *,
        session: Session,
        run_id: str,
        turn_id: str,
        prompt: str,
        snapshot_block: str,
        history: list[Message],
        recall_blocks: list[str],
        corrections: Corrections | None,
        progress: _Progress,
    ) -> RunStatus:
        assert self._model is not None
        limits = self._policy.limits
        specs = self._tools.specs()
        exchange: list[Message] = []
        tool_context = ToolContext(
            principal=session.principal,
            session_id=session.id,
            run_id=run_id,
            source_event_id=turn_id,
        )
        while progress.steps < limits.max_steps:
            try:
                built = self._context.build(
                    snapshot_block=snapshot_block,
                    user_turn=prompt,
                    history=history,
                    corrections=[corrections.block] if corrections and corrections.lines else [],
                    recall_blocks=recall_blocks,
                    exchange=exchange,
                    tools=specs,
                )
            except ContextOverflowError as exc:
                progress.error_class = type(exc).__name__
                return RunStatus.CONTEXT_OVERFLOW
            if progress.prefix_digest is None:
                progress.prefix_digest = built.prefix_digest
                self._plan_event(session, run_id, turn_id, built, corrections)
            if progress.tokens + built.total_tokens > limits.max_tokens:
                return RunStatus.BUDGET_EXHAUSTED
            try:
                response = self._model.complete(built.messages, specs)
            except PermanentModelError as exc:
                progress.model_failed(run_id, exc)
                return RunStatus.PERMANENT_MODEL_ERROR
            except Exception as exc:  # the run's error boundary: any failure is typed
                progress.model_failed(run_id, exc)
                return RunStatus.FAILED
            progress.steps += 1
            progress.input_tokens += response.usage.input_tokens
            progress.output_tokens += response.usage.output_tokens
            progress.cost_usd += response.cost_usd
            progress.cost_known = progress.cost_known and response.cost_known
            self._append(
                EventType.MODEL_CALLED,
                session,
                run_id,
                {
                    "step": progress.steps,
                    "prefix_digest": built.prefix_digest,
                    "provider": response.provider,
                    "model": response.model,
                    "usage": {
                        "input_tokens": response.usage.input_tokens,
                        "output_tokens": response.usage.output_tokens,
                    },
                    "cost_usd": response.cost_usd,
                    "cost_known": response.cost_known,
                    "finish_reason": response.finish_reason.value,
                    "tool_calls": [call.name for call in response.tool_calls],
                    "context_tokens": built.total_tokens,
                    "recall_blocks_dropped": built.recall_blocks_dropped,
                },
            )
            if progress.tokens > limits.max_tokens or progress.cost_usd > limits.max_cost_usd:
                return RunStatus.BUDGET_EXHAUSTED
            if response.truncated:
                progress.error_class = "TruncatedReply"
                return RunStatus.PERMANENT_MODEL_ERROR
            if not response.tool_calls:
                if response.text is None:
                    progress.error_class = "EmptyModelReply"
                    return RunStatus.PERMANENT_MODEL_ERROR
                progress.final_message = response.text
                return RunStatus.COMPLETED
            if not progress.cost_known and math.isfinite(limits.max_cost_usd):
                progress.error_class = "CostUnknown"  # another call could cross the limit unseen
                return RunStatus.BUDGET_EXHAUSTED
            exchange.append(
                Message(
                    role="assistant", content=response.text or "", tool_calls=response.tool_calls
                )
            )
            for call in response.tool_calls:
                try:
                    result = self._tools.execute(call, tool_context)
                except Exception as exc:  # a tool failing ends the run as failed, typed
                    progress.error_class = type(exc).__name__
                    _log.warning("run %s tool %s failed: %s", run_id, call.name, type(exc).__name__)
                    return RunStatus.FAILED
                self._append(
                    EventType.TOOL_CALLED,
                    session,
                    run_id,
                    {
                        "step": progress.steps,
                        "tool": result.tool,
                        "call_id": result.call_id,
                        "ok": result.ok,
                    },
                )
                exchange.append(
                    Message(role="tool", content=result.content, tool_call_id=result.call_id)
                )
        return RunStatus.STEP_EXHAUSTED

    def _since_snapshot(
        self, session: Session, run_id: str, base_request: RecallRequest, base: RecallResult
    ) -> tuple[RecallResult | None, Corrections | None]:
        """The turn's recall delta and correction lines (see ``retrieval.lifecycle``).

        Nothing can lie past the watermark while the principal's head has not moved, so a
        quiet session reads one head position and issues neither; an unrecorded or expired
        snapshot trace yields neither either.
        """
        who = session.principal
        watermark = session.snapshot_watermark
        if session.snapshot_id is None or self._storage.memories.head_position(who) <= watermark:
            return None, None
        corrections = self._recaller.corrections(
            session.snapshot_id, watermark, self._clock.now(), principal=who
        )
        if not corrections.snapshot_readable:
            return None, None
        delta = self._recaller.recall_delta(base_request, base, watermark=watermark)
        if delta is not None:
            self._append(
                EventType.MEMORY_RECALLED,
                session,
                run_id,
                {
                    "trace_id": delta.trace.trace_id,
                    "moment": "delta",
                    "turn_id": base_request.turn_id,
                },
            )
        return delta, corrections

    def _plan_event(
        self,
        session: Session,
        run_id: str,
        turn_id: str,
        built: BuiltContext,
        corrections: Corrections | None,
    ) -> None:
        self._append(
            EventType.CONTEXT_PLANNED,
            session,
            run_id,
            {
                "snapshot_id": session.snapshot_id,
                "snapshot_watermark": session.snapshot_watermark,
                "prefix_digest": built.prefix_digest,
                "turn_id": turn_id,
                "budget_tokens": built.budget_tokens,
                "total_tokens": built.total_tokens,
                "history_dropped": built.history_dropped,
                "recall_blocks_kept": built.recall_blocks_kept,
                "recall_blocks_dropped": built.recall_blocks_dropped,
                "corrections": list(corrections.belief_ids) if corrections else [],
            },
        )

    def _append(
        self, event_type: EventType, session: Session, run_id: str, payload: dict[str, JsonValue]
    ) -> Event:
        return self._writer.append(
            event_type,
            principal=session.principal,
            session_id=session.id,
            run_id=run_id,
            actor="runtime",
            trust=Trust.SYSTEM,
            payload=payload,
        )

    def _open_session(self, principal: Principal, session_id: str) -> Session:
        session = self._storage.sessions.get(principal, session_id)
        if session is None:
            raise NotFoundError(
                f"session {session_id} does not exist for principal "
                f"{principal.tenant_id}/{principal.principal_id}; create it with sessions.create()"
            )
        if not session.is_open:
            raise UsageError(f"session {session_id} is closed; open a new session to continue")
        return session

    def _touch(self, session: Session) -> None:
        # conditional: a session a close marked closed meanwhile stays closed
        with contextlib.suppress(SessionClosedError):
            self._storage.sessions.touch(session.principal, session.id, self._clock.now())

    def _record_usage(self, run: Run, session: Session) -> UsageResult | None:
        """Usage feedback in its own error boundary: a failure is recorded, never raised."""
        if self._usage_recorder is None or run.final_message is None:
            return None
        try:
            return self._usage_recorder.record_usage(
                run_id=run.run_id,
                session_id=run.session_id,
                final_message=run.final_message,
                trace_ids=run.trace_ids,
                principal=run.principal,
            )
        except Exception as exc:
            _log.warning("usage feedback failed on run %s: %s", run.run_id, type(exc).__name__)
            self._append(
                EventType.RUN_HOOK_FAILED,
                session,
                run.run_id,
                {"hook": "usage_feedback", "error_class": type(exc).__name__},
            )
            return None

    def _run_hooks(self, run: Run, session: Session) -> None:
        for hook in self.completion_hooks:
            try:
                hook(run)
            except Exception as exc:  # each hook has its own error boundary
                name = getattr(hook, "__qualname__", type(hook).__name__)
                _log.warning(
                    "completion hook %s failed on run %s: %s",
                    name,
                    run.run_id,
                    type(exc).__name__,
                )
                self._append(
                    EventType.RUN_HOOK_FAILED,
                    session,
                    run.run_id,
                    {"hook": name, "error_class": type(exc).__name__},
                )
