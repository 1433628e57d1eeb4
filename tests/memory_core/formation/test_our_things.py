"""``Our`` things, and a judged thing of the user's in mid-statement.

``My garden is beautiful`` formed ``User's garden is beautiful.`` but ``Our garden is
beautiful`` formed nothing, though ``Our`` includes the user as it does for ``Our plumber is
Dario``. ``My job is stressful`` formed ``User finds User's job stressful.``: the user's thing
inside a statement about the user is ``their``. Invented text; written before the change, when
2 of its 8 cases held (the two that must form nothing).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Our garden is beautiful this year.", "User's garden is beautiful in 2026."),
        ("Our team bond is awesome.", "User's team bond is awesome."),
        ("Our budget is $3,000 a month.", "User's budget is $3,000 a month."),
        ("Our house is on a hill.", "User's house is on a hill."),
        ("My job is stressful.", "User finds their job stressful."),
        ("My commute was exhausting.", "User found their commute exhausting."),
    ],
)
def test_the_thing_forms(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)


@pytest.mark.parametrize("text", ["Our point is that the plan works.", "Our bad, honestly."])
def test_a_framing_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == [], read(text)
