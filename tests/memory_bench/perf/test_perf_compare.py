"""``memory_bench.perf_compare``: interleaving order and the ratio arithmetic, on a fake clock."""

from __future__ import annotations

import pytest

from memory_bench.perf_compare import Spread, compare, interleave
from memory_core.errors import UsageError


class FakeClock:
    """A clock that each call advances by the cost of the side that is running."""

    def __init__(self) -> None:
        self.now = 0.0
        self.order: list[str] = []

    def __call__(self) -> float:
        return self.now

    def side(self, name: str, seconds: float) -> object:
        def call(index: int) -> None:
            self.order.append(f"{name}{index}")
            self.now += seconds

        return call


def test_sides_alternate_and_every_call_gets_its_index() -> None:
    clock = FakeClock()
    interleave(
        clock.side("s", 0.002),  # type: ignore[arg-type]
        clock.side("p", 0.001),  # type: ignore[arg-type]
        rounds=2,
        per_round=2,
        timer=clock,
    )
    assert clock.order == ["s0", "p0", "p1", "s1", "s2", "p2", "p3", "s3"]


def test_the_ratio_is_subject_over_peer_per_round() -> None:
    clock = FakeClock()
    figure = compare(
        "f",
        "memory",
        ("slow", clock.side("s", 0.006)),  # type: ignore[arg-type]
        ("fast", clock.side("p", 0.002)),  # type: ignore[arg-type]
        rounds=3,
        per_round=2,
        target=2.0,
        timer=clock,
    )
    assert figure.subject_ms == Spread(median=6.0, min=6.0, max=6.0)
    assert figure.peer_ms == Spread(median=2.0, min=2.0, max=2.0)
    assert figure.ratio == Spread(median=3.0, min=3.0, max=3.0)
    assert figure.meets is False


def test_rounds_below_one_are_refused() -> None:
    with pytest.raises(UsageError, match="rounds"):
        interleave(lambda _: None, lambda _: None, rounds=0, per_round=1)
