"""The time a turn sets for what it narrates next.

``Last weekend I did something new. I ran a 5K for the animal shelter.``: the second sentence
says when by the first, so its act happened last weekend. A sentence whose time is in the past
(``last ...``, ``yesterday``, ``... ago``, ``this morning``, or any time beside a past verb)
sets the scene when the user set it (their own act, or the time itself: ``Yesterday was
wild``); each following sentence that is a plain past act of the user with no time of its own
(not even a year, a stage of life or a span) is read with the scene's time, until a sentence
that is neither. What the user grew up with, used to do, always or never did, a state (``I
was born there``), a question, and a sentence after a future, imagined or someone else's scene
keep no carried time.
"""

from __future__ import annotations

import re

from memory_core.formation.deterministic.conversation import _is_past
from memory_core.text import take_time

_PAST_PHRASE = re.compile(r"^(?:last\b|yesterday\b|this\s+(?:morning|afternoon)\b)|\bago$")
_USERS_OWN = re.compile(
    r"^(?:(?:so|and|but|well|oh)\s+)?(?:I|we|(?:my|our)\s+family|(?:my|our)\s+\w+\s+and\s+I)\b"
    r"|^(?:was|were)\b",
    re.IGNORECASE,
)
"""A scene the user set: their own act (``I went to Oslo``, ``My family moved to Porto``, ``My
wife and I ...``) or the time itself (``Yesterday was wild``), not the listener's or another
person's (``My coworker went to Bali``)."""
_NOT_REAL = re.compile(
    r"\b(?:wish|wished|dream|dreams|dreamed|dreamt|dreaming|imagine|imagined|pretend|if"
    r"|would|could|should|might)\b",
    re.IGNORECASE,
)
"""A wish, a dream or a condition sets no scene for what happened."""
_OWN_TIME = re.compile(
    r"\b(?:\d{4}|ago|once|before\s+that|after\s+that|back\s+then|years|months"
    r"|when\s+(?:I|we)\s+(?:was|were)|as\s+a\s+(?:kid|child|teen|teenager|student)"
    r"|in\s+(?:high\s+school|college|university|school|my\s+\w+s)"
    r"|for\s+(?:\d+|a\s+few|a\s+couple|several|many|two|three|four|five|ten)\s+\w+)\b",
    re.IGNORECASE,
)
"""A time of its own the time phrases do not bound: a year, a stage of life, a span."""
_NOT_PAST = re.compile(
    r"\b(?:will|'ll|going\s+to|gonna|am|'m|are|is|plan|planning|hope|want|next)\b", re.IGNORECASE
)
_PAST_VERB = re.compile(r"\b(?:I|we|my\s+\w+)\s+(?:(?:just|finally|also|then)\s+)?(\w+)", re.I)
_NARRATED_ACT = re.compile(
    r"^(?:I|we)\s+(?:(?:just|also|then|finally|even|actually|really|quickly)\s+)*"
    r"(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)
_NOT_AN_EPISODE = re.compile(
    r"\b(?:always|never|ever|used\s+to|grew\s+up|since|every|usually|often)\b", re.IGNORECASE
)
_NOT_ACTS = frozenset(
    {"was", "were", "used", "grew", "loved", "liked", "hated", "thought", "wanted", "hoped"}
    | {"wished", "needed", "meant"}
)
"""What no scene dates: a state, a past habit or home, a liking, a thought or a wish."""


def scene_of(sentence: str) -> str | None:
    """The past time ``sentence`` sets (``last weekend``), or None."""
    rest, when = take_time(sentence)
    if when is None or _NOT_PAST.search(rest) or _NOT_REAL.search(rest):
        return None
    if not _USERS_OWN.match(rest.strip(" ,")):
        return None
    verb = _PAST_VERB.search(rest)
    past_verb = verb is not None and (_is_past(verb[1]) or verb[1].casefold() == "had")
    return when.phrase if _PAST_PHRASE.search(when.phrase) or past_verb else None


def in_scene(sentence: str, scene: str) -> str | None:
    """``sentence`` with ``scene``'s time when it is a plain past act of the user with no time
    of its own (``I caught two trout.`` -> ``I caught two trout last weekend.``), else None."""
    act = _NARRATED_ACT.match(sentence.strip())
    if act is None or sentence.rstrip().endswith("?") or _NOT_AN_EPISODE.search(sentence):
        return None  # a question stays one: the time never lands after its question mark
    if take_time(sentence)[1] is not None or _OWN_TIME.search(sentence):
        return None
    verb = act["verb"].casefold()
    if verb in _NOT_ACTS or not _is_past(verb):
        return None
    return f"{sentence.strip().rstrip('.!')} {scene}."


__all__ = ["in_scene", "scene_of"]
