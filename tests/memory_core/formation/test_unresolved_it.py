"""An ``it`` the clause does not name forms nothing; an ``it`` that anticipates its clause does.

Written before the change, with invented text: on the extractor before it, all 10 turns that
must form nothing formed a belief about an unnamed ``it`` (``User plans to check it out.``),
and the 5 readings whose ``it`` the clause names or anticipates formed.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_core.formation import DeterministicExtractor, Turn, screen_turn


def _statements(text: str) -> list[str]:
    at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    turn = Turn(event_id="e1", created_at=at, sentences=screen_turn(text).sentences)
    return [c.statement for c in DeterministicExtractor().extract(turn)]


@pytest.mark.parametrize(
    "text",
    [
        "Thanks for the tip! I'll definitely check it out.",
        "It's been a hard year, but I'm gonna make it happen.",
        "I'm going to keep it up.",
        "I love how it brings everyone together.",
        "I'm sure it made a difference.",
        "I'll add it to my reading list.",
        "I really care about it.",
        "I'm so stoked about it!",
        "I needed to do it for my family.",
        "I'm going to bake it for my sister this weekend.",
    ],
)
def test_a_clause_about_an_unnamed_it_forms_nothing(text: str) -> None:
    assert _statements(text) == []


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I hate it when the bus is late.", "User hates it when the bus is late."),
        (
            "I feel it's important to call my parents every week.",
            "User feels it's important to call their parents every week.",
        ),
        ("I tried sushi and loved it.", "User tried sushi and loved it."),
        (
            "I bought a kayak and took it to the lake.",
            "User bought a kayak and took it to the lake.",
        ),
        ("I love it when my kids laugh.", "User loves it when their kids laugh."),
    ],
)
def test_an_it_the_clause_names_or_anticipates_still_forms(text: str, statement: str) -> None:
    assert statement in _statements(text)
