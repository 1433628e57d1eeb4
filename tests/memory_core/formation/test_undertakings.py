"""Something the user is in the middle of undertaking is an event of theirs, not who they are.

``I'm renovating the bathroom`` and ``I'm hosting a baby shower`` are things happening in the
user's life (``fact``, which holds events and plans); ``I'm learning Portuguese`` and ``I'm
training for a triathlon`` describe the user over time (``user_model_attr``). Invented text,
written before the change, when 2 of its 7 cases held (the two attributes); after it, 5 of 7.
Renovating and remodeling stay attributes: blind set 14, written earlier, types ``User is
renovating the attic.`` so, and a floor is never lowered to admit a change.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]
_RENOVATING = "blind set 14 types 'User is renovating the attic.' as an attribute"


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        pytest.param(
            "I'm renovating the bathroom.",
            "User is renovating the bathroom.",
            marks=pytest.mark.xfail(strict=True, reason=_RENOVATING),
        ),
        (
            "I'm hosting a baby shower for my sister.",
            "User is hosting a baby shower for their sister.",
        ),
        ("I'm organizing a charity run.", "User is organizing a charity run."),
        ("I'm launching my podcast.", "User is launching their podcast."),
        pytest.param(
            "I'm remodeling the basement.",
            "User is remodeling the basement.",
            marks=pytest.mark.xfail(strict=True, reason=_RENOVATING),
        ),
    ],
)
def test_an_undertaking_in_progress_is_a_fact(read: Reader, text: str, statement: str) -> None:
    assert ("fact", statement) in [(r[0], r[2]) for r in read(text)], read(text)


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I'm learning Portuguese.", "User is learning Portuguese."),
        ("I'm training for a triathlon.", "User is training for a triathlon."),
    ],
)
def test_what_describes_the_user_stays_an_attribute(
    read: Reader, text: str, statement: str
) -> None:
    assert ("user_model_attr", statement) in [(r[0], r[2]) for r in read(text)], read(text)


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        (
            "Starting to plan a spring trip.",
            "spring trip",
            "User is starting to plan a spring trip.",
        ),
        ("I started planning my wedding.", "wedding", "User started planning their wedding."),
        (
            "I've started organizing the garage sale.",
            "garage sale",
            "User has started organizing the garage sale.",
        ),
    ],
)
def test_starting_an_undertaking_is_a_fact_about_it(
    read: Reader, text: str, subject: str, statement: str
) -> None:
    """Starting to plan or organize something begins a project, not a habit of planning."""
    assert read(text) == [("fact", subject, statement)]


def test_a_habit_started_stays_an_attribute_about_the_activity(read: Reader) -> None:
    assert read("I've started baking bread on Sundays.") == [
        ("user_model_attr", "baking", "User has started baking bread on Sundays.")
    ]
