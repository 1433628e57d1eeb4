"""The extractor port: what an extractor receives (:class:`Turn`), what it proposes
(:class:`Candidate`) and the :class:`Extractor` protocol every extractor implements."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from memory_core.domain import Authority, BeliefType, Polarity

USER_STATEMENT_CONFIDENCE = 0.9
"""Confidence of a belief formed from what the user said directly."""


@dataclass(frozen=True, kw_only=True)
class Turn:
    """One hazard-screened user turn handed to an extractor."""

    event_id: str
    created_at: datetime
    sentences: tuple[str, ...]
    prompt: str | None = None
    """The question the turn answers: the last question of the message just before it that is
    not a formation source (the other speaker's), hazard-screened, or None. An extractor may
    read a short answer against it (``Pepperoni, of course!`` after ``What's your favorite
    pizza topping?``) but still cites only ``event_id``."""


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """A proposed belief, before resolution against the store.

    Attributes:
        belief_type: What kind of thing the candidate states.
        subject: Normalized lowercase noun phrase the statement is about.
        statement: Third-person statement ending with a period.
        polarity: ``assert``, or ``retract`` for a retraction.
        exclusive: True when the subject holds one value at a time, so a newer statement
            about it supersedes an older one; False for categories that accumulate values.
        retracts: For a retraction, the object whose assertion it withdraws.
        source_event_ids: The user events the candidate comes from (never empty).
        evidence_at: When the newest source event was recorded (the statement's instant).
        authority: Who vouches for it; a direct user statement is ``USER``.
        confidence: Confidence in [0, 1].
    """

    belief_type: BeliefType
    subject: str
    statement: str
    polarity: Polarity = Polarity.ASSERT
    exclusive: bool = True
    retracts: str | None = None
    source_event_ids: tuple[str, ...]
    evidence_at: datetime
    authority: Authority = Authority.USER
    confidence: float = USER_STATEMENT_CONFIDENCE


class Extractor(Protocol):
    """Turns one screened user turn into candidates (the port a provider extractor implements).

    Implementations may only cite ``turn.event_id`` as a source; the service validates every
    candidate against the same hazard and provenance rules whatever extractor produced it.
    """

    @property
    def policy_version(self) -> str:
        """The formation policy version beliefs formed through this extractor record."""
        ...

    def extract(self, turn: Turn) -> Sequence[Candidate]:
        """Return the candidates stated in ``turn``, in the order they were said."""
        ...


__all__ = ["USER_STATEMENT_CONFIDENCE", "Candidate", "Extractor", "Turn"]
