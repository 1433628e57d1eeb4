"""What other people ask of the user, what they have, and when things happen.

Four shapes of real chat that formed nothing:

* a request someone made of the user (``Ingrid asked me to bake the cake``) is their act, not
  reported speech: what they asked stays unsaid only when it is a clause (``asked me if``);
* an act followed by a remark about it (``... and won't stop posting about it``) keeps the
  act; the remark names nothing of its own;
* a condition a person has (``Tove is allergic to bee stings``) is a fact of theirs even when
  the message did not introduce them;
* a thing's schedule said with a bare noun (``Swim practice is on Monday evenings``,
  ``Deploys go out every Thursday``) is a fact of the thing; an evaluation of it is not.

Invented text, written before the change, when 7 of its 19 cases held (the ones that form
nothing); the case clock is Monday 2026-01-05.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        (
            "Ingrid asked me to bake the cake for her party.",
            "ingrid",
            "Ingrid asked User to bake the cake for her party.",
        ),
        (
            "My coach is Dana. She told me to take a rest day.",
            "dana",
            "Dana told User to take a rest day.",
        ),
        (
            "Priya just adopted a kitten and won't stop posting about it.",
            "priya",
            "Priya adopted a kitten.",
        ),
        (
            "Jonas finished his first marathon and can't stop talking about it.",
            "jonas",
            "Jonas finished his first marathon.",
        ),
        ("Tove is allergic to bee stings.", "tove", "Tove is allergic to bee stings."),
        ("Idris is lactose intolerant.", "idris", "Idris is lactose intolerant."),
        ("Wren is diabetic, so dessert is tricky.", "wren", "Wren is diabetic."),
        pytest.param(
            "Swim practice is on Monday evenings.",
            "swim practice",
            "Swim practice is on Monday evenings.",
            marks=pytest.mark.xfail(
                strict=True,
                reason="a slot said with 'is on' is not read: corpus v1's elliptical 'Lessons are "
                "on Thursday afternoons' and its correction 'Piano lessons are on Tuesday "
                "afternoons' would be two subjects, leaving the stale day live",
            ),
        ),
        ("Deploys go out every Thursday.", "deploys", "Deploys go out every Thursday."),
        ("Backups run nightly at three.", "backups", "Backups run nightly at three."),
        (
            "Garbage pickup happens every other Tuesday.",
            "garbage pickup",
            "Garbage pickup happens every other Tuesday.",
        ),
    ],
)
def test_others_requests_conditions_and_schedules_form(
    read: Reader, text: str, subject: str, statement: str
) -> None:
    assert ("fact", subject, statement) in read(text), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ingrid asked me if I could come.",
        "He told me that he quit.",
        "Ingrid asked me to.",
        "Is Tove allergic to bees?",
        "Tove isn't allergic to anything.",
        "Group chats get chaotic fast.",
        "Parking downtown is a nightmare.",
        "Meetings on Fridays are the worst.",
    ],
)
def test_a_question_a_report_or_an_evaluation_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == [], read(text)
