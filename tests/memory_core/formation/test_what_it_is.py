"""What the thing the user just named is (``rules_identity``).

Blind set 19 (``what_it_is_cases.json``) was written and scored first: 19 of its 42 expected
beliefs formed (the events before each ``It's a ...``). These cases pin the remarks that are
no identity and the user's own thing, with invented text.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


def test_it_is_the_thing_the_clause_before_named(read: Reader) -> None:
    assert ("fact", "bike", "The new bike is a Trek hybrid.") in read(
        "I bought a new bike. It's a Trek hybrid."
    )
    assert ("fact", "grandma's lasagna", "User's grandma's lasagna is a recipe from Naples.") in (
        read("I made my grandma's lasagna. It's a recipe from Naples.")
    )


@pytest.mark.parametrize(
    "text",
    [
        "I made my newest recipe. It was a winner with my family.",  # a remark, not what it is
        "I bought a new bike. It's a shame it rained.",
        "I took a pottery class. It was a great day.",
        "I lost my wallet. It's a brown leather one.",  # after a loss ``it`` is the event
        "I bought a new bike. It's not a Trek.",
        "It's a Trek hybrid.",  # nothing named before it
    ],
)
def test_a_remark_or_an_unnamed_it_is_no_identity(read: Reader, text: str) -> None:
    assert [r for r in read(text) if r[2].startswith(("The ", "User's "))] == []
