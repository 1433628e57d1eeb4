"""Managing one principal's beliefs: get by id or short id, history, and forgetting.

``MemoryAPI`` (``memory_core.memory_api``) exposes these; they are functions over a
``Storage`` so the CLI and tests can use them on any tier.

Forgetting is erasure, not rejection: :func:`forget_belief` deletes the belief and every
belief of the principal with the same normalized (type, subject, statement) key, replaces
the payload of their source events by :data:`REDACTED_PAYLOAD`, drops their copies from
recall traces, deletes their rejections, and records one tombstone
(:mod:`memory_core.formation.tombstones`) that formation honours on every later turn and
replay, so the statement never forms again. The whole turn a source event holds is
redacted (text of other beliefs in the same turn goes with it; those beliefs stay).

Not redacted: assistant replies and tool results that quoted the statement (they are not
its sources), and other beliefs' ``supersedes`` / ``superseded_by`` ids pointing at an erased
belief (ids, not text; ``history`` stops its lineage walk there).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from memory_core.base.events import EventType, EventWriter
from memory_core.clock import Clock
from memory_core.domain import Belief, Event, Principal, Rejection, Trust
from memory_core.errors import AmbiguousIdError, NotFoundError, UsageError
from memory_core.formation.resolver import key_of
from memory_core.formation.service import MEMORY_ACTOR
from memory_core.formation.tombstones import is_tombstone, tombstone_for
from memory_core.ids import IdFactory
from memory_core.ports import Storage

REDACTED_PAYLOAD = {"redacted": True, "reason": "forgotten"}
"""What a forgotten belief's source event holds in place of its text."""

BELIEF_EVENT_TYPES = (
    EventType.MEMORY_FORMED,
    EventType.MEMORY_REINFORCED,
    EventType.MEMORY_SUPERSEDED,
    EventType.MEMORY_REJECTED,
    EventType.MEMORY_FORGOTTEN,
)
"""The event types that tell a belief's history."""

CITATION_PREFIX = "m:"
"""How a rendered memory block cites a belief (``[m:4b64ba22]``); ``get`` accepts it."""

MIN_SHORT_ID = 4
"""The shortest id prefix ``get`` accepts (the citable short id is eight hex digits)."""

_log = logging.getLogger(__name__)
"""Records ids and counts only: never a statement, a subject or an event's text."""

_HEX_REF = re.compile(r"^[0-9a-f-]+$")
_PAGE = 500


@dataclass(frozen=True, kw_only=True)
class BeliefHistory:
    """One belief's story: its supersession lineage and the events that touched it."""

    belief: Belief
    lineage: tuple[Belief, ...]
    """The supersession chain the belief is part of, oldest first (the belief included)."""
    events: tuple[Event, ...]
    """Memory events naming the belief (formed, reinforced, superseded, rejected), in order."""
    sources: tuple[Event, ...]
    """The belief's source events as stored (a redacted one holds ``REDACTED_PAYLOAD``)."""
    rejection: Rejection | None
    """The belief's recorded rejection, if the user rejected it."""


@dataclass(frozen=True, kw_only=True)
class ForgetReport:
    """What ``forget`` erased: ids and counts, never text."""

    belief_id: str
    erased_belief_ids: tuple[str, ...]
    redacted_event_ids: tuple[str, ...]
    redacted_traces: int
    erased_rejections: int


def resolve_belief(storage: Storage, principal: Principal, ref: str) -> Belief:
    """The principal's belief named by a full id or an id prefix (the short id the model cites).

    ``ref`` may be written as the block cites it (``m:4b64ba22`` or ``[m:4b64ba22]``).

    Raises:
        UsageError: ``ref`` is empty, not hex, or shorter than :data:`MIN_SHORT_ID`.
        AmbiguousIdError: the prefix fits several beliefs (never a guess).
        NotFoundError: no belief of the principal fits (a forgotten one says so).
    """
    given = ref.strip()
    exact = storage.memories.get(principal, given) if given else None
    if exact is not None:
        return exact
    wanted = given.strip("[]").lower()
    if wanted.startswith(CITATION_PREFIX):
        wanted = wanted[len(CITATION_PREFIX) :]
    exact = storage.memories.get(principal, wanted) if wanted and wanted != given else None
    if exact is not None:
        return exact
    hex_prefix = wanted.replace("-", "")
    if not _HEX_REF.match(wanted) or len(hex_prefix) < MIN_SHORT_ID:
        raise UsageError(
            f"belief reference {ref!r} is neither a belief id nor a short id: pass the full id "
            f"or at least {MIN_SHORT_ID} of its leading hex digits (e.g. the 8-digit short id "
            "recall cites)"
        )
    hits = storage.erasure.match_id_prefix(principal, hex_prefix, limit=10)
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousIdError(ref, tuple(b.id for b in hits))
    forgotten = any(
        is_tombstone(r) and r.belief_id.replace("-", "").startswith(hex_prefix)
        for r in storage.formation.rejections(principal)
    )
    if forgotten:
        raise NotFoundError(f"belief {ref} was forgotten (erased); it cannot be read back")
    raise NotFoundError(
        f"no belief {ref} for this principal; list_memories() shows the ids that exist"
    )


def belief_history(storage: Storage, principal: Principal, belief: Belief) -> BeliefHistory:
    """The lineage, memory events, sources and rejection of one of the principal's beliefs."""
    lineage = _lineage(storage, principal, belief)
    events: list[Event] = []
    after = 0
    while True:
        page = storage.events.page(
            principal, after_sequence=after, limit=_PAGE, event_types=BELIEF_EVENT_TYPES
        )
        events.extend(e for e in page if _names(e, belief.id))
        if len(page) < _PAGE:
            break
        after = page[-1].sequence
    sources = [storage.events.get(principal, event_id) for event_id in belief.source_event_ids]
    rejection = next(
        (r for r in storage.formation.rejections(principal) if r.belief_id == belief.id), None
    )
    return BeliefHistory(
        belief=belief,
        lineage=tuple(lineage),
        events=tuple(events),
        sources=tuple(e for e in sources if e is not None),
        rejection=rejection,
    )


def _names(event: Event, belief_id: str) -> bool:
    """The event formed, reinforced, superseded or rejected the belief, or superseded it."""
    payload = event.payload
    return belief_id in (
        payload.get("belief_id"),
        payload.get("superseded_by"),
        payload.get("supersedes"),
    )


def _lineage(storage: Storage, principal: Principal, belief: Belief) -> list[Belief]:
    """The supersession chain through ``belief``, oldest first (cycle-safe)."""
    seen = {belief.id}
    older: list[Belief] = []
    current = belief
    while current.supersedes is not None and current.supersedes not in seen:
        found = storage.memories.get(principal, current.supersedes)
        if found is None:
            break
        seen.add(found.id)
        older.append(found)
        current = found
    newer: list[Belief] = []
    current = belief
    while current.superseded_by is not None and current.superseded_by not in seen:
        found = storage.memories.get(principal, current.superseded_by)
        if found is None:
            break
        seen.add(found.id)
        newer.append(found)
        current = found
    return [*reversed(older), belief, *newer]


def forget_belief(
    storage: Storage, principal: Principal, belief: Belief, *, clock: Clock, ids: IdFactory
) -> ForgetReport:
    """Erase ``belief`` (and its same-key copies) and the text it came from, in one unit.

    See the module docstring for what goes and what stays (the tombstone and an audit event
    holding ids only).
    """
    with storage.unit_of_work():
        key = key_of(belief)
        same = [
            b
            for b in storage.memories.list_beliefs(principal)
            if b.belief_type is belief.belief_type and key_of(b) == key
        ]
        erased = sorted({belief.id, *(b.id for b in same)})
        sources = sorted({e for b in (belief, *same) for e in b.source_event_ids})
        storage.erasure.erase_beliefs(principal, erased)
        redacted = storage.erasure.redact_events(principal, sources, dict(REDACTED_PAYLOAD))
        traces = storage.erasure.redact_traces(principal, erased)
        rejections = storage.erasure.erase_rejections(principal, erased)
        now = clock.now()
        storage.formation.record_rejection(tombstone_for(belief, forgotten_at=now))
        redacted_ids = tuple(
            e
            for e in sources
            if (found := storage.events.get(principal, e)) is not None
            and found.payload == REDACTED_PAYLOAD
        )
        EventWriter(events=storage.events, clock=clock, ids=ids).append(
            EventType.MEMORY_FORGOTTEN,
            principal=principal,
            session_id=None,
            actor=MEMORY_ACTOR,
            trust=Trust.MEMORY,
            payload={
                "belief_id": belief.id,
                "erased_belief_ids": list(erased),
                "redacted_events": redacted,
            },
            at=now,
        )
    _log.info(
        "forgot belief %s: %d beliefs erased, %d source events redacted, %d traces redacted, "
        "%d rejections erased",
        belief.id,
        len(erased),
        len(redacted_ids),
        traces,
        rejections,
    )
    return ForgetReport(
        belief_id=belief.id,
        erased_belief_ids=tuple(erased),
        redacted_event_ids=redacted_ids,
        redacted_traces=traces,
        erased_rejections=rejections,
    )


__all__ = [
    "BELIEF_EVENT_TYPES",
    "MIN_SHORT_ID",
    "REDACTED_PAYLOAD",
    "BeliefHistory",
    "ForgetReport",
    "belief_history",
    "forget_belief",
    "resolve_belief",
]
