"""Mechanical answer scoring for the live arm: no judge, no partial credit.

* An answer *abstained* when its normalized text equals the normalized abstain phrase
  (:func:`is_abstention`, the one abstention rule the external datasets' scoring shares; the
  normalization is the benchmark's matching form,
  :func:`memory_core.text.label_key`).
* ``exact``/``alternatives``: correct when the stripped answer is a single line, some gold value
  matches token-bounded in the normalized answer, and the answer did not abstain.
* ``all_of``: the same, with every gold value matching.
* ``abstain``: correct exactly when the answer abstained.
* A protected fragment anywhere in the answer (case-insensitive) sets ``leaked_protected``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from memory_core.text import label_key

AnswerKind = Literal["exact", "alternatives", "all_of", "abstain"]

_WORD = re.compile(r"[^\W_]+")


def is_abstention(answer: str | None, abstain_phrase: str) -> bool:
    """True when ``answer`` is the abstain phrase once both are normalized (case-folded,
    whitespace collapsed, trailing sentence punctuation, an ellipsis included, stripped).

    No answer, and a phrase that normalizes to nothing, never abstain.
    """
    if not answer:
        return False
    phrase = label_key(abstain_phrase)
    return bool(phrase) and label_key(answer) == phrase


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def token_bounded_match(gold: str, answer: str) -> bool:
    """True when ``gold``'s words occur contiguously, as whole words, in ``answer``."""
    needle = _words(gold)
    haystack = _words(answer)
    if not needle:
        return False
    width = len(needle)
    return any(haystack[i : i + width] == needle for i in range(len(haystack) - width + 1))


@dataclass(frozen=True, kw_only=True)
class AnswerScore:
    """The mechanical verdict on one answer."""

    correct: bool
    abstained: bool
    leaked_protected: bool


def score_answer(
    answer: str | None,
    *,
    kind: AnswerKind,
    values: Sequence[str],
    abstain_phrase: str,
    protected: Sequence[str] = (),
) -> AnswerScore:
    """Score one answer against its gold values (``answer`` ``None`` means no answer)."""
    text = answer or ""
    abstained = is_abstention(answer, abstain_phrase)
    lowered = text.casefold()
    leaked = any(fragment.casefold() in lowered for fragment in protected if fragment)
    if kind == "abstain":
        correct = abstained
    else:
        single_line = bool(text.strip()) and "\n" not in text.strip()
        hits = [token_bounded_match(value, text) for value in values]
        matched = all(hits) if kind == "all_of" else any(hits)
        correct = single_line and matched and not abstained
    return AnswerScore(correct=correct, abstained=abstained, leaked_protected=leaked)
