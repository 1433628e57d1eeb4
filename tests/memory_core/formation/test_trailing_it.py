"""An ``it`` that ends the statement and names nothing the clause said.

``I put a lot of work into it`` formed ``User put a lot of work into it.``, ``I'm a huge fan of
it`` formed ``User is a huge fan of it.``: a belief about nothing in particular, which no later
question can use (the issue's rule: no belief with an unresolved ``it`` unless the clause names
the referent). ``loved it`` after ``that book`` and a caption's ``a mug with a cat on it`` name
theirs. Invented text; written before the change, when 2 of its 5 cases held (the two that name
their referent).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    "text",
    [
        "I put a lot of work into it.",
        "I'm a huge fan of it.",
        "I chatted with my family about it.",
    ],
)
def test_nothing_forms_about_an_unnamed_it(read: Reader, text: str) -> None:
    assert read(text) == [], read(text)


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I read that book and loved it.", "User read that book and loved it."),
        (
            "[shared an image: a photo of a mug with a cat on it]",
            "User shared a photo of a mug with a cat on it.",
        ),
    ],
)
def test_an_it_the_clause_names_stays(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)
