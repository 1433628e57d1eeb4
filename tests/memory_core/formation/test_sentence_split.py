"""The sentence splitter: the linear scan agrees with the reference reading over generated text.

The reference below is the splitter's original formulation (a regular expression searched over
everything before the terminator, and a slice of everything after it), which is quadratic in
the length of a turn (its ``$`` also matched before a trailing line break, so ``Dr\n.`` read
``Dr`` as the word before the period; ``\\Z`` here, as intended); the shipped splitter looks
only at the neighbouring characters. Over generated text built from the pieces that decide a
boundary (abbreviations, dotted tokens, lowercase continuations, quotes, line breaks) the two
must split identically.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core.formation._text import _ABBREVIATIONS, _TERMINATOR, Span, sentence_spans

_REFERENCE_LAST_WORD = re.compile(r"([\w.]+)\Z")


def _reference_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    start = 0
    for match in _TERMINATOR.finditer(text):
        end = match.end()
        if match.group(0) != "\n" and not _reference_boundary(text, match.start(), end):
            continue
        _trimmed(spans, text, start, end)
        start = end
    _trimmed(spans, text, start, len(text))
    return spans


def _reference_boundary(text: str, punct_start: int, end: int) -> bool:
    if text[punct_start:end].startswith("."):
        word = _REFERENCE_LAST_WORD.search(text[:punct_start])
        if word is not None and word.group(1).casefold().rstrip(".") in _ABBREVIATIONS:
            return False
        if text[end:].lstrip(" \t")[:1].islower():
            return False
    return True


def _trimmed(spans: list[Span], text: str, start: int, end: int) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        spans.append(Span(start=start, end=end))


_PIECES = st.sampled_from(
    [
        "I live in Oslo",
        "Dr",
        "e.g",
        "etc",
        "api.example.com",
        "3.5",
        "see",
        "Mt",
        "ok",
        "Étienne",
        "naïve",
        "x_y",
        ".",
        "!",
        "?",
        "...",
        '."',
        "?!",
        ".)",
        " ",
        "  ",
        "\t",
        "\n",
        "",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_PIECES, _PIECES, _PIECES), max_size=25))
def test_the_linear_splitter_matches_the_reference_over_generated_text(
    parts: list[tuple[str, str, str]],
) -> None:
    text = " ".join("".join(triple) for triple in parts)
    assert sentence_spans(text) == _reference_spans(text)


def test_abbreviations_and_lowercase_continuations_do_not_split() -> None:
    text = "I saw Dr. Okafor today. We met at api.example.com. it was fine! Then I left."
    assert [text[s.start : s.end] for s in sentence_spans(text)] == [
        "I saw Dr. Okafor today.",
        "We met at api.example.com. it was fine!",
        "Then I left.",
    ]
