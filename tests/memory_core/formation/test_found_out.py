"""What the user found out, realized or learned about themselves is their statement:
``I just found out I'm allergic to shellfish`` is ``User is allergic to shellfish.``

The clause after ``found out``, ``realized``, ``learned`` or ``discovered`` was read as the
object of an event (``User found out they are allergic to shellfish.``, under the subject
``they are allergic``). When that clause is the user's own, it is read as the user's
statement; one that says nothing alone (``I was wrong``) forms nothing. Invented text, written
before the change; the case clock is Monday 2026-01-05.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "belief_type", "statement"),
    [
        (
            "I just found out I'm allergic to shellfish.",
            "user_model_attr",
            "User is allergic to shellfish.",
        ),
        (
            "I recently discovered I'm lactose intolerant.",
            "user_model_attr",
            "User is lactose intolerant.",
        ),
        ("I realized that I love teaching.", "preference", "User loves teaching."),
        ("I learned I have a knack for baking.", "user_model_attr", "User has a knack for baking."),
    ],
)
def test_what_the_user_found_out_about_themselves(
    read: Reader, text: str, belief_type: str, statement: str
) -> None:
    assert (belief_type, statement) in [(r[0], r[2]) for r in read(text)], read(text)


def test_a_finding_that_says_nothing_alone_forms_nothing(read: Reader) -> None:
    assert read("I found out I was wrong.") == []
