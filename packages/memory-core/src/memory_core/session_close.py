"""Closing a session: consolidate, then mark it closed, losing no message recorded before.

A close runs consolidation outside any unit of work (no storage lock is held while a provider
extractor calls its model); then, in the unit that marks the session closed, it locks the
session (``SessionStore.lock``: a record, which touches the same session in its own unit,
waits) and checks for user messages past the formation watermark. If some arrived meanwhile,
the unit ends and the close consolidates again, at most :data:`CLOSE_ATTEMPTS` times; the
last pass consolidates inside the unit, holding the lock, so a busy session cannot starve its
close. The closed mark is a compare-and-set (``SessionStore.close``): of two closes only one
writes ``session.closed``; the other stands down (``already_closed``).

Also here: what an idle sweep reports (:class:`SweepReport`), one entry per session it could
not close.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from memory_core.base.events import EventType, EventWriter
from memory_core.clock import Clock
from memory_core.domain import Principal, Session, Trust, scope_for_project
from memory_core.errors import SessionClosedError
from memory_core.formation.service import ConsolidationResult, is_formation_source
from memory_core.ports import Storage
from memory_core.profiles import MemoryProfiles

CloseTrigger = Literal["session_close", "idle_sweep"]

CLOSE_ATTEMPTS = 3
"""Consolidation passes a close makes outside the unit of work before its last pass, which runs
inside the unit (holding the session's lock) so messages that keep arriving cannot starve it."""


_log = logging.getLogger(__name__)

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


@dataclass(frozen=True, kw_only=True)
class SweepFailure:
    """One session an idle sweep could not close.

    Attributes:
        tenant_id: The session owner's tenant.
        principal_id: The session owner.
        session_id: The session.
        error: The exception's class name and message (at most 500 characters).
    """

    tenant_id: str
    principal_id: str
    session_id: str
    error: str


@dataclass(frozen=True, kw_only=True)
class SweepReport:
    """What one idle sweep did: sessions closed, and the ones whose close failed."""

    closed: int
    failures: tuple[SweepFailure, ...] = ()

    @property
    def failed(self) -> int:
        """How many sessions the sweep could not close."""
        return len(self.failures)


class SessionCloser:
    """Closes sessions of one composition (``SessionService.close`` and its idle sweep)."""

    def __init__(
        self,
        *,
        storage: Storage,
        clock: Clock,
        writer: EventWriter,
        consolidator: Consolidator,
        profiles: MemoryProfiles,
    ) -> None:
        self._storage = storage
        self._clock = clock
        self._writer = writer
        self._consolidator = consolidator
        self._profiles = profiles

    def close(self, session: Session, trigger: CloseTrigger) -> SessionClosure:
        """Close ``session`` (possibly a stale copy) for ``trigger``; see the module docstring."""
        scope = scope_for_project(session.metadata.project_scope)
        who = session.principal
        # ``session`` may be stale (listed by a sweep before another worker closed it).
        current = self._storage.sessions.get(who, session.id) or session
        if not current.is_open:
            return SessionClosure(
                session=current,
                trigger=trigger,
                scope=scope,
                consolidation=None,
                already_closed=True,
            )
        forming = self._profiles.formation.session_boundary_enabled
        consolidation: ConsolidationCounts | None = None
        for attempt in range(1, CLOSE_ATTEMPTS + 1):
            if forming:
                consolidation = _merged(consolidation, self._consolidate(session, trigger, scope))
            with self._storage.unit_of_work():
                # Lock the session (a record or another close waits), then look again: another
                # close may have finished, or messages may have arrived, since consolidating.
                current = self._storage.sessions.lock(who, session.id) or current
                if not current.is_open:
                    return SessionClosure(
                        session=current,
                        trigger=trigger,
                        scope=scope,
                        consolidation=consolidation,
                        already_closed=True,
                    )
                if forming and self._has_unformed(who, session.id):
                    if attempt < CLOSE_ATTEMPTS:
                        continue  # consolidate the newcomers outside the unit, then retry
                    # The last pass forms them inside the unit, holding the lock.
                    consolidation = _merged(
                        consolidation, self._consolidate(session, trigger, scope)
                    )
                closed = self._close_now(current, trigger, scope, consolidation)
            return SessionClosure(
                session=closed, trigger=trigger, scope=scope, consolidation=consolidation
            )
        raise AssertionError("unreachable: the last attempt always closes")

    def _consolidate(
        self, session: Session, trigger: CloseTrigger, scope: str
    ) -> ConsolidationCounts:
        return self._consolidator.run(trigger, scope, session.id, principal=session.principal)

    def _has_unformed(self, principal: Principal, session_id: str) -> bool:
        """True when a user message of the session lies past its formation watermark."""
        watermark = self._storage.formation.watermark(principal, session_id)
        pending = self._storage.events.read_session(principal, session_id, after_sequence=watermark)
        return any(is_formation_source(e, principal, session_id) for e in pending)

    def _close_now(
        self,
        current: Session,
        trigger: CloseTrigger,
        scope: str,
        consolidation: ConsolidationCounts | None,
    ) -> Session:
        """Mark the session closed and write ``session.closed`` (inside the caller's unit)."""
        closed = self._storage.sessions.close(current.principal, current.id, self._clock.now())
        if closed is None:  # pragma: no cover - the caller holds the lock and saw it open
            raise SessionClosedError(current.id)
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
            EventType.SESSION_CLOSED,
            principal=current.principal,
            session_id=current.id,
            actor="runtime",
            trust=Trust.SYSTEM,
            payload=payload,
        )
        return closed


def _merged(first: ConsolidationCounts | None, second: ConsolidationCounts) -> ConsolidationCounts:
    """The counts of two consolidation passes of one close, added up."""
    if first is None:
        return second
    summed: dict[str, Any] = {}
    for item in dataclasses.fields(second):
        a, b = getattr(first, item.name), getattr(second, item.name)
        summed[item.name] = b if isinstance(b, str) else a + b
    return dataclasses.replace(second, **summed)


def sweep_failure(session: Session, exc: Exception) -> SweepFailure:
    """Log one session an idle sweep could not close, and describe it."""
    _log.warning(
        "idle sweep could not close session %s of %s/%s: %s",
        session.id,
        session.tenant_id,
        session.principal_id,
        type(exc).__name__,
        exc_info=exc,
    )
    return SweepFailure(
        tenant_id=session.tenant_id,
        principal_id=session.principal_id,
        session_id=session.id,
        error=f"{type(exc).__name__}: {exc}"[:500],
    )


__all__ = [
    "CLOSE_ATTEMPTS",
    "CloseTrigger",
    "ConsolidationCounts",
    "Consolidator",
    "SessionCloser",
    "SessionClosure",
    "SweepFailure",
    "SweepReport",
    "sweep_failure",
]
