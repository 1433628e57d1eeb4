"""The time a turn sets for what it narrates next.

``Last weekend I did something new. I ran a 5K for the animal shelter.``: the second sentence
says when by the first, so its act happened last weekend. A sentence whose time is in the past
(``last ...``, ``yesterday``, ``... ago``, ``this morning``, or any time beside a past verb)
sets the scene; each following sentence that is a plain past act of the user with no time of
its own is read with the scene's time, until a sentence that is neither. What the user grew up
with, used to do, always or never did, a state (``I was born there``) and a sentence after a
future or present scene keep no carried time.
"""

from __future__ import annotations

import re

from memory_core.formation.deterministic.conversation import _is_past
from memory_core.text import take_time

_PAST_PHRASE = re.compile(r"^(?:last\b|yesterday\b|this\s+(?:morning|afternoon)\b)|\bago$")
_NOT_PAST = re.compile(
    r"\b(?:will|'ll|going\s+to|gonna|am|'m|are|is|plan|planning|hope|want|next)\b", re.IGNORECASE
)
_PAST_VERB = re.compile(r"\b(?:I|we|my\s+\w+)\s+(?:(?:just|finally|also|then)\s+)?(\w+)", re.I)
_NARRATED_ACT = re.compile(
    r"^(?:I|we)\s+(?:(?:just|also|then|finally|even|actually|really|quickly)\s+)*"
    r"(?P<verb>[a-z]+)\b(?P<rest>.*)$",
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
    if when is None or _NOT_PAST.search(rest):
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
    if take_time(sentence)[1] is not None:
        return None
    verb = act["verb"].casefold()
    if verb in _NOT_ACTS or not _is_past(verb):
        return None
    return f"{sentence.strip().rstrip('.!')} {scene}."


__all__ = ["in_scene", "scene_of"]
