"""A past act written without its ``I``, on a thing a demonstrative names in the clause.

``Just skyped with a fan I met in CA`` formed ``User skyped with a fan they met in CA.``, but
``Just skyped with that fan I met in CA`` formed nothing: the subject is supplied only before
``my``/``a``/``the`` ... . ``that fan I met`` names its referent in the clause; ``about that.``
names none. Invented text; written before the change, when 2 of its 4 cases held (the two
that must form nothing).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "Just skyped with that Harry Potter fan I met in CA.",
            "User skyped with that Harry Potter fan they met in CA.",
        ),
        (
            "Finally talked to those neighbors with the vegetable garden.",
            "User talked to those neighbors with the vegetable garden.",
        ),
    ],
)
def test_the_act_forms(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)


@pytest.mark.parametrize("text", ["Just talked about that.", "Finally heard from that one."])
def test_a_bare_demonstrative_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == []
