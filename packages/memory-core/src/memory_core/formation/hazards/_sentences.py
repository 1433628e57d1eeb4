"""Linear sentence spans with the same boundaries as ``formation._text.sentence_spans``.

The shared splitter looks back at the whole text before each terminator; this one looks at a
bounded window, which gives the same spans (an abbreviation is a short word) in linear time,
so screening a megabyte costs milliseconds.
"""

from __future__ import annotations

import re

from memory_core.formation._text import Span

_TERMINATOR = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s|$)|\n")
_ABBREVIATIONS = frozenset(
    [
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
    ]
)
_LAST_WORD = re.compile(r"([\w.]+)$")
_WINDOW = 64


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
    if text[punct_start] == ".":
        word = _LAST_WORD.search(text, max(0, punct_start - _WINDOW), punct_start)
        if word is not None and word.group(1).casefold().rstrip(".") in _ABBREVIATIONS:
            return False
        following = end
        while following < len(text) and text[following] in " \t":
            following += 1
        if following < len(text) and text[following].islower():
            return False
    return True


def _append_trimmed(spans: list[Span], text: str, start: int, end: int) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append(Span(start=start, end=end))


__all__ = ["sentence_spans"]
