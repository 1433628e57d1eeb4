"""A clause after ``, and`` that opens with a person's name is read as its own clause.

``My partner is Sam. Restaurant picks need to work for both of us, and Sam is coming for the
whole trip`` formed only the relationship: the clause about Sam was never split from the one
before, so the ``us`` there refused it. Invented text; written before the change, when 1 of its
3 cases held (the guard).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "My brother is Ilan. The movers come at noon, and Ilan is driving the truck.",
            "Ilan is driving the truck.",
        ),
        (
            "My wife is Dana. The kids helped us paint the nursery, and Dana picked the colors.",
            "Dana picked the colors.",
        ),
    ],
)
def test_the_named_clause_is_read(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)


def test_a_place_is_no_one(read: Reader) -> None:
    formed = [r[2] for r in read("I visited Rome, and Florence was even better.")]
    assert not any(statement.startswith("Florence") for statement in formed), formed
