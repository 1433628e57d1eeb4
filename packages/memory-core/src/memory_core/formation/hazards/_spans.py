"""Where the secrets of a text are, so a recorded message can keep the turn with them masked.

:func:`secret_spans` runs the same secret rules the screen runs (:func:`._screen.sentence_hits`
on each sentence's matching skeleton) and maps each hit back to the characters of the text the
user sent: the rule's value group ``v`` when it has one (``password is <v>``), else the whole
match; a whole-turn family (a private key block) covers the whole turn. A span never takes a
sentence's closing punctuation, so masking keeps the sentence boundaries the screen splits on.
:func:`mask_secrets` replaces each span with its family's :func:`redaction_mask`, which the
catalogue refuses under that family, so formation refuses a masked sentence as it refused the
original and counts it alike.

What crosses turns (a secret split over two turns, found by :class:`SessionScreen`'s state)
is not a span of one text and is not masked here. Linear: one skeleton, one pass per rule hit.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from memory_core.formation._text import sentence_spans
from memory_core.formation.hazards._normalize import Skeleton, skeleton
from memory_core.formation.hazards._rules import HazardKind, redaction_mask
from memory_core.formation.hazards._screen import _WHOLE_TURN_FAMILIES, sentence_hits

_CLOSING = ".!?,;:\"')]”’"


@dataclass(frozen=True, kw_only=True)
class SecretSpan:
    """Where one secret is in a text (character offsets), and its rule family; no text."""

    start: int
    end: int
    family: str


def secret_spans(text: str) -> tuple[SecretSpan, ...]:
    """The character spans of ``text`` holding a secret, sorted and non-overlapping (where
    hits overlap, the family is the first rule's in catalogue order, as the screen reports)."""
    form = skeleton(text)
    found: list[tuple[int, int, int, str]] = []
    for sentence in sentence_spans(text):
        base = form.offset(sentence.start)
        piece = form.text[base : form.offset(sentence.end)]
        for item in sentence_hits(piece):
            if item.kind is not HazardKind.SECRET:
                continue
            if item.family in _WHOLE_TURN_FAMILIES:
                return (SecretSpan(start=0, end=len(text), family=item.family),) if text else ()
            for match in item.pattern.finditer(piece):
                if match.end() <= match.start() or (
                    item.check is not None and not item.check(match)
                ):
                    continue
                group = "v" if "v" in item.pattern.groupindex and match.group("v") else 0
                start = _source(form, base + match.start(group), len(text), end=False)
                end = _source(form, base + match.end(group), len(text), end=True)
                start, end = max(start, sentence.start), min(end, sentence.end)
                while end > start and text[end - 1] in _CLOSING:
                    end -= 1
                if end > start:
                    found.append((start, end, len(found), item.family))
    return _merged(found)


def mask_secrets(text: str) -> tuple[str, int]:
    """``text`` with every secret span replaced by its :func:`redaction_mask`, and how many."""
    spans = secret_spans(text)
    if not spans:
        return text, 0
    pieces: list[str] = []
    cursor = 0
    for span in spans:
        pieces.append(text[cursor : span.start])
        pieces.append(redaction_mask(span.family))
        cursor = span.end
    pieces.append(text[cursor:])
    return "".join(pieces), len(spans)


def _source(form: Skeleton, index: int, size: int, *, end: bool) -> int:
    """The text offset (of a text of ``size`` characters) of skeleton offset ``index``,
    rounded outward within a folded character."""
    if not form.starts:
        return index
    piece = bisect_right(form.targets, index) - 1
    if piece < 0:
        return index
    start, target = form.starts[piece], form.targets[piece]
    last = piece + 1 >= len(form.starts)
    source_size = (size if last else form.starts[piece + 1]) - start
    target_size = (len(form.text) if last else form.targets[piece + 1]) - target
    if source_size == target_size:
        return start + (index - target)
    return start + source_size if end and index > target else start


def _merged(found: list[tuple[int, int, int, str]]) -> tuple[SecretSpan, ...]:
    merged: list[tuple[int, int, int, str]] = []
    for start, end, rank, family in sorted(found):
        if merged and start <= merged[-1][1]:
            held = merged[-1]
            first = held if held[2] <= rank else (start, end, rank, family)
            merged[-1] = (held[0], max(held[1], end), first[2], first[3])
        else:
            merged.append((start, end, rank, family))
    return tuple(SecretSpan(start=s, end=e, family=f) for s, e, _, f in merged)


__all__ = ["SecretSpan", "mask_secrets", "secret_spans"]
