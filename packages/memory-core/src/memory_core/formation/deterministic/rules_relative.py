"""The user's past act presupposed by an object relative clause whose subject is ``I``.

``The scarf I knitted for my niece was a hit`` -> ``User knitted the scarf for their niece.``;
``The parade I went to last week was huge`` -> ``User went to the parade in the week of ...``.
Whatever the main clause says about the thing, the relative clause says the user did it, so the
act is read when the main clause forms nothing. The relative clause is its past verb, at most
one prepositional phrase (or a stranded preposition) and a time phrase; a verb of report or
thought (``the thing I said``), a head that is a time, a way or a reason (``the day I met
her``), a pronoun or the listener, a modal, or anything else after the verb leaves it unread.
"""

from __future__ import annotations

import re

from memory_core.formation.deterministic.conversation import _LISTENER, _SPECULATIVE, _is_past
from memory_core.formation.deterministic.lexicon import _words
from memory_core.formation.deterministic.rules_clauses import _UNRESOLVED
from memory_core.text import collapse, take_time

_FUNCTION = (
    r"(?:a|an|the|my|our|this|that|these|those|another|at|of|to|in|on|for|with|about|from|and"
    r"|or|but|is|are|was|were|i|you|he|she|they|we|it)\b"
)
_RELATIVE = re.compile(
    r"(?:^|\s)(?P<det>a|an|the|my|this|that|these|those|another)\s+"
    r"(?P<np>(?:(?!" + _FUNCTION + r")[\w'-]+\s+){0,3}?(?!" + _FUNCTION + r")[\w'-]+)\s+"
    r"(?:that\s+|which\s+)?(?-i:I)\s+"
    r"(?:(?:just|recently|finally|first|also)\s+)?(?P<verb>[a-z]+)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_NOT_A_HEAD = _words(
    """way time times day days night nights year years moment moments reason reasons thing
    things one ones stuff lot kind sort feeling feelings part first last only much most"""
)
_NOT_AN_ACT = _words(
    """said told thought felt knew heard asked wanted hoped needed meant guessed figured
    believed supposed wished expected imagined was were did used had seemed"""
)
_ADVERB_NEXT = _words("finally really already just always never still also actually")
_MAIN_VERB_NEXT = _words(
    """is are was were has have had went got turned sounds looks seems made makes won came
    took arrived helped changed reminds means"""
)
_RELATIVE_PREPOSITION = re.compile(
    r"^\s+(?P<prep>to|for|with|about|at|on|in|from)\s+(?P<det>my|the|a|an)\s+(?P<words>.*)$",
    re.IGNORECASE,
)


def _ends_here(rest: str) -> bool:
    """Whether the relative clause ends before ``rest``: at punctuation, the end, an adverb
    or the main clause's verb."""
    words = rest.split()
    if not words or not words[0][:1].isalnum():
        return True
    first = words[0].casefold().strip(",.!;")
    return first in _ADVERB_NEXT or first in _MAIN_VERB_NEXT or _is_past(first)


def _leading_time(text: str) -> tuple[str, str] | None:
    """A time phrase opening ``text``: the phrase as said (after a space) and what follows it."""
    stripped = text.strip()
    timed, phrase = take_time(stripped)
    if phrase is None or not stripped.casefold().startswith(phrase.phrase.split()[0]):
        return None
    return " " + stripped[: len(stripped) - len(timed)].strip(" ,"), timed


def relative_event(clause: str) -> str | None:
    """``The scarf I knitted for my niece was a hit`` -> ``I knitted the scarf for my niece``:
    the user's past act an object relative clause presupposes, whatever the main clause says
    (read when the main clause forms nothing). The relative clause is the verb, at most one
    prepositional phrase and a time phrase; anything else after the verb leaves it unread."""
    match = _RELATIVE.search(clause)
    if match is None or _SPECULATIVE.search(clause) or _LISTENER.search(clause):
        return None
    noun = match.group("np")
    verb = match.group("verb").casefold()
    if (
        noun.split()[-1].casefold() in _NOT_A_HEAD
        or _UNRESOLVED.search(noun)
        or not _is_past(verb)
        or verb in _NOT_AN_ACT
    ):
        return None
    rest, when = match.group("rest"), ""
    opening = _leading_time(rest)
    if opening is not None:
        when, rest = opening[0], " " + opening[1]
    noun_first = match.group("det")
    stranded = re.match(
        r"^\s+(?P<prep>to|for|with|about|at|on|in|from|up|out)\b(?P<rest>.*)$", rest
    )
    if not when and stranded is not None:
        after = stranded.group("rest")
        opening = _leading_time(after)
        if opening is not None:
            when, after = opening[0], ""
        if when or _ends_here(after):
            # ``the parade I went to last week``: the preposition goes before its object.
            noun_first = f"{stranded.group('prep')} {noun_first}"
            rest = after
    phrase_text = ""
    prepositional = _RELATIVE_PREPOSITION.match(rest) if not when else None
    if prepositional is not None:
        words = prepositional.group("words").split()
        for size in (3, 2, 1):
            inside = [word.casefold().strip(",.!;") for word in words[:size]]
            if any(w in _ADVERB_NEXT or w in _MAIN_VERB_NEXT or w.endswith("ed") for w in inside):
                continue
            if len(words) >= size and _ends_here(" ".join(words[size:])):
                head = " ".join(words[:size]).rstrip(",.!;")
                phrase_text = f" {prepositional.group('prep')} {prepositional.group('det')} {head}"
                rest = " " + " ".join(words[size:])
                break
    if not (phrase_text or when) and not _ends_here(rest):
        return None
    lead, _, det = noun_first.rpartition(" ")
    det = "the" if det.casefold() in ("this", "that", "these", "those") else det.casefold()
    return collapse(f"I {verb} {lead} {det} {noun}{phrase_text}{when}")


__all__ = ["relative_event"]
