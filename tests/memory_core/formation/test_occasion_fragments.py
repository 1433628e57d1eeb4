"""An occasion said as a fragment with a time ahead is the user's: ``Dentist appointment on
Friday.`` is ``User has a dentist appointment on 2026-01-09.``

People drop the ``I have a`` in chat (``Job interview tomorrow, wish me luck!``). A fragment
names the user's occasion when it is an occasion noun with a time ahead of the message; one in
the past (``Great party last night``) says nothing of whose it was, and a fragment with no time
(``Long meeting.``) is a remark. Invented text, written before the change, when 4 of the 9 cases
of its first two tests held (the four that form nothing), and 8 of 9 after it; ``wish me luck``
read as a wish kept the ninth from forming until it was read as the formula it is. The case
clock is Monday 2026-01-05.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Dentist appointment on Friday.", "User has a dentist appointment on 2026-01-09."),
        ("Job interview tomorrow, wish me luck!", "User has a job interview on 2026-01-06."),
        ("Piano recital on Saturday and I'm nervous.", "User has a piano recital on 2026-01-10."),
        ("Big exam next week.", "User has a big exam in the week of 2026-01-12."),
        (
            "An early flight on Thursday to Lisbon.",
            "User has an early flight to Lisbon on 2026-01-08.",
        ),
    ],
)
def test_an_occasion_ahead_said_as_a_fragment_is_the_users(
    read: Reader, text: str, statement: str
) -> None:
    assert ("fact", statement) in [(r[0], r[2]) for r in read(text)], read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Great party last night.",
        "Long meeting.",
        "Dinner at eight?",
        "Wedding on Saturday, not mine.",
        # Found in review, after the change: someone else's occasion, a verdict.
        "Mom's surgery tomorrow.",
        "Great meeting this morning.",
    ],
)
def test_a_past_or_timeless_fragment_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == []


def test_a_relations_occasion_is_theirs_not_the_users(read: Reader) -> None:
    assert [r[2] for r in read("Mom has surgery tomorrow.")] == [
        "User's mother has surgery on 2026-01-06."
    ]


def test_a_name_before_the_occasion_keeps_its_capitals(read: Reader) -> None:
    assert [r[2] for r in read("Taylor Swift concert next month!")] == [
        "User has a Taylor Swift concert in February 2026."
    ]


def test_wish_me_luck_closes_a_statement_and_a_wish_is_still_none(read: Reader) -> None:
    assert [r[2] for r in read("I have my driving test on Friday, wish me luck!")] == [
        "User has their driving test on 2026-01-09."
    ]
    assert read("I wish I had a driving test on Friday.") == []
