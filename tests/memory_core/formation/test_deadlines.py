"""A deadline by a day (``by Friday``) resolves to its date like any other relative day.

``She wants the slides by Thursday`` formed ``Dana wants the slides by Thursday.``: a month
later, which Thursday? A ``by`` before a weekday (``by Friday``, ``by next Monday``) or
``tomorrow``/``today``/``tonight`` now gives the date, the next one for a statement about
what is to come and the last one for a past one. Invented text; written before the change,
when 2 of its 6 cases held (the two guards). The case clock is Monday 2026-01-05.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "My boss is Dana. She wants the slides by Thursday.",
            "Dana wants the slides by 2026-01-08.",
        ),
        ("I'm finishing the mural by Friday.", "User is finishing the mural by 2026-01-09."),
        ("The client wants a demo by next Monday.", "The client wants a demo by 2026-01-12."),
        (
            "I promised to finish the quilt by tomorrow.",
            "User promised to finish the quilt by 2026-01-06.",
        ),
    ],
)
def test_the_deadline_is_a_date(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)


@pytest.mark.parametrize(
    "text", ["I usually finish my run by seven.", "I stopped by the bakery on my way home."]
)
def test_no_day_no_date(read: Reader, text: str) -> None:
    formed = [r[2] for r in read(text)]
    assert not any("2026" in statement for statement in formed), formed
