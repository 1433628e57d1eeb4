"""What things do to the user, and how their times of day go (``rules_effects``).

Blind set 18 (``effects_and_routines_cases.json``) was written and scored first: 0 of its 21
expected beliefs formed. These cases pin the refusals found on reading the new rule's output,
with invented text: a cause named only by the talk before it, an adverb, a second clause.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Loud bars give me a headache.", "Loud bars give User a headache."),
        ("The cats also make me laugh every day.", "The cats make User laugh every day."),
        ("Cold mornings make my knees ache.", "Cold mornings make User's knees ache."),
        (
            "Hot yoga makes me feel strong and there's a class I love.",
            "Hot yoga makes User feel strong.",
        ),
        ("Weekends are slow around here.", "User's weekends are slow."),
    ],
)
def test_an_effect_or_a_time_of_day_is_the_users(read: Reader, text: str, statement: str) -> None:
    assert ("user_model_attr", statement) in [(r[0], r[2]) for r in read(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Those moments really make me thankful.",  # named only by what was said before
        "Moments like that make me grateful.",
        "It makes me so happy.",
        "Your jokes make me laugh.",
        "Coffee can give me the jitters.",
        "Spicy food doesn't give me heartburn.",
        "Please make me a list that gives me ideas.",
        "The film made me cry.",  # an event, not a standing effect
        "Weekends aren't busy anymore.",
    ],
)
def test_no_standing_effect_is_stated(read: Reader, text: str) -> None:
    assert [r for r in read(text) if r[0] == "user_model_attr"] == []
