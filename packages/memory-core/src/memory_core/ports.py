"""Storage ports. Every read takes a ``Principal``: isolation is part of the signature.

Each port has an in-memory reference adapter (``memory_core.stores.memory``) and a PostgreSQL
adapter (``memory_store_pg``); one contract test suite runs against both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol

from memory_core.domain import (
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    JsonValue,
    Principal,
    RecallQuery,
    RecallTrace,
    Rejection,
    Session,
)

IDEMPOTENCY_KEY_FIELD = "idempotency_key"
"""The payload field holding a client's idempotency key on a recorded message.

At most one event of a principal's session carries a given key: appending a second one is a
``ConflictError`` on every tier (PostgreSQL enforces it with a unique index)."""


class EventLog(Protocol):
    """Append-only event log with a monotonic ``sequence``."""

    def append(self, event: Event) -> Event:
        """Store ``event`` and return it stamped with the next sequence number.

        Raises:
            DuplicateIdError: the event id is already stored.
            ConflictError: the principal's session already has an event whose payload carries
                the same ``idempotency_key`` (:data:`IDEMPOTENCY_KEY_FIELD`).
        """
        ...

    def append_many(self, events: Sequence[Event]) -> list[Event]:
        """Store ``events`` with the next sequence numbers, increasing in the order given.

        All or nothing: when any of them could not be appended (the errors of
        :meth:`append`, or an id or idempotency key given twice), none is.
        """
        ...

    def find_by_idempotency_key(
        self, principal: Principal, session_id: str, key: str
    ) -> Event | None:
        """The principal's event of the session whose payload carries ``key``, or ``None``."""
        ...

    def get(self, principal: Principal, event_id: str) -> Event | None:
        """Return the principal's event with this id, or ``None``."""
        ...

    def read_session(
        self, principal: Principal, session_id: str, *, after_sequence: int = 0
    ) -> list[Event]:
        """Return the principal's events of one session past ``after_sequence``, in order."""
        ...

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
        """Return up to ``limit`` of the principal's events strictly between the cursors.

        Events have ``after_sequence < sequence`` and, when ``before_sequence`` is given,
        ``sequence < before_sequence``; they come oldest first, or newest first when
        ``descending`` (a backwards walk passes the smallest sequence read as the next
        ``before_sequence``).
        """
        ...


class SessionStore(Protocol):
    """Sessions and their snapshot/watermark bookkeeping.

    State changes are conditional (compare-and-set on ``closed_at``): a closed session never
    reopens, whoever writes. ``touch`` and ``close`` change one field of an open session;
    ``update`` refuses to write an open record over a closed one.
    """

    def create(self, session: Session) -> Session:
        """Insert a new session."""
        ...

    def get(self, principal: Principal, session_id: str) -> Session | None:
        """Return the principal's session, or ``None``."""
        ...

    def update(self, session: Session) -> Session:
        """Replace an existing session record.

        Raises:
            NotFoundError: no such session for the principal.
            SessionClosedError: the stored session is closed and the record is open (an update
                never reopens a session).
        """
        ...

    def touch(self, principal: Principal, session_id: str, at: datetime) -> Session:
        """Move an open session's ``last_activity_at`` to ``at`` (never backwards).

        Raises:
            NotFoundError: no such session for the principal.
            SessionClosedError: the session is closed (nothing changes).
        """
        ...

    def close(self, principal: Principal, session_id: str, at: datetime) -> Session | None:
        """Mark an open session closed at ``at``; ``None`` when it was already closed.

        Raises:
            NotFoundError: no such session for the principal.
        """
        ...

    def lock(self, principal: Principal, session_id: str) -> Session | None:
        """Read the session and hold it against concurrent changes until the unit of work
        ends (a row lock on PostgreSQL, the tier's lock in memory); ``None`` if absent."""
        ...

    def list_open_idle(
        self,
        last_activity_before: datetime,
        limit: int = 100,
        *,
        after: tuple[datetime, str] | None = None,
    ) -> list[Session]:
        """Open sessions (any principal) whose last activity is at or before the instant.

        Ordered by ``(last_activity_at, id)``; ``after`` is a keyset cursor (the last
        session's pair of the previous page), so a sweep makes progress past sessions it
        could not close.
        """
        ...


class BeliefKey(Protocol):
    """What :meth:`MemoryStore.search_keyed` reads of a belief: the fields that admit it to a
    recall (owner, scope, status, id, position) and its subject. A ``Belief`` is one; a tier
    may answer with a lighter record holding equal values."""

    @property
    def id(self) -> str:
        """The belief's id."""
        ...

    @property
    def tenant_id(self) -> str:
        """The owner's tenant."""
        ...

    @property
    def principal_id(self) -> str:
        """The owner."""
        ...

    @property
    def scope(self) -> str:
        """The belief's scope."""
        ...

    @property
    def status(self) -> BeliefStatus:
        """The belief's lifecycle status."""
        ...

    @property
    def store_position(self) -> int:
        """The belief's store position."""
        ...

    @property
    def subject(self) -> str:
        """The belief's subject, as stored."""
        ...


BELIEF_KEY_FIELDS: tuple[str, ...] = (
    "id",
    "tenant_id",
    "principal_id",
    "scope",
    "status",
    "store_position",
    "subject",
)
"""The fields of a :class:`BeliefKey`, in the order a tier's lighter record may hold them."""


class MemoryStore(Protocol):
    """The belief store; ``store_position`` is monotonic per store."""

    def put(self, belief: Belief) -> Belief:
        """Insert a new belief and return it with a fresh store position."""
        ...

    def update(self, belief: Belief) -> Belief:
        """Replace an existing belief (same principal) and return it with a fresh position."""
        ...

    def update_many(self, beliefs: Sequence[Belief]) -> list[Belief]:
        """:meth:`update` of several beliefs at once, fresh positions in the order given.

        All or nothing: an unknown (or foreign) belief is ``NotFoundError`` and nothing
        changes; an id given twice is a ``ConflictError``.
        """
        ...

    def update_in_place(self, belief: Belief) -> Belief:
        """Replace an existing belief (same principal) keeping its store position.

        For changes no session should read as new (a decay step, usage feedback): a position
        past a snapshot watermark means "formed or corrected since", so these keep theirs.
        """
        ...

    def get(self, principal: Principal, belief_id: str) -> Belief | None:
        """Return the principal's belief with this id, or ``None``."""
        ...

    def get_many(self, principal: Principal, belief_ids: Sequence[str]) -> list[Belief]:
        """The principal's beliefs among ``belief_ids`` (any status), sorted by id.

        An id the principal does not own, or that does not exist, is absent from the result.
        """
        ...

    def list_beliefs(
        self, principal: Principal, statuses: frozenset[BeliefStatus] | None = None
    ) -> list[Belief]:
        """The principal's beliefs (optionally of some statuses) in store-position order."""
        ...

    def search(self, query: RecallQuery) -> list[Belief]:
        """Beliefs passing the query's predicates, newest store position first, capped."""
        ...

    def search_many(self, queries: Sequence[RecallQuery]) -> list[list[Belief]]:
        """``search`` of each query, in order: the same beliefs, read in one go where a tier
        can (PostgreSQL: one statement, so one snapshot and one round trip for them all)."""
        ...

    def search_keyed(
        self, keyed: RecallQuery, queries: Sequence[RecallQuery]
    ) -> tuple[list[BeliefKey], list[list[Belief]]]:
        """``search`` of ``keyed``, each belief as its :class:`BeliefKey` only, and
        ``search_many`` of ``queries``, read together as ``search_many`` reads.

        For a search whose beliefs are only counted and named by subject (an in-turn recall's
        recency arm): a tier may read the key fields alone (PostgreSQL reads no statement,
        array or instant of them). The keys hold exactly the values of the beliefs ``search``
        returns, in its order.
        """
        ...

    def find_by_subject(
        self,
        principal: Principal,
        subjects: Sequence[str],
        *,
        belief_types: frozenset[BeliefType] | None = None,
        scopes: Sequence[str] | None = None,
        statuses: frozenset[BeliefStatus] | None = None,
    ) -> list[Belief]:
        """The principal's beliefs about one of ``subjects``, in store-position order.

        An exact lookup, not a search: a belief matches when its subject's
        ``memory_core.text.matching_key`` (case-folded, whitespace collapsed,
        trailing `` .!?;:,`` stripped) is a given subject's. Only beliefs of ``belief_types``,
        in ``scopes`` and of ``statuses`` are returned, when given (``None``: any). Not
        capped: a subject holds few beliefs, and callers need all of them (the formation
        ledger, ``reject``'s same-statement copies).
        """
        ...

    def list_idle(
        self,
        principal: Principal,
        evidence_before: datetime,
        limit: int,
        *,
        type_evidence_before: Mapping[str, datetime] | None = None,
        touched_before: datetime | None = None,
    ) -> list[Belief]:
        """The principal's decay-eligible beliefs, least recently evidenced first, capped.

        Only rows passing ``memory_core.idle.is_idle`` with these arguments: live, not a user
        statement, PROVISIONAL or at most the inferred ceiling, last evidenced at or before
        ``evidence_before`` (and its type's ``type_evidence_before`` instant, if any), and,
        when ``touched_before`` is given, last updated and last cited at or before it. Ties on
        ``last_evidence_at`` go by store position.
        """
        ...

    def list_principals_with_idle(
        self, evidence_before: datetime, limit: int, *, after: Principal | None = None
    ) -> list[Principal]:
        """Principals owning a decay-eligible belief last evidenced at or before the instant.

        The one cross-principal read, for the maintenance worker: ordered by
        ``(tenant_id, principal_id)``, strictly after ``after`` when given (a page cursor),
        at most ``limit``. Every read of a principal's beliefs stays principal-scoped.
        """
        ...

    def head_position(self, principal: Principal) -> int:
        """The newest store position the principal has written (any status); 0 if none."""
        ...

    def pinned(self) -> AbstractContextManager[None]:
        """A block whose calls to this storage's ports may share one connection.

        For a burst of calls such as one recall (its arms and its trace write): a tier with a
        connection pool checks one connection out for the block instead of one per call. No
        transaction and no lock: every call behaves exactly as it would outside the block.
        A tier without connections does nothing.
        """
        ...


class TraceStore(Protocol):
    """Recall traces."""

    def record(self, trace: RecallTrace) -> RecallTrace:
        """Store a new trace."""
        ...

    def get(self, principal: Principal, trace_id: str) -> RecallTrace | None:
        """Return the principal's trace, or ``None``."""
        ...

    def mark_cited(self, trace_id: str, principal: Principal, cited: Sequence[str]) -> RecallTrace:
        """Union ``cited`` belief ids into the trace (idempotent) and return it."""
        ...

    def expire_operator_fields(self, now: datetime, limit: int = 1000) -> int:
        """Null the operator tier of up to ``limit`` traces past expiry; return how many."""
        ...


class FormationStateStore(Protocol):
    """Per-session formation watermarks and durable rejections."""

    def watermark(self, principal: Principal, session_id: str) -> int:
        """The last event sequence consolidated for the session (0 if none)."""
        ...

    def set_watermark(self, principal: Principal, session_id: str, sequence: int) -> None:
        """Record that events up to ``sequence`` were consolidated."""
        ...

    def record_rejection(self, rejection: Rejection) -> None:
        """Store a rejection durably (idempotent by belief id)."""
        ...

    def rejections(self, principal: Principal) -> list[Rejection]:
        """The principal's recorded rejections, oldest first."""
        ...


class ErasureStore(Protocol):
    """Lookup by short id, erasure and redaction of one principal's records (``forget``).

    Every method is principal-scoped and runs inside the caller's unit of work when one is
    open, so an erasure spanning several tables is kept together or not at all.
    """

    def match_id_prefix(self, principal: Principal, hex_prefix: str, limit: int) -> list[Belief]:
        """Up to ``limit`` of the principal's beliefs (any status) whose id, dashes removed,
        starts with ``hex_prefix`` (lowercase hex), sorted by id."""
        ...

    def erase_beliefs(self, principal: Principal, belief_ids: Sequence[str]) -> int:
        """Delete the principal's beliefs with these ids; return how many rows went."""
        ...

    def erase_rejections(self, principal: Principal, belief_ids: Sequence[str]) -> int:
        """Delete the principal's rejections of these belief ids; return how many went."""
        ...

    def redact_events(
        self, principal: Principal, event_ids: Sequence[str], payload: dict[str, JsonValue]
    ) -> int:
        """Replace the payload of the principal's events with these ids by ``payload``.

        The event keeps its id, sequence, type, session and time (the log stays append-only
        in shape); only its content goes. Returns how many events were redacted.
        """
        ...

    def redact_traces(self, principal: Principal, belief_ids: Sequence[str]) -> int:
        """Drop the user-safe copies (statement, subject) of these beliefs from the principal's
        recall traces; return how many traces changed."""
        ...

    def erase_principal(self, principal: Principal) -> dict[str, int]:
        """Delete every record of the principal from every table; rows deleted per table."""
        ...


class Storage(Protocol):
    """One storage tier: the five ports plus a unit of work spanning them."""

    @property
    def events(self) -> EventLog:
        """The event log."""
        ...

    @property
    def sessions(self) -> SessionStore:
        """The session store."""
        ...

    @property
    def memories(self) -> MemoryStore:
        """The belief store."""
        ...

    @property
    def traces(self) -> TraceStore:
        """The recall trace store."""
        ...

    @property
    def formation(self) -> FormationStateStore:
        """Formation watermarks and rejections."""
        ...

    @property
    def erasure(self) -> ErasureStore:
        """Short-id lookup, erasure and redaction (``forget`` and ``forget_principal``)."""
        ...

    def unit_of_work(self) -> AbstractContextManager[None]:
        """A transaction: everything written inside is kept together or not at all."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


__all__ = [
    "BELIEF_KEY_FIELDS",
    "IDEMPOTENCY_KEY_FIELD",
    "BeliefKey",
    "ErasureStore",
    "EventLog",
    "FormationStateStore",
    "MemoryStore",
    "SessionStore",
    "Storage",
    "TraceStore",
]
