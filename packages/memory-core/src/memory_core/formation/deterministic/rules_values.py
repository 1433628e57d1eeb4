"""What a named thing means to the user: ``This quilt is really special to me``.

Also ``"Brave" has a lot of significance for me`` and ``The Long Field is one of my favorite
novels`` (``... is one of User's favorite novels.``).

A clause whose subject is a thing and whose predicate says the thing matters to the speaker
(``is special/important/dear/precious to me``, ``means a lot/the world/so much to me``, ``has
always meant a lot to me``) is an attitude of the user's toward that thing, so it forms a
preference about it: ``The quilt is really special to User.``. The thing must be named in the
clause itself: a bare ``it``, ``this`` or ``that`` (``It means so much to me``) forms nothing,
and so does anything about the listener (``Your kindness means a lot to me``), which the
extractor's listener screen refuses. A demonstrative naming its referent (``this quilt``) reads
as ``the``; ``my`` as ``User's``. A trailing reason or time (``because my dad built it``, ``these
days``) is not part of the statement, which stays short and about one thing.
"""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation._text import collapse
from memory_core.formation.deterministic.phrases import _p, _Proposal, head_phrase

_INTENSIFIER = (
    r"(?:(?:really|so|super|very|extra|truly|incredibly|especially|always|still|pretty"
    r"|quite)\s+)*"
)
_MATTERS = re.compile(
    r"^(?P<np>[\"']?[A-Za-z][\w'-]*[\"']?(?:\s+[\w'\"-]+){0,5}?)\s+(?P<pred>"
    r"(?:is|are|was|were|has\s+been|have\s+been)\s+"
    + _INTENSIFIER
    + r"(?:special|important|meaningful|dear|precious)\s+to\s+me"
    r"|(?:(?:has|have)\s+(?:always\s+)?meant|means|meant|mean)\s+"
    r"(?:a\s+lot|so\s+much|the\s+world|everything|a\s+great\s+deal)\s+to\s+me"
    r"|(?:has|have|had|holds?|held)\s+(?:a\s+lot\s+of|so\s+much|(?:a\s+)?(?:great|special|real))"
    r"\s+(?:significance|meaning)\s+(?:for|to)\s+me"
    r"|(?:is|are|was|were)\s+(?:one\s+of\s+)?my\s+(?:all-time\s+)?(?:favorite|favourite)s?"
    r"(?:\s+[\w'-]+){0,4}"
    r")\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
_NOT_A_THING = frozenset(
    {
        "it",
        "they",
        "he",
        "she",
        "we",
        "you",
        "your",
        "everything",
        "something",
        "anything",
        "all",
        "what",
        "which",
        "who",
        "there",
        "here",
        "our",
        "their",
        "his",
        "her",
        "its",
    }
)


def _rule_matters(clause: str) -> list[_Proposal]:
    """``This quilt is really special to me`` -> ``The quilt is really special to User.``."""
    match = _MATTERS.match(clause)
    if match is None:
        return []
    words = collapse(match.group("np")).split()
    first = words[0].casefold().strip("\"'")
    if words[0][0] in "\"'":  # a quoted title names its referent, whatever its words
        first = ""
    elif first in _NOT_A_THING or any(w.casefold() in _NOT_A_THING for w in words[1:]):
        return []
    if first in _DEMONSTRATIVES:
        if len(words) < 2:  # a bare ``this`` / ``that`` names nothing
            return []
        words = ["The", *words[1:]]
    elif first == "my":
        words = ["User's", *words[1:]]
    elif first == "i":
        return []
    else:
        words = [words[0][:1].upper() + words[0][1:], *words[1:]]
    thing = " ".join(words)
    subject = head_phrase(re.sub(r"^(?:The|User's)\s+", "", thing)).strip("\"'")
    if not subject:
        return []
    predicate = re.sub(r"\bme$", "User", collapse(match.group("pred")), flags=re.IGNORECASE)
    predicate = re.sub(r"\bmy\b", "User's", predicate, flags=re.IGNORECASE)
    statement = f"{thing} {predicate}."
    return [_p(BeliefType.PREFERENCE, subject, "", thing, exclusive=False, statement=statement)]


__all__ = ["_rule_matters"]
