"""The three datasets' date strings, parsed to timezone-aware UTC instants.

Parsed values are cached (a file repeats the same strings thousands of times). The files
carry local times without a zone; they are read as UTC, which keeps every interval
between two instants of one file exact and makes a run independent of the machine's zone.

* LoCoMo: ``"1:56 pm on 8 May, 2023"`` (12-hour clock; full or abbreviated month name).
* LongMemEval: ``"2023/05/30 (Tue) 23:40"`` (the weekday is not checked).
* HaluMem: ``"Jan 15, 2029, 15:12:20"``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache

from memory_bench_external.errors import ExternalBenchError

_MONTHS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        start=1,
    )
}

_LOCOMO = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
_LONGMEMEVAL = re.compile(
    r"^\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\([a-z]{3}\))?\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*$",
    re.IGNORECASE,
)
_HALUMEM = re.compile(
    r"^\s*([a-z]+)\.?\s+(\d{1,2}),\s*(\d{4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*$",
    re.IGNORECASE,
)


class DateFormatError(ExternalBenchError, ValueError):
    """A date string does not have the dataset's format (the caller names the field)."""


def _month(name: str, text: str) -> int:
    number = _MONTHS.get(name[:3].lower())
    if number is None:
        raise DateFormatError(f"unknown month {name!r} in {text!r}")
    return number


def _build(
    text: str, year: int, month: int, day: int, hour: int, minute: int, second: int = 0
) -> datetime:
    try:
        return datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError as exc:
        raise DateFormatError(f"{text!r} is not a valid date ({exc})") from exc


@lru_cache(maxsize=8192)
def parse_locomo_datetime(text: str) -> datetime:
    """Parse a LoCoMo session date (``"1:56 pm on 8 May, 2023"``) as UTC.

    Raises:
        DateFormatError: The text does not have that shape or names no real date.
    """
    match = _LOCOMO.match(text)
    if match is None:
        raise DateFormatError(f"{text!r} is not like '1:56 pm on 8 May, 2023'")
    hour, minute, meridiem, day, month, year = match.groups()
    hour_12 = int(hour)
    if not 1 <= hour_12 <= 12:
        raise DateFormatError(f"{text!r} has hour {hour_12} on a 12-hour clock")
    hour_24 = hour_12 % 12 + (12 if meridiem.lower() == "p" else 0)
    return _build(text, int(year), _month(month, text), int(day), hour_24, int(minute))


@lru_cache(maxsize=8192)
def parse_longmemeval_datetime(text: str) -> datetime:
    """Parse a LongMemEval date (``"2023/05/30 (Tue) 23:40"``) as UTC.

    Raises:
        DateFormatError: The text does not have that shape or names no real date.
    """
    match = _LONGMEMEVAL.match(text)
    if match is None:
        raise DateFormatError(f"{text!r} is not like '2023/05/30 (Tue) 23:40'")
    year, month, day, hour, minute, second = match.groups()
    return _build(text, int(year), int(month), int(day), int(hour), int(minute), int(second or 0))


@lru_cache(maxsize=8192)
def parse_halumem_datetime(text: str) -> datetime:
    """Parse a HaluMem timestamp (``"Jan 15, 2029, 15:12:20"``) as UTC.

    Raises:
        DateFormatError: The text does not have that shape or names no real date.
    """
    match = _HALUMEM.match(text)
    if match is None:
        raise DateFormatError(f"{text!r} is not like 'Jan 15, 2029, 15:12:20'")
    month, day, year, hour, minute, second = match.groups()
    return _build(
        text,
        int(year),
        _month(month, text),
        int(day),
        int(hour),
        int(minute),
        int(second or 0),
    )
