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


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("The old MySQL box is being retired.", "mysql box"),
        ("Big family dinner on Sunday.", "family dinner"),
        ("I fixed the old lawnmower myself.", "lawnmower"),
        ("I flew to Little Rock for a conference.", "little rock"),
        ("I drove through Old Town on the way home.", "old town"),
        ("I love the Big Apple.", "big apple"),
        ("I bought a Big Green Egg grill.", "big green egg grill"),
    ],
)
def test_a_thing_is_not_filed_under_its_size_or_age(read: Reader, text: str, subject: str) -> None:
    """``the old MySQL box`` is the MySQL box, so ``The MySQL box is gone`` reaches it; a
    proper name that opens with a size or an age keeps it, and a reflexive is no part of it."""
    assert [r[1] for r in read(text)] == [subject], read(text)


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I sold my old guitar to a neighbor.", "User no longer has an old guitar."),
        ("I gave away my bike to my nephew.", "User no longer has a bike."),
        ("I sold my house in Denver.", "User no longer has a house in Denver."),
    ],
)
def test_what_was_sold_is_not_kept_with_its_buyer(read: Reader, text: str, statement: str) -> None:
    """``sold my guitar to a neighbor`` withdraws the guitar, not ``a guitar to a neighbor``;
    where the thing is (``my house in Denver``) stays part of it."""
    assert [r[2] for r in read(text)] == [statement], read(text)


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("I prefer planning things in shared spreadsheets.", "planning"),
        ("I love fixing stuff around the house.", "fixing"),
        ("It is important to me to keep learning new things.", "keeping learning new things"),
    ],
)
def test_an_activity_done_to_things_is_about_the_activity(
    read: Reader, text: str, subject: str
) -> None:
    assert [r[1] for r in read(text)] == [subject], read(text)
