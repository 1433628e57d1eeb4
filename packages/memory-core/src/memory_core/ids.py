"""Identifier factories: random UUIDs in production, a deterministic sequence for the benchmark."""

from __future__ import annotations

import hashlib
import uuid
from typing import Protocol

from memory_core.errors import UsageError

SHORT_ID_LENGTH = 8
DEFAULT_ID_NAMESPACE = "memory"
"""The namespace of ``SequentialIdFactory()`` and of ``bootstrap.build(sequential_ids=True)``."""
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

    The n-th id's first eight hex digits are ``(n * odd constant + offset) mod 2**32``
    (derived, not zero-padded), and the remaining digits come from a hash of ``namespace`` and
    ``n``. The offset is ``0`` for the default namespace (``"memory"``, whose sequence never
    changes) and a hash of any other namespace, so two namespaces' short ids differ too; adding
    a constant keeps the first ``2**32`` short ids of one namespace distinct.

    Two factories of one namespace produce the same ids, so two compositions writing to one
    store need different namespaces (``bootstrap.build(id_namespace=...)``).

    Raises:
        UsageError: ``namespace`` is empty.
    """

    def __init__(self, namespace: str = DEFAULT_ID_NAMESPACE) -> None:
        if not namespace:
            raise UsageError("a sequential id namespace must be a non-empty string")
        self._namespace = namespace
        self._offset = (
            0
            if namespace == DEFAULT_ID_NAMESPACE
            else int(hashlib.sha256(f"short:{namespace}".encode()).hexdigest()[:8], 16)
        )
        self._counter = 0

    @property
    def namespace(self) -> str:
        """The namespace the ids are derived from."""
        return self._namespace

    def new_id(self) -> str:
        """Return the next identifier of the sequence."""
        self._counter += 1
        head = (self._counter * _SHORT_MULTIPLIER + self._offset) % 2**32
        tail = hashlib.sha256(f"{self._namespace}:{self._counter}".encode()).hexdigest()[:24]
        # str(uuid.UUID(hex=f"{head:08x}{tail}")), cut from the lowercase hex it is made of
        return f"{head:08x}-{tail[:4]}-{tail[4:8]}-{tail[8:12]}-{tail[12:]}"
