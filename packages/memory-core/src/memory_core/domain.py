"""The core records: principals, events, sessions, beliefs, recall queries and traces.

Records are frozen pydantic models that forbid unknown fields: building one from an unknown
enum value, a naive datetime or a missing principal raises ``pydantic.ValidationError`` naming
the field. Updates produce new values (``model_copy(update=...)``); a store stamps
``sequence`` and ``store_position``.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import pydantic
from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, field_validator

from memory_core.errors import UsageError
from memory_core.ids import short_id

_to_utc: Callable[[datetime], datetime] = operator.methodcaller("astimezone", UTC)
"""``value.astimezone(UTC)`` (the value itself when it is already in UTC), called by pydantic
without a Python frame: every validated instant passes through it."""


UtcDatetime = Annotated[AwareDatetime, AfterValidator(_to_utc)]
"""A timezone-aware instant, normalised to UTC (a naive datetime is refused)."""


JsonValue = Any
"""A JSON-serialisable value, as callers build event payloads (``Event`` checks them)."""

if TYPE_CHECKING:
    PayloadValue = Any
else:
    PayloadValue = pydantic.JsonValue
"""One value of an event payload: validated as ``pydantic.JsonValue``. Statically it stays
``Any``, so readers of a payload they wrote keep indexing it without narrowing every value."""

_PayloadT = TypeVar("_PayloadT", bound=BaseModel)

_SCOPE = re.compile(r"^(user|general|project:[a-z][a-z0-9-]{1,63})$")
_PROJECT = re.compile(r"^[a-z][a-z0-9-]{1,63}$")

USER_SCOPE = "user"
GENERAL_SCOPE = "general"


class _Record(BaseModel):
    # NaN and infinities are refused everywhere: JSON (and so the PostgreSQL tier) cannot
    # hold them, and both tiers must accept and refuse the same records.
    model_config = ConfigDict(
        frozen=True, extra="forbid", use_enum_values=False, allow_inf_nan=False
    )


@dataclass(frozen=True, slots=True)
class Principal:
    """Whose memory: every read and write is scoped to one tenant's principal."""

    tenant_id: str
    principal_id: str

    def __post_init__(self) -> None:
        if not self.tenant_id or not self.principal_id:
            raise UsageError(
                "Principal needs a non-empty tenant_id and principal_id, got "
                f"tenant_id={self.tenant_id!r}, principal_id={self.principal_id!r}"
            )


class BeliefType(StrEnum):
    """What kind of thing a belief states."""

    FACT = "fact"
    PREFERENCE = "preference"
    RELATIONSHIP = "relationship"
    USER_MODEL_ATTR = "user_model_attr"
    PROCEDURE_POINTER = "procedure_pointer"


PORTABLE_TYPES: frozenset[BeliefType] = frozenset(
    {BeliefType.PREFERENCE, BeliefType.USER_MODEL_ATTR, BeliefType.RELATIONSHIP}
)
"""Types whose portability ceiling is the user scope: they travel across projects."""


class BeliefStatus(StrEnum):
    """Lifecycle status; ACTIVE and PROVISIONAL are live."""

    ACTIVE = "ACTIVE"
    PROVISIONAL = "PROVISIONAL"
    SUPERSEDED = "SUPERSEDED"
    EXPIRED = "EXPIRED"
    RETIRED = "RETIRED"
    REJECTED = "REJECTED"


LIVE_STATUSES: frozenset[BeliefStatus] = frozenset({BeliefStatus.ACTIVE, BeliefStatus.PROVISIONAL})


class Authority(StrEnum):
    """Who vouches for a belief: the user, an affirmed agent conclusion, or an inference."""

    USER = "USER"
    AFFIRMED = "AFFIRMED"
    INFERRED = "INFERRED"

    @property
    def rank(self) -> int:
        """Higher ranks win: USER 3, AFFIRMED 2, INFERRED 1."""
        return {"USER": 3, "AFFIRMED": 2, "INFERRED": 1}[self.value]


class Polarity(StrEnum):
    """Whether a belief asserts its statement or retracts an earlier one."""

    ASSERT = "assert"
    RETRACT = "retract"


class Trust(StrEnum):
    """Trust of an event's origin; only ``user`` events are formation sources."""

    USER = "user"
    MEMORY = "memory"
    TOOL = "tool"
    SYSTEM = "system"


def validate_scope(scope: str) -> str:
    """Return ``scope`` if it is ``user``, ``general`` or ``project:<name>``, else raise."""
    if not _SCOPE.match(scope):
        raise UsageError(
            f"invalid scope {scope!r}: expected 'user', 'general' or 'project:<name>' "
            "with a lowercase name of 2-64 characters"
        )
    return scope


def project_scope_name(name: str) -> str:
    """Validate a bare project name (``orbit-app``) and return it."""
    if not _PROJECT.match(name):
        raise UsageError(f"invalid project name {name!r}: expected ^[a-z][a-z0-9-]{{1,63}}$")
    return name


def scope_for_project(project: str | None) -> str:
    """The formation scope of a session: ``project:<name>`` inside a project, else ``general``."""
    return f"project:{project_scope_name(project)}" if project else GENERAL_SCOPE


def visible_scopes(project: str | None) -> tuple[str, ...]:
    """Scopes a session in ``project`` may read: user, general and its own project only."""
    if project is None:
        return (USER_SCOPE, GENERAL_SCOPE)
    return (USER_SCOPE, GENERAL_SCOPE, scope_for_project(project))


class Event(_Record):
    """One append-only event; ``sequence`` is stamped by the event log (0 before append).

    ``payload`` holds JSON values only: str keys; str, int, float, bool, ``None``, lists and
    str-keyed dicts of them. A tuple, set, datetime, bytes or a non-finite float is a
    ``ValidationError`` naming the path, so both storage tiers store exactly what was given.
    """

    event_id: str = Field(min_length=1)
    sequence: int = Field(default=0, ge=0)
    tenant_id: str = Field(min_length=1)
    principal_id: str = Field(min_length=1)
    session_id: str | None = None
    run_id: str | None = None
    event_type: str = Field(min_length=1)
    actor: str = Field(min_length=1)
    trust: Trust
    payload: dict[str, PayloadValue] = Field(default_factory=dict)
    created_at: UtcDatetime

    @property
    def principal(self) -> Principal:
        """The event's owner."""
        return Principal(self.tenant_id, self.principal_id)

    def payload_as(self, model: type[_PayloadT]) -> _PayloadT:
        """The payload read as ``model``, the payload model of this event's type
        (``event.payload_as(RunCompleted)``, see :mod:`memory_core.base.events`).

        Raises:
            UsageError: ``model`` is the payload of another event type.
            pydantic.ValidationError: the payload does not fit ``model`` (the field named).
        """
        expected = getattr(model, "event_type", None)
        if expected is not None and expected != self.event_type:
            raise UsageError(
                f"event {self.event_id} is a {self.event_type!r} event; "
                f"{model.__name__} is the payload of {str(expected)!r}"
            )
        return model.model_validate(self.payload)


class SessionKind(StrEnum):
    """Who a session serves; it picks the budget of the snapshot recalled at open.

    ``interactive`` (the default) is a person in conversation and takes the context plan's
    snapshot budget; ``async`` is a background or scheduled agent run and ``child`` a sub-agent
    session spawned by another session, each taking its ``snapshot`` memory profile.
    """

    INTERACTIVE = "interactive"
    ASYNC = "async"
    CHILD = "child"


class SessionMetadata(_Record):
    """Session metadata the memory subsystem reads."""

    project_scope: str | None = None
    kind: SessionKind = SessionKind.INTERACTIVE

    @field_validator("project_scope")
    @classmethod
    def _check_project(cls, value: str | None) -> str | None:
        return None if value is None else project_scope_name(value)


class Session(_Record):
    """A conversation session; its snapshot is recalled once at open and frozen."""

    id: str = Field(min_length=1)
    tenant_id: str = Field(min_length=1)
    principal_id: str = Field(min_length=1)
    agent: str = Field(min_length=1)
    metadata: SessionMetadata = Field(default_factory=SessionMetadata)
    snapshot_id: str | None = None
    snapshot_watermark: int = Field(default=0, ge=0)
    opened_at: UtcDatetime
    last_activity_at: UtcDatetime
    closed_at: UtcDatetime | None = None

    @property
    def principal(self) -> Principal:
        """The session's owner."""
        return Principal(self.tenant_id, self.principal_id)

    @property
    def is_open(self) -> bool:
        """True until the session is closed."""
        return self.closed_at is None


class Belief(_Record):
    """One governed belief: a row of the memory store."""

    id: str = Field(min_length=8)
    tenant_id: str = Field(min_length=1)
    principal_id: str = Field(min_length=1)
    belief_type: BeliefType
    subject: str = Field(min_length=1)
    statement: str = Field(min_length=1)
    polarity: Polarity = Polarity.ASSERT
    scope: str
    status: BeliefStatus
    authority: Authority
    confidence: float = Field(ge=0.0, le=1.0)
    utility: float = Field(default=0.0, ge=-1.0, le=1.0)
    evidence_count: int = Field(default=1, ge=1)
    source_event_ids: tuple[str, ...] = Field(min_length=1)
    source_session_id: str | None = None
    valid_from: UtcDatetime
    valid_to: UtcDatetime | None = None
    last_evidence_at: UtcDatetime
    last_used_at: UtcDatetime | None = None
    created_at: UtcDatetime
    updated_at: UtcDatetime
    store_position: int = Field(default=0, ge=0)
    supersedes: str | None = None
    superseded_by: str | None = None
    conflicts_with: tuple[str, ...] = ()
    needs_review: bool = False
    consolidation_policy_version: str = Field(min_length=1)

    @field_validator("scope")
    @classmethod
    def _check_scope(cls, value: str) -> str:
        return validate_scope(value)

    @property
    def short_id(self) -> str:
        """The citable short id: the first eight hex digits of ``id``."""
        return short_id(self.id)

    @property
    def principal(self) -> Principal:
        """The belief's owner."""
        return Principal(self.tenant_id, self.principal_id)

    @property
    def is_live(self) -> bool:
        """True for ACTIVE and PROVISIONAL beliefs."""
        return self.status in LIVE_STATUSES


class RecallQuery(_Record):
    """A principal-scoped store query; the principal is required by construction.

    ``terms`` ``None`` means no lexical predicate; a tuple (even empty) selects records that
    share any whole lexeme with a term or whose subject is in ``subjects``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    principal: Principal
    scopes: tuple[str, ...]
    statuses: frozenset[BeliefStatus] = LIVE_STATUSES
    as_of: UtcDatetime | None = None
    min_store_position: int = Field(default=0, ge=0)
    terms: tuple[str, ...] | None = None
    subjects: tuple[str, ...] = ()
    belief_types: frozenset[BeliefType] | None = None
    exclude_ids: frozenset[str] = frozenset()
    limit: int = Field(default=64, ge=1)

    @field_validator("scopes")
    @classmethod
    def _check_scopes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not value:
            raise ValueError("a recall query needs at least one visible scope")
        for scope in value:
            validate_scope(scope)
        return value


RecallMoment = Literal["snapshot", "in_turn", "delta", "corrections"]


class TracedBelief(_Record):
    """What a trace keeps of a returned belief (user-safe tier)."""

    id: str
    short_id: str
    belief_type: BeliefType
    subject: str
    statement: str
    scope: str


class RecallTrace(_Record):
    """The record of one recall: a user-safe tier and an operator tier with its own expiry."""

    trace_id: str = Field(min_length=1)
    tenant_id: str = Field(min_length=1)
    principal_id: str = Field(min_length=1)
    session_id: str | None = None
    run_id: str | None = None
    turn_id: str | None = None
    moment: RecallMoment
    policy_version: str
    created_at: UtcDatetime
    # user-safe tier
    returned: tuple[str, ...] = ()
    beliefs: tuple[TracedBelief, ...] = ()
    cited: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()
    candidate_total: int = Field(default=0, ge=0)
    returned_count: int = Field(default=0, ge=0)
    dropped_count: int = Field(default=0, ge=0)
    rendered_tokens: int = Field(default=0, ge=0)
    user_expires_at: UtcDatetime | None = None
    # operator tier (nulled when operator_expires_at passes)
    arm_latencies_ms: dict[str, float] | None = None
    candidate_counts: dict[str, int] | None = None
    dropped_for_budget: tuple[str, ...] | None = None
    operator_expires_at: UtcDatetime | None = None
    operator_expired: bool = False

    @property
    def principal(self) -> Principal:
        """The trace's owner."""
        return Principal(self.tenant_id, self.principal_id)


class Rejection(_Record):
    """A durable user rejection: formation re-applies it before every commit."""

    belief_id: str
    tenant_id: str
    principal_id: str
    belief_type: BeliefType
    subject: str
    statement: str
    polarity: Polarity = Polarity.ASSERT
    rejected_at: UtcDatetime
    reason: str | None = None
