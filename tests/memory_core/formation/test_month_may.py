"""``May`` the month is no modal: a clause dated in May reads as any other month's.

Written before the change, with invented text: on the extractor before it, the relative-clause
rule refused ``The scarf I knitted in May was a hit.`` (``may`` read as a modal), though the
same clause in April formed. The modal still forms nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("The scarf I knitted in April was a hit.", "User knitted the scarf in April 2025."),
        ("The scarf I knitted in May was a hit.", "User knitted the scarf in May 2025."),
        ("Leila's birthday is on May 9.", "Leila's birthday is on May 9."),
    ],
)
def test_a_clause_dated_in_may_forms(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)]


@pytest.mark.parametrize("text", ["I may move to Lyon.", "Nadia may move to Lyon in May."])
def test_may_the_modal_still_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == []
