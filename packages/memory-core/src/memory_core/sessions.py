"""``SessionService``: open sessions with a frozen memory snapshot, record messages, close them.

Opening a session recalls the memory snapshot once (moment ``snapshot``), sets ``snapshot_id``
to its trace and ``snapshot_watermark`` to the principal's memory head position at that instant,
and writes ``session.opened`` carrying the rendered snapshot block and the session's kind. That
block is the frozen part of every model call's prefix for the whole session. Its item and token
budget follows the kind (``metadata.kind``, a :class:`~memory_core.domain.SessionKind`): an
``interactive`` session (the default) takes the context plan's ``snapshot`` budget, an ``async``
one ``profiles.snapshot.async`` and a ``child`` one ``profiles.snapshot.child``.

Closing a session consolidates its unprocessed user messages through governed formation at the
session's own scope (``project:<name>`` inside a project, else ``general``; portable beliefs
still travel at ``user`` scope, as formation decides) when
``profiles.formation.session_boundary_enabled`` is true, then marks it closed and writes
``session.closed``. ``sweep_idle`` closes every open session idle for ``SESSION_IDLE_SECONDS``
the same way (trigger ``idle_sweep``).

Recording (``record_user_message``, ``record_assistant_message``) goes through
:func:`memory_core.recording.record_message`: the text passes the input gate
(:mod:`memory_core.text_gate`: no NUL, no surrogate, at most ``max_message_bytes``, default
64 KiB, visible text), then the event and the session's activity are written in one unit of work
with a conditional update, so a record on a closed session is refused with
``SessionClosedError`` and never reopens it; an optional ``idempotency_key`` makes a retried
record store once.

A session closes once, however many workers try, and a close forms every user message recorded
before it committed; one recorded after is refused, never silently dropped
(:mod:`memory_core.session_close` says how).

``sweep_idle`` isolates failures: a session whose close raises is counted and logged (with its
principal) and the sweep goes on with the next (a keyset cursor steps past it), so one poisoned
session never keeps another principal's idle sessions open.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError

from memory_core._config import validation_problems
from memory_core.base.events import EventType, EventWriter
from memory_core.base.working_state import WorkingState
from memory_core.clock import Clock
from memory_core.domain import Event, Principal, Session, SessionKind, SessionMetadata, Trust
from memory_core.errors import NotFoundError, SessionKindError, UsageError
from memory_core.ids import IdFactory
from memory_core.policy import SESSION_IDLE_SECONDS
from memory_core.ports import Storage
from memory_core.profiles import Budget, MemoryProfiles
from memory_core.recording import record_message
from memory_core.retrieval import RecallRequest
from memory_core.runtime.run import Recaller, session_transcript
from memory_core.runtime.working_state import WorkingStateService
from memory_core.session_close import (
    CLOSE_ATTEMPTS,
    CloseTrigger,
    ConsolidationCounts,
    Consolidator,
    SessionCloser,
    SessionClosure,
    SweepFailure,
    SweepReport,
    sweep_failure,
)
from memory_core.text_gate import MAX_MESSAGE_BYTES


class SessionService:
    """Sessions of one composition: open with a snapshot, record messages, close with formation."""

    def __init__(
        self,
        *,
        storage: Storage,
        clock: Clock,
        ids: IdFactory,
        writer: EventWriter,
        recaller: Recaller,
        consolidator: Consolidator,
        profiles: MemoryProfiles,
        snapshot_budget: Budget,
        principal: Principal,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
    ) -> None:
        if max_message_bytes < 1:
            raise UsageError(
                f"max_message_bytes must be at least 1, got {max_message_bytes}; pass the "
                f"bound on one message's UTF-8 size (default {MAX_MESSAGE_BYTES})"
            )
        self._max_message_bytes = max_message_bytes
        self._storage = storage
        self._clock = clock
        self._ids = ids
        self._writer = writer
        self._recaller = recaller
        self._consolidator = consolidator
        self._profiles = profiles
        self._snapshot_budget = snapshot_budget
        self._principal = principal
        self._working_state = WorkingStateService(events=storage.events, writer=writer)
        self._closer = SessionCloser(
            storage=storage,
            clock=clock,
            writer=writer,
            consolidator=consolidator,
            profiles=profiles,
        )

    @property
    def max_message_bytes(self) -> int:
        """The bound on one recorded message's UTF-8 size."""
        return self._max_message_bytes

    @property
    def default_principal(self) -> Principal:
        """The principal used when a call names none."""
        return self._principal

    def snapshot_budget(self, kind: SessionKind = SessionKind.INTERACTIVE) -> Budget:
        """The budget of the snapshot a session of ``kind`` recalls at open.

        ``interactive``: the context plan's ``snapshot``; ``async`` and ``child``: the memory
        profile's ``snapshot.async`` and ``snapshot.child``.
        """
        if kind is SessionKind.ASYNC:
            return self._profiles.snapshot.async_
        if kind is SessionKind.CHILD:
            return self._profiles.snapshot.child
        return self._snapshot_budget

    def create(
        self,
        *,
        principal: Principal | None = None,
        agent: str = "general",
        metadata: Mapping[str, Any] | SessionMetadata | None = None,
    ) -> Session:
        """Open a session: recall and freeze its memory snapshot, and record ``session.opened``.

        Args:
            principal: Whose session (the composition's principal when ``None``).
            agent: The agent the session belongs to.
            metadata: Session metadata; ``{"project_scope": "orbit-app"}`` places the session
                in a project (``None`` or absent: no project), and ``{"kind": "async"}`` or
                ``{"kind": "child"}`` marks a background run or a sub-agent session, whose
                snapshot takes that kind's budget (absent: ``interactive``).

        Raises:
            SessionKindError: ``metadata.kind`` is not a session kind (nothing is written).
            UsageError: the metadata has an unknown key or an invalid project name.
        """
        who = principal or self._principal
        if not agent:
            raise UsageError("a session needs a non-empty agent name")
        meta = self._metadata(metadata)
        session_id = self._ids.new_id()
        now = self._clock.now()
        watermark = self._storage.memories.head_position(who)
        budget = self.snapshot_budget(meta.kind)
        snapshot = self._recaller.recall(
            RecallRequest(
                principal=who,
                moment="snapshot",
                project_scope=meta.project_scope,
                session_id=session_id,
                max_items=budget.max_items,
                max_tokens=budget.max_tokens,
            )
        )
        session = self._storage.sessions.create(
            Session(
                id=session_id,
                tenant_id=who.tenant_id,
                principal_id=who.principal_id,
                agent=agent,
                metadata=meta,
                snapshot_id=snapshot.trace.trace_id,
                snapshot_watermark=watermark,
                opened_at=now,
                last_activity_at=now,
            )
        )
        self._writer.append(
            EventType.MEMORY_RECALLED,
            principal=who,
            session_id=session_id,
            actor="runtime",
            trust=Trust.SYSTEM,
            payload={"trace_id": snapshot.trace.trace_id, "moment": "snapshot", "turn_id": None},
        )
        self._writer.append(
            EventType.SESSION_OPENED,
            principal=who,
            session_id=session_id,
            actor="runtime",
            trust=Trust.SYSTEM,
            payload={
                "agent": agent,
                "kind": meta.kind.value,
                "project_scope": meta.project_scope,
                "snapshot_id": snapshot.trace.trace_id,
                "snapshot_watermark": watermark,
                "snapshot_block": snapshot.block,
            },
        )
        return session

    def get(self, session_id: str, *, principal: Principal | None = None) -> Session:
        """Return the principal's session.

        Raises:
            NotFoundError: no such session for the principal.
        """
        who = principal or self._principal
        session = self._storage.sessions.get(who, session_id)
        if session is None:
            raise NotFoundError(
                f"session {session_id} does not exist for principal "
                f"{who.tenant_id}/{who.principal_id}"
            )
        return session

    def snapshot_block(self, session_id: str, *, principal: Principal | None = None) -> str:
        """The rendered memory snapshot frozen into the session's prefix (``""`` if empty)."""
        who = principal or self._principal
        self.get(session_id, principal=who)
        block, _ = session_transcript(self._storage.events.read_session(who, session_id))
        return block

    def record_user_message(
        self,
        session_id: str,
        text: str,
        *,
        principal: Principal | None = None,
        idempotency_key: str | None = None,
    ) -> Event:
        """Record a user's message (a formation source) in an open session, atomically.

        Args:
            session_id: The open session.
            text: The message; it must pass the input gate (:mod:`memory_core.text_gate`).
            principal: Whose session (the composition's principal when ``None``).
            idempotency_key: A client id for this message: a retry with the same key returns
                the event already stored instead of storing it again.

        Raises:
            MessageTextError: the text is refused by the input gate (nothing is written).
            SessionClosedError: the session is closed (nothing is written).
            NotFoundError: no such session for the principal.
            ConflictError: the key was used in this session for a different message.
        """
        return self._record(
            session_id, text, principal, EventType.USER_MESSAGE_CREATED, None, idempotency_key
        )

    def record_assistant_message(
        self,
        session_id: str,
        text: str,
        *,
        principal: Principal | None = None,
        run_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Event:
        """Record the assistant's reply in an open session (never a formation source).

        Same contract as :meth:`record_user_message`.

        Raises:
            MessageTextError: the text is refused by the input gate (nothing is written).
            SessionClosedError: the session is closed (nothing is written).
            NotFoundError: no such session for the principal.
            ConflictError: the key was used in this session for a different message.
        """
        return self._record(
            session_id,
            text,
            principal,
            EventType.ASSISTANT_MESSAGE_CREATED,
            run_id,
            idempotency_key,
        )

    def working_state(self, session_id: str, *, principal: Principal | None = None) -> WorkingState:
        """The facts established in the session so far."""
        who = principal or self._principal
        self.get(session_id, principal=who)
        return self._working_state.get(who, session_id)

    def establish_fact(
        self,
        session_id: str,
        statement: str,
        source_event_ids: Sequence[str],
        *,
        principal: Principal | None = None,
    ) -> WorkingState:
        """Add a fact the agent established, with the events it rests on, to the working state.

        Raises:
            UsageError: the statement is empty.
            SessionClosedError: the session is closed (nothing is written).
            NotFoundError: no such session for the principal.
        """
        who = principal or self._principal
        with self._storage.unit_of_work():
            self._storage.sessions.touch(who, session_id, self._clock.now())
            return self._working_state.establish(who, session_id, statement, source_event_ids)

    def close(self, session_id: str, *, principal: Principal | None = None) -> SessionClosure:
        """Close a session, consolidating its user messages at the session's own scope.

        Every user message recorded before the close commits is consolidated; one recorded
        after is refused (``SessionClosedError``). Closing an already closed session changes
        nothing and reports no consolidation (``already_closed`` is true).
        """
        session = self.get(session_id, principal=principal)
        return self._closer.close(session, "session_close")

    def sweep_idle(self, *, batch_size: int = 100) -> int:
        """Close every open session idle for ``SESSION_IDLE_SECONDS``; return how many closed.

        A session whose close fails is logged and skipped (see :meth:`sweep_idle_report`).

        Raises:
            UsageError: ``batch_size`` is below 1.
        """
        return self.sweep_idle_report(batch_size=batch_size).closed

    def sweep_idle_report(self, *, batch_size: int = 100) -> SweepReport:
        """Close every open session idle for ``SESSION_IDLE_SECONDS``, isolating failures.

        Reads the idle sessions (of every principal) ``batch_size`` at a time with a keyset
        cursor. Each close runs on its own: one that raises is counted, logged with its
        principal and session, and the sweep goes on, so a poisoned session never blocks
        another's. Does nothing when ``formation.session_boundary_enabled`` is false.

        Raises:
            UsageError: ``batch_size`` is below 1.
        """
        if batch_size < 1:
            raise UsageError(
                f"sweep_idle batch_size must be at least 1, got {batch_size}; pass the number "
                "of idle sessions to read per batch (default 100)"
            )
        if not self._profiles.formation.session_boundary_enabled:
            return SweepReport(closed=0)
        cutoff = self._clock.now() - timedelta(seconds=SESSION_IDLE_SECONDS)
        closed = 0
        failures: list[SweepFailure] = []
        after: tuple[datetime, str] | None = None
        while True:
            idle = self._storage.sessions.list_open_idle(cutoff, limit=batch_size, after=after)
            for session in idle:
                try:
                    if not self._closer.close(session, "idle_sweep").already_closed:
                        closed += 1
                except Exception as exc:  # one session's failure is isolated from the rest
                    failures.append(sweep_failure(session, exc))
            if len(idle) < batch_size:
                return SweepReport(closed=closed, failures=tuple(failures))
            after = (idle[-1].last_activity_at, idle[-1].id)

    def _record(
        self,
        session_id: str,
        text: str,
        principal: Principal | None,
        event_type: EventType,
        run_id: str | None,
        idempotency_key: str | None,
    ) -> Event:
        is_user = event_type == EventType.USER_MESSAGE_CREATED
        return record_message(
            self._storage,
            self._writer,
            self._clock,
            principal=principal or self._principal,
            session_id=session_id,
            event_type=event_type,
            text=text,
            actor="user" if is_user else "assistant",
            trust=Trust.USER if is_user else Trust.SYSTEM,
            run_id=run_id,
            idempotency_key=idempotency_key,
            max_bytes=self._max_message_bytes,
        )

    @staticmethod
    def _metadata(metadata: Mapping[str, Any] | SessionMetadata | None) -> SessionMetadata:
        if metadata is None:
            return SessionMetadata()
        if isinstance(metadata, SessionMetadata):
            return metadata
        fields = dict(metadata)
        kind = fields.get("kind", SessionKind.INTERACTIVE)
        known = tuple(member.value for member in SessionKind)
        if not isinstance(kind, str) or kind not in known:
            raise SessionKindError(kind, known)
        try:
            return SessionMetadata.model_validate(fields)
        except ValidationError as exc:
            raise UsageError(
                f"invalid session metadata ({validation_problems(exc)}); "
                "the known keys are 'project_scope' and 'kind'"
            ) from exc


__all__ = [
    "CLOSE_ATTEMPTS",
    "CloseTrigger",
    "ConsolidationCounts",
    "Consolidator",
    "SessionClosure",
    "SessionService",
    "SweepFailure",
    "SweepReport",
]
