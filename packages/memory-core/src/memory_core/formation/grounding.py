"""Grounding a ``memory.remember`` statement in what the user said, by meaning.

The model writes the statement; only the user's own words may support it. A statement is
grounded when a trusted user turn of the principal in that session *entails* it with the same
polarity:

1. **Same reading.** The deterministic extractor reads the user's kept sentences (a leading
   "please remember that" is dropped, since it only asks to keep what follows); the statement
   is grounded when one reading has its type, subject, statement and polarity.
2. **Same words, same mood.** Otherwise a single declarative sentence of the user must hold
   every content word of the statement (in base form), with the same negation, and be neither
   a question, a request, a conditional or hypothetical, a quotation, reported speech, nor
   the past ("used to").

Turns are read latest first, and a later turn that reads differently about the statement's
subject ("I no longer live in Oslo.") ends the search: an earlier turn it overrides grounds
nothing. So "I am not an admin." never grounds "User is an admin.", "Is the user the CEO?" never
grounds "The user is the CEO.", and "I hate Java." never grounds "User loves Java.".
A grounded statement still carries the model's authority, never the user's
(:data:`REMEMBER_AUTHORITY`), at no more confidence than the user's own reading.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from memory_core.domain import Authority, Polarity
from memory_core.formation.extractor import (
    Candidate,
    DeterministicExtractor,
    Extractor,
    Turn,
    sentence_forms_nothing,
)
from memory_core.formation.resolver import GROUNDING_FILLER, candidate_key, content_words
from memory_core.text import collapse, undo_third_person
from memory_core.tokenizer import tokenize

REMEMBER_AUTHORITY = Authority.AFFIRMED
"""What a remembered statement is stored at: the model's conclusion, affirmed by the user's
words, ranked below what the user stated directly (``USER``)."""

_READER = DeterministicExtractor()

_REMEMBER_LEAD = re.compile(
    r"^\s*(?:(?:please|pls|kindly|and|also|oh)\s*,?\s+)*(?:remember|note|keep\s+in\s+mind"
    r"|don'?t\s+forget|do\s+not\s+forget|make\s+a\s+note|save|store)\s*(?:that|this)?\s*[,:-]?\s+",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"\b(?:not|never|no|none|nothing|nobody|neither|nor|without|cannot|no\s+longer)\b|n't\b",
    re.IGNORECASE,
)
_NOT_ASSERTED = re.compile(
    r"\?|\b(?:if|unless|whether|would|could|might|may|maybe|perhaps|probably|possibly"
    r"|suppose|supposing|imagine|hypothetically|wonder|wondering|considering|thinking\s+(?:of"
    r"|about)|plan(?:ning)?\s+to|want\s+to|wants\s+to|hope|hoping|wish|should|used\s+to"
    r"|formerly|previously|once\s+(?:lived|worked|was)|pretend|says|said|told|thinks|claims"
    r"|according\s+to|believes|heard)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, kw_only=True)
class UserEvidence:
    """One trusted user turn of the session: the sentences the hazard screen kept."""

    event_id: str
    created_at: datetime
    sentences: tuple[str, ...]


def unwrap(sentence: str) -> str:
    """``sentence`` without a leading request to remember it ("Please remember that ...")."""
    return _REMEMBER_LEAD.sub("", sentence, count=1)


def _base(words: frozenset[str]) -> frozenset[str]:
    return frozenset(undo_third_person(w) for w in words) | words


def _negated(text: str) -> bool:
    return _NEGATION.search(text) is not None


def asserts(sentence: str) -> bool:
    """True when ``sentence`` asserts something: not a question, request, conditional,
    hypothetical, quotation, reported speech or past habit."""
    return not sentence_forms_nothing(sentence) and _NOT_ASSERTED.search(sentence) is None


def _words(text: str) -> frozenset[str]:
    return content_words(text, filler=GROUNDING_FILLER) - {"user", "users", "i", "my"}


def lexically_entails(sentence: str, statement: str) -> bool:
    """True when one user ``sentence`` holds every content word of ``statement`` (base forms),
    with the same negation, and asserts it (see :func:`asserts`)."""
    return _holds(sentence, _words(statement), negated=_negated(statement))


def _holds(sentence: str, needed: frozenset[str], *, negated: bool) -> bool:
    """:func:`lexically_entails` for a statement already read: its content words
    ``needed`` and whether it is ``negated``."""
    if not needed or not asserts(sentence):
        return False
    if _negated(sentence) != negated:
        return False
    have = _base(frozenset(tokenize(sentence)))
    return all(word in have or undo_third_person(word) in have for word in needed)


def entailing_event(
    candidate: Candidate,
    statement: str,
    evidence: Sequence[UserEvidence],
    extractor: Extractor | None = None,
) -> tuple[UserEvidence, Candidate | None] | None:
    """The user turn (latest first) that entails ``candidate``, and the user's own reading
    of it when the extractor read one; ``None`` when no turn does.

    The user's turns are read by the deterministic extractor unless another is passed: a
    provider extractor would spend a model call per turn of the session on every remember.
    """
    reader = extractor or _READER
    key = candidate_key(candidate)
    needed, negated = _words(statement), _negated(statement)
    for item in reversed(evidence):
        sentences = tuple(s for s in (collapse(unwrap(x)) for x in item.sentences) if s)
        if not sentences:
            continue
        turn = Turn(event_id=item.event_id, created_at=item.created_at, sentences=sentences)
        readings = reader.extract(turn)
        for reading in readings:
            if candidate_key(reading) == key and reading.polarity is candidate.polarity:
                return item, reading
        if candidate.polarity is Polarity.ASSERT or negated:
            for sentence in sentences:
                if _holds(sentence, needed, negated=negated):
                    return item, None
        if any(candidate_key(r)[:2] == key[:2] for r in readings):
            return None  # a later turn says something else about this subject: it wins
    return None


def as_remembered(
    candidate: Candidate, grounding: UserEvidence, reading: Candidate | None
) -> Candidate:
    """The candidate as ``remember`` stores it: citing the turn that grounds it, at the model's
    authority, never more confident than the user's own reading."""
    confidence = (
        candidate.confidence if reading is None else min(candidate.confidence, reading.confidence)
    )
    return replace(
        candidate,
        source_event_ids=(grounding.event_id,),
        evidence_at=grounding.created_at,
        authority=REMEMBER_AUTHORITY,
        confidence=confidence,
    )


__all__ = [
    "REMEMBER_AUTHORITY",
    "UserEvidence",
    "as_remembered",
    "asserts",
    "entailing_event",
    "lexically_entails",
    "unwrap",
]
