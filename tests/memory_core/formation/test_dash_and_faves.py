"""Three losses of what the user said, seen in formation's output on real conversation.

``This quilt is really special to me - a gift from my aunt in Oslo.`` kept only the first half:
the dash's elaboration of the thing (``a gift from ...``) is what it is. ``faves`` was no
favorite (``This trilogy is one of my faves.`` formed nothing), and ``all`` was stripped as an
adverb from ``all kinds of`` (``User faced kinds of hurdles.``). Invented text; written before
the change, when 1 of its first 9 tests passed (the hyphen case came with review).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statements"),
    [
        (
            "This quilt is really special to me - a gift from my aunt in Oslo.",
            [
                "The quilt is really special to User.",
                "The quilt is a gift from User's aunt in Oslo.",
            ],
        ),
        (
            "My guitar means a lot to me - a present from my dad.",
            ["User's guitar means a lot to User.", "User's guitar is a present from User's dad."],
        ),
    ],
)
def test_a_dash_that_says_what_the_thing_is_forms_its_identity(
    read: Reader, text: str, statements: list[str]
) -> None:
    assert [r[2] for r in read(text)] == statements


def test_a_name_in_apposition_after_a_comma_is_kept(read: Reader) -> None:
    # ``my home country, Sweden``: the comma opens no new clause; the name is the point.
    text = "This scarf is special to me - a gift from my aunt in my hometown, Bergen."
    assert "The scarf is a gift from User's aunt in User's hometown, Bergen." in [
        r[2] for r in read(text)
    ]
    assert [r[2] for r in read("I moved to my dream city, Lisbon.")] == [
        "User moved to their dream city, Lisbon."
    ]


def test_a_hyphenated_word_stays_in_the_dash_elaboration(read: Reader) -> None:
    text = "This mug is special to me - a gift from my sister-in-law."
    assert "The mug is a gift from User's sister-in-law." in [r[2] for r in read(text)]


def test_a_dash_that_evaluates_adds_nothing(read: Reader) -> None:
    assert [r[2] for r in read("This mug is special to me - a real treasure.")] == [
        "The mug is special to User."
    ]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("This trilogy is one of my faves.", "The trilogy is one of User's favorites."),
        ("Pho is my fave.", "Pho is User's favorite."),
    ],
)
def test_a_fave_is_a_favorite(read: Reader, text: str, statement: str) -> None:
    assert [r[2] for r in read(text)] == [statement]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I've made all kinds of desserts.", "User has made all kinds of desserts."),
        ("I faced all sorts of hurdles.", "User faced all sorts of hurdles."),
    ],
)
def test_all_kinds_of_keeps_its_all(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)]
