"""A long caption is clipped before a qualifying phrase, never inside one.

``a desk with a computer, headphones, and a microphone`` was cut before ``and a`` and kept a
torn list (``... with a computer, headphones.``); ``a black xbox controller sitting on top of a
wooden table`` was cut before ``on`` and kept the participle that opened the phrase (``...
controller sitting.``). Invented captions of the shape the external adapters render; written
before the change, when 2 of its 4 cases held (the clips before a whole phrase). A cut that
leaves the verb of the phrase it cut (``... in a yellow coat is.``, ``... match being.``) is torn
too: its two cases were added after the first change, and failed then.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "[shared an image: a photo of a shelf with a lamp, two plants, and a clock]",
            "User shared a photo of a shelf.",
        ),
        (
            "[shared an image: a photo of a grey cat sleeping on top of a red sofa]",
            "User shared a photo of a grey cat.",
        ),
        (
            "[shared an image: a photo of a small boat floating near a rocky shore at dusk]",
            "User shared a photo of a small boat floating near a rocky shore.",
        ),
        (
            "[shared an image: a photo of a woman in a yellow coat is walking a dog in the rain]",
            "User shared a photo of a woman in a yellow coat.",
        ),
        (
            "[shared an image: a photo of a tennis match being played on a grass court]",
            "User shared a photo of a tennis match.",
        ),
        (
            "[shared an image: a photo of a kite over a beach that is full of people]",
            "User shared a photo of a kite over a beach.",
        ),
    ],
)
def test_the_caption_is_clipped_whole(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)
