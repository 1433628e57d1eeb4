"""The things a third-person clause is about, and the verb and person helpers the people
readings share.

* **A definite thing**: ``The library closes at six on weekdays`` is about the library.
* **A bare noun with its schedule**: ``Deploys go out every Thursday``, ``Migration starts
  next sprint`` (see :func:`scheduled_thing`).
"""

from __future__ import annotations

import re

from memory_core.formation.deterministic.conversation import _is_past
from memory_core.formation.deterministic.lexicon import (
    _ADVERB_WORDS,
    _CALENDAR_WORDS,
    _NOT_NAME_WORDS,
)
from memory_core.formation.deterministic.phrases import head_phrase
from memory_core.text import collapse

_AUXILIARIES = frozenset(
    {"is", "are", "was", "were", "has", "have", "had", "does", "did", "gets", "got", "keeps"}
    | {"kept", "goes", "went", "became", "becomes", "stays", "stayed"}
)
_PLURAL_VERBS = frozenset(
    {"want", "need", "go", "have", "do", "make", "take", "get", "keep", "use", "start", "run"}
    | {"come", "work", "meet", "play", "happen", "open", "close"}
)
"""Base forms a plural subject takes (``The designers want a new payment sheet``)."""
_NO_ONE = frozenset(
    {"things", "work", "life", "everything", "nothing", "everyone", "everybody", "someone"}
    | {"somebody", "stuff", "school", "today", "tonight", "tomorrow", "yesterday", "stay"}
    | {"keep", "let", "take", "make", "go", "try", "remember", "fingers", "much", "tons", "lots"}
    | {"thanks", "glad", "good", "great", "nice", "love", "hope", "wish", "enjoy", "congrats"}
    | _ADVERB_WORDS
)
"""Words that open a sentence capitalised without naming anyone (``Work is slow``)."""
_VERDICT_HEAD = re.compile(
    r"\b(?:best|worst|hardest|funniest|favou?rite|part|thing|problem|issue|idea|point)\b", re.I
)
_FIRST_PERSON = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"\bmyself\b", "themselves"),  # ``... given User courage to push themselves``
        (r"\bme\b", "User"),
        (r"\b(?:my|mine)\b", "User's"),
        (r"\bI\s+am\b", "User is"),
        (r"\bI\s+have\b", "User has"),
        (r"\bI\b", "User"),
    )
)


_BARE_THING = re.compile(
    r"^(?-i:(?P<thing>[A-Z][a-z]+(?:\s+[a-z]+){0,2}?))\s+"
    r"(?P<rest>(?:is|are|go|goes|run|runs|happen|happens|start|starts|meet|meets)\s.+)$"
)
_SCHEDULE = re.compile(
    r"\b(?:every|each|nightly|daily|weekly|monthly|yearly|whenever|next\s+sprint)\b", re.I
)
"""How often or when next a thing happens; a slot (``on Thursday afternoons``) is not read:
an elliptical ``Lessons are on Thursdays`` and its correction ``Piano lessons are on
Tuesdays`` would be two subjects, and the stale day would stay live."""


def scheduled_thing(clause: str) -> tuple[str, str, str, bool] | None:
    """``Deploys go out every Thursday``, ``Migration starts next sprint``: a thing named by a
    bare noun, read when its predicate says how often or when next it happens (an evaluation
    of one, ``Group chats get chaotic fast``, is a remark; a weekday, ``Thursdays are swim
    club``, is no thing). A thing keeps one schedule at a time."""
    match = _BARE_THING.match(clause)
    if match is None or _SCHEDULE.search(match["rest"]) is None:
        return None
    thing = match["thing"]
    first = thing.split()[0]
    if first.casefold() in _NOT_NAME_WORDS | _NO_ONE or first.rstrip("s") in _CALENDAR_WORDS:
        return None
    plural = thing.endswith("s") and not thing.endswith(("ss", "us", "is"))
    return thing, head_phrase(thing), match["rest"], plural


def definite_thing(text: str) -> tuple[str, str, str, bool] | None:
    """``The dog next door has started ...``: the thing the clause is about, up to its verb."""
    words = text.split()
    window = range(1, min(len(words), 7))
    # An auxiliary or a past form is the verb before any ``-s`` word (``The hotel deals were``).
    plain = (i for i in window if words[i].casefold() in _AUXILIARIES or _is_past(words[i]))
    inflected = (
        i for i in window if is_verb(words[i].casefold(), plural=words[i - 1].endswith("s"))
    )
    index = next(plain, None) or next(inflected, None)
    if index is None:
        return None
    thing = " ".join(words[:index])
    if re.search(r"\b(?-i:I)\b|\b(?:one|reason|other|rest|same|way)\b", thing, re.I):
        return None  # ``The song I heard``: the user's act, read by the relative-clause rule
    if _VERDICT_HEAD.search(thing):
        return None  # ``The best part was the food``: a verdict on something said elsewhere
    head = re.sub(r"\s+(?:here|there)$", "", head_phrase(thing))
    plural = words[index - 1].casefold().endswith("s")
    return (f"The {as_user(thing)}", head, " ".join(words[index:]), plural) if head else None


def is_verb(word: str, *, plural: bool) -> bool:
    """True when ``word`` can be the verb of a third-person clause (plural: its base form)."""
    if word in _AUXILIARIES or _is_past(word):
        return True
    if plural:
        return word in _PLURAL_VERBS
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s"))


def as_user(text: str) -> str:
    """``text`` with the user's first person as ``User`` (``my bike`` -> ``User's bike``)."""
    for pattern, replacement in _FIRST_PERSON:
        text = pattern.sub(replacement, text)
    return collapse(text)


__all__ = ["as_user", "definite_thing", "is_verb", "scheduled_thing"]
