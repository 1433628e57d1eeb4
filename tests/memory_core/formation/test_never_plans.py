"""``never`` after ``will`` negates the plan: it must not read as one.

``I'll never forget the day ...`` formed ``User plans to forget the day ...``, and ``I'll never
stop painting`` formed ``User plans to stop painting``: the adverb was stripped before the plan
rule looked for a negation. Invented text; the cases failed before the fix (all four formed
the inverted plan) and a plan without ``never`` still forms.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    "text",
    [
        "I'll never forget the day my son rode his bike alone.",
        "I will never forget that trip to Crete.",
        "I'll never stop painting.",
        "We'll never sell the cabin.",
    ],
)
def test_a_plan_never_to_act_forms_no_plan(read: Reader, text: str) -> None:
    assert read(text) == []


def test_a_plan_still_forms(read: Reader) -> None:
    assert read("I'll start painting again next month.") == [
        ("fact", "painting", "User plans to start painting again in February 2026.")
    ]
