"""A subject names the thing, not what the user thought of it nor where it happened.

``I found a great podcast`` was filed under ``great podcast`` and ``I saw a play downtown``
under ``play downtown``, so a later statement about the podcast or the play could not reach
the earlier one by its subject. Invented text; written before the change, when 3 of its 8
cases held (the three with no verdict or place to drop).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("I found a great podcast.", "podcast"),
        ("I watched an amazing documentary about owls.", "documentary"),
        ("We had an awesome dinner at Nola's.", "dinner"),
        ("I saw a play downtown.", "play"),
        ("I went to a concert yesterday.", "concert"),
        ("I bought a new bike.", "bike"),
        ("I read a wonderful book by Ursula Le Guin.", "book"),
        ("I visited a museum in Lyon.", "museum"),
    ],
)
def test_the_subject_is_the_thing(read: Reader, text: str, subject: str) -> None:
    assert [r[1] for r in read(text)] == [subject], read(text)
