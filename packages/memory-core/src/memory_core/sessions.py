"""``SessionService``: open sessions with a frozen memory snapshot, record messages, close them.

Opening a session recalls the memory snapshot once (moment ``snapshot``, budget from the context
plan), sets ``snapshot_id`` to its trace and ``snapshot_watermark`` to the principal's memory
head position at that instant, and writes ``session.opened`` carrying the rendered snapshot
block. That block is the frozen part of every model call's prefix for the whole session.

Closing a session consolidates its unprocessed user messages through governed formation at the
session's own scope (``project:<name>`` inside a project, else ``general``; portable beliefs
still travel at ``user`` scope, as formation decides) when
``profiles.formation.session_boundary_enabled`` is true, then marks it closed and writes
``session.closed``. ``sweep_idle`` closes every open session idle for ``SESSION_IDLE_SECONDS``
the same way (trigger ``idle_sweep``).

A session closes once, however many workers try: a close re-reads the session before it
consolidates and again inside the unit of work that marks it closed and writes
``session.closed``, and stands down (``already_closed``) when another close got there first.
Consolidation itself runs outside that unit, so no storage lock is held while a provider
extractor calls its model; formation serializes concurrent consolidations of a session by its
watermark, so the loser's consolidation finds nothing left to form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, Protocol

from pydantic import ValidationError

from memory_core._config import validation_problems
from memory_core.clock import Clock
from memory_core.domain import Event, Principal, Session, SessionMetadata, Trust, scope_for_project
from memory_core.errors import NotFoundError, UsageError
from memory_core.formation.service import ConsolidationResult
from memory_core.ids import IdFactory
from memory_core.policy import SESSION_IDLE_SECONDS
from memory_core.ports import Storage
from memory_core.profiles import Budget, MemoryProfiles
from memory_core.retrieval import RecallRequest
from memory_core.runtime.events import (
    ASSISTANT_MESSAGE_CREATED,
    MEMORY_RECALLED,
    SESSION_CLOSED,
    SESSION_OPENED,
    USER_MESSAGE_CREATED,
    EventWriter,
)
from memory_core.runtime.run import Recaller, session_transcript
from memory_core.runtime.working_state import WorkingState, WorkingStateService

CloseTrigger = Literal["session_close", "idle_sweep"]


ConsolidationCounts = ConsolidationResult
"""What a close reports of its consolidation: formation's own ``ConsolidationResult``."""


class Consolidator(Protocol):
    """The formation entry point a close calls (``GovernedMemoryService`` satisfies it)."""

    def run(
        self, trigger: str, scope: str, session_id: str, *, principal: Principal | None = None
    ) -> ConsolidationCounts:
        """Consolidate the principal's session's unprocessed user events at ``scope``."""
        ...


@dataclass(frozen=True, kw_only=True)
class SessionClosure:
    """The outcome of closing a session.

    Attributes:
        session: The session record after the close.
        trigger: ``session_close`` or ``idle_sweep``.
        scope: The formation scope used (``project:<name>`` or ``general``).
        consolidation: The consolidation result, or ``None`` when formation at the session
            boundary is disabled or the session was already closed when the close began.
        already_closed: True when this close changed nothing because the session was (or,
            while this close consolidated, became) closed by another close.
    """

    session: Session
    trigger: str
    scope: str
    consolidation: ConsolidationCounts | None
    already_closed: bool = False


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
    ) -> None:
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

    @property
    def default_principal(self) -> Principal:
        """The principal used when a call names none."""
        return self._principal

    def create(
        self,
        principal: Principal | None = None,
        agent: str = "general",
        metadata: Mapping[str, Any] | SessionMetadata | None = None,
    ) -> Session:
        """Open a session: recall and freeze its memory snapshot, and record ``session.opened``.

        Args:
            principal: Whose session (the composition's principal when ``None``).
            agent: The agent the session belongs to.
            metadata: Session metadata; ``{"project_scope": "orbit-app"}`` places the session
                in a project (``None`` or absent: no project).

        Raises:
            UsageError: the metadata has an unknown key or an invalid project name.
        """
        who = principal or self._principal
        if not agent:
            raise UsageError("a session needs a non-empty agent name")
        meta = self._metadata(metadata)
        session_id = self._ids.new_id()
        now = self._clock.now()
        watermark = self._storage.memories.head_position(who)
        snapshot = self._recaller.recall(
            RecallRequest(
                principal=who,
                moment="snapshot",
                project_scope=meta.project_scope,
                session_id=session_id,
                max_items=self._snapshot_budget.max_items,
                max_tokens=self._snapshot_budget.max_tokens,
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
            MEMORY_RECALLED,
            principal=who,
            session_id=session_id,
            actor="runtime",
            trust=Trust.SYSTEM,
            payload={"trace_id": snapshot.trace.trace_id, "moment": "snapshot", "turn_id": None},
        )
        self._writer.append(
            SESSION_OPENED,
            principal=who,
            session_id=session_id,
            actor="runtime",
            trust=Trust.SYSTEM,
            payload={
                "agent": agent,
                "project_scope": meta.project_scope,
                "snapshot_id": snapshot.trace.trace_id,
                "snapshot_watermark": watermark,
                "snapshot_block": snapshot.block,
            },
        )
        return session

    def get(self, session_id: str, principal: Principal | None = None) -> Session:
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

    def snapshot_block(self, session_id: str, principal: Principal | None = None) -> str:
        """The rendered memory snapshot frozen into the session's prefix (``""`` if empty)."""
        who = principal or self._principal
        self.get(session_id, who)
        block, _ = session_transcript(self._storage.events.read_session(who, session_id))
        return block

    def record_user_message(
        self, session_id: str, text: str, principal: Principal | None = None
    ) -> Event:
        """Record a user's message (a formation source) in an open session.

        Raises:
            UsageError: the text is empty or the session is closed.
            NotFoundError: no such session for the principal.
        """
        return self._record(session_id, text, principal, USER_MESSAGE_CREATED, None)

    def record_assistant_message(
        self,
        session_id: str,
        text: str,
        principal: Principal | None = None,
        *,
        run_id: str | None = None,
    ) -> Event:
        """Record the assistant's reply in an open session (never a formation source).

        Raises:
            UsageError: the text is empty or the session is closed.
            NotFoundError: no such session for the principal.
        """
        return self._record(session_id, text, principal, ASSISTANT_MESSAGE_CREATED, run_id)

    def working_state(self, session_id: str, principal: Principal | None = None) -> WorkingState:
        """The facts established in the session so far."""
        who = principal or self._principal
        self.get(session_id, who)
        return self._working_state.get(who, session_id)

    def establish_fact(
        self,
        session_id: str,
        statement: str,
        source_event_ids: Sequence[str],
        principal: Principal | None = None,
    ) -> WorkingState:
        """Add a fact the agent established, with the events it rests on, to the working state.

        Raises:
            UsageError: the statement is empty or the session is closed.
        """
        who = principal or self._principal
        session = self._require_open(session_id, who)
        state = self._working_state.establish(who, session_id, statement, source_event_ids)
        self._touch(session)
        return state

    def close(self, session_id: str, principal: Principal | None = None) -> SessionClosure:
        """Close a session, consolidating its user messages at the session's own scope.

        Closing an already closed session changes nothing and reports no consolidation
        (``already_closed`` is true).
        """
        session = self.get(session_id, principal)
        return self._close(session, "session_close")

    def sweep_idle(self, *, batch_size: int = 100) -> int:
        """Close every open session idle for ``SESSION_IDLE_SECONDS``; return how many closed.

        Reads the idle sessions ``batch_size`` at a time. Does nothing (returns 0) when
        ``formation.session_boundary_enabled`` is false.

        Raises:
            UsageError: ``batch_size`` is below 1.
        """
        if batch_size < 1:
            raise UsageError(
                f"sweep_idle batch_size must be at least 1, got {batch_size}; pass the number "
                "of idle sessions to read per batch (default 100)"
            )
        if not self._profiles.formation.session_boundary_enabled:
            return 0
        cutoff = self._clock.now() - timedelta(seconds=SESSION_IDLE_SECONDS)
        closed = 0
        while True:
            idle = self._storage.sessions.list_open_idle(cutoff, limit=batch_size)
            for session in idle:
                if not self._close(session, "idle_sweep").already_closed:
                    closed += 1
            if len(idle) < batch_size:
                return closed

    def _close(self, session: Session, trigger: CloseTrigger) -> SessionClosure:
        scope = scope_for_project(session.metadata.project_scope)
        # ``session`` may be stale (listed by a sweep before another worker closed it).
        current = self._storage.sessions.get(session.principal, session.id) or session
        if not current.is_open:
            return SessionClosure(
                session=current,
                trigger=trigger,
                scope=scope,
                consolidation=None,
                already_closed=True,
            )
        consolidation: ConsolidationCounts | None = None
        if self._profiles.formation.session_boundary_enabled:
            consolidation = self._consolidator.run(
                trigger, scope, session.id, principal=session.principal
            )
        with self._storage.unit_of_work():
            # Re-read under the unit (the principal's lock on PostgreSQL): another close may
            # have finished while this one consolidated; its close and its event stand.
            current = self._storage.sessions.get(session.principal, session.id) or current
            if not current.is_open:
                return SessionClosure(
                    session=current,
                    trigger=trigger,
                    scope=scope,
                    consolidation=consolidation,
                    already_closed=True,
                )
            closed = self._close_now(current, trigger, scope, consolidation)
        return SessionClosure(
            session=closed, trigger=trigger, scope=scope, consolidation=consolidation
        )

    def _close_now(
        self,
        current: Session,
        trigger: CloseTrigger,
        scope: str,
        consolidation: ConsolidationCounts | None,
    ) -> Session:
        """Mark the session closed and write ``session.closed`` (inside the caller's unit)."""
        closed = self._storage.sessions.update(
            current.model_copy(update={"closed_at": self._clock.now()})
        )
        payload: dict[str, Any] = {"trigger": trigger, "scope": scope, "consolidated": False}
        if consolidation is not None:
            payload.update(
                consolidated=True,
                policy_version=consolidation.policy_version,
                proposed=consolidation.proposed,
                committed=consolidation.committed,
                reinforced=consolidation.reinforced,
                superseded=consolidation.superseded,
                conflicted=consolidation.conflicted,
                rejected=consolidation.rejected,
                ungrounded=consolidation.ungrounded,
                invalid_provenance=consolidation.invalid_provenance,
                refused_hazard=consolidation.refused_hazard,
                dropped_for_ceiling=consolidation.dropped_for_ceiling,
            )
        self._writer.append(
            SESSION_CLOSED,
            principal=current.principal,
            session_id=current.id,
            actor="runtime",
            trust=Trust.SYSTEM,
            payload=payload,
        )
        return closed

    def _record(
        self,
        session_id: str,
        text: str,
        principal: Principal | None,
        event_type: str,
        run_id: str | None,
    ) -> Event:
        if not text.strip():
            raise UsageError("a message needs non-empty text")
        who = principal or self._principal
        session = self._require_open(session_id, who)
        is_user = event_type == USER_MESSAGE_CREATED
        event = self._writer.append(
            event_type,
            principal=who,
            session_id=session_id,
            run_id=run_id,
            actor="user" if is_user else "assistant",
            trust=Trust.USER if is_user else Trust.SYSTEM,
            payload={"text": text},
        )
        self._touch(session)
        return event

    def _require_open(self, session_id: str, principal: Principal) -> Session:
        session = self.get(session_id, principal)
        if not session.is_open:
            raise UsageError(f"session {session_id} is closed; open a new session to continue")
        return session

    def _touch(self, session: Session) -> None:
        current = self._storage.sessions.get(session.principal, session.id) or session
        self._storage.sessions.update(
            current.model_copy(update={"last_activity_at": self._clock.now()})
        )

    @staticmethod
    def _metadata(metadata: Mapping[str, Any] | SessionMetadata | None) -> SessionMetadata:
        if metadata is None:
            return SessionMetadata()
        if isinstance(metadata, SessionMetadata):
            return metadata
        try:
            return SessionMetadata.model_validate(dict(metadata))
        except ValidationError as exc:
            raise UsageError(
                f"invalid session metadata ({validation_problems(exc)}); "
                "the known key is 'project_scope'"
            ) from exc
