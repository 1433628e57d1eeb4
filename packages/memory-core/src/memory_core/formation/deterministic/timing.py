"""Relative time anchored to the session's clock.

A clause that says when something happened (``yesterday``, ``last week``, ``on Saturday``,
``in May``, ``two days ago``) loses the phrase before it is read, and the statement it forms
gets the phrase back resolved against the instant the turn was recorded, as a date or a bounded
period: ``on 2026-01-04``, ``in the week of 2025-12-29`` (weeks start on Monday), ``on the
weekend of 2026-01-03`` (the Saturday), ``in December 2025``, ``in 2025``. A weekday or a month
without ``last`` or ``next`` resolves by the clause's tense: the latest one before the turn for a
past statement, the next one after it otherwise. A phrase it cannot bound (``recently``) stays
in the clause as said; ``the other day`` is dropped by the event rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from memory_core.text import collapse, fold

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a couple of": 2,
    "couple of": 2,
}
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_MONTH = r"(?:january|february|march|april|june|july|august|september|october|november|december)"
_COUNT = (
    r"(?:\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of"
    r"|a\s+few)"
)
_APPROXIMATELY = (
    r"(?:(?:about|around|almost|nearly|roughly)\s+(?="
    + _COUNT
    + r"\s+(?:days?|weeks?|months?|years?)\s+ago\b))?"
)
"""``about a year ago``: the approximation goes with the phrase it bounds."""
_PHRASE = re.compile(
    r"(?:,\s*)?\b" + _APPROXIMATELY + r"(?P<phrase>"
    r"yesterday(?:\s+(?:morning|afternoon|evening))?|last\s+night|today|tonight|tomorrow"
    r"(?:\s+(?:morning|afternoon|evening|night))?"
    r"|this\s+(?:morning|afternoon|evening)"
    r"|(?:last|this|next)\s+(?:week(?:end)?|month|year)"
    r"|(?:on\s+)?(?:last|this|next|past)\s+"
    + _WEEKDAY
    + r"|(?:on\s+)?"
    + _WEEKDAY
    + r"(?!\s+(?:mornings|afternoons|evenings|nights))"
    + r"|(?:last|next|this)\s+(?:"
    + _MONTH
    + r"|(?-i:May))"
    r"|in\s+(?:" + _MONTH + r"|(?-i:May))(?:\s+\d{4})?"
    r"|" + _COUNT + r"\s+(?:days?|weeks?|months?|years?)\s+ago"
    r")\b(?:\s*,)?",
    re.IGNORECASE,
)
"""A time phrase, with the commas around it (``Yesterday, I went`` loses ``Yesterday, ``).
``May`` alone is a month only after ``in``/``last``/``next``/``this`` (never the modal)."""


_BOUND_BY = re.compile(r"\b(?:for|until|till|by|since|from|before|after|every)\s*$", re.IGNORECASE)
"""``planting garlic for next year``: a phrase a preposition governs is not when it happened;
``every Thursday`` and ``on Monday evenings`` are habits, not dates."""


@dataclass(frozen=True, kw_only=True)
class TimePhrase:
    """A time phrase taken out of a clause: the words as said, lowercase."""

    phrase: str


def take_time(clause: str) -> tuple[str, TimePhrase | None]:
    """``clause`` without its first boundable time phrase, and that phrase (or None)."""
    match = next(
        (m for m in _PHRASE.finditer(clause) if not _BOUND_BY.search(clause[: m.start()])), None
    )
    if match is None:
        return clause, None
    keep_comma = match.start() > 0 and match.group(0).rstrip().endswith(",")
    rest = (clause[: match.start()] + (", " if keep_comma else " ") + clause[match.end() :]).strip(
        " ,"
    )
    return collapse(rest), TimePhrase(phrase=fold(match.group("phrase")))


def _week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _month_name(year: int, month: int) -> str:
    return f"{_MONTHS[month - 1].capitalize()} {year}"


def _shift_month(year: int, month: int, by: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + by
    return index // 12, index % 12 + 1


def resolve(when: TimePhrase, at: datetime, *, past: bool) -> str:
    """The phrase as a date or a bounded period, read at ``at`` (``on 2026-01-04``)."""
    today = at.date()
    words = when.phrase.removeprefix("on ").split()
    head = words[0]
    if when.phrase in ("yesterday", "last night") or head == "yesterday":
        return f"on {(today - timedelta(days=1)).isoformat()}"
    if head in ("today", "tonight", "this") and words[-1] in (
        "today",
        "tonight",
        "morning",
        "afternoon",
        "evening",
    ):
        return f"on {today.isoformat()}"
    if head == "tomorrow":
        return f"on {(today + timedelta(days=1)).isoformat()}"
    if words[-1] == "ago" and words[:2] == ["a", "few"]:
        unit = words[-2].rstrip("s")
        return f"in the {unit}s before {today.isoformat()}"
    if words[-1] == "ago":
        unit = words[-2].rstrip("s")
        count = _NUMBERS.get(" ".join(words[:-2]), 0) or int(words[0])
        if unit == "day":
            return f"on {(today - timedelta(days=count)).isoformat()}"
        if unit == "week":
            return f"in the week of {_week_start(today - timedelta(weeks=count)).isoformat()}"
        if unit == "month":
            return f"in {_month_name(*_shift_month(today.year, today.month, -count))}"
        return f"in {today.year - count}"
    if len(words) == 2 and words[1] in ("week", "weekend", "month", "year"):
        by = {"last": -1, "this": 0, "next": 1}[head]
        unit = words[1]
        if unit == "week":
            return f"in the week of {(_week_start(today) + timedelta(weeks=by)).isoformat()}"
        if unit == "weekend":
            saturday = _week_start(today) + timedelta(days=5, weeks=by)
            if by == -1 and today.weekday() >= 5:
                saturday += timedelta(weeks=1)
            return f"on the weekend of {saturday.isoformat()}"
        if unit == "month":
            return f"in {_month_name(*_shift_month(today.year, today.month, by))}"
        return f"in {today.year + by}"
    name = words[-1]
    if name in _WEEKDAYS:
        target = _WEEKDAYS.index(name)
        direction = {"last": -1, "past": -1, "next": 1}.get(head, -1 if past else 1)
        if head == "this":
            direction = -1 if past else 1
        delta = (today.weekday() - target) % 7 or 7
        day = (
            today - timedelta(days=delta)
            if direction < 0
            else today + timedelta(days=(target - today.weekday()) % 7 or 7)
        )
        return f"on {day.isoformat()}"
    if name in _MONTHS or words[-1].isdigit():
        year_given = words[-1] if words[-1].isdigit() else None
        month_word = words[-2] if year_given else name
        month = _MONTHS.index(month_word) + 1
        if year_given:
            return f"in {_month_name(int(year_given), month)}"
        direction = {"last": -1, "next": 1}.get(head, -1 if past else 1)
        year = today.year
        if direction < 0 and month > today.month:
            year -= 1
        if direction > 0 and month < today.month:
            year += 1
        if head == "last" and month == today.month:
            year -= 1
        if head == "next" and month == today.month:
            year += 1
        return f"in {_month_name(year, month)}"
    return when.phrase


__all__ = ["TimePhrase", "resolve", "take_time"]
