"""A prepositional phrase that opens a first-person clause closes it instead.

``At the party I met Jonah`` formed ``User met Jonah.``, and ``With my sister I visited Rome``
formed nothing. Blind set 26 (``fronted_phrase_cases.json``) guards the reading; these pin its
edges: a phrase of when is dropped, as the case files rule (fp-325), and so is a phrase that
frames the talk. Invented text.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memory_core.formation.deterministic.phrases import fronted_to_end

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "moved"),
    [
        ("At the party I met Jonah", "I met Jonah at the party"),
        ("For dinner, we had pasta", "we had pasta for dinner"),
        ("With my sister I visited Rome", "I visited Rome with my sister"),
        ("After the exam I celebrated", "I celebrated"),
        ("In my experience I found the staff helpful", "I found the staff helpful"),
        ("For the record I paid in cash", "I paid in cash"),
        ("At least I tried", "I tried"),
        ("I met Jonah at the party", "I met Jonah at the party"),
    ],
)
def test_a_fronted_phrase_closes_the_clause_unless_it_frames_the_talk(
    text: str, moved: str
) -> None:
    assert fronted_to_end(text) == moved


def test_the_statement_keeps_where_it_happened(read: Reader) -> None:
    assert [r[2] for r in read("At the farmers market I bought a jar of local honey.")] == [
        "User bought a jar of local honey at the farmers market."
    ]


@pytest.mark.parametrize(
    "text",
    [
        # Found in an adversarial review: a guess or a fancy was stated, or planned.
        "With my luck I'll get fired.",
        "In my head I already quit.",
        "In another life I was a dancer.",
    ],
)
def test_a_phrase_that_makes_the_clause_a_fancy_leaves_nothing(read: Reader, text: str) -> None:
    assert read(text) == []


def test_a_listener_framing_or_a_bare_preposition_is_dropped(read: Reader) -> None:
    assert "User is married." in [r[2] for r in read("For your information I'm married.")]
    assert [r[2] for r in read("For the next year I'll live in Spain.")] == [
        "User plans to live in Spain in 2027."
    ]
