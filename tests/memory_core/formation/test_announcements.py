"""News the user announces (``Just wanted to let you know that I ...``) reads as the news.

Written before the change, with invented text: on the extractor before it, none of the
announcements formed a belief (the ``you`` of ``let you know`` made the sentence the
listener's). The news reads exactly as it would alone; one about the listener, a modal or an
announcement of nothing still forms nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "alone"),
    [
        ("Just wanted to let you know that I passed my driving test!", "I passed my driving test!"),
        (
            "I wanted to tell you that I finished my first pottery class.",
            "I finished my first pottery class.",
        ),
        (
            "Wanted to let you know I'm moving to Lisbon next month.",
            "I'm moving to Lisbon next month.",
        ),
        (
            "Just wanted to share that I got into the master's program!",
            "I got into the master's program!",
        ),
    ],
)
def test_announced_news_reads_as_the_news(read: Reader, text: str, alone: str) -> None:
    assert read(alone)
    assert read(text) == read(alone)


@pytest.mark.parametrize(
    "text",
    [
        "I wanted to let you know that you were right.",
        "Wanted to let you know that I might be late.",
        "Just wanted to let you know.",
        "I wanted to tell you about my trip.",
    ],
)
def test_an_announcement_of_nothing_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == []
