"""The period a turn names, and whether a belief falls in it.

A turn that names a date with its year (``on 25 February, 2022``, ``May 7, 2023``), a month
with its year (``in August 2022``) or a year after ``in``/``during`` (``in 2023``) asks about
what was said or done then. A belief falls in the period when the user said it then
(``valid_from``) or its statement carries an ISO date inside it (``User went camping on
2023-06-24.``). A day is read with a day either side, since a conversation's clock and the day
it names may differ by one. A relative phrase (``yesterday``, ``last week``, ``in May``) is
read at the recall's instant by the same clock rules formation dates a turn with
(:func:`memory_core.text.resolve_span`). The retriever's ``period`` arm votes for those beliefs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from memory_core.domain import Belief
from memory_core.retrieval._lexicon import MONTH_NUMBERS
from memory_core.text import Span, month_span, resolve_span, take_time, year_span

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


def question_period(text: str, now: datetime) -> Period | None:
    """The period ``text`` names: the first dated one (:func:`named_period`), else the one its
    relative time phrase names read at ``now`` (:func:`relative_period`), else ``None``."""
    return named_period(text) or relative_period(text, now)


def named_period(text: str) -> Period | None:
    """The first period ``text`` names with its year, or ``None``. Its words stay keywords as
    well: a statement's resolved date shares the year and month number (measured: dropping
    them loses more than it gains)."""
    if "19" not in text and "20" not in text:
        return None  # every form ends in a year, (?:19|20)\d\d: no scan can match
    for form in _FORMS:
        for match in form.finditer(text):
            period = _period(match.groupdict())
            if period is not None:
                return period
    return None


_FUTURE = re.compile(
    r"\b(?:will|shall|going\s+to|gonna|plan|planning|planned|am|are)\b|'ll\b", re.IGNORECASE
)
"""A question about what is coming: a bare weekday or month is the next one, not the last."""


def relative_period(text: str, now: datetime) -> Period | None:
    """The period a relative time phrase of ``text`` names, read at ``now`` as formation reads
    a turn's (``yesterday``, ``last week``, ``on Saturday``, ``in May``, ``last summer``); a
    bare weekday or month is the next one when the question is about what is coming. ``None``
    for no phrase, or one that bounds no period (``a few weeks ago``)."""
    _, when = take_time(text)
    if when is None:
        return None
    span = resolve_span(when, now, past=_FUTURE.search(text) is None)
    return _of(span)


def _of(span: Span) -> Period | None:
    return None if span.first is None or span.last is None else Period(span.first, span.last)


def _period(found: dict[str, str | None]) -> Period | None:
    year = int(found["year"] or 0)
    if found.get("month") is None:
        return _of(year_span(year))
    month = int(MONTH_NUMBERS[(found["month"] or "").casefold()])
    if found.get("day") is None:
        return _of(month_span(year, month))
    try:
        day = date(year, month, int(found["day"] or 0))
    except ValueError:
        return None
    return Period(day - timedelta(days=1), day + timedelta(days=1))


__all__ = ["Period", "named_period", "question_period", "relative_period"]
