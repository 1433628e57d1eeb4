"""Relative time anchored to a clock: formation dates what a turn says, retrieval what a
question asks about.

A clause that says when something happened (``yesterday``, ``last week``, ``on Saturday``,
``in May``, ``two days ago``) loses the phrase before it is read, and the statement it forms
gets the phrase back resolved against the instant the turn was recorded, as a date or a bounded
period: ``on 2026-01-04``, ``in the week of 2025-12-29`` (weeks start on Monday), ``on the
weekend of 2026-01-03`` (the Saturday), ``in December 2025``, ``in 2025``, ``in summer 2025``
(a season: ``last``, ``this`` or ``next``; a winter spans two years, ``in winter 2024-25``). An
abbreviated weekday (``last Fri``, ``on Tues``) counts after ``on``/``last``/``this``/``next``,
and a ``just`` before a phrase goes with it (``Just yesterday I ...``). A weekday or a month
without ``last`` or ``next`` resolves by the clause's tense: the latest one before the turn for a
past statement, the next one after it otherwise; so does a deadline by a day (``by Friday``).
A phrase it cannot bound (``recently``) stays in the clause as said; ``the other day`` is
dropped by the event rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from memory_core.text._keys import collapse, fold

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
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
_WEEKDAY = "(?:" + "|".join(WEEKDAYS) + ")"
_WEEKDAY_ABBREVIATION = r"(?-i:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)"
"""``last Fri``, ``on Tues``: capitalized, and only after ``on``/``last``/``this``/``next``."""
_ABBREVIATIONS = {
    "mon": "monday",
    "tue": "tuesday",
    "tues": "tuesday",
    "wed": "wednesday",
    "thu": "thursday",
    "thur": "thursday",
    "thurs": "thursday",
    "fri": "friday",
    "sat": "saturday",
    "sun": "sunday",
}
_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
"""The month each (northern, meteorological) season starts; each lasts three months."""
_MONTH = "(?:" + "|".join(month for month in MONTHS if month != "may") + ")"
"""Every month but ``may``, which is a month only in the forms that rule out the modal."""
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
    r"(?:,\s*)?\b(?:(?:just|only)\s+)?" + _APPROXIMATELY + r"(?P<phrase>"
    r"yesterday(?:\s+(?:morning|afternoon|evening))?|last\s+night|today|tonight|tomorrow"
    r"(?:\s+(?:morning|afternoon|evening|night))?"
    r"|this\s+(?:morning|afternoon|evening)"
    r"|(?:last|this|next)\s+(?:week(?:end)?|month|year)"
    r"|(?:last|this|next|past)\s+(?:summer|winter|spring|fall|autumn)"
    r"|(?:on\s+|(?:on\s+)?(?:last|this|next|past)\s+)"
    + _WEEKDAY_ABBREVIATION
    # ``on Sun Valley's website``: an abbreviation before a capitalised word is a name.
    + r"(?!\.?\s+(?!I\b)(?-i:[A-Z]))"
    + r"|(?:on\s+)?(?:last|this|next|past)\s+"
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
    words = fold(match.group("phrase")).split()
    words[-1] = _ABBREVIATIONS.get(words[-1], words[-1])
    return re.sub(r"\s+,", ",", collapse(rest)), TimePhrase(phrase=" ".join(words))


@dataclass(frozen=True)
class Span:
    """A time phrase resolved: the words a statement gets (``on 2026-01-04``) and the days it
    covers, both inclusive, or ``None`` for a phrase that bounds none (``in the weeks before
    2026-01-05``, or a phrase kept as said)."""

    text: str
    first: date | None = None
    last: date | None = None


def _week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _shift_month(year: int, month: int, by: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + by
    return index // 12, index % 12 + 1


def _months(year: int, month: int, count: int) -> tuple[date, date]:
    """The first and last day of ``count`` months from ``year``-``month``."""
    return date(year, month, 1), date(*_shift_month(year, month, count), 1) - timedelta(days=1)


def _day(day: date) -> Span:
    """``on 2026-01-04``: one day."""
    return Span(f"on {day.isoformat()}", day, day)


def month_span(year: int, month: int) -> Span:
    """``in December 2025``: one calendar month."""
    return Span(f"in {MONTHS[month - 1].capitalize()} {year}", *_months(year, month, 1))


def year_span(year: int) -> Span:
    """``in 2025``: one calendar year."""
    return Span(f"in {year}", date(year, 1, 1), date(year, 12, 31))


def _week(start: date) -> Span:
    return Span(f"in the week of {start.isoformat()}", start, start + timedelta(days=6))


def _season(name: str, head: str, today: date, *, past: bool) -> Span:
    """``last summer`` -> ``in summer 2025``: the latest such season over before today;
    ``next`` the first after it; ``this`` the one today is in, else by the clause's tense.
    A winter spans two years (``in winter 2024-25``)."""
    month = _SEASONS[name]

    def start(year: int) -> date:
        return date(year, month, 1)

    def end(year: int) -> date:
        return date(*_shift_month(year, month, 3), 1)

    years = range(today.year - 2, today.year + 2)
    ended = max(year for year in years if end(year) <= today)
    coming = min(year for year in years if start(year) > today)
    current = [year for year in years if start(year) <= today < end(year)]
    if head in ("last", "past"):
        year = ended
    elif head == "next":
        year = coming
    else:
        year = current[0] if current else (ended if past else coming)
    label = f"{year}-{(year + 1) % 100:02d}" if name == "winter" else str(year)
    return Span(f"in {name} {label}", *_months(year, month, 3))


def resolve_time(when: TimePhrase, at: datetime, *, past: bool) -> str:
    """The phrase as a date or a bounded period, read at ``at`` (``on 2026-01-04``)."""
    return resolve_span(when, at, past=past).text


def resolve_span(when: TimePhrase, at: datetime, *, past: bool) -> Span:
    """The phrase read at ``at``: the words :func:`resolve_time` gives and the days they cover."""
    today = at.date()
    words = when.phrase.removeprefix("on ").split()
    head = words[0]
    if when.phrase in ("yesterday", "last night") or head == "yesterday":
        return _day(today - timedelta(days=1))
    if head in ("today", "tonight", "this") and words[-1] in (
        "today",
        "tonight",
        "morning",
        "afternoon",
        "evening",
    ):
        return _day(today)
    if head == "tomorrow":
        return _day(today + timedelta(days=1))
    if words[-1] == "ago" and words[:2] == ["a", "few"]:
        unit = words[-2].rstrip("s")
        return Span(f"in the {unit}s before {today.isoformat()}")
    if words[-1] == "ago":
        unit = words[-2].rstrip("s")
        count = _NUMBERS.get(" ".join(words[:-2]), 0) or int(words[0])
        if unit == "day":
            return _day(today - timedelta(days=count))
        if unit == "week":
            return _week(_week_start(today - timedelta(weeks=count)))
        if unit == "month":
            return month_span(*_shift_month(today.year, today.month, -count))
        return year_span(today.year - count)
    if len(words) == 2 and words[1] in ("week", "weekend", "month", "year"):
        by = {"last": -1, "this": 0, "next": 1}[head]
        unit = words[1]
        if unit == "week":
            return _week(_week_start(today) + timedelta(weeks=by))
        if unit == "weekend":
            saturday = _week_start(today) + timedelta(days=5, weeks=by)
            if by == -1 and today.weekday() >= 5:
                saturday += timedelta(weeks=1)
            return Span(
                f"on the weekend of {saturday.isoformat()}", saturday, saturday + timedelta(days=1)
            )
        if unit == "month":
            return month_span(*_shift_month(today.year, today.month, by))
        return year_span(today.year + by)
    name = words[-1]
    if name in _SEASONS:
        return _season(name, head, today, past=past)
    if name in WEEKDAYS:
        target = WEEKDAYS.index(name)
        direction = {"last": -1, "past": -1, "next": 1}.get(head, -1 if past else 1)
        if head == "this":
            direction = -1 if past else 1
        delta = (today.weekday() - target) % 7 or 7
        day = (
            today - timedelta(days=delta)
            if direction < 0
            else today + timedelta(days=(target - today.weekday()) % 7 or 7)
        )
        return _day(day)
    if name in MONTHS or words[-1].isdigit():
        year_given = words[-1] if words[-1].isdigit() else None
        month_word = words[-2] if year_given else name
        month = MONTHS.index(month_word) + 1
        if year_given:
            return month_span(int(year_given), month)
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
        return month_span(year, month)
    return Span(when.phrase)


_DEADLINE = re.compile(
    r"\bby\s+(?P<day>(?:(?:next|this)\s+)?" + _WEEKDAY + r"|tomorrow|today|tonight)\b",
    re.IGNORECASE,
)


def resolve_deadlines(statement: str, at: datetime, *, past: bool) -> str:
    """``by Friday`` in ``statement`` as the date it names, read at ``at``: the next one (the
    last one for a ``past`` statement); ``by tomorrow`` and ``by tonight`` too."""

    def dated(match: re.Match[str]) -> str:
        span = resolve_span(TimePhrase(phrase=match["day"].casefold()), at, past=past)
        return f"by {span.text.removeprefix('on ')}"

    return _DEADLINE.sub(dated, statement)


__all__ = [
    "MONTHS",
    "WEEKDAYS",
    "Span",
    "TimePhrase",
    "month_span",
    "resolve_deadlines",
    "resolve_span",
    "resolve_time",
    "take_time",
    "year_span",
]
