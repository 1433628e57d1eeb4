"""An evaluation of what the user heard (``I heard some great stories ... It was inspiring``).

``heard`` was no act whose object a following ``it`` names, so the evaluation formed nothing.
Invented text; written before the change, when 2 of its 4 cases held (the two after ``took``;
a ``, but`` that opens a clause of its own already ends the evaluation).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "I heard some great stories from an old sailor. It was inspiring and sad.",
            "User found the great stories inspiring and sad.",
        ),
        (
            "I took a pottery class. It was relaxing, but my hands hurt after.",
            "User found the pottery class relaxing.",
        ),
        ("I heard a talk on bees. It was fascinating.", "User found the talk fascinating."),
        ("I took a pottery class. It was relaxing.", "User found the pottery class relaxing."),
    ],
)
def test_the_evaluation_reads_what_was_heard(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)
