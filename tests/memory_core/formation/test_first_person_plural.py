"""No ``we``, ``us`` or ``our`` inside a statement about the user.

``Me and my brother had a blast on our camping trip`` formed ``User and their brother had a
blast on our camping trip.``: rendered into a model's context, ``our`` reads as the model's
and the user's. In a statement about the user the plural is the user's with others:
``their``, ``they``, ``them``. A team's decision keeps its own reading (``The team decided
...``). Invented text; written before the change, when 1 of its 5 cases held (the team's).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "Me and my brother had a blast on our camping trip.",
            "User and their brother had a blast on their camping trip.",
        ),
        (
            "I'm passionate about improving the parks in our town.",
            "User is passionate about improving the parks in their town.",
        ),
        (
            "I had a quiet weekend after we went camping.",
            "User had a quiet weekend after they went camping.",
        ),
        ("I love how music lets us slow down.", "User loves how music lets them slow down."),
        (
            "We decided to use Postgres for the database.",
            "The team decided to use Postgres for the database.",
        ),
    ],
)
def test_the_plural_is_the_users_with_others(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)


def test_a_quoted_title_keeps_its_words(read: Reader) -> None:
    statements = [r[2] for r in read('I finally watched "Our Planet" with my dad.')]
    assert any('"Our Planet"' in s for s in statements), statements
