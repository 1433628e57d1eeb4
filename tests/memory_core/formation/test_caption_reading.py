"""An image caption's subject and cut.

Written before the change, with invented captions: a caption whose head noun is written with an
``-ing`` word (``a shopping mall``, ``a drawing book``) took ``a`` as its subject, and a cut
before ``and`` or an adjective ending in ``-ed`` split a phrase (``a bowl with a black and
white``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("caption", "subject", "statement"),
    [
        (
            "a photo of a shopping mall with a glass entrance",
            "shopping mall",
            "User shared a photo of a shopping mall with a glass entrance.",
        ),
        (
            "a photo of a drawing book with a bunch of drawings",
            "drawing book",
            "User shared a photo of a drawing book with a bunch of drawings.",
        ),
        (
            "a photo of a bowl with a black and white design on it",
            "bowl",
            "User shared a photo of a bowl with a black and white design.",
        ),
        (
            "a photo of a bowl with a black and white striped pattern",
            "bowl",
            "User shared a photo of a bowl.",
        ),
        (
            "a photo of a dog catching a frisbee in a park near the lake",
            "dog",
            "User shared a photo of a dog catching a frisbee in a park.",
        ),
        (
            "a photo of a woman with a blue face and a red hat on a bench",
            "woman",
            "User shared a photo of a woman with a blue face.",
        ),
    ],
)
def test_a_caption_keeps_its_head_noun_and_a_whole_phrase(
    read: Reader, caption: str, subject: str, statement: str
) -> None:
    assert read(f"[shared an image: {caption}]") == [("fact", subject, statement)]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        # Found on the LoCoMo dev split: ``User shared a pic of them at the food bank.``
        (
            "Here's a pic of me at the food bank.",
            "food bank",
            "User shared a pic of themselves at the food bank.",
        ),
        (
            "Here's a photo of us after the dance class.",
            "dance class",
            "User shared a photo of themselves and others after the dance class.",
        ),
        ("Here's a pic of me!", "pic", "User shared a pic of themselves."),
        ("Here's a pic of me lol", "pic", "User shared a pic of themselves."),
    ],
)
def test_a_picture_of_the_user_shows_themselves(
    read: Reader, text: str, subject: str, statement: str
) -> None:
    assert [(r[1], r[2]) for r in read(text)] == [(subject, statement)]
