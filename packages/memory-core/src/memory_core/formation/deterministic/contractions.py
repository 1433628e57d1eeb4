"""Contractions a clause is read without: ``I'm`` -> ``I am``, ``can't`` -> ``cannot``, and the
``'s`` of a subject that stands for ``has`` (``My sister's moved back to Lisbon``)."""

from __future__ import annotations

import re

from memory_core.formation.deterministic.lexicon import (
    _OBJECT_OPENER,
    _PARTICIPLES,
    _PARTICLES,
    _words,
)

_CONTRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"\b(I)'m\b", r"\1 am"),
        (r"\b(I)'ve\b", r"\1 have"),
        (r"\b(I)'d\b", r"\1 would"),
        (r"^(i)m\b", r"\1 am"),
        (r"^(i)ve\b", r"\1 have"),
        (r"\bwe're\b", "we are"),
        (r"\bwe've\b", "we have"),
        (r"\bcan'?t\b", "cannot"),
        (r"\bdon'?t\b", "do not"),
        (r"\bdidn'?t\b", "did not"),
        (r"\bwon't\b", "will not"),
        (r"\bwouldn't\b", "would not"),
        (r"\bwasn't\b", "was not"),
        (r"\bisn't\b", "is not"),
        (r"\bdoesn'?t\b", "does not"),
        (r"\bhaven'?t\b", "have not"),
        (r"\bhasn'?t\b", "has not"),
    )
)


def expand_contractions(text: str) -> str:
    """``text`` with the first-person and negated contractions written out."""
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text


_SUBJECT_S = re.compile(
    r"^(?P<who>(?:my|our)\s+(?:[a-z]+\s+)?[a-z]+"
    r"|(?-i:(?!(?:It|That|This|There|Here|What|Who|Where|How|When|He|She|Let|Life|Everything"
    r"|Nothing|Everyone|Everybody|Today|Tonight)\b)[A-Z][a-z]+))"
    r"'s\s+(?P<verb>[a-z]+)\s+(?P<next>[a-z]+)",
    re.IGNORECASE,
)
_STATE_PARTICIPLES = _words(
    """married engaged divorced retired worried excited interested obsessed scared tired stressed
    bored pleased thrilled stoked exhausted amazed surprised based located involved allowed
    supposed used meant expected required blessed stuck named called dressed convinced
    determined committed qualified related focused hooked"""
)
"""Participles that after ``'s`` name a state (``My mom's worried about me``: ``is``)."""
_ACTED_ON = frozenset(_PARTICLES) | _OBJECT_OPENER | {"two", "three"}
"""What follows a participle that acts: its object or a particle (``has finished her chemo``,
``has moved back``); a preposition after it is a state or a passive (``Lily's adopted from
China``, ``My dad's disappointed in me``), so the ``'s`` stays ``is``."""
_MOTION_PARTICIPLES = _words("gone come been")
"""Participles no state shares, ``has`` before a preposition too (``My son's gone to camp``)."""


def contracted_has(text: str) -> str:
    """``My sister's moved back to Lisbon`` -> ``My sister has moved back to Lisbon``: the
    ``'s`` of the user's person or thing, or of a name, before ``been`` or before a participle
    and what it acts on, is ``has``; before a state (``My mom's worried``) or a noun (``Tom's
    finished novel``) it stays as written."""
    match = _SUBJECT_S.match(text)
    if match is None:
        return text
    verb, after = match["verb"].casefold(), match["next"].casefold()
    participle = verb in _PARTICIPLES or (verb.endswith("ed") and len(verb) > 3)
    acts = participle and verb not in _STATE_PARTICIPLES and after in _ACTED_ON
    if verb not in _MOTION_PARTICIPLES and not acts:
        return text
    return f"{match['who']} has {text[match.start('verb') :]}"


__all__ = ["contracted_has", "expand_contractions"]
