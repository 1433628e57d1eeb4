"""The period a turn names, and whether a belief falls in it.

A turn that names a date with its year (``on 25 February, 2022``, ``May 7, 2023``), a month
with its year (``in August 2022``) or a year after ``in``/``during`` (``in 2023``) asks about
what was said or done then. A belief falls in the period when the user said it then
(``valid_from``) or its statement carries an ISO date inside it (``User went camping on
2023-06-24.``). A day is read with a day either side, since a conversation's clock and the day
it names may differ by one. The retriever's ``period`` arm votes for those beliefs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from memory_core.domain import Belief
from memory_core.retrieval._lexicon import MONTH_NUMBERS

_MONTH = r"(?P<month>" + "|".join(MONTH_NUMBERS) + r")"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_FORMS = (
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b(?:in|during)\s+{_YEAR}\b", re.IGNORECASE),
)
_ISO_DATE = re.compile(r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b")


@dataclass(frozen=True)
class Period:
    """An inclusive span of days a turn names."""

    first: date
    last: date

    @property
    def is_year(self) -> bool:
        """True for a whole year (``in 2023``), not a day or a month."""
        return (self.last - self.first).days > 31

    def holds(self, belief: Belief) -> bool:
        """True when ``belief`` was said in the period or its statement dates it there."""
        if self.first <= belief.valid_from.date() <= self.last:
            return True
        return any(self._contains(match.groups()) for match in _ISO_DATE.finditer(belief.statement))

    def _contains(self, parts: tuple[str, ...]) -> bool:
        try:
            day = date(int(parts[0]), int(parts[1]), int(parts[2]))
        except ValueError:
            return False
        return self.first <= day <= self.last


def named_period(text: str) -> Period | None:
    """The first period ``text`` names with its year, or ``None``. Its words stay keywords as
    well: a statement's resolved date shares the year and month number (measured: dropping
    them loses more than it gains)."""
    for form in _FORMS:
        for match in form.finditer(text):
            period = _period(match.groupdict())
            if period is not None:
                return period
    return None


def _period(found: dict[str, str | None]) -> Period | None:
    year = int(found["year"] or 0)
    if found.get("month") is None:
        return Period(date(year, 1, 1), date(year, 12, 31))
    month = int(MONTH_NUMBERS[(found["month"] or "").casefold()])
    if found.get("day") is None:
        following = date(year + month // 12, month % 12 + 1, 1)
        return Period(date(year, month, 1), following - timedelta(days=1))
    try:
        day = date(year, month, int(found["day"] or 0))
    except ValueError:
        return None
    return Period(day - timedelta(days=1), day + timedelta(days=1))


__all__ = ["Period", "named_period"]
