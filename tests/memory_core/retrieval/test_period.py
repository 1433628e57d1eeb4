"""The period a turn names, and the in-turn vote for the beliefs of then."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from memory_core import Principal
from memory_core.retrieval._period import Period, named_period, relative_period

ALICE = Principal("tenant-1", "alice")


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("What did Nate make on 25 February, 2022?", date(2022, 2, 24), date(2022, 2, 26)),
        ("What happened on the 3rd of June 2023?", date(2023, 6, 2), date(2023, 6, 4)),
        ("Where was I on May 7, 2023?", date(2023, 5, 6), date(2023, 5, 8)),
        ("What did I share in August 2022?", date(2022, 8, 1), date(2022, 8, 31)),
        ("What did I plan for December 2023?", date(2023, 12, 1), date(2023, 12, 31)),
        ("Which trips did I take in 2021?", date(2021, 1, 1), date(2021, 12, 31)),
        ("What did I bake on 30 February, 2024?", date(2024, 2, 1), date(2024, 2, 29)),
    ],
)
def test_a_turn_names_a_day_month_or_year_with_its_year(text: str, first: date, last: date) -> None:
    assert named_period(text) == Period(first, last)


@pytest.mark.parametrize(
    "text",
    ["What did I bake last week?", "When did I visit Rome?", "I have 2023 photos.", "In May?"],
)
def test_a_turn_without_a_dated_period_names_none(text: str) -> None:
    assert named_period(text) is None


def test_a_belief_is_of_a_period_when_said_then_or_dated_then(make_world: Any) -> None:
    world = make_world()
    march = Period(date(2026, 3, 1), date(2026, 3, 31))
    said_then = world.put(ALICE, "User baked a lemon cake.")
    dated_then = world.put(ALICE, "User went camping on 2026-03-20.")
    world.clock.advance(86_400 * 40)
    said_later = world.put(ALICE, "User baked a plum cake.")
    dated_later = world.put(ALICE, "User flew to Oslo on 2026-04-02.")
    not_a_day = world.put(ALICE, "User noted 2026-03-40 somewhere.")
    assert march.holds(said_then)
    assert march.holds(dated_then)
    assert not march.holds(said_later)
    assert not march.holds(dated_later)
    assert not march.holds(not_a_day)


def test_the_belief_of_the_named_period_ranks_first(world: Any) -> None:
    then = world.put(ALICE, "User baked a lemon cake.", subject="lemon cake")
    world.clock.advance(86_400 * 60)
    later = world.put(ALICE, "User baked a plum cake.", subject="plum cake")
    undated = world.recall(ALICE, "What cake did I bake?")
    assert undated.trace.returned[0] == later.id
    dated = world.recall(ALICE, "What cake did I bake in March 2026?")
    assert dated.trace.returned[0] == then.id
    assert dated.trace.candidate_counts["period"] == 1


def test_a_belief_said_on_the_named_day_is_recalled_without_a_matching_word(world: Any) -> None:
    fence = world.put(ALICE, "User painted the fence.", subject="fence")
    world.clock.advance(86_400 * 10)
    world.put(ALICE, "User did the laundry.", subject="laundry")
    result = world.recall(ALICE, "What did I get up to on 2 March, 2026?")
    assert result.trace.returned == (fence.id,)


def test_a_year_only_votes_for_what_the_turn_matched(world: Any) -> None:
    world.put(ALICE, "User painted the fence.", subject="fence")
    result = world.recall(ALICE, "What did I get up to in 2026?")
    assert result.trace.returned == ()


MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("What did I do yesterday?", date(2026, 3, 1), date(2026, 3, 1)),
        ("What did I do last week?", date(2026, 2, 23), date(2026, 3, 1)),
        ("What did I cook last weekend?", date(2026, 2, 28), date(2026, 3, 1)),
        ("What did I buy last month?", date(2026, 2, 1), date(2026, 2, 28)),
        ("What did I do on Saturday?", date(2026, 2, 28), date(2026, 2, 28)),
        ("What am I doing on Saturday?", date(2026, 3, 7), date(2026, 3, 7)),
        ("What have I got planned next week?", date(2026, 3, 9), date(2026, 3, 15)),
        ("What did I read last summer?", date(2025, 6, 1), date(2025, 8, 31)),
        ("What did I bake in May?", date(2025, 5, 1), date(2025, 5, 31)),
    ],
)
def test_a_relative_period_is_read_at_the_recall_instant(
    text: str, first: date, last: date
) -> None:
    assert relative_period(text, MONDAY) == Period(first, last)


@pytest.mark.parametrize(
    "text", ["What did I do a few weeks ago?", "What did I do?", "What do I do every Monday?"]
)
def test_a_vague_or_habitual_time_names_no_period(text: str) -> None:
    assert relative_period(text, MONDAY) is None


def test_the_belief_of_yesterday_ranks_first(world: Any) -> None:
    earlier = world.put(ALICE, "User painted a lighthouse.", subject="lighthouse")
    world.clock.advance(86_400 * 6)
    yesterday = world.put(ALICE, "User painted a barn.", subject="barn")
    world.clock.advance(86_400)
    world.put(ALICE, "User painted a boat.", subject="boat")
    assert world.recall(ALICE, "What did I paint?").trace.returned[0] != yesterday.id
    assert world.recall(ALICE, "What did I paint yesterday?").trace.returned[0] == yesterday.id
    last_week = world.recall(ALICE, "What did I paint last week?").trace.returned
    assert set(last_week[:2]) == {earlier.id, yesterday.id}
