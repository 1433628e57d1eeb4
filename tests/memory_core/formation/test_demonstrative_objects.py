"""A demonstrative that introduces a described thing names it: ``My favorite treat is this
lemon poppyseed cake`` is ``User's favorite treat is a lemon poppyseed cake.``

People show things in chat (a photo, a link) and say ``this`` or ``these``. When the words
after the demonstrative describe the thing (a modifier and a head), the clause names its
referent, and the stored statement says it without the pointing (``a``/``an`` for one, no
article for several). A demonstrative before a bare category (``this band``), alone (``I
bought this``) or before ``one`` names nothing. Invented text, written before the change;
the case clock is Monday 2026-01-05.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "belief_type", "statement"),
    [
        (
            "My favorite treat is this lemon poppyseed cake.",
            "preference",
            "User's favorite treat is a lemon poppyseed cake.",
        ),
        (
            "I painted this sunset over the harbor.",
            "fact",
            "User painted a sunset over the harbor.",
        ),
        (
            "I just bought these hiking boots for the trip.",
            "fact",
            "User bought hiking boots for the trip.",
        ),
        (
            "I adopted this scruffy terrier mix from the shelter.",
            "fact",
            "User adopted a scruffy terrier mix from the shelter.",
        ),
    ],
)
def test_a_demonstrative_before_a_description_names_the_thing(
    read: Reader, text: str, belief_type: str, statement: str
) -> None:
    assert (belief_type, statement) in [(r[0], r[2]) for r in read(text)], read(text)


@pytest.mark.parametrize(
    "text",
    [
        "I love this band.",
        "I bought this yesterday.",
        "My favorite is this one.",
        "I made this for you.",
    ],
)
def test_a_demonstrative_that_describes_nothing_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == [], read(text)


@pytest.mark.parametrize(
    "text",
    ["I love this first movie.", "I got this as a treat."],
)
def test_a_demonstrative_that_places_the_thing_elsewhere_is_kept(read: Reader, text: str) -> None:
    """Found on the dev split after the change: ``this first movie`` named no movie and became
    ``a first movie``, ``this as a treat`` became ``an as a treat``."""
    assert not any(" a first " in r[2] or " an as " in r[2] for r in read(text)), read(text)
