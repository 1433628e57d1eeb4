"""The typed errors memory-bench-external raises, under one base.

Hierarchy (each class is defined beside the code that raises it, in the module named; every
one is exported from ``memory_bench_external``)::

    MemoryCoreError (memory_core.errors)
    └── ExternalBenchError          base of every error memory-bench-external raises on purpose
        ├── DatasetError            (_errors) the file at the operator's path is not a readable
        │                           copy of the dataset: not found, not UTF-8, truncated JSON,
        │                           wrong top-level shape, a missing or mistyped field, an
        │                           unparseable date; also a ``UsageError`` (the CLI exits 2)
        └── DateFormatError         (_dates) a date string does not have the dataset's format;
                                    also a ``ValueError``; the field reader turns it into a
                                    ``DatasetError`` naming the file, record and field

Malformed *evidence references* are not errors: they are counted (``EvidenceTally``) and the
run goes on, because the published files carry a few of them.
"""

from __future__ import annotations

from memory_core.errors import MemoryCoreError


class ExternalBenchError(MemoryCoreError):
    """Base class of the errors memory-bench-external raises deliberately."""


__all__ = ["ExternalBenchError"]
