"""A state, then an act, joined by ``and``: two statements, each with the subject.

``I'm exhausted and went to bed early`` formed ``User is exhausted and went to bed early.``
under the subject ``and went``, and ``She's four and already reads chapter books`` (after a
named niece) one statement no question about either part reaches well. Invented text;
written before the change, when 2 of its 6 cases held (the two guards). The sick-week case
first wanted ``User was sick all week.`` too; a passing state alone forms nothing by design
(``I was sick.`` forms nothing), so it now wants the act, and no torn ``sick week`` clause.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statements"),
    [
        (
            "I'm a nurse and worked a double shift yesterday.",
            ["User is a nurse.", "User worked a double shift on 2026-01-04."],
        ),
        (
            "I was sick all week and missed my sister's recital.",
            ["User missed their sister's recital."],
        ),
        (
            "My niece is Ada. She's four and already reads chapter books.",
            ["Ada is four.", "Ada reads chapter books."],
        ),
        (
            "My grandfather is Emil. He's ninety and still drives to the market every day.",
            ["Emil is ninety.", "Emil drives to the market every day."],
        ),
    ],
)
def test_each_part_is_its_own_statement(read: Reader, text: str, statements: list[str]) -> None:
    formed = [r[2] for r in read(text)]
    for statement in statements:
        assert statement in formed, formed


def test_no_subject_is_a_joint(read: Reader) -> None:
    readings = read("I'm a nurse and worked a double shift yesterday.")
    assert not any(s.startswith("and ") for _, s, _ in readings), readings
    formed = [r[2] for r in read("I was sick all week and missed my sister's recital.")]
    assert not any("sick week" in statement for statement in formed), formed


def test_a_state_and_its_reference_back_stays_whole(read: Reader) -> None:
    # The second part refers back (``loved it``): alone, it would name nothing.
    formed = [r[2] for r in read("I was nervous about the audition and loved it anyway.")]
    assert "User loved it anyway." not in formed, formed
