"""Statements that read wrong, and what they read now.

The cases were written before the change, with invented text, and none of them read as
expected: ``I'm`` inside an object became ``they'm``, a negated modal took a third-person
``s`` (``User couldn'ts swim``), an elided infinitive (``I love to.``) formed ``User loves to.``,
a time phrase taken out before a comma left a space before it, a gerund subject opening with
``Just`` kept the word (and its ``my``), and an object cut at its word limit ended mid-phrase
(``... places they want to.``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            # written before the change: cut at its word limit, it ended ``they are a part.``
            "I asked my family and friends to join the virtual support group I'm a part of.",
            "User asked their family and friends to join the virtual support group.",
        ),
        (
            "And here's one of the cafes I'm thinking about.",
            ("fact", "cafes", "User shared one of the cafes they are thinking about."),
        ),
        ("I couldn't swim or join the race.", "User couldn't swim or join the race."),
        ("I couldn't sleep last night.", "User couldn't sleep on 2026-01-04."),
        (
            "Hiking with my brother was so calming!",
            ("preference", "hiking", "User found hiking with their brother so calming."),
        ),
        (
            "Just hiking with my brother was so calming!",
            ("preference", "hiking", "User found hiking with their brother so calming."),
        ),
        (
            "I'm trying to get my head around the ferry timetables for some islands I want to see.",
            "User is trying to get their head around the ferry timetables.",
        ),
    ],
)
def test_the_statement_reads_as_english(
    read: Reader, text: str, expected: tuple[str, str, str] | str
) -> None:
    readings = read(text)
    if isinstance(expected, str):
        assert expected in [statement for _, _, statement in readings]
    else:
        assert expected in readings


@pytest.mark.parametrize(
    "text",
    [
        "I couldn't have finished it without them.",
        "Yeah, I love to.",
        "Oh, I want to!",
        "Just being around them was so calming!",
    ],
)
def test_a_clause_whose_object_is_elided_or_unnamed_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("We both love hiking.", "User loves hiking."),
        ("We both went to the concert.", "User went to the concert."),
        ("We each bought a ticket.", "User bought a ticket."),
    ],
)
def test_we_both_and_we_each_read_as_we(read: Reader, text: str, statement: str) -> None:
    # Written before the change: each formed ``User boths ...`` or ``User eaches ...``.
    assert statement in [found for _, _, found in read(text)]


def test_a_time_phrase_taken_out_leaves_no_space_before_a_comma(read: Reader) -> None:
    readings = read("We went fishing with the twins a few days ago, caught trout and perch.")
    assert readings
    assert all(" ," not in statement for _, _, statement in readings)
