"""The typed error an adapter raises when a dataset file cannot be read as that dataset.

Hierarchy (see :mod:`memory_bench_external.errors`)::

    ExternalBenchError, UsageError   the caller's mistake; the CLI exits 2
    └── DatasetError           the file at the operator's path is not a readable copy of the
                               dataset: not found, not UTF-8, truncated JSON, wrong top-level
                               shape, a missing or mistyped field, an unparseable date

Malformed *evidence references* are not errors: they are counted (see ``EvidenceTally``) and
the run goes on, because the published files carry a few of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from memory_bench_external.errors import ExternalBenchError
from memory_core.errors import UsageError

RecordUnit = Literal["record", "line"]
"""How a record is numbered: 0-based index in a JSON list, or 1-based line of a JSONL file."""

DEFAULT_HINT = (
    "Pass the path of an unmodified copy of the published file (re-download it if it was "
    "edited or cut short)."
)


class DatasetError(ExternalBenchError, UsageError):
    """A dataset file is unreadable as the named dataset; the message names file, record, field.

    Attributes:
        path: The file that was read.
        problem: What was wrong, without the location.
        record: The record's 0-based index (JSON list) or 1-based line number (JSONL), if known.
        record_id: The record's own identifier, when it could be read.
        field: The dotted path of the offending field inside the record, if any.
    """

    def __init__(
        self,
        path: Path,
        problem: str,
        *,
        record: int | None = None,
        unit: RecordUnit = "record",
        record_id: str | None = None,
        field: str | None = None,
        hint: str = DEFAULT_HINT,
    ) -> None:
        where = [str(path)]
        if record is not None:
            where.append(f"{unit} {record}" + (f" ({record_id})" if record_id else ""))
        if field:
            where.append(f"field {field!r}")
        super().__init__(f"{': '.join(where)}: {problem}. {hint}")
        self.path = path
        self.problem = problem
        self.record = record
        self.record_id = record_id
        self.field = field
