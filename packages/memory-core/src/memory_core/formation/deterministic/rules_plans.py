"""Plans and intentions (``I'm planning to adopt a cat``, ``We're going to Osaka instead``),
feelings (``I'm so excited about the concert``, ``I feel proud of my kids``), and an occasion
ahead said as a fragment (``Dentist appointment on Friday``)."""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import (
    _LISTENER,
    _LOCATIVE_PRONOUN,
    _NEGATION,
    _SPECULATIVE,
    _activity_subject,
    _object,
    _pronoun_only,
    _proposal,
    _strip_adverbs,
    _thing,
)
from memory_core.formation.deterministic.lexicon import (
    _ARTICLES,
    _STOP_VERBS,
    _VAGUE_HEADS,
    _VERDICT_ADJECTIVES,
    _words,
)
from memory_core.formation.deterministic.phrases import _p, _Proposal, fronted_to_end, head_phrase
from memory_core.text import collapse, gerund_base, indefinite_article, take_time

PLAN_CONFIDENCE = 0.6
"""Confidence of a plan or intention: it may not happen."""

HEDGED_CONFIDENCE = 0.7
"""Confidence of a statement the user hedged (``I think I'll ...``)."""

_PLAN = re.compile(
    r"^(?:(?:I\s+think|I\s+guess|I\s+believe|I\s+suppose|probably)\s+(?:that\s+)?)?"
    r"(?P<who>I|we)\s+(?:(?:really|definitely|also|just|still|totally|actually|so)\s+)*"
    r"(?P<marker>will|'ll|am\s+going\s+to|are\s+going\s+to|am\s+gonna|are\s+gonna"
    r"|am\s+planning\s+(?:on|to)|are\s+planning\s+(?:on|to)|plan\s+(?:on|to)|intend\s+to"
    r"|am\s+about\s+to|want\s+to|wanna|would\s+like\s+to|am\s+hoping\s+to|hope\s+to"
    r"|(?:am|are)\s+thinking\s+(?:about|of)|(?:am|are)\s+considering)\s+(?P<rest>.+)$",
    re.IGNORECASE,
)

_PROGRESSIVE = re.compile(r"^be\s+(?P<verb>[a-z]{2,}ing)\b(?P<tail>.*)$", re.IGNORECASE)

_PLAN_VERBS = {
    "want": "wants to",
    "wanna": "wants to",
    "would": "wants to",
    "hope": "hopes to",
    "am hoping": "hopes to",
    "am thinking": "is thinking about",
    "am considering": "is considering",
}


_COMPARED = re.compile(r"^(?:more|less)\s+of\s+an?\b", re.IGNORECASE)
"""``I'm more of a coffee person``: a comparison with something the clause does not say."""


def _feeling(
    who: str, be: str, obj: str, *, plural: bool, when: object, team: bool
) -> list[_Proposal]:
    """``I'm so excited about the concert`` -> ``User is excited about the concert.``"""
    words = _strip_adverbs(obj)
    if _COMPARED.match(words):
        return []
    statement_obj = _object(words, team=team)
    if not statement_obj or _pronoun_only(statement_obj) or _LOCATIVE_PRONOUN.search(words):
        return []
    identity = re.match(r"^(?:a|an)\s+(?P<np>[\w\s-]+)$", statement_obj)
    if who == "User" and be.casefold() in ("am", "are") and identity is not None:
        head = head_phrase(identity.group("np"))
        if head and len(head.split()) <= 4 and head.split()[0] not in _VAGUE_HEADS:
            statement = f"User is {statement_obj}."
            return [
                _p(
                    BeliefType.USER_MODEL_ATTR,
                    head,
                    "is",
                    statement_obj,
                    exclusive=False,
                    statement=statement,
                )
            ]
    words = re.sub(r"^(?:looking\s+)?forward\s+", "", words, flags=re.IGNORECASE)
    about = re.match(
        r"^(?P<adj>[\w-]+)\s+(?P<prep>about|of|for|with|at|by|to|in|from)\s+(?P<np>.+)$", words
    )
    if about is not None and about.group("prep").casefold() == "to":
        # ``excited to meet other people``: what the feeling is about is the verb's object.
        verb, _, rest = about.group("np").partition(" ")
        subject = _activity_subject(verb, rest) if rest else ""
    else:
        subject = _thing(about.group("np")) if about else _thing(statement_obj)
    # A bare state (``User is good.``, ``User is thankful.``) says nothing to recall later.
    if not subject or (about is None and len(statement_obj.split()) < 3):
        return []
    lower = be.casefold()
    if lower in ("feel", "feels", "felt"):
        verb = "felt" if lower == "felt" else ("feel" if plural else "feels")
    elif plural:
        verb = "are" if lower in ("am", "are") else "were"
    else:
        verb = {"am": "is", "are": "is", "were": "was"}.get(lower, lower)
    past = lower in ("was", "were", "felt")
    return _proposal(who, verb, statement_obj, subject, when, past=past)


def plan_readings(clause: str) -> list[_Proposal]:
    """Read a plan or intention (``I'm planning to adopt a cat next month``), else nothing."""
    text, when = take_time(re.sub(r"\b(I|we)'ll\b", r"\1 will", clause, flags=re.IGNORECASE))
    text = fronted_to_end(text)
    match = _PLAN.match(text)
    if match is None or _LISTENER.search(text):
        return []
    said = match.group("rest")
    rest = _strip_adverbs(said)
    if _SPECULATIVE.search(rest) or _NEGATION.match(rest) or _NEGATION.match(said):
        return []  # ``I'll never stop painting``: ``never`` is no adverb to strip here
    marker = collapse(match.group("marker")).casefold()
    team = match.group("who").casefold() == "we"
    who = "User"
    key = " ".join(marker.split()[:2]) if marker.split()[0] in ("am", "are") else marker.split()[0]
    predicate = _PLAN_VERBS.get(key.replace("are ", "am "), "plans to")
    words = rest.split()
    trip = (
        predicate == "plans to"
        and marker.endswith("going to")
        and bool(words)
        and (words[0][:1].isupper() or words[0].casefold() in _ARTICLES)
    )
    if trip:
        predicate = "is going to"
    progressive = _PROGRESSIVE.match(rest)
    if marker == "will" and progressive is not None:
        # ``I'll be visiting my aunt``: the future progressive is a plan to visit her.
        rest = f"{gerund_base(progressive['verb']) or progressive['verb']}{progressive['tail']}"
    obj = _object(rest, team=team)
    if not obj or _pronoun_only(obj) or _LOCATIVE_PRONOUN.search(obj):
        return []
    first = obj.split()[0].casefold()
    if first == "be" or (first in _STOP_VERBS and first not in ("get", "have", "see", "do")):
        return []
    head_words = obj.split()
    subject = _activity_subject(head_words[0], " ".join(head_words[1:])) if head_words else ""
    if trip:
        subject = "trip"
    proposals = _proposal(who, predicate, obj, subject, when, past=False)
    exclusive = re.search(r"\binstead\b", text, re.IGNORECASE) is not None
    confidence = HEDGED_CONFIDENCE if re.match(r"^(?:I\s+think|I\s+guess)", text, re.I) else None
    return [
        _Proposal(
            belief_type=p.belief_type,
            subject=p.subject,
            predicate=p.predicate,
            obj=p.obj,
            exclusive=exclusive,
            statement=p.statement,
            confidence=min(PLAN_CONFIDENCE, confidence or PLAN_CONFIDENCE),
            when=p.when,
            past=False,
        )
        for p in proposals
    ]


# An occasion noun, up to three modifiers before it and a place or company after it (``to
# Lisbon``, ``with the team``).
_OCCASION = re.compile(
    r"^(?:(?P<det>a|an|my)\s+)?"
    r"(?P<np>(?P<modifiers>(?:[\w-]+\s+){0,3}?)"
    r"(?:appointment|dinner|lunch|party|trip|interview|exam|test|meeting|game|match|concert"
    r"|recital|wedding|cleaning|checkup|check-up|surgery|flight|presentation|conference|reunion"
    r"|tournament|race|rehearsal|shower|lesson|class))\b(?P<tail>\s+(?:to|in|at|with|for)\s+.+)?$",
    re.IGNORECASE,
)
_AHEAD = re.compile(
    r"^(?:on\s+\w+days?|this\s+(?!morning\b)\w+|next\s+\w+|tomorrow|tonight|in\s+\w+\s+\w+)$"
)
"""A time phrase ahead of the message (``on friday``, ``next week``, ``in two weeks``)."""
_NOT_A_MODIFIER = _VERDICT_ADJECTIVES | _words(
    """a an the my our his her their some this that is are was were has have had got gets do
    does did will we they he she i it you"""
)
"""Words no occasion's modifier is: a determiner (``Planning a trip`` is an act), a verb
(``Mom has surgery tomorrow`` is a clause) or a verdict (``Great meeting this morning``)."""


def occasion_fragment(text: str) -> str | None:
    """``Dentist appointment on Friday`` -> ``I have a dentist appointment on Friday``: an
    occasion noun with a time ahead, said without its ``I have a``, as the user's; None for
    any other text (one in the past or with no time says nothing of whose it is)."""
    rest, when = take_time(text)
    if when is None or _AHEAD.match(when.phrase) is None:
        return None
    occasion = _OCCASION.match(rest.split(", ", 1)[0].rstrip(" .!"))
    if occasion is None or not _plain_modifiers(occasion["modifiers"].split()):
        return None
    lead = "" if occasion["det"] else f"{indefinite_article(occasion['np'])} "
    words = text.split()
    named = len(words) > 1 and words[1][:1].isupper()  # ``Taylor Swift concert ...``
    return f"I have {lead}{text if named else text[:1].lower() + text[1:]}"


def _plain_modifiers(words: list[str]) -> bool:
    """True when every word before the occasion noun can modify it: none is a determiner, a
    verb, a verdict or a possessive (``Mom's surgery tomorrow`` is someone else's)."""
    return not any(w.casefold() in _NOT_A_MODIFIER or w.endswith(("'s", "s'", "’s")) for w in words)


__all__ = ["HEDGED_CONFIDENCE", "PLAN_CONFIDENCE", "occasion_fragment", "plan_readings"]
