"""The user's things: ``My budget is $1,800 a month`` (a value), ``My online bakery is finally
open`` (a state) and ``My old area was hit by a flood last week`` (what happened to it). A
person is a relationship or a family event, read elsewhere."""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import (
    _LOCATIVE_PRONOUN,
    _is_participle,
    _object,
    _pronoun_only,
    _proposal,
    _strip_adverbs,
)
from memory_core.formation.deterministic.lexicon import _FAMILY, RELATIONS, _words
from memory_core.formation.deterministic.phrases import _p, _Proposal
from memory_core.text import TimePhrase, collapse

_MY_THING = re.compile(
    r"^(?:my|our)\s+(?P<noun>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?P<verb>is|are|was|were)\s+"
    r"(?P<value>.+)$",
    re.IGNORECASE,
)
_NOT_A_STATE = _words(
    "point guess question answer advice suggestion thought thoughts take opinion bad pleasure"
    " turn idea fault god gosh goodness word mind heart hope fear worry concern problem issue"
    " reason excuse bet plan"
)
"""Nouns a ``My X is ...`` clause uses to frame talk, not to describe a thing (``My point is
...``, ``My bad``, ``My heart is full``)."""
_STATE_OPENERS = re.compile(
    r"^(?:that|because|like|if|when|whether|what|how|why|where|who|which|to|not|no\b|n't|gonna)\b",
    re.IGNORECASE,
)


def my_thing(text: str, when: TimePhrase | None) -> list[_Proposal]:
    """``My budget is $1,800 a month`` -> ``User's budget is $1,800 a month.`` (a thing of the
    user's, or of the user's with others: ``Our budget``, with one concrete value at a time, a
    number or a name; a person is a relationship, read elsewhere, and a description such as
    ``My office is silent`` is not a value)."""
    match = _MY_THING.match(text)
    if match is None:
        return _my_thing_happened(text, when)
    noun = match.group("noun").casefold()
    if any(w in RELATIONS for w in noun.split()) or noun.split()[0] in _RELATION_WORDS:
        return []
    verb = match.group("verb").casefold()
    aspiration = noun in _ASPIRATIONS and match.group("value").casefold().startswith("to ")
    if aspiration or (
        verb in ("is", "are") and re.search(r"\d|(?:^|\s)(?!I\b)[A-Z]", match.group("value"))
    ):
        value = _object(match.group("value"), team=False)
        if not value or _pronoun_only(value) or _LOCATIVE_PRONOUN.search(value):
            return []
        statement = f"User's {noun} {verb} {value}."
        return [_p(BeliefType.FACT, noun, "", value, exclusive=True, statement=statement)]
    return _my_thing_state(noun, verb, match.group("value"), when)


def _my_thing_state(noun: str, verb: str, raw: str, when: TimePhrase | None) -> list[_Proposal]:
    """``My online bakery is finally open`` -> ``User's online bakery is finally open.``: the
    state of a thing of the user's. Not exclusive (a thing has many states and descriptions);
    something done to it (``was featured``) is an event, read by ``_my_thing_happened``."""
    value = _strip_adverbs(collapse(raw))
    first = value.split(" ", 1)[0].casefold() if value else ""
    if (
        not value
        or noun.split()[-1] in _NOT_A_STATE
        or _STATE_OPENERS.match(value)
        or (verb in ("was", "were") and _is_participle(first))
        or re.search(r"\bby\b", value, re.IGNORECASE)
    ):
        return _my_thing_happened(f"my {noun} {verb} {raw}", when)
    kept = _object(collapse(raw), team=False)
    if not kept or _pronoun_only(kept) or _LOCATIVE_PRONOUN.search(kept):
        return []
    return _proposal(f"User's {noun}", verb, kept, noun, when, past=verb in ("was", "were"))


_MY_THING_HAPPENED = re.compile(
    r"^(?P<own>my|our)\s+(?P<noun>[a-z][\w-]*(?:\s+(?!(?:was|were|got|has|have)\b)[a-z][\w-]*)?)"
    r"\s+(?P<verb>(?:was|were|got)\s+[a-z]+ed"
    r"|(?:was|were|got)\s+(?:hit|stolen|broken|built|done|sold|made|taken|given|shut|cut)"
    r"|(?:has|have)\s+(?:[a-z]+ed|won|lost|grown|gone|fallen|broken|become)"
    r"|[a-z]+ed|broke|fell|came|went|won|lost|grew)\b(?P<rest>.*)$",
    re.IGNORECASE,
)


def _my_thing_happened(text: str, when: TimePhrase | None) -> list[_Proposal]:
    """``My old area was hit by a flood last week`` -> ``User's old area was hit by a flood
    in the week of ...``: something that happened to a thing of the user's (a person is read
    by the family rules)."""
    match = _MY_THING_HAPPENED.match(text)
    if match is None:
        return []
    noun = match.group("noun").casefold()
    if any(w in RELATIONS or w in _FAMILY for w in noun.split()):
        return []
    rest = _object(match.group("rest"), team=False)
    if _pronoun_only(rest) or _LOCATIVE_PRONOUN.search(rest):
        return []
    verb = collapse(match.group("verb")).casefold()
    return _proposal(f"User's {noun}", verb, _object(rest, team=True), noun, when, past=True)


_ASPIRATIONS = frozenset({"dream", "goal", "aim", "plan", "hope", "wish", "mission", "focus"})
"""``My dream is to create a loving home``: an aim the user states is a value of its own."""
_RELATION_WORDS = frozenset({"favorite", "favourite", "name", "native", "first", "mother"})


__all__ = ["my_thing"]
