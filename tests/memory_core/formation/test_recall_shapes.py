"""Clause shapes the recall tranche taught the extractor, and the precision edges around them.

These are unit checks of one sentence each (the blind floor lives in ``recall_cases.json``):
an approximate time phrase resolves whole, ``even`` is an adverb, and a possession that only
points at something (``lots of reminders of it``) names nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_core.formation.deterministic import DeterministicExtractor
from memory_core.formation.hazards import screen_turn
from memory_core.formation.port import Turn

AT = datetime(2026, 1, 5, 12, tzinfo=UTC)


def _statements(text: str) -> list[str]:
    turn = Turn(event_id="e-1", created_at=AT, sentences=screen_turn(text).sentences)
    return [c.statement for c in DeterministicExtractor().extract(turn)]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "I started volunteering at the food bank about a year ago.",
            "User started volunteering at the food bank in 2025.",
        ),
        ("I joined a choir almost two months ago.", "User joined a choir in November 2025."),
        ("I even baked lemon bars.", "User baked lemon bars."),
        ("I still have the kite my uncle built.", "User still has the kite their uncle built."),
    ],
)
def test_the_shape_forms_its_statement(text: str, statement: str) -> None:
    assert _statements(text) == [statement]


@pytest.mark.parametrize(
    "text",
    [
        "I have lots of reminders of it.",
        "I have a few photos of them.",
        "I've got plenty of that.",
        "Your advice means a lot to me.",
        "That means the world to me.",
    ],
)
def test_a_pointer_without_its_referent_forms_nothing(text: str) -> None:
    assert _statements(text) == []
