"""A second past act after an adverb (``and somehow forgot the lighter``) is its own clause.

``I packed a tent and a stove, and somehow forgot the lighter`` formed one statement ending
``..., and somehow forgot the lighter.``: the second act was not seen as one because an
adverb stood before its verb. Invented text; written before the change, when 1 of its 3
cases held (the guard).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        (
            "I packed three sandwiches and a thermos, and somehow forgot the napkins.",
            "User packed three sandwiches and a thermos.",
            "forgot the napkins.",
        ),
        (
            "I cleaned the gutters and accidentally broke a window.",
            "User cleaned the gutters.",
            "broke a window.",
        ),
    ],
)
def test_each_act_is_its_own_statement(read: Reader, text: str, first: str, second: str) -> None:
    formed = [r[2] for r in read(text)]
    assert first in formed, formed
    assert any(s.startswith("User ") and s.endswith(second) and "and" not in s for s in formed)


def test_an_act_that_refers_back_keeps_the_clause_whole(read: Reader) -> None:
    formed = [r[2] for r in read("I tried the new ramen place and honestly loved it.")]
    assert not any(s.endswith("loved it.") and "ramen" not in s for s in formed), formed
