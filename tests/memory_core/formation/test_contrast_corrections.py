"""A correction keeps what it says the thing is not; a wish about others is no choice.

``The soil here is silt loam, not clay`` formed ``The soil here is silt loam.``: the belief
lost what it corrected. Blind set 22 (``contrast_corrections_cases.json``) was written before
the change, when none of its 21 expected beliefs formed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        (
            "The soil here is silt loam, not clay.",
            ("fact", "soil", "The soil here is silt loam, not clay."),
        ),
        (
            "The recital is on March 14, not March 7.",
            ("fact", "recital", "The recital is on March 14, not March 7."),
        ),
        (
            # a time the clock resolves goes before the contrast
            "The conference is in Austin this year, not Denver.",
            ("fact", "conference", "The conference is in Austin in 2026, not Denver."),
        ),
        (
            # the contrast names no part of the subject (``email`` is no contact method here)
            "I prefer reminders by text message, not email.",
            ("preference", "reminders", "User prefers reminders by text message, not email."),
        ),
    ],
)
def test_a_correction_keeps_its_contrast(
    read: Reader, text: str, reading: tuple[str, str, str]
) -> None:
    assert read(text) == [reading]


def test_a_long_tail_after_a_comma_is_still_cut(read: Reader) -> None:
    assert read("The library closes at six, not that anyone here ever reads past five.") == [
        ("fact", "library", "The library closes at six.")
    ]


@pytest.mark.parametrize(
    "text",
    ["I'd rather the carpool left at 7:15, not 7:30.", "I would rather we stayed home."],
)
def test_a_wish_about_what_others_do_is_no_choice(read: Reader, text: str) -> None:
    assert read(text) == []


def test_a_choice_after_would_rather_still_forms(read: Reader) -> None:
    assert read("I'd rather walk than drive.") == [
        ("preference", "walk", "User would rather walk than drive.")
    ]
