"""A pronoun the clause does not name forms nothing; an ``it`` that anticipates its clause does.

Written before each change, with invented text. On the extractor before the first, all 10
turns about an unnamed ``it`` formed a belief (``User plans to check it out.``); before the
second, the 6 turns about an ``it`` in a phrasal verb or a lone ``this``/``that`` (``make it
happen``, ``dreaming of this``) did. The readings whose pronoun the clause names or
anticipates (``hates it when``, ``a vase like that``, ``those in need``) formed throughout.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    "text",
    [
        "Thanks for the tip! I'll definitely check it out.",
        "It's been a hard year, but I'm gonna make it happen.",
        "I'm going to keep it up.",
        "I love how it brings everyone together.",
        "I'm sure it made a difference.",
        "I'll add it to my reading list.",
        "I really care about it.",
        "I'm so stoked about it!",
        "I needed to do it for my family.",
        "I'm going to bake it for my sister this weekend.",
        "I've been dreaming of this for a while.",
        "I'm so stoked about this!",
        "I decided to include this at the start.",
        "I'm determined to make it happen.",
        "I'll keep that in mind next time.",
        "I'm excited to check it out.",
    ],
)
def test_a_clause_about_an_unnamed_pronoun_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I hate it when the bus is late.", "User hates it when the bus is late."),
        (
            "I feel it's important to call my parents every week.",
            "User feels it's important to call their parents every week.",
        ),
        ("I tried sushi and loved it.", "User tried sushi and loved it."),
        (
            "I bought a kayak and took it to the lake.",
            "User bought a kayak and took it to the lake.",
        ),
        ("I love it when my kids laugh.", "User loves it when their kids laugh."),
        (
            "I made a vase like that in my pottery class.",
            "User made a vase like that in their pottery class.",
        ),
        (
            "Helping those in need is important to me.",
            "Helping those in need is important to User.",
        ),
    ],
)
def test_an_it_the_clause_names_or_anticipates_still_forms(
    read: Reader, text: str, statement: str
) -> None:
    assert statement in [found for _, _, found in read(text)]
