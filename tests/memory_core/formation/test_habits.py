"""Habits and jobs are filed under what they are about (blind set 12's readings).

An intransitive habit is about its activity, a habit taken up is a user-model attribute, and
teaching or working at a place named with ``the`` is employment; a verb whose preposition
introduces its object, a momentary start and a dated start keep their old readings.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I swim before work on Tuesdays.", ("user_model_attr", "swimming")),
        ("I meditate before bed.", ("user_model_attr", "meditating")),
        ("I cook at home on weeknights.", ("user_model_attr", "cooking")),
        ("I swim at the Y on Saturdays.", ("user_model_attr", "swimming")),
        ("I've started swimming laps on Saturdays.", ("user_model_attr", "swimming")),
        ("I've started doing pilates.", ("user_model_attr", "pilates")),
        ("I took up the violin.", ("user_model_attr", "violin")),
        ("I teach biology at Riverside High.", ("user_model_attr", "employment")),
        ("I work at the Museum of Flight as a docent.", ("user_model_attr", "employment")),
        # The preposition introduces what the verb is about: the thing stays the subject.
        ("I listen to jazz on Sundays.", ("user_model_attr", "jazz")),
        ("I go to the gym on Mondays.", ("user_model_attr", "gym")),
        ("I'm working on my novel every day.", ("user_model_attr", "novel")),
        # A momentary start is no habit, a dated start stays a dated event, and another
        # person's start is theirs.
        ("I started crying.", ("fact", "crying")),
        ("I started running last spring.", ("fact", "running")),
        ("My mom started knitting.", ("fact", "mother")),
    ],
)
def test_a_habit_or_job_is_filed_under_what_it_is_about(
    read: Reader, text: str, expected: tuple[str, str]
) -> None:
    assert expected in [(kind, subject) for kind, subject, _ in read(text)]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "I work from home on Mondays and Fridays.",
            "User works from home on Mondays and Fridays.",
        ),
        ("I work from home on weekends.", "User works from home on weekends."),
        (
            "I teach yoga at the Cedar Community Center.",
            "User teaches yoga at the Cedar Community Center.",
        ),
    ],
)
def test_the_statement_keeps_the_days_and_the_place(
    read: Reader, text: str, statement: str
) -> None:
    assert statement in [said for _, _, said in read(text)]


def test_teaching_someone_at_home_is_no_job(read: Reader) -> None:
    assert all(subject != "employment" for _, subject, _ in read("I teach my kids at home."))
