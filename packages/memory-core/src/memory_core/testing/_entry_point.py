"""Build the storage tier under test through the ``memory_core.storage`` entry point."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from memory_core.bootstrap import resolve_storage
from memory_core.ports import Storage


@contextmanager
def entry_point_storage(
    name: str, url: str | None = None, *, upgrade_schema: bool = True
) -> Iterator[Storage]:
    """Yield the tier the entry point ``name`` builds for ``url``, closing it afterwards.

    This is the path ``bootstrap.build(storage=name)`` takes, so a suite run over it proves the
    installed, registered backend rather than a hand-built instance. The contract tests assume
    each test starts from an empty tier: give every test its own ``url`` (a fresh database or
    schema) or clear the tier after each.

    Raises:
        StorageUnavailableError: No installed package registers ``name``, or it fails to load.
    """
    storage = resolve_storage(name, url, upgrade_schema=upgrade_schema and name != "memory")
    try:
        yield storage
    finally:
        storage.close()
