"""Identifier factories: random UUIDs in production, a deterministic sequence for the benchmark."""

from __future__ import annotations

import hashlib
import uuid
from typing import Protocol

SHORT_ID_LENGTH = 8
# An odd multiplier is a bijection on 32-bit integers, so the first eight hex digits of
# sequential ids are distinct for the first 2**32 ids while not looking like a counter.
_SHORT_MULTIPLIER = 0x9E3779B1


def short_id(identifier: str) -> str:
    """Return the first eight hex digits of an id (dashes removed): its citable short form."""
    return identifier.replace("-", "")[:SHORT_ID_LENGTH]


class IdFactory(Protocol):
    """A source of new unique identifiers."""

    def new_id(self) -> str:
        """Return a new identifier: 32 lowercase hex digits in UUID form."""
        ...


class RandomIdFactory:
    """Random UUID4 identifiers."""

    def new_id(self) -> str:
        """Return a random UUID string."""
        return str(uuid.uuid4())


class SequentialIdFactory:
    """Deterministic identifiers whose short ids are distinct.

    The n-th id's first eight hex digits are ``(n * odd constant) mod 2**32`` (derived, not
    zero-padded), and the remaining digits come from a hash of ``namespace`` and ``n``.
    """

    def __init__(self, namespace: str = "memory") -> None:
        self._namespace = namespace
        self._counter = 0

    def new_id(self) -> str:
        """Return the next identifier of the sequence."""
        self._counter += 1
        head = (self._counter * _SHORT_MULTIPLIER) % 2**32
        tail = hashlib.sha256(f"{self._namespace}:{self._counter}".encode()).hexdigest()[:24]
        return str(uuid.UUID(hex=f"{head:08x}{tail}"))
