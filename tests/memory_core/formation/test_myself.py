"""``myself`` in what the user says of someone else is ``themselves``, not a second ``User``.

``The support group has given me courage to embrace myself`` formed ``... given User courage
to embrace User.``. Invented text; written before the change, when 1 of its 2 cases held (a
relation's act, which another rule reads).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "My therapist helped me believe in myself.",
            "User's therapist helped User believe in themselves.",
        ),
        (
            "The climbing club has given me the courage to push myself.",
            "The climbing club has given User the courage to push themselves.",
        ),
    ],
)
def test_myself_is_themselves(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)
