"""memory-core: governed agent memory.

Form governed beliefs from what users say, consolidate them, recall them into a model's
context with citable short ids, and run their lifecycle. The in-memory storage tier is the
default; ``memory-store-pg`` adds PostgreSQL.
"""

from memory_core.clock import Clock, FixedClock, SystemClock
from memory_core.domain import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    Polarity,
    Principal,
    RecallQuery,
    RecallTrace,
    Rejection,
    Session,
    SessionMetadata,
    Trust,
)
from memory_core.errors import (
    ConfigurationError,
    ConflictError,
    MemoryCoreError,
    NotFoundError,
    RunError,
    StorageUnavailableError,
    UsageError,
)
from memory_core.ids import IdFactory, RandomIdFactory, SequentialIdFactory, short_id
from memory_core.ports import (
    EventLog,
    FormationStateStore,
    MemoryStore,
    SessionStore,
    Storage,
    TraceStore,
)
from memory_core.stores import InMemoryStorage
from memory_core.tokenizer import tokenize

__all__ = [
    "Authority",
    "Belief",
    "BeliefStatus",
    "BeliefType",
    "Clock",
    "ConfigurationError",
    "ConflictError",
    "Event",
    "EventLog",
    "FixedClock",
    "FormationStateStore",
    "IdFactory",
    "InMemoryStorage",
    "MemoryCoreError",
    "MemoryStore",
    "NotFoundError",
    "Polarity",
    "Principal",
    "RandomIdFactory",
    "RecallQuery",
    "RecallTrace",
    "Rejection",
    "RunError",
    "SequentialIdFactory",
    "Session",
    "SessionMetadata",
    "SessionStore",
    "Storage",
    "StorageUnavailableError",
    "SystemClock",
    "TraceStore",
    "Trust",
    "UsageError",
    "short_id",
    "tokenize",
]
