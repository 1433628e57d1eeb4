"""A favorite written ``fav``/``fave``, a favorite memory told in the past, and one after a dash.

``My fav memory was when ...`` formed nothing: ``fav`` was no favorite word in this rule, a
favorite was only ever ``is``, and after a dash the clause was read as the elaboration of the
act before it (``User used to compete in ... - their fav memory was.``). A memory, moment or
part is past by nature; a past favorite book or band may be a former one, so only those take
``was``. Invented text; written before the change, when 3 of its 6 cases held (the two that
form nothing, and the act before the dash, which stands alone once a torn elaboration is
dropped).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("My fav band is Arcade Fire.", "User's favorite band is Arcade Fire."),
        (
            "My fave part was the fireworks over the bay.",
            "User's favorite part was the fireworks over the bay.",
        ),
        (
            "I used to run track in school - my fav memory was when my relay team broke the "
            "school record.",
            "User's favorite memory was when their relay team broke the school record.",
        ),
    ],
)
def test_the_favorite_forms(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)


@pytest.mark.parametrize(
    "text",
    ["My favorite book was Dune.", "My fav band was Oasis, back in school."],
)
def test_a_past_favorite_thing_forms_no_favorite(read: Reader, text: str) -> None:
    assert not [r for r in read(text) if r[1].startswith("favorite")], read(text)


def test_the_act_before_the_dash_stands_alone(read: Reader) -> None:
    text = "I used to run track in school - my fav memory was when my relay team won."
    assert "User used to run track in school." in [r[2] for r in read(text)], read(text)
