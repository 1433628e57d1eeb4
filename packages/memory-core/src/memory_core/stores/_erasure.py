"""The in-memory tier's erasure port: short-id lookup, erasure and redaction.

It works on the other in-memory adapters' own indexes (this module is their package's), under
their shared lock, and records an undo step for every mutation, so an erasure inside a unit
of work that fails leaves every table as it was.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from memory_core.domain import Belief, Event, JsonValue, Principal, RecallTrace
from memory_core.errors import UsageError
from memory_core.stores.memory import (
    InMemoryEventLog,
    InMemoryFormationStateStore,
    InMemoryMemoryStore,
    InMemorySessionStore,
    InMemoryTraceStore,
    _insert_in_position_order,
    _key,
    _UnitLog,
    revalidated,
)


def check_hex_prefix(hex_prefix: str, limit: int) -> None:
    """Refuse a prefix that is not lowercase hex, or a negative limit (both tiers)."""
    if not hex_prefix or any(c not in "0123456789abcdef" for c in hex_prefix):
        raise UsageError(
            f"an id prefix is lowercase hex digits (a short id such as '4b64ba22'), got "
            f"{hex_prefix!r}"
        )
    if limit < 1:
        raise UsageError(f"match_id_prefix limit must be >= 1, got {limit}")


class InMemoryErasure:
    """Erasure over the five in-memory adapters of one tier."""

    def __init__(
        self,
        units: _UnitLog,
        *,
        events: InMemoryEventLog,
        sessions: InMemorySessionStore,
        memories: InMemoryMemoryStore,
        traces: InMemoryTraceStore,
        formation: InMemoryFormationStateStore,
    ) -> None:
        self._units = units
        self._lock = units.lock
        self._events = events
        self._sessions = sessions
        self._memories = memories
        self._traces = traces
        self._formation = formation

    def match_id_prefix(self, principal: Principal, hex_prefix: str, limit: int) -> list[Belief]:
        """The principal's beliefs whose dash-less id starts with ``hex_prefix``, by id."""
        check_hex_prefix(hex_prefix, limit)
        with self._lock:
            owned = list(self._memories._by_principal.get(_key(principal), {}).values())
        hits = sorted(
            (b for b in owned if b.id.replace("-", "").startswith(hex_prefix)), key=lambda b: b.id
        )
        return hits[:limit]

    def erase_beliefs(self, principal: Principal, belief_ids: Sequence[str]) -> int:
        """Delete the principal's beliefs with these ids (and their index entries)."""
        store = self._memories
        erased = 0
        with self._lock:
            owned = store._by_principal.get(_key(principal), {})
            for belief_id in sorted(set(belief_ids)):
                belief = owned.get(belief_id)
                if belief is None:
                    continue
                store._unindex(belief)
                del owned[belief_id]
                del store._beliefs[belief_id]
                self._units.record(functools.partial(self._restore_belief, belief))
                erased += 1
            if erased:
                self._reset_head(_key(principal), owned)
        return erased

    def _reset_head(self, key: tuple[str, str], owned: dict[str, Belief]) -> None:
        """The head is the newest position still stored (as PostgreSQL's ``max`` reads it)."""
        store = self._memories
        if owned:
            store._move_head(key, next(reversed(owned.values())).store_position)
            return
        previous = store._head.pop(key, None)
        if previous is not None:
            self._units.record(functools.partial(store._head.__setitem__, key, previous))

    def _restore_belief(self, belief: Belief) -> None:
        store = self._memories
        store._beliefs[belief.id] = belief
        _insert_in_position_order(store._by_principal[_key(belief.principal)], belief)
        store._index(belief)

    def erase_rejections(self, principal: Principal, belief_ids: Sequence[str]) -> int:
        """Delete the principal's rejections of these belief ids."""
        erased = 0
        with self._lock:
            owned = self._formation._rejections.get(_key(principal), {})
            for belief_id in sorted(set(belief_ids)):
                rejection = owned.pop(belief_id, None)
                if rejection is None:
                    continue
                self._units.record(functools.partial(owned.__setitem__, belief_id, rejection))
                erased += 1
        return erased

    def redact_events(
        self, principal: Principal, event_ids: Sequence[str], payload: dict[str, JsonValue]
    ) -> int:
        """Replace the payload of the principal's events with these ids."""
        log = self._events
        redacted = 0
        with self._lock:
            owned = log._by_principal.get(_key(principal), [])
            wanted = set(event_ids)
            for index, event in enumerate(owned):
                if event.event_id not in wanted:
                    continue
                replaced = revalidated(event.model_copy(update={"payload": dict(payload)}))
                owned[index] = replaced
                log._by_id[event.event_id] = replaced
                self._units.record(functools.partial(self._restore_event, owned, index, event))
                redacted += 1
        return redacted

    def _restore_event(self, owned: list[Event], index: int, event: Event) -> None:
        owned[index] = event
        self._events._by_id[event.event_id] = event

    def redact_traces(self, principal: Principal, belief_ids: Sequence[str]) -> int:
        """Drop these beliefs' user-safe copies from the principal's traces."""
        wanted = set(belief_ids)
        changed = 0
        with self._lock:
            for trace in list(self._traces._traces.values()):
                if trace.principal != principal:
                    continue
                kept = tuple(b for b in trace.beliefs if b.id not in wanted)
                if len(kept) == len(trace.beliefs):
                    continue
                self._traces._replace(trace.model_copy(update={"beliefs": kept}))
                changed += 1
        return changed

    def erase_principal(self, principal: Principal) -> dict[str, int]:
        """Delete every record of the principal from every table of the tier."""
        key = _key(principal)
        with self._lock:
            events = self._erase_events(key)
            sessions = self._erase_sessions(principal)
            memories = self.erase_beliefs(
                principal, list(self._memories._by_principal.get(key, {}))
            )
            traces = self._erase_traces(principal)
            watermarks, rejections = self._erase_formation(key)
        return {
            "events": events,
            "sessions": sessions,
            "memories": memories,
            "recall_traces": traces,
            "formation_watermarks": watermarks,
            "rejections": rejections,
        }

    def _erase_events(self, key: tuple[str, str]) -> int:
        log = self._events
        owned = log._by_principal.pop(key, [])
        for event in owned:
            del log._by_id[event.event_id]

        def undo() -> None:
            log._by_principal[key] = owned
            for event in owned:
                log._by_id[event.event_id] = event

        self._units.record(undo)
        return len(owned)

    def _erase_sessions(self, principal: Principal) -> int:
        store = self._sessions._sessions
        gone = [s for s in store.values() if s.principal == principal]
        for session in gone:
            del store[session.id]
            self._units.record(functools.partial(store.__setitem__, session.id, session))
        return len(gone)

    def _erase_traces(self, principal: Principal) -> int:
        store = self._traces._traces
        gone: list[RecallTrace] = [t for t in store.values() if t.principal == principal]
        for trace in gone:
            del store[trace.trace_id]
            self._units.record(functools.partial(store.__setitem__, trace.trace_id, trace))
        return len(gone)

    def _erase_formation(self, key: tuple[str, str]) -> tuple[int, int]:
        formation = self._formation
        marks = {slot: seq for slot, seq in formation._watermarks.items() if slot[0] == key}
        for slot in marks:
            del formation._watermarks[slot]
        rejections = formation._rejections.pop(key, None)

        def undo() -> None:
            formation._watermarks.update(marks)
            if rejections is not None:
                # the same dict: an earlier step's undo (erase_rejections) writes into it
                formation._rejections[key] = rejections

        self._units.record(undo)
        return len(marks), len(rejections or {})
