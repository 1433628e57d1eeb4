"""Sentence and clause splitting shared by the hazard screen and the deterministic extractor.

Folding, the matching key and English word forms are :mod:`memory_core.text`'s.

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
    r"(?=(?:I|I'm|I’m|I've|I’ve|I'd|I’d|we|We|she|She|he|He|they|They|it|It|you|You)\b"
    r"|i(?=['’\s])"
    # A possessive opens a clause only when something follows its noun (``and my dog came``);
    # ``and my grandma.`` ends a list.
    r"|(?:my|My|our|Our|her|Her|his|His|their|Their)\s+[\w'’-]+(?:\s+[\w'’-]+)?"
    r"\s+(?!(?:and|or)\b)[a-z])"
)
_VERB_AHEAD = (
    r"(?:is|are|was|were|has|have|had|go|goes|went|got|gets|came|come|left|start|starts"
    r"|started|wait|waits|run|runs|ran|[a-z]{3,}ed)\b"
)
"""A verb that makes the words before it a clause's subject (``the kids helped``)."""
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
    # ``..., and Sam is coming for the whole trip``: a clause of its own, about someone named.
    + r"|,\s+(?:and|but|so)\s+(?=(?-i:[A-Z][a-z]+)\s+(?:is|was|has|had|[a-z]{2,}ed)\s)"
    # ``..., so the party moved``, ``..., and nobody else could``: a definite or an indefinite
    # subject with its verb; a list's last item (``, and the camp stove``) has none.
    + r"|,\s+(?:and|but|so)\s+(?=(?:(?:the|these|those)\s+[a-z]+(?:\s+[a-z]+)?\s+"
    + _VERB_AHEAD
    + r"|(?:nobody|no\s+one|everyone|everybody|someone|somebody)\s))"
    # A comma splice whose clause has its own possessive subject and verb
    # (``Had a wild week, my car broke down``); a list (``my aunt and my grandma``) has no verb.
    + r"|,\s+(?=(?:my|My|our|Our)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|was|are|were|has|had|just"
    + r"|finally|got|broke|came|went|made|took|left|[a-z]{2,}ed)\b)"
)


_TIME_ONLY = re.compile(
    r"^(?:(?:last|this|next|past)\s+\w+|yesterday|today|tonight|earlier|recently|lately"
    r"|(?:on|in|since|after|before)\s+(?!(?:I|we|my|our|he|she|they|you)\b)[\w\s]{1,24}"
    r"|(?:a|an|one|two|three|\d+)\s+(?:days?"
    r"|weeks?|months?|years?)\s+ago)$",
    re.IGNORECASE,
)
"""A part that is only a leading time phrase (``Last week``): it belongs to the next clause."""


def split_clauses(sentence: str) -> list[str]:
    """Split one sentence into clauses on semicolons and first-person coordination; a leading
    time phrase stays with the clause after it (``Last week, my grandma passed away``)."""
    parts = [part.strip() for part in _CLAUSE_BREAK.split(sentence) if part and part.strip()]
    out: list[str] = []
    for part in parts:
        if out and _TIME_ONLY.match(out[-1].rstrip(",")):
            out[-1] = f"{out[-1].rstrip(',')}, {part}"
        else:
            out.append(part)
    return out
