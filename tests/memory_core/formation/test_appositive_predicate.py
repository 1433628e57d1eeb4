"""A name in apposition to a relation: what the clause says of that person forms too.

``My cousin Dmitri sold his bakery last year`` says two things: who Dmitri is to the user, and
what Dmitri did. Both are worth remembering, as the issue's "facts about the user's people"
asks; until now only the relationship formed. What stays theirs still forms nothing about them
(likes, home, work, thoughts), and neither does a plan of theirs (``My sister Lucía is getting
married in June``, as the held-out cases rule). Invented text, written before the change, when
0 of its 6 positive cases and all 4 negative ones held; after it, 5 of 6 (a habit in apposition
stays theirs, as the held-out cases rule).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "relationship", "fact"),
    [
        (
            "My cousin Dmitri sold his bakery last year.",
            "User's cousin is Dmitri.",
            "Dmitri sold his bakery in 2025.",
        ),
        pytest.param(
            "My neighbor Farah keeps bees.",
            "User's neighbor is Farah.",
            "Farah keeps bees.",
            marks=pytest.mark.xfail(
                strict=True,
                reason="a habit of theirs in apposition stays theirs: the held-out cases rule "
                "'My cofounder Ravi handles all the sales calls' so",
            ),
        ),
        (
            "My nephew Jonas is allergic to peanuts.",
            "User's nephew is Jonas.",
            "Jonas is allergic to peanuts.",
        ),
        (
            "My boss Ingrid just ran her first marathon!",
            "User's boss is Ingrid.",
            "Ingrid ran her first marathon.",
        ),
        ("My friend Kaito fixed my bike.", "User's friend is Kaito.", "Kaito fixed User's bike."),
        (
            "My coworker, Bashir, is organizing the office potluck.",
            "User's coworker is Bashir.",
            "Bashir is organizing the office potluck.",
        ),
    ],
)
def test_the_person_named_and_what_they_did_both_form(
    read: Reader, text: str, relationship: str, fact: str
) -> None:
    statements = [r[2] for r in read(text)]
    assert relationship in statements, statements
    assert fact in statements, statements


@pytest.mark.parametrize(
    ("text", "theirs"),
    [
        ("My brother Idris loves jazz.", "jazz"),
        ("My aunt Selma lives in Porto.", "Porto"),
        ("My sister Amaya is moving to Lyon next month.", "Lyon"),
        ("My friend Oskar thinks I should quit.", "quit"),
        # Found in review, after the change: a past feeling, a mood, a passing activity.
        ("My brother Sami loved jazz.", "jazz"),
        ("My wife Ingrid is being ridiculous.", "ridiculous"),
        ("My cat Luna is sleeping on my keyboard.", "keyboard"),
    ],
)
def test_what_stays_theirs_forms_the_relationship_only(
    read: Reader, text: str, theirs: str
) -> None:
    readings = read(text)
    assert [r for r in readings if r[0] != "relationship"] == [], readings
    assert not any(theirs in r[2] for r in readings), readings
