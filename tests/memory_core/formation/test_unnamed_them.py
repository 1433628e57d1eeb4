"""A ``them`` that names no one, and a statement torn after a relative word.

``I'm lucky to have them`` formed ``User is lucky to have them.``: a belief about nobody the
message named (the user is ``they`` in a statement, so the belief even reads as about the
user). A ``me`` written ``them`` (``people who support me``) is the user and stays.
``While hiking, I met this friendly man, Tomas, who had been through a lot, yet ...``
formed ``User met this friendly man, Tomas, who had been.``: a relative clause cut to its
verb is dropped with its relative word. Invented text; written before the change, when 3 of
its 7 cases held (the three that stay). Then ``to them`` formed nothing too; on the LoCoMo
dev split that lost a belief that answered its question (``... sharing their skills and
knowledge with them``), so a ``with``/``for``/``to them`` that ends a statement is dropped
instead, and two cases say so.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    "text",
    ["I'm so lucky to have them.", "I really like holding them."],
)
def test_nothing_forms_about_an_unnamed_them(read: Reader, text: str) -> None:
    assert read(text) == [], read(text)


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "I'm grateful for friends who support me.",
            "User is grateful for friends who support them.",
        ),
        ("I adopted two kittens and named them Miso and Nori.", None),
        (
            "While hiking yesterday, I met this friendly man, Tomas, who had been through a "
            "lot, yet stayed calm and kind.",
            "User met a friendly man, Tomas.",
        ),
        ("I tried to apologize to them.", "User tried to apologize."),
        ("I love sharing my recipes with them.", "User loves sharing their recipes."),
        ("I joined a choir that meets on Sundays.", "User joined a choir that meets on Sundays."),
    ],
)
def test_what_names_its_referent_stays(read: Reader, text: str, statement: str | None) -> None:
    statements = [r[2] for r in read(text)]
    if statement is None:
        assert not [s for s in statements if s.endswith(" them.")], statements
    else:
        assert statement in statements, statements
