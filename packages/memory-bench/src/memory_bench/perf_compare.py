"""Side-by-side timing: one figure of the perf lane is a subject measured against its peer.

``interleave`` runs the two in alternation (subject then peer, then peer then subject, ...) so
that drift in machine load falls on both alike; a round of ``per_round`` calls of each gives
one mean per side and one ratio (subject / peer). A ``Comparison`` reports the median of the
round means and of the round ratios, each with its minimum and maximum over the rounds.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from memory_core.errors import UsageError

Call = Callable[[int], object]
"""One timed call; it receives the call's index (0, 1, ...), e.g. to pick a question."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Spread(_Model):
    """The median of some values with their minimum and maximum."""

    median: float
    min: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float], digits: int = 3) -> Spread:
        """The spread of ``values`` (at least one), rounded to ``digits``."""
        if not values:
            raise UsageError("a spread needs at least one value")
        return cls(
            median=round(statistics.median(values), digits),
            min=round(min(values), digits),
            max=round(max(values), digits),
        )


class Comparison(_Model):
    """One figure of the lane: a subject timed against its peer, and their ratio.

    Attributes:
        figure: What is compared (e.g. ``recall 100k / 1k``).
        tier: ``memory``, ``postgres`` or ``cli``.
        subject: What the numerator times.
        peer: What the denominator times.
        subject_ms: Per-call milliseconds of the subject (spread of the round means).
        peer_ms: The same for the peer.
        ratio: ``subject / peer`` per round (spread over the rounds).
        rounds: Rounds run.
        per_round: Calls of each side per round.
        target: The ratio the issue asks for at most, when it names one.
        meets: ``ratio.median <= target`` (``None`` without a target).
    """

    figure: str
    tier: str
    subject: str
    peer: str
    subject_ms: Spread
    peer_ms: Spread
    ratio: Spread
    rounds: int = Field(ge=1)
    per_round: int = Field(ge=1)
    target: float | None = None
    meets: bool | None = None


def interleave(
    subject: Call,
    peer: Call,
    *,
    rounds: int,
    per_round: int,
    timer: Callable[[], float] = time.perf_counter,
) -> tuple[list[float], list[float]]:
    """Per-round mean milliseconds of ``subject`` and of ``peer``, run in alternation.

    Call ``i`` of round ``r`` gets index ``r * per_round + i`` on both sides; which side runs
    first alternates from call to call.

    Raises:
        UsageError: ``rounds`` or ``per_round`` is below 1.
    """
    if rounds < 1 or per_round < 1:
        raise UsageError(f"rounds and per_round must be >= 1, got {rounds} and {per_round}")

    def timed(call: Call, index: int) -> float:
        started = timer()
        call(index)
        return (timer() - started) * 1000.0

    subject_means: list[float] = []
    peer_means: list[float] = []
    for round_index in range(rounds):
        subject_total = peer_total = 0.0
        for offset in range(per_round):
            index = round_index * per_round + offset
            if index % 2 == 0:
                subject_total += timed(subject, index)
                peer_total += timed(peer, index)
            else:
                peer_total += timed(peer, index)
                subject_total += timed(subject, index)
        subject_means.append(subject_total / per_round)
        peer_means.append(peer_total / per_round)
    return subject_means, peer_means


def compare(
    figure: str,
    tier: str,
    subject: tuple[str, Call],
    peer: tuple[str, Call],
    *,
    rounds: int,
    per_round: int,
    target: float | None = None,
    timer: Callable[[], float] = time.perf_counter,
) -> Comparison:
    """Run ``subject`` against ``peer`` (each a label and a call) and report the figure."""
    subject_means, peer_means = interleave(
        subject[1], peer[1], rounds=rounds, per_round=per_round, timer=timer
    )
    ratios = [s / max(p, 1e-9) for s, p in zip(subject_means, peer_means, strict=True)]
    ratio = Spread.of(ratios, digits=2)
    return Comparison(
        figure=figure,
        tier=tier,
        subject=subject[0],
        peer=peer[0],
        subject_ms=Spread.of(subject_means),
        peer_ms=Spread.of(peer_means),
        ratio=ratio,
        rounds=rounds,
        per_round=per_round,
        target=target,
        meets=None if target is None else ratio.median <= target,
    )


__all__ = ["Call", "Comparison", "Spread", "compare", "interleave"]
