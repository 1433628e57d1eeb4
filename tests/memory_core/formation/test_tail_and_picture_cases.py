"""The third blind set (pictures shared, trailing purpose and dash clauses): a floor.

``tail_and_picture_cases.json`` was written and committed before the extractor learned to read
a picture the user shares, a clause whose hedge or listener sits only in a trailing purpose or
dash clause, a demonstrative before a hyphenated noun and ``the other day`` (issue 12). Invented
text only. The floors are the figures measured after that change; raise them when the extractor
improves, never lower them to admit a regression.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory_bench.formation_eval import FormationReport, evaluate_formation, load_formation_cases
from memory_core import BeliefType
from memory_core.formation import DeterministicExtractor, Turn, screen_turn
from memory_core.formation.deterministic.rules_sharing import CAPTION_CONFIDENCE

CASES = Path(__file__).with_name("tail_and_picture_cases.json")

TRUE_POSITIVES_FLOOR = 19
"""Expected beliefs formed, of 21: 2 before the change the file guards, 19 after it."""


@pytest.fixture(scope="module")
def report() -> FormationReport:
    return evaluate_formation(load_formation_cases(CASES))


def test_recall_stays_at_or_above_its_floor(report: FormationReport) -> None:
    assert report.expected_total == 21
    assert report.true_positives >= TRUE_POSITIVES_FLOOR, [
        (row.id, row.missed) for row in report.cases if row.missed
    ]


def test_no_negative_case_forms_and_nothing_is_fabricated(report: FormationReport) -> None:
    assert report.negative_formed == 0, [
        (row.id, [b.statement for b in row.formed])
        for row in report.cases
        if row.kind == "negative" and row.formed
    ]
    assert report.fabricated == 0


def _extract(text: str) -> list[tuple[BeliefType, str, str, float]]:
    at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    turn = Turn(event_id="e1", created_at=at, sentences=screen_turn(text).sentences)
    return [
        (c.belief_type, c.subject, c.statement, c.confidence)
        for c in DeterministicExtractor().extract(turn)
    ]


def test_a_caption_forms_at_the_lower_confidence() -> None:
    formed = _extract("Done at last! [shared an image: a photography of a red kite over a beach]")
    assert formed == [
        (
            BeliefType.FACT,
            "red kite",
            "User shared a photo of a red kite over a beach.",
            CAPTION_CONFIDENCE,
        )
    ]


def test_a_dash_before_a_list_is_not_a_clause_boundary() -> None:
    statements = [
        s for _, _, s, _ in _extract("I packed camping gear - a tent, a stove and a lamp.")
    ]
    assert statements == ["User packed camping gear - a tent, a stove and a lamp."]


def test_a_state_after_am_is_a_fact_not_a_user_attribute() -> None:
    formed = _extract("I'm thrilled to start the pottery course.")
    assert [(t, s) for t, _, s, _ in formed] == [
        (BeliefType.FACT, "User is thrilled to start the pottery course.")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Here's my advice: water the ferns at dawn.",
        "Here's to the three of us!",
        "Here's a photo of your garden.",
        "I might repaint the fence so I could sell the house.",
    ],
)
def test_framing_toasts_the_listener_and_hedged_heads_form_nothing(text: str) -> None:
    assert _extract(text) == []
