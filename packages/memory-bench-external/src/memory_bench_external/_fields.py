"""Typed field access on a decoded record, raising :class:`DatasetError` that names the field.

The adapters read the published files by hand rather than through a schema model: the files
carry many fields the benchmark does not read, a few fields change type between records
(``answer`` is a string or an integer), and an error must name the record and the dotted path
of the field (``haystack_sessions[3][5].content``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memory_bench_external._errors import DatasetError, RecordUnit

_MISSING = object()


def join(prefix: str, key: str | int) -> str:
    """The dotted path of ``key`` under ``prefix`` (``a.b``, ``a[3]``)."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


@dataclass(frozen=True, kw_only=True)
class RecordContext:
    """Where a record sits in its file, so any error can say so."""

    path: Path
    position: int
    unit: RecordUnit
    record_id: str | None

    def error(self, field: str | None, problem: str) -> DatasetError:
        """A :class:`DatasetError` at ``field`` of this record."""
        return DatasetError(
            self.path,
            problem,
            record=self.position,
            unit=self.unit,
            record_id=self.record_id,
            field=field or None,
        )

    def instant(self, value: object, field: str, parser: Callable[[str], datetime]) -> datetime:
        """``value`` parsed by ``parser`` as a dataset date string."""
        if not isinstance(value, str):
            raise self.error(field, f"expected a date string, found {_kind(value)}")
        try:
            return parser(value)
        except ValueError as exc:
            raise self.error(field, str(exc)) from exc

    def mapping(self, value: object, field: str) -> dict[str, object]:
        """``value`` as a JSON object."""
        if not isinstance(value, dict):
            raise self.error(field, f"expected a JSON object, found {_kind(value)}")
        return value

    def sequence(self, value: object, field: str) -> list[object]:
        """``value`` as a JSON list."""
        if not isinstance(value, list):
            raise self.error(field, f"expected a JSON list, found {_kind(value)}")
        return value

    def get(self, obj: dict[str, object], key: str, prefix: str = "") -> object:
        """The value at ``key``, refusing a missing key."""
        value = obj.get(key, _MISSING)
        if value is _MISSING:
            raise self.error(join(prefix, key), "missing")
        return value

    def text(self, obj: dict[str, object], key: str, prefix: str = "") -> str:
        """The string at ``key``."""
        value = self.get(obj, key, prefix)
        if not isinstance(value, str):
            raise self.error(join(prefix, key), f"expected a string, found {_kind(value)}")
        return value

    def optional_text(self, obj: dict[str, object], key: str, prefix: str = "") -> str | None:
        """The string at ``key``, or ``None`` when absent or null."""
        value = obj.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.error(join(prefix, key), f"expected a string, found {_kind(value)}")
        return value

    def items(self, obj: dict[str, object], key: str, prefix: str = "") -> list[object]:
        """The list at ``key``."""
        return self.sequence(self.get(obj, key, prefix), join(prefix, key))

    def optional_items(self, obj: dict[str, object], key: str, prefix: str = "") -> list[object]:
        """The list at ``key``, or an empty list when absent or null."""
        value = obj.get(key)
        if value is None:
            return []
        return self.sequence(value, join(prefix, key))

    def answer(self, value: object, field: str) -> str:
        """A gold answer: a string, or a number written in decimal (``2022`` -> ``"2022"``)."""
        if isinstance(value, str):
            return value
        if isinstance(value, bool) or value is None:
            raise self.error(field, f"expected a string or a number, found {_kind(value)}")
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            return str(int(value)) if value.is_integer() else repr(value)
        raise self.error(field, f"expected a string or a number, found {_kind(value)}")

    def flag(self, value: object, field: str) -> bool:
        """A boolean written as JSON ``true``/``false`` or as the strings ``"True"``/``"False"``."""
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in {"true", "false"}:
            return value.strip().lower() == "true"
        raise self.error(field, f'expected true/false or "True"/"False", found {value!r}')


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "a JSON object"
    if isinstance(value, list):
        return "a JSON list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int | float):
        return "a number"
    return type(value).__name__
