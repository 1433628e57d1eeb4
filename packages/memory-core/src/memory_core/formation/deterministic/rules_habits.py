"""What a habit is about: the activity, not the adjunct after it.

* **An ongoing pursuit** has one canonical subject (``saving for a condo`` -> ``savings goal``),
  so the next statement of it supersedes the last.
* **A habit stated with an intransitive verb** is about its activity: ``I swim before work on
  Tuesdays`` -> ``swimming`` (not ``work``), ``I cook at home on weeknights`` -> ``cooking``.
  A verb whose preposition introduces what it acts on keeps that thing (``I listen to jazz``
  -> ``jazz``, ``I go to the gym`` -> ``gym``).
* **A habit the user started or took up** is a user-model attribute about the activity, not a
  dated event: ``I've started swimming laps on Saturdays`` -> ``swimming``, ``I took up the
  cello`` -> ``cello``. A momentary start (``I started crying``) is not a habit, and a start
  with a time phrase stays an event, so ``When did ...?`` still finds its date.
"""

from __future__ import annotations

import re

from memory_core.formation.deterministic.conversation import _thing, _verb_base
from memory_core.formation.deterministic.lexicon import _words
from memory_core.text import gerund

_ADJUNCTS = _words("before after during along around across through every most each twice once")
"""Words that open a time or manner adjunct: what follows is not what the verb acts on."""
_PLACE_OR_DAY = _words("at in on")
"""Prepositions that open an adjunct (``at home``, ``on Tuesdays``) unless the verb takes them."""
_PREPOSITIONAL_VERBS = _words(
    """go come head get live work stay be sit stand look laugh rely depend focus count insist
    believe specialize participate invest keep plan hang move listen talk chat speak care
    think dream worry agree deal wait shop vote"""
)
"""Verbs whose preposition introduces what they are about (``look at``, ``work on``)."""
_MOMENTARY = _words(
    """crying laughing feeling thinking wondering worrying panicking shaking sweating
    screaming yelling getting freaking tearing smiling giggling sobbing"""
)
"""Gerunds a start does not make a habit of (``I started crying``)."""
_UNDERTAKINGS = _words("planning organizing organising arranging preparing")
"""Gerunds of a one-off undertaking: starting one (``I started planning the wedding``) begins
a project, an event about its object, not a habit."""
_LIGHT = _words("doing playing taking having making learning practicing practising studying")
"""Gerunds that name their object's activity (``doing yoga`` is about yoga)."""


def habit_subject(verb: str, obj: str) -> str | None:
    """The activity a present habit is about when its verb acts on nothing (``swim`` +
    ``before work on Tuesdays`` -> ``swimming``), else None (the object decides)."""
    words = obj.split()
    base = _verb_base(verb)
    if not words or not base.isalpha() or _bases(base) & _PREPOSITIONAL_VERBS:
        return None
    first = words[0].casefold()
    if first in _ADJUNCTS or first in _PLACE_OR_DAY:
        return base if base.endswith("ing") else gerund(base)
    return None


def _bases(verb: str) -> frozenset[str]:
    """The bases a verb may have: itself, or what its ``-ing`` form was made from (``working``
    -> work; ``sitting`` -> sit; ``living`` -> live)."""
    if not verb.endswith("ing") or len(verb) < 5:
        return frozenset({verb})
    stem = verb[:-3]
    return frozenset({verb, stem, stem[:-1], stem + "e"})


def habit_taken_up(verb: str, obj: str) -> str | None:
    """The activity of a habit started or taken up (``started`` + ``swimming laps`` ->
    ``swimming``; ``took`` + ``up the cello`` -> ``cello``), else None."""
    base = _verb_base(verb)
    words = obj.split()
    if base == "take" and words[:1] == ["up"]:
        words = words[1:]
    elif base not in ("start", "begin") or not words or not _is_gerund(words[0]):
        return None
    if not words or words[0].casefold() in _MOMENTARY | _UNDERTAKINGS:
        return None
    first = words[0].casefold()
    if _is_gerund(first) and first not in _LIGHT:
        return first
    return _thing(" ".join(words[1:] if _is_gerund(first) else words)) or None


def _is_gerund(word: str) -> bool:
    lower = word.casefold()
    return lower.endswith("ing") and len(lower) > 4 and lower.isalpha()


_CANONICAL_ACTIVITIES = (
    (re.compile(r"^saving\s+(?:up\s+)?(?:for|toward|towards)\b", re.I), "savings goal"),
    (
        re.compile(r"^(?:apartment|house|flat|home)\s+(?:hunting|searching)\b", re.I),
        "apartment search",
    ),
    (
        re.compile(r"^looking\s+for\s+(?:an?\s+)?(?:apartment|flat|house|place)\b", re.I),
        "apartment search",
    ),
    (re.compile(r"^(?:studying|preparing|cramming)\s+for\b", re.I), "exam"),
)
"""Ongoing pursuits with one canonical subject each, so the next statement of the same pursuit
supersedes the last (``saving for a condo`` then ``saving for a car``)."""


def canonical_activity(phrase: str) -> str | None:
    """The one subject of an ongoing pursuit (``saving for a car`` -> ``savings goal``), or None."""
    return next(
        (subject for pattern, subject in _CANONICAL_ACTIVITIES if pattern.match(phrase)), None
    )
