"""What things do to the user, and how the user's times of day go.

``Loud restaurants give me a headache`` -> ``Loud restaurants give User a headache.``; ``Long
flights make me anxious`` and ``Cold weather makes my joints ache`` likewise; ``Evenings are
quiet around here`` -> ``User's evenings are quiet.``. Each is about the user, so each is a
user-model attribute, and each accumulates. Only the present tense is a standing effect (``The
film made me cry`` is an event, read elsewhere); a pronoun, a demonstrative alone or the
listener names no cause, and a negation, a modal, a condition or a request forms nothing.
"""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import _NEGATED, _object
from memory_core.formation.deterministic.phrases import (
    _p,
    _Proposal,
    _third_person_object,
    head_phrase,
)
from memory_core.formation.deterministic.rules_values import _thing_phrase
from memory_core.text import collapse

_AFFECTS = re.compile(
    r"^(?P<np>[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,5}?)\s+"
    r"(?:(?:really|always|usually|often|still|also|truly|just|definitely)\s+)*"
    r"(?P<verb>gives|give|makes|make)\s+(?P<me>me|my)\s+(?P<rest>[a-z].*)$",
    re.IGNORECASE,
)
_NO_CAUSE = re.compile(
    r"^(?:please|let|if|when|whenever|unless|whether|what|why|how|this|that|these|those)\b"
    r"|\b(?:can|could|might|may|will|would|should|must)\b|\blike\s+(?:that|this|those)\b",
    re.IGNORECASE,
)
"""A request, a condition, a question word, a modal or a cause named only by the talk before
(``Those moments make me thankful``, ``Moments like that ...``): no standing effect is stated."""
_NEXT_CLAUSE = re.compile(r"\s+and\s+(?:there|it|that|this|they|he|she|we|I)\b.*$", re.IGNORECASE)
_TIMES_OF_DAY = re.compile(
    r"^(?:my\s+|our\s+)?(?P<when>mornings|afternoons|evenings|nights|weeknights|weekends)\s+"
    r"(?P<be>are|have\s+been)\s+(?P<how>.+?)"
    r"(?:\s+(?:here|around\s+here|for\s+(?:me|us)|at\s+home|in\s+(?:our|my)\s+(?:house|home)"
    r"|lately|these\s+days|right\s+now))*$",
    re.IGNORECASE,
)


def _rule_affects(clause: str) -> list[_Proposal]:
    """``Loud restaurants give me a headache`` -> ``Loud restaurants give User a headache.``."""
    match = _AFFECTS.match(clause.rstrip(" .!"))
    if match is None or _NO_CAUSE.search(match["np"]) or _NEGATED.search(match["np"]):
        return []
    thing = _thing_phrase(match["np"])
    rest = _object(_NEXT_CLAUSE.sub("", match["rest"]), team=False)
    if thing is None or not rest or _NEGATED.search(rest):
        return []
    user = "User's" if match["me"].casefold() == "my" else "User"
    opening = thing[:1].upper() + thing[1:]
    statement = collapse(f"{opening} {match['verb'].casefold()} {user} {rest}") + "."
    subject = head_phrase(re.sub(r"^(?:the|User's)\s+", "", thing))
    if not subject:
        return []
    return [_p(BeliefType.USER_MODEL_ATTR, subject, "", rest, exclusive=False, statement=statement)]


def _rule_times_of_day(clause: str) -> list[_Proposal]:
    """``Evenings are quiet around here`` -> ``User's evenings are quiet.``."""
    match = _TIMES_OF_DAY.match(clause.rstrip(" .!"))
    if match is None or _NEGATED.search(match["how"]) or _NO_CAUSE.search(match["how"]):
        return []
    how = _third_person_object(match["how"])
    when = match["when"].casefold()
    statement = f"User's {when} {collapse(match['be']).casefold()} {how}."
    return [_p(BeliefType.USER_MODEL_ATTR, when, "", how, exclusive=False, statement=statement)]
