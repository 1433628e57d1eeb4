"""A named thing that keeps doing something to the user is a fact of the user's life.

``Ubuntu keeps nagging me about snaps`` and ``Duolingo reminds me every night`` name an app
and what it does to the user, the way ``Netflix raised my subscription price`` already forms
``Netflix raised User's subscription price.`` A capitalised first word that names no one
(``Nobody tells me anything``, ``Bright screens give me headaches``, read by the effects rule)
forms no such fact. Invented text, written before the change, when 3 of its 7 cases held (the
three that name no one).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Slack keeps pinging me during lunch.", "Slack keeps pinging User during lunch."),
        ("Duolingo reminds me every night.", "Duolingo reminds User every night."),
        (
            "Excel corrupts my spreadsheets constantly.",
            "Excel corrupts User's spreadsheets constantly.",
        ),
        ("Spotify keeps recommending me sad songs.", "Spotify keeps recommending User sad songs."),
    ],
)
def test_what_a_named_thing_does_to_the_user_forms(read: Reader, text: str, statement: str) -> None:
    assert ("fact", statement) in [(r[0], r[2]) for r in read(text)], read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Nobody tells me anything.",
        "Everyone asks me for directions.",
        "Sometimes work stresses me out.",
    ],
)
def test_no_one_named_forms_no_fact(read: Reader, text: str) -> None:
    assert [r for r in read(text) if r[0] == "fact"] == [], read(text)
