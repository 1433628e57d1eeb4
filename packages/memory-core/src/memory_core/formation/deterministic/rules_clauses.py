"""Clauses the sentence rules did not read: a past event in a leading subordinate clause, and an
experience named by a gerund subject.

* **A past event in a leading subordinate clause.** ``Since I lost my job, I've been baking``
  splits into two clauses; the first, ``Since I lost my job``, presupposes a past event of the
  user's, so it is read without its subordinator: ``User lost their job.``. Only a past verb
  (``lost``, ``was cooking``) is read: ``When I retire, ...`` and ``Once I finish ...`` are
  conditions, not events, and ``if``/``unless`` are never read. A life stage (``When I was a
  kid``, ``Since I was 17``) is the time of the main clause, not a statement of its own.
* **An experience named by a gerund subject.** ``Painting the fence with my dad was so much fun``
  -> ``User found painting the fence with their dad so much fun.``: an evaluation said of an
  activity is the user's experience of it. A past evaluation (``was``, ``were``, ``has been``)
  is the speaker's own experience; a present one (``is``) is read only when the activity or the
  evaluation is marked as the user's (``my``, ``our``, ``to me``, ``for me``), so a maxim
  (``Taking breaks is important``) forms nothing. The activity must name what it acts on: a
  pronoun (``Seeing it was awesome``), the listener, ``I``/``we`` inside it, a modal, a
  negation, or an evaluation that is a clause of its own (``a great way to relax``) forms
  nothing.

Both form with the event confidence; neither is exclusive, so two experiences never supersede
each other.
"""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import (
    _LISTENER,
    _SPECULATIVE,
    EVENT_CONFIDENCE,
    _is_past,
    _object,
    _thing,
)
from memory_core.formation.deterministic.lexicon import _words
from memory_core.formation.deterministic.phrases import _Proposal
from memory_core.formation.deterministic.timing import take_time
from memory_core.text import collapse

_SUBORDINATE = re.compile(
    r"^(?:ever\s+since|since|when|after|before|once|while|because|as\s+soon\s+as|now\s+that)"
    r"\s+(?P<clause>I\s+(?:(?:just|finally|first|recently|actually|also)\s+)?(?P<verb>[a-z]+)\b.*)$",
    re.IGNORECASE,
)
_LIFE_STAGE = re.compile(
    r"^I\s+was\s+(?:(?:a|an|only|just|still|about|around|like)\s+)*"
    r"(?:\d|kid|child|teen|teenager|baby|boy|girl|student|young|younger|little|small|older"
    r"|in\s+(?:school|college|high\s+school|university|my\s+\w+s))",
    re.IGNORECASE,
)


def subordinate_event(clause: str) -> str | None:
    """``Since I lost my job`` -> ``I lost my job``: the past first-person event a leading
    subordinate clause presupposes, or None when the clause is not one."""
    match = _SUBORDINATE.match(clause)
    if match is None:
        return None
    event = match.group("clause")
    if not _is_past(match.group("verb")) or _LIFE_STAGE.match(event):
        return None
    return event


_NOT_GERUNDS = _words(
    """nothing something anything everything morning evening during thing king spring ring
    string wing sibling darling ceiling wedding pudding sterling viking earring offspring
    swing sling bring sing"""
)
_GERUND_SUBJECT = re.compile(
    r"^(?P<gerund>[A-Za-z]{3,}ing)(?P<rest>(?:\s+[\w'&-]+){0,10}?)\s+"
    r"(?P<be>is|are|was|were|has\s+been|have\s+been)\s+(?P<eval>[^,;:]+)$"
)
_UNRESOLVED = re.compile(
    r"\b(?:it|this|that|these|those|them|they|he|she|him|her|there|here|what|which|who|I|we"
    r"|one)\b",
    re.IGNORECASE,
)
_FUNCTION_WORDS = _words(
    """a an the my our some all to with in at on up out around through into for about over back
    down off by from across along new old"""
)
_OWN = re.compile(r"\b(?:my|our|me|us|myself|ourselves)\b", re.IGNORECASE)
_TO_ME = re.compile(r"\s+(?:to|for)\s+(?:me|us)\b", re.IGNORECASE)
_NOT_AN_EVALUATION = re.compile(
    r"^(?:not|never|no|about|like|why|how|what|when|where|the\s+reason|because|one\s+of|part\s+of"
    r"|all\s+about)\b|\b(?:to|that|and|but|or|my|our|your|if|on|in|at|with|from|of|by|about"
    r"|into|than|as)\b",
    re.IGNORECASE,
)
_MAX_EVALUATION_WORDS = 6


def gerund_experience(clause: str) -> list[_Proposal]:
    """``Painting the fence with my dad was so much fun`` -> ``User found painting the fence with
    their dad so much fun.``; nothing for a maxim, a pronoun or a clause-like evaluation."""
    text, when = take_time(clause)
    match = _GERUND_SUBJECT.match(text)
    if match is None or _LISTENER.search(clause) or _SPECULATIVE.search(clause):
        return []
    verb = match.group("gerund")
    activity = collapse(f"{verb}{match.group('rest')}")
    if verb.casefold() in _NOT_GERUNDS or _UNRESOLVED.search(activity):
        return []
    following = match.group("rest").split()
    # ``Moving day was rough``: a gerund before a bare noun may be a compound's modifier; it is
    # read as an activity only with more than its noun (``Baking bread on Sundays``).
    if len(following) == 1 and following[0].casefold() not in _FUNCTION_WORDS:
        return []
    evaluation = match.group("eval").strip(" .!")
    own = _OWN.search(activity) is not None or _TO_ME.search(evaluation) is not None
    evaluation = _TO_ME.sub("", evaluation).strip()
    words = evaluation.split()
    if (
        not words
        or len(words) > _MAX_EVALUATION_WORDS
        or _NOT_AN_EVALUATION.search(evaluation)
        or _UNRESOLVED.search(evaluation)
    ):
        return []
    be = collapse(match.group("be")).casefold()
    present = be in ("is", "are")
    if present and not own:
        return []
    activity = _object(activity, team=True)
    activity = activity[:1].lower() + activity[1:]
    predicate = "finds" if present else ("has found" if be.startswith("ha") else "found")
    obj = match.group("rest").strip()
    subject = _thing(_object(obj, team=True)) if obj else ""
    subject = re.sub(r"^.*?'s\s+", "", subject) or verb.casefold()
    statement = collapse(f"User {predicate} {activity} {evaluation}") + "."
    return [
        _Proposal(
            belief_type=BeliefType.PREFERENCE,
            subject=collapse(subject).casefold(),
            predicate=predicate,
            obj=activity,
            exclusive=False,
            statement=statement,
            confidence=EVENT_CONFIDENCE,
            when=when,
            past=not present,
        )
    ]


__all__ = ["gerund_experience", "subordinate_event"]
