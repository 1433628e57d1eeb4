"""Two acts joined by ``and``, read as two clauses.

``I got a promotion and moved to Denver`` says two things, and the second is an update of the
user's home: read as one clause it formed ``User has a promotion and moved to Denver.``, which
no later statement about the home reaches. ``coordinated_acts`` splits a first-person clause
before an ``and`` that opens a second verb phrase of the same form as the first, and gives
the subject (and a progressive's auxiliary) to both:

* two past acts: ``I went kayaking and saw a family of otters``;
* two ongoing ones: ``I've been learning Portuguese and training for a 10k`` (after
  normalization, ``I have been learning ... and training ...``).

A time phrase before the subject, or after the second act, covers both (``Yesterday I
repainted the fence and planted tulips``); one inside the first act stays with it. The clause
stays whole when the second act refers back (``I tried sushi and loved it``: its ``it`` would
be unresolved alone), when either act is negated, when the first verb links a state (``I felt
tired and stressed``), when an act is a single word (``I laughed and cried``), when the first
progressive act takes a gerund (``I've been enjoying hiking and swimming``), and when ``and``
joins objects (``I bought apples and oranges``) rather than acts.
"""

from __future__ import annotations

import re

from memory_core.formation.deterministic.conversation import _NEGATED, _is_past, _strip_adverbs
from memory_core.text import collapse, take_time

_HEAD = re.compile(
    r"^(?P<lead>.*?)(?P<head>\b(?:I|We)(?:\s+(?P<aux>am|are|was|were|have\s+been|had\s+been))?)"
    r"\s+(?=\S)"
)
_AND = re.compile(r"\s+and\s+(?:then\s+|also\s+)?")
_REFERS_BACK = re.compile(
    r"\b(?:it|its|them|they|this|that|these|those|one|there|her|him|his)\b", re.IGNORECASE
)
_LINKING = frozenset(
    {"felt", "seemed", "looked", "sounded", "became", "was", "were", "stayed", "remained"}
)


def _time_only(text: str) -> bool:
    """True when ``text`` is one time phrase and nothing else (``Yesterday``, ``last week``)."""
    rest, when = take_time(text)
    return when is not None and not rest.strip(" ,")


def _trailing_time(act: str) -> str:
    """The time phrase that ends ``act`` as written (``last weekend``), else ``""``."""
    words = act.split()
    for start in range(max(1, len(words) - 4), len(words)):
        tail = " ".join(words[start:])
        if _time_only(tail):
            return tail
    return ""


def _same_form(first: str, second: str, *, progressive: bool) -> bool:
    """True when both acts open with a verb of the form the head calls for (the second after
    any adverbs: ``and somehow forgot the lighter``)."""
    first_words, second_words = first.split(), _strip_adverbs(second).split()
    if len(first_words) < 2 or len(second_words) < 2:
        return False
    v1, v2 = first_words[0].casefold(), second_words[0].casefold()
    if progressive:
        gerund_object = any(w.casefold().endswith("ing") for w in first_words[1:])
        return v1.endswith("ing") and v2.endswith("ing") and not gerund_object
    return _is_past(v1) and _is_past(v2) and v1 not in _LINKING


def _split_acts(body: str, *, progressive: bool) -> list[str] | None:
    """``body`` as the acts it joins, split at each ``and`` that joins two acts."""
    for joint in _AND.finditer(body):
        first, second = body[: joint.start()], body[joint.end() :]
        if _same_form(first, second, progressive=progressive):
            second = _strip_adverbs(second)
            rest = _split_acts(second, progressive=progressive) or [second]
            return [first, *rest]
    return None


def coordinated_acts(text: str) -> list[str]:
    """The clause ``text`` as one clause per act it joins with ``and`` (itself when it joins
    none); every act gets the subject, the auxiliary and a time phrase covering both."""
    match = _HEAD.match(text)
    if match is None or '"' in text or _NEGATED.search(text):
        return [text]
    lead = match["lead"].strip(" ,")
    if lead and not _time_only(lead):
        return [text]
    body = text[match.end() :].rstrip(" .!")
    acts = _split_acts(body, progressive=match["aux"] is not None)
    if acts is None and match["aux"] is not None and match["aux"].startswith("have"):
        return _then_past(lead, match["head"], body) or [text]
    if acts is None or any(_REFERS_BACK.search(act) for act in acts[1:]):
        return [text]
    trailing = _trailing_time(acts[-1])
    if trailing:
        acts[-1] = acts[-1][: -len(trailing)].rstrip(" ,")
    return [collapse(f"{lead} {match['head']} {act} {trailing}") for act in acts]


_RECENT = re.compile(r"^(?:just|also|finally|recently)\s+", re.IGNORECASE)


def _then_past(lead: str, head: str, body: str) -> list[str] | None:
    """``I've been working on my shop and (just) teamed up with a baker``: an ongoing act,
    then a past one, each with its own verb group (the second is no ``have been teamed``)."""
    split = _past_after(body, ongoing=True)
    if split is None:
        return None
    first, second = split
    return [collapse(f"{lead} {head} {first}"), collapse(f"{head.split()[0]} {second}")]


def _past_after(body: str, *, ongoing: bool) -> tuple[str, str] | None:
    """``body`` split at the first ``and`` after which a past act begins (``(just) teamed up
    with a baker``) that does not refer back, when the part before it is ongoing (an ``-ing``
    act of two words or more) or, with ``ongoing`` False, a state (no ``-ing`` word first)."""
    for joint in _AND.finditer(body):
        first, second = body[: joint.start()], _RECENT.sub("", body[joint.end() :])
        first_words, second_words = first.split(), second.split()
        opens = bool(first_words) and first_words[0].casefold().endswith("ing") == ongoing
        if (
            opens
            and (len(first_words) >= 2 or not ongoing)
            and len(second_words) >= 2
            and _is_past(second_words[0].casefold())
            and not _REFERS_BACK.search(second)
        ):
            return first, second
    return None


def state_and_act(text: str) -> tuple[str, str] | None:
    """``I'm a nurse and worked a double shift``: the first-person clause as a state and the
    past act after it, each with the subject (the act takes no ``am``); None when ``text`` is no
    such pair. An ongoing first part (``I'm baking and ...``) is the progressive reading's, and
    an act that refers back (``and loved it``) keeps the clause whole."""
    match = _HEAD.match(text)
    if match is None or match["aux"] not in ("am", "are", "was", "were") or '"' in text:
        return None
    lead = match["lead"].strip(" ,")
    if (lead and not _time_only(lead)) or _NEGATED.search(text):
        return None
    body = text[match.end() :].rstrip(" .!")
    split = _past_after(body, ongoing=False)
    if split is None:
        return None
    first, second = split
    trailing = _trailing_time(second)  # ``... and found a starfish yesterday``
    state = collapse(f"{lead} {match['head']} {first} {trailing}")
    return state, collapse(f"{lead} {match['head'].split()[0]} {second}")


__all__ = ["coordinated_acts", "state_and_act"]
