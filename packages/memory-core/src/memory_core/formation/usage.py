"""Usage feedback: a cited belief has shown utility, not renewed truth.

:func:`record_usage` runs once per completed run with a final message:

1. the short ids the final message cites are read in the renderer's own form, ``[m:xxxxxxxx]``
   (:data:`CITATION`);
2. the run's in-turn traces and the session's snapshot trace are read (principal-scoped); a
   short id is resolved against the distinct beliefs they returned. One that fits more than
   one returned belief identifies none: it credits nothing, charges nothing and is counted
   ``ambiguous``;
3. in each trace, the returned beliefs the message cites and the trace does not list yet are
   marked with ``TraceStore.mark_cited``;
4. a cited belief's utility rises by ``retrieval.usage.cited_utility_delta`` (ceiling 1) and
   its ``last_used_at`` moves to now; a returned-but-uncited one falls by
   ``retrieval.usage.uncited_utility_delta`` (floor -1). Confidence, ``last_evidence_at`` and
   the store position never move (``update_in_place``): retrieval must not entrench a wrong
   belief by retrieving it, and a session must not read usage as a change;
5. one ``memory.cited`` event carries the derivation key ``usage:<run id>``; a second call for
   the same run finds it and changes nothing.

Everything runs in one unit of work with no external call inside it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memory_core.base.events import EventType, EventWriter
from memory_core.clock import Clock
from memory_core.domain import Principal, RecallTrace, Trust
from memory_core.ids import IdFactory
from memory_core.ports import Storage
from memory_core.profiles import MemoryProfiles

USAGE_ACTOR = "memory"

CITATION = re.compile(r"\[m:([0-9a-f]{8})\]")
"""A citation as the renderer emits it: ``[m:`` then the eight-hex short id, then ``]``."""


@dataclass(frozen=True, kw_only=True)
class UsageResult:
    """What one run's usage feedback recorded.

    Attributes:
        traces: Recall traces of the run (in-turn and snapshot) that were read.
        citations: Distinct returned beliefs the final message cited (each credited once).
        uncited: Returned beliefs the message did not cite (each charged once).
        ambiguous: Cited short ids that fit more than one returned belief (credit nothing).
        already_recorded: True when this run's feedback had been recorded before (no change).
    """

    traces: int
    citations: int
    uncited: int
    ambiguous: int
    already_recorded: bool = False


def cited_short_ids(text: str) -> list[str]:
    """The distinct short ids ``text`` cites, in first-cited order."""
    return list(dict.fromkeys(CITATION.findall(text)))


def derivation_key(run_id: str) -> str:
    """The ``memory.cited`` derivation key of a run."""
    return f"usage:{run_id}"


def record_usage(
    *,
    storage: Storage,
    clock: Clock,
    ids: IdFactory,
    profiles: MemoryProfiles,
    principal: Principal,
    run_id: str,
    session_id: str,
    final_message: str,
    trace_ids: Sequence[str],
) -> UsageResult:
    """Credit the beliefs a run's final message cites and charge the rest it was shown."""
    usage = profiles.retrieval.usage
    key = derivation_key(run_id)
    with storage.unit_of_work():
        if _already_recorded(storage, principal, session_id, key):
            return UsageResult(traces=0, citations=0, uncited=0, ambiguous=0, already_recorded=True)
        traces = _run_traces(storage, principal, session_id, trace_ids)
        by_short: dict[str, set[str]] = {}
        returned: dict[str, None] = {}
        for trace in traces:
            for traced in trace.beliefs:
                by_short.setdefault(traced.short_id, set()).add(traced.id)
            returned.update(dict.fromkeys(trace.returned))
        cited: dict[str, None] = {}
        unjudged: set[str] = set()
        ambiguous = 0
        for short in cited_short_ids(final_message):
            matches = by_short.get(short, set())
            if len(matches) > 1:
                ambiguous += 1
                unjudged |= matches
            elif matches:
                cited.update(dict.fromkeys(matches))
        for trace in traces:
            new = [b for b in trace.returned if b in cited and b not in trace.cited]
            if new:
                storage.traces.mark_cited(trace.trace_id, principal, new)
        uncited = [b for b in returned if b not in cited and b not in unjudged]
        now = clock.now()
        for belief_id in cited:
            _move_utility(storage, principal, belief_id, +usage.cited_utility_delta, now)
        for belief_id in uncited:
            _move_utility(storage, principal, belief_id, -usage.uncited_utility_delta, None)
        if returned:  # nothing was shown: nothing to credit or charge, and no event
            EventWriter(events=storage.events, clock=clock, ids=ids).append(
                EventType.MEMORY_CITED,
                principal=principal,
                session_id=session_id,
                run_id=run_id,
                actor=USAGE_ACTOR,
                trust=Trust.MEMORY,
                payload={
                    "derivation_key": key,
                    "trace_ids": [t.trace_id for t in traces],
                    "cited": list(cited),
                    "uncited_count": len(uncited),
                    "ambiguous_count": ambiguous,
                },
                at=now,
            )
    return UsageResult(
        traces=len(traces), citations=len(cited), uncited=len(uncited), ambiguous=ambiguous
    )


def _already_recorded(storage: Storage, principal: Principal, session_id: str, key: str) -> bool:
    return any(
        event.event_type == EventType.MEMORY_CITED and event.payload.get("derivation_key") == key
        for event in storage.events.read_session(principal, session_id)
    )


def _run_traces(
    storage: Storage, principal: Principal, session_id: str, trace_ids: Sequence[str]
) -> list[RecallTrace]:
    """The run's in-turn traces, then the session's snapshot trace; missing ones are skipped."""
    wanted = list(trace_ids)
    session = storage.sessions.get(principal, session_id)
    if session is not None and session.snapshot_id is not None:
        wanted.append(session.snapshot_id)
    traces: list[RecallTrace] = []
    for trace_id in dict.fromkeys(wanted):
        trace = storage.traces.get(principal, trace_id)
        if trace is not None:
            traces.append(trace)
    return traces


def _move_utility(
    storage: Storage, principal: Principal, belief_id: str, delta: float, used_at: datetime | None
) -> None:
    belief = storage.memories.get(principal, belief_id)
    if belief is None or not belief.is_live:
        return
    utility = min(1.0, max(-1.0, round(belief.utility + delta, 9)))
    update: dict[str, object] = {"utility": utility}
    if used_at is not None:
        update["last_used_at"] = used_at
    storage.memories.update_in_place(belief.model_copy(update=update))


__all__ = [
    "CITATION",
    "UsageResult",
    "cited_short_ids",
    "derivation_key",
    "record_usage",
]
