"""In-memory reference adapters for every storage port.

These are real implementations, not mocks: the benchmark measures this tier, so its lexical
search is served from a per-principal inverted index with the shared tokenizer, exactly the
any-term whole-lexeme semantics the PostgreSQL adapter implements.
"""

from __future__ import annotations

import bisect
import functools
import sys
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime
from typing import TypeVar

from pydantic import BaseModel

from memory_core.clock import require_aware
from memory_core.domain import (
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    Principal,
    RecallQuery,
    RecallTrace,
    Rejection,
    Session,
)
from memory_core.errors import (
    ConflictError,
    DuplicateIdError,
    NotFoundError,
    SessionClosedError,
    UsageError,
)
from memory_core.idle import is_idle
from memory_core.ports import IDEMPOTENCY_KEY_FIELD, BeliefKey
from memory_core.stores._lexical_index import IndexedBelief, PrincipalIndex, indexed
from memory_core.text import fold, matching_key
from memory_core.tokenizer import term_lexeme_groups

_Key = tuple[str, str]
_Model = TypeVar("_Model", bound=BaseModel)


def revalidated(record: _Model) -> _Model:
    """``record`` validated again, as every store boundary does before it writes.

    ``model_copy(update=...)`` skips pydantic validation, so a copied record can carry a naive
    datetime or a non-JSON payload; both tiers refuse it here with the record's
    ``ValidationError`` (naming the field) instead of storing it or failing later.
    """
    return type(record).model_validate(record.model_dump(warnings=False))


def _key(principal: Principal) -> _Key:
    return (principal.tenant_id, principal.principal_id)


def _check_limit(limit: int, what: str) -> None:
    if limit < 0:
        raise UsageError(f"{what} limit must be >= 0, got {limit}; pass a row count of 0 or more")


class _UnitLog:
    """The lock and the undo log one tier's adapters share.

    Every read and write of every adapter takes ``lock``; an open unit of work holds it from
    start to end, so a unit is serialised against all other access (no other thread sees its
    writes before it ends, nor writes while it is open). While a unit is open, each mutation
    records how to undo itself; an exception leaving a unit runs its undo steps newest first.
    Nested units are savepoints: each remembers where its steps begin in the log. Sequence
    and position counters are not rolled back: like PostgreSQL sequences, numbers a
    rolled-back unit drew leave gaps and are never reused.
    """

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self._undo: list[Callable[[], object]] = []
        self._savepoints: list[int] = []

    def record(self, undo: Callable[[], object]) -> None:
        """Remember how to undo the mutation just made (a no-op outside a unit of work)."""
        if self._savepoints:
            self._undo.append(undo)

    @contextmanager
    def unit(self) -> Iterator[None]:
        """Hold the lock for the block; an exception undoes the block's mutations."""
        with self.lock:
            self._savepoints.append(len(self._undo))
            try:
                yield
            except BaseException:
                start = self._savepoints.pop()
                while len(self._undo) > start:
                    self._undo.pop()()
                raise
            self._savepoints.pop()
            if not self._savepoints:
                self._undo.clear()  # the outermost unit committed: nothing left to undo

    @property
    def in_unit(self) -> bool:
        """True while a unit of work is open (its undo steps may still run)."""
        return bool(self._savepoints)


class InMemoryEventLog:
    """Event log kept in a list per principal."""

    def __init__(self, unit_log: _UnitLog | None = None) -> None:
        self._units = unit_log or _UnitLog()
        self._lock = self._units.lock
        self._sequence = 0
        self._by_principal: dict[_Key, list[Event]] = defaultdict(list)
        self._by_id: dict[str, Event] = {}
        self._by_key: dict[tuple[_Key, str, str], Event] = {}

    def append(self, event: Event) -> Event:
        """Store ``event`` with the next sequence number.

        Raises:
            DuplicateIdError: the event id is already stored.
            ConflictError: the principal's session already holds this idempotency key.
        """
        event = revalidated(event)
        with self._lock:
            if event.event_id in self._by_id:
                raise DuplicateIdError("event", event.event_id)
            slot = _idempotency_slot(event)
            if slot is not None and slot in self._by_key:
                raise ConflictError(
                    f"session {event.session_id} already has an event with idempotency key "
                    f"{slot[2]!r}; a retried record returns that event instead of storing again"
                )
            self._sequence += 1
            stamped = event.model_copy(update={"sequence": self._sequence})
            owned = self._by_principal[_key(stamped.principal)]
            owned.append(stamped)
            self._by_id[stamped.event_id] = stamped
            if slot is not None:
                self._by_key[slot] = stamped

            def undo() -> None:
                # undone newest first, so the event is the last of its principal's list
                owned.pop()
                del self._by_id[stamped.event_id]
                if slot is not None:
                    del self._by_key[slot]

            self._units.record(undo)
            return stamped

    def append_many(self, events: Sequence[Event]) -> list[Event]:
        """Store ``events`` with the next sequence numbers in order; all or nothing."""
        checked = [revalidated(event) for event in events]
        _one_principal([e.principal for e in checked], "append_many")
        with self._lock:
            ids: set[str] = set()
            slots: set[tuple[_Key, str, str]] = set()
            for event in checked:
                if event.event_id in self._by_id or event.event_id in ids:
                    raise DuplicateIdError("event", event.event_id)
                ids.add(event.event_id)
                slot = _idempotency_slot(event)
                if slot is not None and (slot in self._by_key or slot in slots):
                    raise ConflictError(
                        f"session {event.session_id} already has an event with idempotency "
                        f"key {slot[2]!r}; nothing of the batch was stored"
                    )
                if slot is not None:
                    slots.add(slot)
            return [self.append(event) for event in checked]

    def get(self, principal: Principal, event_id: str) -> Event | None:
        """Return the principal's event, or ``None`` (another principal's id is invisible)."""
        with self._lock:
            event = self._by_id.get(event_id)
        return event if event is not None and event.principal == principal else None

    def find_by_idempotency_key(
        self, principal: Principal, session_id: str, key: str
    ) -> Event | None:
        """The principal's event of the session carrying idempotency ``key``, or ``None``."""
        with self._lock:
            return self._by_key.get((_key(principal), session_id, key))

    def read_session(
        self, principal: Principal, session_id: str, *, after_sequence: int = 0
    ) -> list[Event]:
        """The principal's events of one session past the cursor."""
        with self._lock:
            return [
                e
                for e in self._by_principal.get(_key(principal), [])
                if e.session_id == session_id and e.sequence > after_sequence
            ]

    def page(
        self,
        principal: Principal,
        *,
        after_sequence: int = 0,
        before_sequence: int | None = None,
        limit: int = 100,
        event_types: Sequence[str] | None = None,
        descending: bool = False,
    ) -> list[Event]:
        """Up to ``limit`` of the principal's events strictly between the two cursors.

        Oldest first, or newest first when ``descending``. The principal's list is in sequence
        order, so the cursor range is found by bisection and only the events it holds are read.
        """
        if limit < 1:
            raise UsageError(f"page limit must be >= 1, got {limit}")
        wanted = None if event_types is None else frozenset(event_types)
        out: list[Event] = []
        with self._lock:
            owned = self._by_principal.get(_key(principal), [])
            start = bisect.bisect_right(owned, after_sequence, key=_event_sequence)
            stop = (
                len(owned)
                if before_sequence is None
                else bisect.bisect_left(owned, before_sequence, key=_event_sequence)
            )
            indexes = range(stop - 1, start - 1, -1) if descending else range(start, stop)
            for index in indexes:
                event = owned[index]
                if wanted is not None and event.event_type not in wanted:
                    continue
                out.append(event)
                if len(out) >= limit:
                    break
        return out


def _event_sequence(event: Event) -> int:
    return event.sequence


def _one_principal(principals: Sequence[Principal], call: str) -> None:
    """Refuse a batch spanning principals (``UsageError``), as every tier does."""
    others = sorted({str(p) for p in principals if p != principals[0]})
    if others:
        raise UsageError(
            f"{call} takes the records of one principal, got {principals[0]} and "
            f"{', '.join(others)}; call it once per principal"
        )


def _idempotency_slot(event: Event) -> tuple[_Key, str, str] | None:
    """Where an event's idempotency key is indexed (``None`` when it carries none)."""
    key = event.payload.get(IDEMPOTENCY_KEY_FIELD)
    if event.session_id is None or not isinstance(key, str):
        return None
    return (_key(event.principal), event.session_id, key)


class InMemorySessionStore:
    """Sessions kept in a dict."""

    def __init__(self, unit_log: _UnitLog | None = None) -> None:
        self._units = unit_log or _UnitLog()
        self._lock = self._units.lock
        self._sessions: dict[str, Session] = {}

    def create(self, session: Session) -> Session:
        """Insert a new session."""
        session = revalidated(session)
        with self._lock:
            if session.id in self._sessions:
                raise DuplicateIdError("session", session.id)
            self._sessions[session.id] = session
            self._units.record(functools.partial(self._sessions.pop, session.id))
            return session

    def get(self, principal: Principal, session_id: str) -> Session | None:
        """Return the principal's session, or ``None``."""
        with self._lock:
            session = self._sessions.get(session_id)
        return session if session is not None and session.principal == principal else None

    def update(self, session: Session) -> Session:
        """Replace an existing session of the same principal; a closed one never reopens.

        Raises:
            NotFoundError: no such session for the principal.
            SessionClosedError: the stored session is closed and ``session`` is open.
        """
        session = revalidated(session)
        with self._lock:
            current = self._owned(session.principal, session.id)
            if not current.is_open and session.is_open:
                raise SessionClosedError(session.id)
            self._replace(current, session)
            return session

    def touch(self, principal: Principal, session_id: str, at: datetime) -> Session:
        """Move an open session's last activity to ``at`` (never backwards).

        Raises:
            NotFoundError: no such session for the principal.
            SessionClosedError: the session is closed.
        """
        at = require_aware(at, "at")
        with self._lock:
            current = self._owned(principal, session_id)
            if not current.is_open:
                raise SessionClosedError(session_id)
            if at <= current.last_activity_at:
                return current
            touched = current.model_copy(update={"last_activity_at": at})
            self._replace(current, touched)
            return touched

    def close(self, principal: Principal, session_id: str, at: datetime) -> Session | None:
        """Mark an open session closed at ``at``; ``None`` when it is already closed.

        Raises:
            NotFoundError: no such session for the principal.
        """
        at = require_aware(at, "at")
        with self._lock:
            current = self._owned(principal, session_id)
            if not current.is_open:
                return None
            closed = current.model_copy(update={"closed_at": at})
            self._replace(current, closed)
            return closed

    def lock(self, principal: Principal, session_id: str) -> Session | None:
        """The session; inside a unit of work the tier's lock already holds it."""
        return self.get(principal, session_id)

    def _owned(self, principal: Principal, session_id: str) -> Session:
        current = self._sessions.get(session_id)
        if current is None or current.principal != principal:
            raise NotFoundError(f"session {session_id} does not exist for this principal")
        return current

    def _replace(self, current: Session, session: Session) -> None:
        self._sessions[session.id] = session
        self._units.record(functools.partial(self._sessions.__setitem__, current.id, current))

    def list_open_idle(
        self,
        last_activity_before: datetime,
        limit: int = 100,
        *,
        after: tuple[datetime, str] | None = None,
    ) -> list[Session]:
        """Open sessions idle since at or before the instant, oldest activity first.

        ``after`` is a keyset cursor: only sessions whose ``(last_activity_at, id)`` sorts
        after it are listed.
        """
        last_activity_before = require_aware(last_activity_before, "last_activity_before")
        _check_limit(limit, "list_open_idle")
        with self._lock:
            idle = [
                s
                for s in self._sessions.values()
                if s.closed_at is None
                and s.last_activity_at <= last_activity_before
                and (after is None or (s.last_activity_at, s.id) > after)
            ]
        idle.sort(key=lambda s: (s.last_activity_at, s.id))
        return idle[:limit]


class InMemoryMemoryStore:
    """Beliefs with a per-principal lexeme and subject index (``PrincipalIndex``).

    Each principal's beliefs are kept in store-position order (a put appends, an update moves
    the belief to the end, since it takes the newest position), and so are the index's posting
    lists, so every newest-first search walks backwards and stops at its limit instead of
    collecting and sorting every match.
    """

    def __init__(self, unit_log: _UnitLog | None = None) -> None:
        self._units = unit_log or _UnitLog()
        self._lock = self._units.lock
        self._position = 0
        self._beliefs: dict[str, Belief] = {}
        self._by_principal: dict[_Key, dict[str, Belief]] = defaultdict(dict)
        self._indexes: dict[_Key, PrincipalIndex] = defaultdict(PrincipalIndex)
        # matching_key(subject) -> ids, per principal: find_by_subject's exact lookup
        self._subject_keys: dict[_Key, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._head: dict[_Key, int] = {}
        # per principal: the newest-first walks of searches with no lexical predicate, kept
        # until the principal's beliefs change (see ``_walk_newest``)
        self._walks: dict[_Key, dict[tuple[object, ...], _Walk]] = {}

    def _stamp(self, belief: Belief) -> Belief:
        stamped = _stored(belief, self._position + 1)
        self._position += 1  # never rolled back: a rolled-back position leaves a gap
        return stamped

    def _move_head(self, key: _Key, position: int) -> None:
        previous = self._head.get(key)
        self._head[key] = position

        def undo() -> None:
            if previous is None:
                del self._head[key]
            else:
                self._head[key] = previous

        self._units.record(undo)

    def _index(self, belief: Belief) -> None:
        self._walks.pop(_key(belief.principal), None)
        self._indexes[_key(belief.principal)].add(indexed(belief))
        self._subject_keys[_key(belief.principal)][matching_key(belief.subject)].add(belief.id)

    def _unindex(self, belief: Belief) -> None:
        self._walks.pop(_key(belief.principal), None)
        self._indexes[_key(belief.principal)].remove(belief.store_position)
        self._subject_keys[_key(belief.principal)][matching_key(belief.subject)].discard(belief.id)

    def _compact(self, key: _Key) -> None:
        """Drop the principal's stale postings when they dominate, outside a unit of work."""
        if not self._units.in_unit:
            self._indexes[key].compact_if_stale()

    def put(self, belief: Belief) -> Belief:
        """Insert a new belief with a fresh store position."""
        with self._lock:
            if belief.id in self._beliefs:
                raise DuplicateIdError("belief", belief.id)
            stamped = self._stamp(belief)
            key = _key(stamped.principal)
            owned = self._by_principal[key]
            self._beliefs[stamped.id] = stamped
            owned[stamped.id] = stamped
            self._index(stamped)

            def undo() -> None:
                self._unindex(stamped)
                del owned[stamped.id]
                del self._beliefs[stamped.id]

            self._units.record(undo)
            self._move_head(key, stamped.store_position)
            return stamped

    def update(self, belief: Belief) -> Belief:
        """Replace an existing belief of the same principal; it takes a fresh position."""
        with self._lock:
            current = self._beliefs.get(belief.id)
            if current is None or current.principal != belief.principal:
                raise NotFoundError(f"belief {belief.id} does not exist for this principal")
            stamped = self._stamp(belief)
            key = _key(stamped.principal)
            owned = self._by_principal[key]
            self._unindex(current)
            self._beliefs[stamped.id] = stamped
            del owned[stamped.id]  # re-inserted last: the newest position is last
            owned[stamped.id] = stamped
            self._index(stamped)

            def undo() -> None:
                self._unindex(stamped)
                del owned[stamped.id]
                self._beliefs[current.id] = current
                _insert_in_position_order(owned, current)
                self._index(current)

            self._units.record(undo)
            self._move_head(key, stamped.store_position)
            self._compact(key)
            return stamped

    def update_many(self, beliefs: Sequence[Belief]) -> list[Belief]:
        """Replace existing beliefs, fresh positions in the order given; all or nothing."""
        checked = [revalidated(belief) for belief in beliefs]
        _one_principal([b.principal for b in checked], "update_many")
        with self._lock:
            seen: set[str] = set()
            for belief in checked:
                current = self._beliefs.get(belief.id)
                if current is None or current.principal != belief.principal:
                    raise NotFoundError(f"belief {belief.id} does not exist for this principal")
                if belief.id in seen:
                    raise ConflictError(f"belief {belief.id} appears twice in the batch")
                seen.add(belief.id)
            return [self.update(belief) for belief in checked]

    def update_in_place(self, belief: Belief) -> Belief:
        """Replace an existing belief of the same principal; it keeps its store position."""
        with self._lock:
            current = self._beliefs.get(belief.id)
            if current is None or current.principal != belief.principal:
                raise NotFoundError(f"belief {belief.id} does not exist for this principal")
            kept = _stored(belief, current.store_position)
            owned = self._by_principal[_key(kept.principal)]
            self._unindex(current)
            self._beliefs[kept.id] = kept
            owned[kept.id] = kept  # an existing key keeps its place in position order
            self._index(kept)

            def undo() -> None:
                self._unindex(kept)
                self._beliefs[current.id] = current
                owned[current.id] = current
                self._index(current)

            self._units.record(undo)
            self._compact(_key(kept.principal))
            return kept

    def get(self, principal: Principal, belief_id: str) -> Belief | None:
        """Return the principal's belief, or ``None``."""
        with self._lock:
            belief = self._beliefs.get(belief_id)
        return belief if belief is not None and belief.principal == principal else None

    def get_many(self, principal: Principal, belief_ids: Sequence[str]) -> list[Belief]:
        """The principal's beliefs among ``belief_ids`` (any status), sorted by id."""
        with self._lock:
            found = [self._beliefs.get(belief_id) for belief_id in set(belief_ids)]
        owned = [b for b in found if b is not None and b.principal == principal]
        return sorted(owned, key=lambda b: b.id)

    def list_beliefs(
        self, principal: Principal, statuses: frozenset[BeliefStatus] | None = None
    ) -> list[Belief]:
        """The principal's beliefs in store-position order (the order they are kept in)."""
        with self._lock:
            owned = self._by_principal.get(_key(principal), {}).values()
            if statuses is None:
                return list(owned)
            return [b for b in owned if b.status in statuses]

    def search(self, query: RecallQuery) -> list[Belief]:
        """Principal, scope, status, validity and position predicates, then any-term lexical.

        Newest store position first, capped at ``query.limit``. With no lexical predicate the
        principal's beliefs are walked newest-first (a walk is remembered until the principal's
        beliefs change: see ``_walk_newest``); with one, the posting lists of the terms'
        lexemes and of the named subjects are merged newest-first. Either walk stops at the
        limit, so its cost follows the limit, not how many records a common word indexes.
        """
        key = _key(query.principal)
        scopes = frozenset(query.scopes)
        with self._lock:
            if query.terms is None:
                return self._walk_newest(key, query, scopes)
            index = self._indexes.get(key)
            if index is None:
                return []
            matches = index.newest(
                term_lexeme_groups(query.terms),
                [fold(subject) for subject in query.subjects],
                query.min_store_position,
            )
            return _first_passing(matches, query, scopes, True)

    def _walk_newest(self, key: _Key, query: RecallQuery, scopes: frozenset[str]) -> list[Belief]:
        """``_first_passing`` over the principal's beliefs newest first, remembered.

        The walk's result depends on the principal's beliefs (any change forgets every walk of
        the principal) and on the query's predicates; of ``as_of``, only through the validity
        bounds of the beliefs it judged, so a remembered walk answers every ``as_of`` on the
        same side of each of those bounds (see ``_Walk``). At most ``_WALKS_KEPT`` walks are
        kept per principal."""
        slot: tuple[object, ...] = (scopes, query.statuses, query.min_store_position)
        slot += (query.belief_types, query.exclude_ids, query.limit, query.as_of is None)
        walks = self._walks.setdefault(key, {})
        walk = walks.get(slot)
        if walk is None or not walk.answers(query.as_of):
            owned = self._by_principal.get(key, {})
            walk = _Walk(query.as_of)
            walk.hits = _first_passing(reversed(owned.values()), query, scopes, False, walk)
            walks.pop(slot, None)
            if len(walks) >= _WALKS_KEPT:
                del walks[next(iter(walks))]
            walks[slot] = walk
        return list(walk.hits)

    def search_many(self, queries: Sequence[RecallQuery]) -> list[list[Belief]]:
        """``search`` of each query, in order, under one hold of the lock (one snapshot)."""
        with self._lock:
            return [self.search(query) for query in queries]

    def search_keyed(
        self, keyed: RecallQuery, queries: Sequence[RecallQuery]
    ) -> tuple[list[BeliefKey], list[list[Belief]]]:
        """``search`` of ``keyed`` and of each query under one hold of the lock; the keyed
        search's beliefs are their own keys (nothing lighter to read in memory)."""
        with self._lock:
            keys: list[BeliefKey] = list(self.search(keyed))
            return keys, [self.search(query) for query in queries]

    def list_idle(
        self,
        principal: Principal,
        evidence_before: datetime,
        limit: int,
        *,
        type_evidence_before: Mapping[str, datetime] | None = None,
        touched_before: datetime | None = None,
    ) -> list[Belief]:
        """Decay-eligible beliefs (``memory_core.idle.is_idle``), least recently evidenced first."""
        evidence_before = require_aware(evidence_before, "evidence_before")
        cuts = _aware_cuts(type_evidence_before)
        if touched_before is not None:
            touched_before = require_aware(touched_before, "touched_before")
        _check_limit(limit, "list_idle")
        with self._lock:
            rows = [
                b
                for b in self._by_principal.get(_key(principal), {}).values()
                if is_idle(
                    b,
                    evidence_before=evidence_before,
                    type_evidence_before=cuts,
                    touched_before=touched_before,
                )
            ]
        rows.sort(key=lambda b: (b.last_evidence_at, b.store_position))
        return rows[:limit]

    def list_principals_with_idle(
        self, evidence_before: datetime, limit: int, *, after: Principal | None = None
    ) -> list[Principal]:
        """Principals owning a decay-eligible belief evidenced at or before the instant.

        Ordered by ``(tenant_id, principal_id)`` (code point order, as PostgreSQL's ``"C"``
        collation sorts), strictly after ``after``, at most ``limit``.
        """
        evidence_before = require_aware(evidence_before, "evidence_before")
        _check_limit(limit, "list_principals_with_idle")
        floor = None if after is None else _key(after)
        with self._lock:
            keys = sorted(
                key
                for key, owned in self._by_principal.items()
                if (floor is None or key > floor)
                and any(is_idle(b, evidence_before=evidence_before) for b in owned.values())
            )
        return [Principal(tenant, principal) for tenant, principal in keys[:limit]]

    def head_position(self, principal: Principal) -> int:
        """The newest position the principal has written; 0 if none."""
        with self._lock:
            return self._head.get(_key(principal), 0)

    def pinned(self) -> AbstractContextManager[None]:
        """Nothing to share in memory: the block runs as it is."""
        return nullcontext()

    def find_by_subject(
        self,
        principal: Principal,
        subjects: Sequence[str],
        *,
        belief_types: frozenset[BeliefType] | None = None,
        scopes: Sequence[str] | None = None,
        statuses: frozenset[BeliefStatus] | None = None,
    ) -> list[Belief]:
        """The principal's beliefs about one of ``subjects`` (by ``text.matching_key``), in
        store-position order, optionally of these types, scopes and statuses."""
        wanted_scopes = None if scopes is None else frozenset(scopes)
        with self._lock:
            index = self._subject_keys.get(_key(principal), {})
            ids = set().union(*(index.get(matching_key(s), ()) for s in subjects))
            found = [self._beliefs[belief_id] for belief_id in ids]
        found = [
            b
            for b in found
            if (belief_types is None or b.belief_type in belief_types)
            and (wanted_scopes is None or b.scope in wanted_scopes)
            and (statuses is None or b.status in statuses)
        ]
        found.sort(key=lambda b: b.store_position)
        return found


_INTERNED_FIELDS = ("tenant_id", "principal_id", "subject", "scope", "source_session_id")
"""Belief fields whose values repeat across a principal's records: stored interned."""

_ALL_BELIEF_FIELDS: set[str] = set(Belief.model_fields)
"""The fields set of every stored belief (each is validated from a full dump), held once."""


def _stored(belief: Belief, position: int) -> Belief:
    """``belief`` at ``position``, validated again at the store boundary (see ``revalidated``)
    and held compactly: repeating strings interned, and the fields-set record pydantic keeps
    per instance (every field, for a record validated from a full dump) shared by all.

    A frozen model never mutates its fields set and ``model_copy`` copies it, so sharing one
    set is invisible to readers; it is most of what an instance costs besides its values.
    """
    data = belief.model_dump()
    for name in _INTERNED_FIELDS:
        if data[name] is not None:
            data[name] = sys.intern(data[name])
    data["store_position"] = position
    stored = Belief.model_validate(data)
    if stored.__pydantic_fields_set__ == _ALL_BELIEF_FIELDS:
        object.__setattr__(stored, "__pydantic_fields_set__", _ALL_BELIEF_FIELDS)
    return stored


def _aware_cuts(cuts: Mapping[str, datetime] | None) -> dict[str, datetime] | None:
    """``type_evidence_before`` with every instant checked timezone-aware."""
    if cuts is None:
        return None
    return {str(t): require_aware(at, f"type_evidence_before[{t!s}]") for t, at in cuts.items()}


def _insert_in_position_order(owned: dict[str, Belief], belief: Belief) -> None:
    """Put ``belief`` back into ``owned`` (kept in store-position order), in place.

    Only an undone update needs this (rare: a failed unit of work), so a belief older than
    the newest is placed by rebuilding the principal's order.
    """
    if not owned or next(reversed(owned.values())).store_position < belief.store_position:
        owned[belief.id] = belief
        return
    rows = sorted([*owned.values(), belief], key=lambda b: b.store_position)
    owned.clear()
    owned.update((b.id, b) for b in rows)


_WALKS_KEPT = 16
"""Newest-first walks remembered per principal (a delta recall's cursor makes new ones)."""


class _Walk:
    """A remembered newest-first walk: its hits, and the validity bounds of the beliefs it
    judged nearest to its ``as_of`` on either side.

    A belief's validity test (``valid_from <= as_of < valid_to``) gives the same answer for
    every instant on the same side of each of its bounds as ``as_of``, so the walk (which
    beliefs it judged, which passed, where it stopped) is the same for every instant in
    ``[low, high)``: ``low`` is the latest bound at or before ``as_of``, ``high`` the earliest
    after it (``None`` for none)."""

    __slots__ = ("as_of", "high", "hits", "low")

    def __init__(self, as_of: datetime | None) -> None:
        self.as_of = as_of
        self.low: datetime | None = None
        self.high: datetime | None = None
        self.hits: list[Belief] = []

    def note(self, bound: datetime) -> None:
        """Narrow ``[low, high)`` by a bound the walk compared ``as_of`` with."""
        if bound <= self.as_of:  # type: ignore[operator]
            if self.low is None or bound > self.low:
                self.low = bound
        elif self.high is None or bound < self.high:
            self.high = bound

    def answers(self, as_of: datetime | None) -> bool:
        """Whether the walk's hits are those of a walk at ``as_of``."""
        if as_of is None or self.as_of is None:
            return as_of is None and self.as_of is None
        return (self.low is None or self.low <= as_of) and (self.high is None or as_of < self.high)


def _first_passing(
    newest_first: Iterable[Belief] | Iterable[IndexedBelief],
    query: RecallQuery,
    scopes: frozenset[str],
    entries: bool = False,
    bounds: _Walk | None = None,
) -> list[Belief]:
    """Up to ``query.limit`` of ``newest_first`` (in store-position order, newest first) that
    pass the query's predicates; the walk stops at the limit or at the position cursor.

    The predicates are scope, status, excluded ids, belief types and validity at ``as_of``;
    the query's values are read once, not per belief. With ``entries`` the walk holds index
    entries (``IndexedBelief``: the same fields, as slots) and their beliefs are returned.
    With ``bounds``, every validity bound compared with ``as_of`` is noted in it.
    """
    limit, floor, statuses = query.limit, query.min_store_position, query.statuses
    excluded, types, as_of = query.exclude_ids, query.belief_types, query.as_of
    hits: list[Belief] = []
    for belief in newest_first:
        if belief.store_position <= floor:
            break  # every older belief is at or below the cursor too
        if belief.scope not in scopes or belief.status not in statuses:
            continue
        if excluded and belief.id in excluded:
            continue
        if types is not None and belief.belief_type not in types:
            continue
        if as_of is not None:
            valid_from, valid_to = belief.valid_from, belief.valid_to
            if bounds is not None:
                bounds.note(valid_from)
            if valid_from > as_of:
                continue
            if valid_to is not None:
                if bounds is not None:
                    bounds.note(valid_to)
                if valid_to <= as_of:
                    continue
        hits.append(belief.belief if entries else belief)  # type: ignore[union-attr,arg-type]
        if len(hits) >= limit:
            break
    return hits


class InMemoryTraceStore:
    """Recall traces kept in a dict."""

    def __init__(self, unit_log: _UnitLog | None = None) -> None:
        self._units = unit_log or _UnitLog()
        self._lock = self._units.lock
        self._traces: dict[str, RecallTrace] = {}

    def _replace(self, trace: RecallTrace) -> None:
        previous = self._traces[trace.trace_id]
        self._traces[trace.trace_id] = trace
        self._units.record(functools.partial(self._traces.__setitem__, trace.trace_id, previous))

    def record(self, trace: RecallTrace) -> RecallTrace:
        """Store a new trace."""
        trace = revalidated(trace)
        with self._lock:
            if trace.trace_id in self._traces:
                raise DuplicateIdError("trace", trace.trace_id)
            self._traces[trace.trace_id] = trace
            self._units.record(functools.partial(self._traces.pop, trace.trace_id))
            return trace

    def get(self, principal: Principal, trace_id: str) -> RecallTrace | None:
        """Return the principal's trace, or ``None``."""
        with self._lock:
            trace = self._traces.get(trace_id)
        return trace if trace is not None and trace.principal == principal else None

    def mark_cited(self, trace_id: str, principal: Principal, cited: Sequence[str]) -> RecallTrace:
        """Union ``cited`` into the trace's cited set, keeping first-cited order."""
        with self._lock:
            trace = self.get(principal, trace_id)
            if trace is None:
                raise NotFoundError(f"trace {trace_id} does not exist for this principal")
            merged = tuple(dict.fromkeys((*trace.cited, *cited)))
            if merged == trace.cited:
                return trace
            updated = trace.model_copy(update={"cited": merged})
            self._replace(updated)
            return updated

    def expire_operator_fields(self, now: datetime, limit: int = 1000) -> int:
        """Null the operator tier of traces past their operator expiry; idempotent."""
        now = require_aware(now, "now")
        _check_limit(limit, "expire_operator_fields")
        with self._lock:
            due = sorted(
                (
                    t
                    for t in self._traces.values()
                    if not t.operator_expired
                    and t.operator_expires_at is not None
                    and t.operator_expires_at <= now
                ),
                key=lambda t: (t.operator_expires_at, t.trace_id),
            )[:limit]
            for trace in due:
                self._replace(
                    trace.model_copy(
                        update={
                            "arm_latencies_ms": None,
                            "candidate_counts": None,
                            "dropped_for_budget": None,
                            "operator_expired": True,
                        }
                    )
                )
            return len(due)


class InMemoryFormationStateStore:
    """Formation watermarks and rejections."""

    def __init__(self, unit_log: _UnitLog | None = None) -> None:
        self._units = unit_log or _UnitLog()
        self._lock = self._units.lock
        self._watermarks: dict[tuple[_Key, str], int] = {}
        self._rejections: dict[_Key, dict[str, Rejection]] = defaultdict(dict)

    def watermark(self, principal: Principal, session_id: str) -> int:
        """Last consolidated sequence of the session (0 if none)."""
        with self._lock:
            return self._watermarks.get((_key(principal), session_id), 0)

    def set_watermark(self, principal: Principal, session_id: str, sequence: int) -> None:
        """Record the consolidated sequence."""
        if sequence < 0:
            raise UsageError(f"a watermark is an event sequence >= 0, got {sequence}")
        with self._lock:
            slot = (_key(principal), session_id)
            previous = self._watermarks.get(slot)
            self._watermarks[slot] = sequence

            def undo() -> None:
                if previous is None:
                    del self._watermarks[slot]
                else:
                    self._watermarks[slot] = previous

            self._units.record(undo)

    def record_rejection(self, rejection: Rejection) -> None:
        """Store a rejection (idempotent by belief id)."""
        rejection = revalidated(rejection)
        with self._lock:
            owned = self._rejections[(rejection.tenant_id, rejection.principal_id)]
            if rejection.belief_id in owned:
                return
            owned[rejection.belief_id] = rejection
            self._units.record(functools.partial(owned.pop, rejection.belief_id))

    def rejections(self, principal: Principal) -> list[Rejection]:
        """The principal's rejections, oldest first (by ``rejected_at``, then belief id)."""
        with self._lock:
            rows = list(self._rejections.get(_key(principal), {}).values())
        rows.sort(key=lambda r: (r.rejected_at, r.belief_id))
        return rows


class InMemoryStorage:
    """The in-memory tier: five adapters sharing one lock and one unit-of-work undo log."""

    def __init__(self) -> None:
        self._units = _UnitLog()
        self.events = InMemoryEventLog(self._units)
        self.sessions = InMemorySessionStore(self._units)
        self.memories = InMemoryMemoryStore(self._units)
        self.traces = InMemoryTraceStore(self._units)
        self.formation = InMemoryFormationStateStore(self._units)
        # The erasure port works on the adapters above; imported here, as it imports them.
        from memory_core.stores._erasure import InMemoryErasure

        self.erasure = InMemoryErasure(
            self._units,
            events=self.events,
            sessions=self.sessions,
            memories=self.memories,
            traces=self.traces,
            formation=self.formation,
        )

    @contextmanager
    def unit_of_work(self) -> Iterator[None]:
        """Run a block atomically: an exception undoes every write the block made.

        The unit holds the tier's lock from start to end, so it is serialised against every
        other read and write (another thread waits until the unit ends; it neither sees the
        unit's writes early nor loses its own to the unit's rollback). Only the block's own
        mutations are undone, newest first; sequence numbers and store positions the block
        drew are not reused, as with PostgreSQL sequences.

        Units of work nest like savepoints: an exception that leaves an inner unit undoes the
        inner unit's writes only, so an outer unit that catches it keeps its own writes.
        """
        with self._units.unit():
            yield

    def close(self) -> None:
        """Nothing to release."""
