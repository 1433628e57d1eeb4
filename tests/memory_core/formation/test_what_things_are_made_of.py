"""What a thing is made of is a fact of it: ``The deck is cedar.``

A definite thing's value after ``is`` forms only when it names something (an article, a
number, a name, a place or a time), so that ``The deck is gorgeous`` stays a passing remark.
A material is a bare noun that names something too (``cedar``, ``white oak``, ``quartz``).
Invented text, written before the change, when 4 of its 6 cases held (the two remarks, and two
materials after a participle, which read as a passive: ``are reclaimed pine``). After it all six
hold; the one expectation changed after the run is the subject of ``The new countertop``, which
the definite-thing rule writes ``countertop``, as it drops ``new`` from every such head.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        ("The deck is cedar.", "deck", "The deck is cedar."),
        ("The floors are reclaimed pine.", "floors", "The floors are reclaimed pine."),
        ("The new countertop is marble.", "countertop", "The new countertop is marble."),
        ("The frame is brushed steel.", "frame", "The frame is brushed steel."),
    ],
)
def test_a_material_is_a_fact_of_the_thing(
    read: Reader, text: str, subject: str, statement: str
) -> None:
    assert read(text) == [("fact", subject, statement)]


@pytest.mark.parametrize("text", ["The deck is gorgeous.", "The floors are so shiny."])
def test_an_evaluation_stays_a_remark(read: Reader, text: str) -> None:
    assert read(text) == []
