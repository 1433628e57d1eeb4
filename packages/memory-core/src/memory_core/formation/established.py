"""Established facts enter formation: the working-state pass of a consolidation.

The context engine records the agent's own established conclusions as ``working_state.updated``
events (:mod:`memory_core.runtime.working_state`; the whole state each time, so the last one is
current). With ``formation.established_facts_enabled`` a consolidation reads the **last** such
update in its window and admits a ``Fact`` only when

1. its ``source_event_ids`` is non-empty,
2. every referenced event belongs to the owning tenant and principal (the event log is read
   through the principal, so a foreign id does not resolve), and
3. every reference resolves to a trusted user message of the session being consolidated
   (:func:`~memory_core.formation.service.is_formation_source`'s rule).

A fact failing any check forms nothing and is counted ``invalid_provenance``; a fact whose
statement is hazardous is counted ``refused_hazard``, like any hazardous candidate. A passing
fact becomes a :class:`~memory_core.formation.port.Candidate` of type ``fact`` at
``AFFIRMED`` authority and the maximum inferred confidence
(:data:`~memory_core.formation.decay.MAX_INFERRED_CONFIDENCE`), carrying the fact's provenance,
with a stable subject (the service's ``statement_subject``: the first capitalized entity span,
ignoring a word that only opens the sentence, else the first three words), at the run's scope
(a fact is not a portable type, so that is its portability ceiling) and the instant of its
newest source event.

Established candidates go before the extractor's, ahead of the candidate ceiling
(:func:`apply_ceiling`): an established fact may displace an extractor proposal, and a
displaced proposal is counted ``rejected`` rather than silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from memory_core.base.events import EventType
from memory_core.base.working_state import Fact, WorkingState
from memory_core.domain import Authority, BeliefType, Event, Principal, Session
from memory_core.errors import UsageError
from memory_core.formation.decay import MAX_INFERRED_CONFIDENCE
from memory_core.formation.extractor import Candidate
from memory_core.formation.hazards import is_hazardous
from memory_core.ports import EventLog
from memory_core.text import collapse

SourceCheck = Callable[[Event, Principal, str], bool]
"""``(event, principal, session id) -> bool``: is this a formation source of that session."""

_T = TypeVar("_T")

SubjectRule = Callable[[str], str]
"""``statement -> subject``: the stable subject rule (the service passes ``statement_subject``,
the rule ``remember`` gives a free statement)."""


@dataclass(frozen=True, kw_only=True)
class EstablishedPass:
    """What the working-state pass of one window gave.

    Attributes:
        candidates: Candidates from the facts that passed, in working-state order.
        invalid_provenance: Facts with empty, foreign, untrusted or out-of-session sources.
        refused_hazard: Facts whose statement the hazard screen refuses.
    """

    candidates: tuple[Candidate, ...] = ()
    invalid_provenance: int = 0
    refused_hazard: int = 0


def last_working_state(events: Sequence[Event], session_id: str) -> WorkingState | None:
    """The last ``working_state.updated`` of ``events`` as a state; ``None`` when there is
    none or its payload is malformed (a malformed state forms nothing)."""
    for event in reversed(events):
        if event.event_type == EventType.WORKING_STATE_UPDATED:
            try:
                return WorkingState.from_payload(session_id, event.payload)
            except UsageError:
                return None
    return None


def established_pass(
    *,
    events: EventLog,
    window: Sequence[Event],
    principal: Principal,
    session: Session,
    is_source: SourceCheck,
    subject_of: SubjectRule,
) -> EstablishedPass:
    """Validate the facts of the window's last working-state update into candidates.

    Args:
        events: The event log the facts' sources are resolved through (principal-scoped).
        window: The events the consolidation reads, in sequence order.
        principal: The session's owner.
        session: The session being consolidated.
        is_source: The formation-source rule (a trusted user message of the session).
        subject_of: The stable subject rule.
    """
    state = last_working_state(window, session.id)
    if state is None:
        return EstablishedPass()
    candidates: list[Candidate] = []
    invalid = refused = 0
    for fact in state.facts:
        sources = _valid_sources(fact, events, principal, session, is_source)
        if sources is None:
            invalid += 1
        elif is_hazardous(fact.statement):
            refused += 1
        else:
            candidates.append(_candidate(fact, sources, subject_of))
    return EstablishedPass(
        candidates=tuple(candidates), invalid_provenance=invalid, refused_hazard=refused
    )


def _valid_sources(
    fact: Fact,
    events: EventLog,
    principal: Principal,
    session: Session,
    is_source: SourceCheck,
) -> list[Event] | None:
    if not fact.source_event_ids:
        return None
    resolved: list[Event] = []
    for event_id in fact.source_event_ids:
        event = events.get(principal, event_id)
        if (
            event is None
            or event.tenant_id != principal.tenant_id
            or event.principal_id != principal.principal_id
            or not is_source(event, principal, session.id)
        ):
            return None
        resolved.append(event)
    return resolved


def _candidate(fact: Fact, sources: Sequence[Event], subject_of: SubjectRule) -> Candidate:
    text = collapse(fact.statement).rstrip(" .!")
    return Candidate(
        belief_type=BeliefType.FACT,
        subject=subject_of(text),
        statement=f"{text[:1].upper()}{text[1:]}.",
        exclusive=False,
        source_event_ids=tuple(dict.fromkeys(e.event_id for e in sources)),
        evidence_at=max(e.created_at for e in sources),
        authority=Authority.AFFIRMED,
        confidence=MAX_INFERRED_CONFIDENCE,
    )


def apply_ceiling(
    established: Sequence[_T], proposed: Sequence[_T], ceiling: int
) -> tuple[list[_T], int, int]:
    """Keep ``established`` first, then the newest of ``proposed``, up to ``ceiling``.

    Established facts are prepended before the ceiling; the extractor's proposals fill what
    room is left from the newest back (a later correction outranks the facts said before it).

    Returns:
        The candidates kept (established first, then the kept proposals in their order); how
        many extractor proposals an established fact displaced (counted ``rejected``); and how
        many candidates are past the ceiling regardless (counted ``dropped_for_ceiling``).
    """
    kept_established = list(established[:ceiling])
    room = ceiling - len(kept_established)
    kept_proposed = list(proposed[max(0, len(proposed) - room) :])
    fitted_alone = min(len(proposed), ceiling)
    displaced = fitted_alone - len(kept_proposed)
    kept = kept_established + kept_proposed
    dropped = len(established) + len(proposed) - len(kept) - displaced
    return kept, displaced, dropped


__all__ = [
    "EstablishedPass",
    "apply_ceiling",
    "established_pass",
    "last_working_state",
]
