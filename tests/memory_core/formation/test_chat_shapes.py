"""Chat shapes that formed nothing: a trailing ``so who knows if ...``, a go-to, a list of
hobbies said first, and a plan said without its ``I'm``.

``I'm allergic to cats too, so who knows if I'll ever have a pet`` lost the allergy to the
conditional in a clause of its own; ``Swimming is my go-to for stress relief`` and
``Swimming and biking are my main hobbies`` say what the user likes, thing first;
``Gonna finish my degree`` is ``I'm gonna`` with the ``I'm`` left out. Invented text, written
before the change; the case clock is Monday 2026-01-05.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "belief_type", "statement"),
    [
        (
            "I'm allergic to cats too, so who knows if I'll ever have a pet.",
            "user_model_attr",
            "User is allergic to cats.",
        ),
        (
            "I started a pottery class, but I wonder whether I'll keep it up.",
            "fact",
            "User started a pottery class.",
        ),
        (
            "Swimming is my go-to for stress relief.",
            "preference",
            "Swimming is User's go-to for stress relief.",
        ),
        (
            "Swimming and biking are my main hobbies.",
            "preference",
            "Swimming and biking are User's main hobbies.",
        ),
        pytest.param(
            "Gonna finish my degree.",
            "fact",
            "User plans to finish their degree.",
            marks=pytest.mark.xfail(
                strict=True,
                reason="written and held back: on the LoCoMo dev split the 'Gonna ...' plans are "
                "mostly resolutions ('keep pushing and working hard') and cost 3 probes at k=5",
            ),
        ),
    ],
)
def test_the_chat_shape_forms(read: Reader, text: str, belief_type: str, statement: str) -> None:
    assert (belief_type, statement) in [(r[0], r[2]) for r in read(text)], read(text)


@pytest.mark.parametrize(
    "text",
    [
        "If it rains, I'll stay home.",
        "Who knows if I'll ever have a pet?",
        "Gonna be honest, that was rough.",
        "Is swimming your go-to?",
    ],
)
def test_a_condition_a_question_or_a_remark_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == [], read(text)
