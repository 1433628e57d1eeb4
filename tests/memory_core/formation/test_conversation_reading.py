"""Conversational formation (formation@7): events, plans, feelings, family and anchored time."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import BeliefType
from memory_core.formation import DeterministicExtractor, Turn, screen_turn
from memory_core.formation.deterministic.conversation import EVENT_CONFIDENCE
from memory_core.formation.deterministic.rules_plans import PLAN_CONFIDENCE
from memory_core.text import resolve_time, take_time

MONDAY = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
F = BeliefType.FACT
U = BeliefType.USER_MODEL_ATTR


def extract(text: str, at: datetime = MONDAY) -> list[tuple[BeliefType, str, str]]:
    screened = screen_turn(text)
    turn = Turn(event_id="e1", created_at=at, sentences=screened.sentences)
    return [(c.belief_type, c.subject, c.statement) for c in DeterministicExtractor().extract(turn)]


@pytest.mark.parametrize(
    ("clause", "past", "rest", "resolved"),
    [
        ("I went to a support group yesterday", True, "I went to a support group", "on 2026-01-04"),
        ("Yesterday, I went hiking", True, "I went hiking", "on 2026-01-04"),
        ("I booked a flight last week", True, "I booked a flight", "in the week of 2025-12-29"),
        ("I went camping last weekend", True, "I went camping", "on the weekend of 2026-01-03"),
        ("I ran a race on Saturday", True, "I ran a race", "on 2026-01-03"),
        ("I have a concert on Friday", False, "I have a concert", "on 2026-01-09"),
        ("I started in May", True, "I started", "in May 2025"),
        ("I am moving in May", False, "I am moving", "in May 2026"),
        ("I am adopting a cat next month", False, "I am adopting a cat", "in February 2026"),
        ("Two days ago I got a promotion", True, "I got a promotion", "on 2026-01-03"),
        ("Last year I visited Portugal", True, "I visited Portugal", "in 2025"),
        ("Tonight I am cooking", False, "I am cooking", "on 2026-01-05"),
    ],
)
def test_relative_time_resolves_against_the_session_clock(
    clause: str, past: bool, rest: str, resolved: str
) -> None:
    remaining, when = take_time(clause)
    assert remaining == rest
    assert when is not None
    assert resolve_time(when, MONDAY, past=past) == resolved


@pytest.mark.parametrize(
    "clause",
    [
        "I am planting garlic for next year",
        "This may be fine",
        "I saw it recently",
        "I go bouldering every Thursday evening",
        "I go bouldering on Monday evenings now",
    ],
)
def test_a_phrase_that_is_not_when_it_happened_stays_in_the_clause(clause: str) -> None:
    assert take_time(clause) == (clause, None)


@settings(max_examples=200, deadline=None)
@given(
    st.dates(min_value=date(2000, 1, 1), max_value=date(2090, 12, 31)),
    st.sampled_from(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]),
    st.booleans(),
)
def test_a_weekday_resolves_to_that_weekday_within_the_week_around_the_clock(
    day: date, weekday: str, past: bool
) -> None:
    at = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    _, when = take_time(f"I went out on {weekday.capitalize()}")
    assert when is not None
    resolved = date.fromisoformat(resolve_time(when, at, past=past).removeprefix("on "))
    assert resolved.strftime("%A").casefold() == weekday
    distance = (resolved - day).days
    assert (-7 <= distance <= -1) if past else (1 <= distance <= 7)
    _, yesterday = take_time("I went out yesterday")
    assert yesterday is not None
    assert resolve_time(yesterday, at, past=True) == f"on {(day - timedelta(days=1)).isoformat()}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I booked a flight ticket to Boston last week!",
            [
                (
                    F,
                    "flight ticket",
                    "User booked a flight ticket to Boston in the week of 2025-12-29.",
                )
            ],
        ),
        (
            "Yesterday I went to an LGBTQ support group.",
            [(F, "lgbtq support group", "User went to an LGBTQ support group on 2026-01-04.")],
        ),
        ("My mom was interested in art.", [(F, "mother", "User's mother was interested in art.")]),
        ("I run three times a week.", [(U, "running", "User runs three times a week.")]),
        (
            "We booked a caterer called Fig & Thistle.",
            [(F, "caterer", "User booked a caterer called Fig & Thistle.")],
        ),
        ("My budget is $1,800 a month.", [(F, "budget", "User's budget is $1,800 a month.")]),
        (
            "I love hiking, painting and reading.",
            [
                (BeliefType.PREFERENCE, "hiking", "User loves hiking."),
                (BeliefType.PREFERENCE, "painting", "User loves painting."),
                (BeliefType.PREFERENCE, "reading", "User loves reading."),
            ],
        ),
        (
            'I finally finished reading "The Overstory".',
            [(F, "overstory", 'User finished reading "The Overstory".')],
        ),
    ],
)
def test_conversational_statements_form_typed_third_person_beliefs(
    text: str, expected: list[tuple[BeliefType, str, str]]
) -> None:
    assert extract(text) == expected


def test_plans_form_with_lower_confidence_and_events_with_their_own() -> None:
    turn = Turn(
        event_id="e1",
        created_at=MONDAY,
        sentences=("I'm planning to adopt a second cat next month.", "I ran a 5K on Saturday."),
    )
    plan, event = DeterministicExtractor().extract(turn)
    assert plan.statement == "User plans to adopt a second cat in February 2026."
    assert plan.confidence == PLAN_CONFIDENCE
    assert (event.statement, event.confidence) == ("User ran a 5K on 2026-01-03.", EVENT_CONFIDENCE)
    assert not plan.exclusive and not event.exclusive


@pytest.mark.parametrize(
    "text",
    [
        "I love your turtles, they are so cute!",
        "I went there last summer.",
        "It was amazing, I loved it so much.",
        "I might go to Denver next spring.",
        "I would love to visit Iceland someday.",
        "My brother lives in Chicago.",
        "My coworker just moved to Phoenix.",
        "I need time to chew on it.",
        "I have a question about pricing.",
        "I never went to Rome.",
    ],
)
def test_listener_pronouns_modals_and_other_peoples_present_form_nothing(text: str) -> None:
    assert extract(text) == []


def test_two_events_never_supersede_but_a_habit_and_a_corrected_trip_do(
    make_harness: Any,
) -> None:
    harness = make_harness()
    harness.open("s1")
    harness.say("s1", "I went to a pottery class on Saturday.")
    harness.say("s1", "I went to a pottery class yesterday.")
    harness.say("s1", "I run three times a week.")
    harness.say("s1", "I'm planning a trip to Kyoto.")
    harness.service.run("manual", "general", "s1")
    harness.open("s2")
    harness.say("s2", "I'm taking a break from running until my knee heals.")
    harness.say("s2", "Scratch that. We're going to Osaka instead.")
    harness.service.run("manual", "general", "s2")
    live = harness.statements()
    assert "User went to a pottery class on 2026-02-28." in live
    assert "User went to a pottery class on 2026-03-01." in live
    assert "User runs three times a week." not in live
    assert "User is taking a break from running until their knee heals." in live
    assert "User is planning a trip to Kyoto." not in live
    assert "User is going to Osaka instead." in live


def test_a_short_answer_is_read_against_the_question_before_it(make_harness: Any) -> None:
    from memory_core.domain import Trust

    harness = make_harness()
    harness.open("s1")
    other = {"event_type": "assistant.message.created", "trust": Trust.SYSTEM, "actor": "assistant"}
    harness.say("s1", "Ha, same! What's your favorite pizza topping?", **other)
    answer = harness.say("s1", "Pepperoni, of course!")
    harness.say("s1", "Nice. What's your favorite band?", **other)
    harness.say("s1", "I do not know, maybe Radiohead?")
    harness.say("s1", "Radiohead.")
    harness.service.run("manual", "general", "s1")
    (belief,) = harness.live()
    assert belief.statement == "User's favorite pizza topping is Pepperoni."
    assert (belief.belief_type, belief.subject) == (BeliefType.PREFERENCE, "favorite pizza topping")
    assert belief.source_event_ids == (answer.event_id,)
