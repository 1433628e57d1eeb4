"""A name given after its bearer was introduced, and a thing among the user's favorites.

Blind set 17 (``names_and_favorites_cases.json``) was written and scored first: 4 of its 25
expected beliefs formed. These cases pin whose bearer a name goes to, with invented text.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statements"),
    [
        ("I got a puppy last week, her name is Luna.", ["User's puppy is Luna."]),
        ("I have a sister and her name is Ana.", ["User's sister is Ana."]),
        ("A friend gave me a kitten. Its name is Biscuit.", ["User's kitten is Biscuit."]),
        (
            "We adopted two dogs; their names are Rex and Juno.",
            ["User's dog is Rex.", "User's dog is Juno."],
        ),
    ],
)
def test_the_name_goes_to_the_users_one_introduced_before_it(
    read: Reader, text: str, statements: list[str]
) -> None:
    formed = [r[2] for r in read(text) if r[0] == "relationship"]
    assert all(statement in formed for statement in statements), formed


@pytest.mark.parametrize(
    "text",
    [
        "My brother has a dog, his name is Rex.",  # the brother's dog
        "My neighbor got a puppy, her name is Luna.",
        "Her name is Luna.",  # no one introduced
        "I got a puppy. Is her name Luna?",
        "I want a puppy, and her name will be Luna.",
    ],
)
def test_a_name_for_someone_elses_or_no_ones_forms_no_relationship(read: Reader, text: str) -> None:
    named = [r for r in read(text) if r[0] == "relationship" and ("Luna" in r[2] or "Rex" in r[2])]
    assert named == []


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Jazz has always been a favorite of mine.", "Jazz is a favorite of User's."),
        ("Board games are a big favorite of mine.", "Board games are a favorite of User's."),
        ("Chess is one of my favorites too.", "Chess is one of User's favorites."),
        ("My favorite snack right now is dried mango.", "User's favorite snack is dried mango."),
    ],
)
def test_a_favorite_reads_as_the_users_preference(read: Reader, text: str, statement: str) -> None:
    assert [r[2] for r in read(text) if r[0] == "preference"] == [statement]
