"""Text helpers shared by the hazard screen and the deterministic extractor.

Sentences are split on terminal punctuation followed by whitespace (not inside tokens such as
``api.example.com`` or ``3.5``, not after common abbreviations, not before a lowercase word) and
on line breaks. Clauses are split on semicolons, on a coordinating conjunction or comma that
opens a clause with a new subject (``..., and I work at Acme``, ``..., and she ...``), and on a
comma that opens an origin phrase with its subject elided (``..., originally from Manila``).
Colons and dashes are not clause boundaries: a fact buried after one does not form, which keeps
extraction conservative.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_core.tokenizer import TRAILING_PUNCTUATION

_TERMINATOR = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s|$)|\n")
_ABBREVIATIONS = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "st",
        "sr",
        "jr",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "inc",
        "ltd",
        "co",
        "corp",
        "approx",
        "no",
        "mt",
        "ft",
    }
)


@dataclass(frozen=True, kw_only=True)
class Span:
    """A sentence's character span in its turn (``text[start:end]``)."""

    start: int
    end: int


def sentence_spans(text: str) -> list[Span]:
    """Split ``text`` into sentence spans, whitespace trimmed, empty pieces dropped."""
    spans: list[Span] = []
    start = 0
    for match in _TERMINATOR.finditer(text):
        end = match.end()
        if match.group(0) != "\n" and not _is_boundary(text, match.start(), end):
            continue
        _append_trimmed(spans, text, start, end)
        start = end
    _append_trimmed(spans, text, start, len(text))
    return spans


def _is_boundary(text: str, punct_start: int, end: int) -> bool:
    """True when the terminator at ``text[punct_start:end]`` ends a sentence.

    Looks only at the word just before the terminator and the first character after the
    whitespace that follows it, scanning by index (never slicing the rest of the text), so
    splitting a turn costs time linear in its length.
    """
    if text[punct_start] != ".":
        return True
    word_start = punct_start
    while word_start > 0 and (text[word_start - 1].isalnum() or text[word_start - 1] in "._"):
        word_start -= 1
    word = text[word_start:punct_start]
    if word and word.casefold().rstrip(".") in _ABBREVIATIONS:
        return False
    following = end
    while following < len(text) and text[following] in " \t":
        following += 1
    return not (following < len(text) and text[following].islower())


def _append_trimmed(spans: list[Span], text: str, start: int, end: int) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        spans.append(Span(start=start, end=end))


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences (see :func:`sentence_spans`)."""
    return [text[s.start : s.end] for s in sentence_spans(text)]


_NEW_SUBJECT_AHEAD = (
    r"(?=(?:I|I'm|I’m|I've|I’ve|I'd|I’d|we|We|my|My|our|Our|she|She|he|He|they|They"
    r"|it|It|her|Her|his|His|their|Their|you|You)\b|i(?=['’\s]))"
)
_CLAUSE_BREAK = re.compile(
    r"\s*;\s*"
    r"|,?\s+(?:and|but|so|plus|although|though|while|whereas|because)\s+"
    r"(?:(?:also|honestly|now|then|actually|really|luckily|sadly|frankly)\s+)?"
    + _NEW_SUBJECT_AHEAD
    + r"|,\s+"
    + r"(?=(?:I|I'm|I’m|I've|I’ve|she|he|she's|he's|they|it's|they're)\s)"
    + r"|\s+[-–—]\s+(?=(?:I|I'm|I’m|I've|I’ve|it's|it’s|it|this|that's|that’s|we|she|he"
    + r"|they)\s)"
    + r"|,\s+(?=(?:originally\s+from|born\s+(?:and\s+raised\s+)?in)\s)"
)


def split_clauses(sentence: str) -> list[str]:
    """Split one sentence into clauses on semicolons and first-person coordination."""
    return [part.strip() for part in _CLAUSE_BREAK.split(sentence) if part and part.strip()]


def collapse(text: str) -> str:
    """Collapse runs of whitespace to one space and trim."""
    return " ".join(text.split())


def normalize_key(text: str) -> str:
    """Case-folded, whitespace-collapsed, trailing punctuation stripped: the matching form."""
    return collapse(text).casefold().rstrip(TRAILING_PUNCTUATION)


_ES_ENDINGS = ("s", "sh", "ch", "x", "z", "o")
_IRREGULAR = {"have": "has", "be": "is", "do": "does", "go": "goes", "can": "can"}
_DECONJUGATE_IRREGULAR = {"has": "have", "is": "am", "does": "do", "goes": "go"}


def third_person(verb: str) -> str:
    """Conjugate a base-form English verb for a singular third-person subject."""
    lower = verb.casefold()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    if lower.endswith(_ES_ENDINGS):
        return verb + "es"
    return verb + "s"


def base_form(verb: str) -> str:
    """Undo :func:`third_person` for the regular patterns it produces (``lives`` -> ``live``)."""
    lower = verb.casefold()
    if lower in _DECONJUGATE_IRREGULAR:
        return _DECONJUGATE_IRREGULAR[lower]
    if lower.endswith("ies") and len(lower) > 3:
        return verb[:-3] + "y"
    if lower.endswith(("shes", "ches", "xes", "zes", "sses", "oes")):
        return verb[:-2]
    if lower.endswith("s") and not lower.endswith("ss"):
        return verb[:-1]
    return verb


_VOWELS = frozenset("aeiou")


def gerund(verb: str) -> str:
    """The ``-ing`` form of a base-form English verb (``bike`` -> ``biking``, ``run`` ->
    ``running``), by the regular spelling rules."""
    lower = verb.casefold()
    if lower.endswith("ie"):
        return verb[:-2] + "ying"
    if lower.endswith("e") and not lower.endswith(("ee", "ye", "oe")) and len(lower) > 2:
        return verb[:-1] + "ing"
    if (
        len(lower) <= 4
        and len(lower) >= 3
        and lower[-1] not in _VOWELS
        and lower[-1] not in "wxy"
        and lower[-2] in _VOWELS
        and lower[-3] not in _VOWELS
    ):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def indefinite_article(noun_phrase: str) -> str:
    """``a`` or ``an`` for a noun phrase, by its first letter (a spelling heuristic)."""
    first = noun_phrase.lstrip()[:1].casefold()
    return "an" if first in ("a", "e", "i", "o", "u") else "a"
