"""Clocks and identifier factories."""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest

from memory_core import Belief, Principal, UsageError
from memory_core.clock import FixedClock, SystemClock, require_aware
from memory_core.ids import SHORT_ID_LENGTH, RandomIdFactory, SequentialIdFactory, short_id


class TestFixedClock:
    def test_starts_where_told_and_only_moves_on_advance(self, t0: datetime) -> None:
        clock = FixedClock(t0)
        assert clock.now() == t0
        assert clock.now() == t0
        assert clock.advance(90) == t0 + timedelta(seconds=90)
        assert clock.now() == t0 + timedelta(seconds=90)
        assert clock.advance(0.5) == t0 + timedelta(seconds=90.5)
        assert clock.advance(0) == clock.now()

    def test_now_is_utc_even_when_started_in_another_zone(self) -> None:
        start = datetime(2026, 3, 2, 11, 0, tzinfo=timezone(timedelta(hours=2)))
        now = FixedClock(start).now()
        assert now == start
        assert now.tzinfo is UTC
        assert now.hour == 9

    def test_refuses_a_naive_start(self) -> None:
        with pytest.raises(UsageError, match="timezone-aware"):
            FixedClock(datetime(2026, 3, 2, 9, 0))

    @pytest.mark.parametrize("seconds", [-1, -0.001, math.nan, math.inf, -math.inf])
    def test_refuses_to_move_backwards_or_by_a_non_finite_amount(
        self, t0: datetime, seconds: float
    ) -> None:
        clock = FixedClock(t0)
        clock.advance(10)
        with pytest.raises(UsageError, match="advance"):
            clock.advance(seconds)
        assert clock.now() == t0 + timedelta(seconds=10)


def test_system_clock_is_aware_utc() -> None:
    now = SystemClock().now()
    assert now.tzinfo is not None
    assert now.utcoffset() == timedelta(0)


def test_require_aware_names_the_field() -> None:
    with pytest.raises(UsageError, match="evidence_before"):
        require_aware(datetime(2026, 1, 1), "evidence_before")


class TestSequentialIdFactory:
    def test_is_deterministic_across_instances(self) -> None:
        first, second = SequentialIdFactory(), SequentialIdFactory()
        assert [first.new_id() for _ in range(50)] == [second.new_id() for _ in range(50)]

    def test_ids_are_lowercase_uuid_strings_and_unique(self) -> None:
        factory = SequentialIdFactory()
        ids = [factory.new_id() for _ in range(2_000)]
        assert len(set(ids)) == len(ids)
        for identifier in ids:
            assert str(uuid.UUID(identifier)) == identifier

    def test_short_ids_are_distinct_over_the_first_100k_ids(self) -> None:
        factory = SequentialIdFactory()
        shorts = {short_id(factory.new_id()) for _ in range(100_000)}
        assert len(shorts) == 100_000
        assert all(len(s) == SHORT_ID_LENGTH for s in shorts)

    def test_short_ids_are_derived_not_a_zero_padded_counter(self) -> None:
        factory = SequentialIdFactory()
        shorts = [short_id(factory.new_id()) for _ in range(3)]
        assert shorts[0] != "00000001"
        assert not all(s.startswith("0000") for s in shorts)

    def test_namespace_changes_the_ids(self) -> None:
        assert SequentialIdFactory("a").new_id() != SequentialIdFactory("b").new_id()


def test_random_ids_are_unique_uuid4() -> None:
    factory = RandomIdFactory()
    ids = [factory.new_id() for _ in range(5_000)]
    assert len(set(ids)) == len(ids)
    assert all(uuid.UUID(i).version == 4 for i in ids)


def test_short_id_is_the_first_eight_hex_digits() -> None:
    assert short_id("8f21a0c3-1111-2222-3333-444455556666") == "8f21a0c3"
    # Dashes do not count as digits: a short leading group continues into the next one.
    assert short_id("8f21-a0c3-1111") == "8f21a0c3"


def test_belief_short_id_matches_short_id(
    make_belief: Callable[..., Belief], alice: Principal
) -> None:
    belief = make_belief(alice, id="8f21a0c3-1111-2222-3333-444455556666")
    assert belief.short_id == "8f21a0c3"
