"""A statement with nothing in it but resolve or mood forms nothing: ``I'm going to keep
pushing forward!`` is no memory of the user's.

Real chat is full of encouragement and moods said without what they are about (``I'll keep
doing my best``, ``I'm so excited!``, ``We hung out together``). Stored, each is a belief that
answers no question and crowds the ones that do out of a recall. The same words about a thing
still form (``excited about the concert``, ``keep working on my novel``). Invented text,
written before the change; the case clock is Monday 2026-01-05.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    "text",
    [
        "I'm going to keep pushing forward!",
        "I'm so excited!",
        "I'll keep doing my best.",
        "I stayed motivated.",
        "We hung out together.",
    ],
)
def test_resolve_or_mood_alone_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == [], read(text)


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I'm excited about the concert.", "User is excited about the concert."),
        ("I'm going to keep working on my novel.", "User plans to keep working on their novel."),
    ],
)
def test_the_same_words_about_a_thing_form(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)
