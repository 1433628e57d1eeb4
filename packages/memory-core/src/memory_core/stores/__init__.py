"""In-memory storage adapters (the default tier and the one the benchmark measures)."""

from memory_core.stores.memory import (
    InMemoryEventLog,
    InMemoryFormationStateStore,
    InMemoryMemoryStore,
    InMemorySessionStore,
    InMemoryStorage,
    InMemoryTraceStore,
)

__all__ = [
    "InMemoryEventLog",
    "InMemoryFormationStateStore",
    "InMemoryMemoryStore",
    "InMemorySessionStore",
    "InMemoryStorage",
    "InMemoryTraceStore",
]
