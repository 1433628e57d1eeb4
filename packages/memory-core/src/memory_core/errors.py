"""Typed errors raised by memory-core.

Hierarchy (every class memory-core raises on purpose; the classes defined elsewhere are named
with their module, and every one is exported from ``memory_core``)::

    MemoryCoreError                 base of every error this package raises on purpose
    ├── UsageError                  the caller's mistake (bad argument, bad file); fix the input
    │   ├── ConfigurationError      a profile document or overlay is invalid
    │   │   └── ProviderEvidenceRequiredError  (formation.selection) the provider extractor was
    │   │                           selected without admissible evidence
    │   ├── MessageTextError        a message's text fails the record-time input gate
    │   ├── SessionClosedError      a write named a session that is already closed
    │   ├── SessionKindError        a session was opened with an unknown ``metadata.kind``
    │   ├── AmbiguousIdError        a short id fits several records (never a guess)
    │   ├── ImportFormatError       a memory export line is malformed (line and field named)
    │   └── InvalidProviderEvidenceError  (formation.selection) a provider evidence file is
    │                               unreadable or does not fit its schema
    ├── NotFoundError               a record the caller named does not exist for that principal
    ├── ConflictError               a write would break a store invariant (duplicate id, ...)
    │   └── DuplicateIdError        a record's id is already stored
    ├── StorageUnavailableError     a storage backend cannot be reached or is not installed
    ├── StorageError                a storage backend failed an operation for another reason
    ├── RunError                    an agent run ended in a typed terminal status (raised as
    │   │                           its subclass; ``status`` is the terminal status)
    │   └── ContextOverflowError    (runtime.context) the fixed context exceeds the window
    ├── ModelError                  (base.model) a model call failed
    │   ├── TransientModelError     worth retrying (timeout, rate limit, server error)
    │   │   └── ReplyTimeoutError   the reply (or its next chunk) did not arrive in time
    │   ├── PermanentModelError     not worth retrying (bad request, auth, malformed reply)
    │   └── ScriptExhaustedError    a scripted model has no turn left
    ├── ReplyRejectedError          (formation.provider_reply) a model reply failed validation;
    │                               also a ``ValueError``
    └── TelemetryAttributeError     (telemetry) an undeclared instrument or attribute key, or a
                                    value that is not identifier-shaped; also a ``ValueError``

Pydantic's ``ValidationError`` is raised unchanged where a record is built from bad values
(an unknown enum value, a naive datetime, a missing principal): its message names the field.
"""

from __future__ import annotations


class MemoryCoreError(Exception):
    """Base class of the errors memory-core raises deliberately."""


class UsageError(MemoryCoreError, ValueError):
    """The caller passed something invalid; the message says what and how to fix it."""


class ConfigurationError(UsageError):
    """A configuration document (profiles, overlay, policy profile) is invalid."""


class MessageTextError(UsageError):
    """A message's text was refused by the record-time input gate (``memory_core.text_gate``).

    Args:
        problem: What is wrong: ``not_text``, ``nul``, ``surrogate``, ``too_large`` or
            ``empty``.
        message: The full explanation (names the field, the problem and what to do).
    """

    def __init__(self, problem: str, message: str) -> None:
        super().__init__(message)
        self.problem = problem


class SessionClosedError(UsageError):
    """A record, fact or ``remember`` named a session that is closed; open a new session.

    A closed session never reopens: nothing is written when this is raised.
    """

    def __init__(self, session_id: str) -> None:
        super().__init__(
            f"session {session_id} is closed; nothing was recorded - open a new session "
            "(sessions.create()) to continue"
        )
        self.session_id = session_id


class SessionKindError(UsageError):
    """A session was opened with a ``metadata.kind`` that is not a known session kind.

    Args:
        kind: The refused value.
        known: The known kinds, in the order they are documented.
    """

    def __init__(self, kind: object, known: tuple[str, ...]) -> None:
        super().__init__(
            f"session metadata.kind {kind!r} is not a session kind; use one of "
            f"{', '.join(known)} (or leave it out for interactive); nothing was written"
        )
        self.kind = kind
        self.known = known


class AmbiguousIdError(UsageError):
    """A short id fits several of the principal's beliefs; ``candidates`` are their ids."""

    def __init__(self, ref: str, candidates: tuple[str, ...]) -> None:
        listed = ", ".join(candidates)
        super().__init__(
            f"short id {ref!r} fits {len(candidates)} beliefs ({listed}); pass more of the "
            "id's leading digits, or the full id"
        )
        self.ref = ref
        self.candidates = candidates


class ImportFormatError(UsageError):
    """A line of a memory export is malformed; nothing of the import was written.

    Args:
        line: The 1-based line number.
        field: The field at fault (``"-"`` when the line is not JSON at all).
        problem: What is wrong, and what to do.
    """

    def __init__(self, line: int, field: str, problem: str) -> None:
        super().__init__(f"line {line}, field {field}: {problem}; nothing was imported")
        self.line = line
        self.field = field
        self.problem = problem


class NotFoundError(MemoryCoreError, LookupError):
    """The named record does not exist for the given principal."""


class ConflictError(MemoryCoreError):
    """A write would violate a store invariant, such as inserting an id that already exists."""


DUPLICATE_ID_HINT = (
    "if two compositions built with sequential_ids=True share this store, they draw the same "
    "ids: give each its own bootstrap.build(id_namespace=...)"
)
"""What a duplicate id usually means outside a bug: two sequential-id compositions, one store."""


class DuplicateIdError(ConflictError):
    """A record's id is already stored; the message names the record and the usual cause.

    Args:
        kind: What was being stored (``event``, ``session``, ``belief``, ``trace``).
        identifier: The id that is already taken.
    """

    def __init__(self, kind: str, identifier: str) -> None:
        super().__init__(f"{kind} {identifier} already exists; {DUPLICATE_ID_HINT}")
        self.kind = kind
        self.identifier = identifier


class StorageUnavailableError(MemoryCoreError):
    """A storage backend is not installed, not reachable, or its schema is behind."""


class StorageError(MemoryCoreError):
    """A storage backend refused or failed an operation that is neither the caller's input nor
    an outage (an unexpected driver error); the message names the backend's error code."""


class RunError(MemoryCoreError):
    """An agent run ended without a final answer; ``status`` is its terminal status."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
