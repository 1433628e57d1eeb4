"""Clocks: every timestamp in memory-core is timezone-aware UTC and comes from a ``Clock``."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Protocol

from memory_core.errors import UsageError


def require_aware(value: datetime, field: str = "datetime") -> datetime:
    """Return ``value`` converted to UTC, refusing a naive datetime with a ``UsageError``."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise UsageError(
            f"{field} must be timezone-aware (got naive {value.isoformat()}); "
            "pass e.g. datetime(..., tzinfo=UTC)"
        )
    return value.astimezone(UTC)


class Clock(Protocol):
    """A source of the current instant."""

    def now(self) -> datetime:
        """Return the current instant, timezone-aware UTC."""
        ...


class SystemClock:
    """The wall clock."""

    def now(self) -> datetime:
        """Return the current UTC instant."""
        return datetime.now(UTC)


class FixedClock:
    """A clock that only moves when told to; the benchmark and tests run under it."""

    def __init__(self, start: datetime) -> None:
        self._now = require_aware(start, "FixedClock start")

    def now(self) -> datetime:
        """Return the clock's current instant."""
        return self._now

    def advance(self, seconds: float) -> datetime:
        """Move the clock forward by ``seconds`` (never backwards) and return the new instant."""
        if not math.isfinite(seconds) or seconds < 0:
            raise UsageError(
                f"FixedClock.advance needs a finite number of seconds >= 0, got {seconds}; "
                "a fixed clock never moves backwards"
            )
        self._now = self._now + timedelta(seconds=seconds)
        return self._now
