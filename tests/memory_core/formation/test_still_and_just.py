"""``still can't`` and a second act opened by ``just``.

``I still can't believe ...`` formed ``User cannots believe ...`` (the adverb's verb took a third
person ``-s``), and ``I've been working hard on my shop and just teamed up with a local baker``
cut the second act's object (``... and just teamed up.``) instead of reading each act alone.
Invented text; written before the change, when 1 of its 4 cases held (``cannot stand``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    "text",
    ["I still can't believe how fast the year went.", "I still cannot stand the cold mornings."],
)
def test_a_modal_takes_no_s(read: Reader, text: str) -> None:
    assert not [r for r in read(text) if "cannots" in r[2] or "can'ts" in r[2]], read(text)


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "I've been working hard on my shop and just teamed up with a local baker for a new "
            "menu.",
            "User teamed up with a local baker for a new menu.",
        ),
        (
            "I've been working hard on my shop and teamed up with a local baker for a new menu.",
            "User teamed up with a local baker for a new menu.",
        ),
    ],
)
def test_each_act_is_read_alone(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)
