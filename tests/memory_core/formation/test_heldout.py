"""The held-out formation cases: a floor under what the deterministic extractor forms.

``heldout_cases.json`` was written and committed before the extractor changes it guards, with
invented people and the phrasing people use in chat; none of its turns is a corpus sentence.
It is scored through the same path as ``agent eval memory-formation`` (a fresh in-memory store
per case, the real ``GovernedMemoryService``). The floors are the figures measured when the
extractor changes landed (``formation@5``: 45 of 48 expected beliefs, 46 formed; ``formation@7``,
which reads conversational statements: 46 of 48, 48 formed); they protect that improvement and
are never a target to tune the file towards. Raise them when the extractor improves; never lower
them to admit a regression. At formation@7 the two beliefs no case expects are true statements
the cases did not enumerate or type as the extractor does (``User has a golden retriever named
Biscuit.``, formed since formation@5, and ``User drinks their coffee black.`` as an attribute
where the case wants a preference); neither is a fabrication (``fabricated`` stays 0). Reading
the state of a thing of the user's (``My online bakery is finally open``) adds a third, also true
and unlisted: ``User's schedule is all over the place.`` (from "so my schedule is all over the
place"). Reading what a clause says of a person named in apposition (``My son Leo started
school``) adds a fourth, true and unlisted: ``Amara turned four in the week of 2025-12-29.``
(from "My daughter Amara turned four last week"); the file's forbidden statements for such
clauses (a habit, a wish, a plan of theirs) still form nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bench.formation_eval import FormationReport, evaluate_formation, load_formation_cases
from memory_core.policy import DETERMINISTIC_FORMATION_POLICY

HELDOUT = Path(__file__).with_name("heldout_cases.json")

TRUE_POSITIVES_FLOOR = 46
"""Expected beliefs the extractor forms, of 48 (21 before the formation@5 changes, 45 after)."""
FALSE_POSITIVES_CEILING = 4
"""Formed beliefs no case expects: true statements the cases do not list (see above)."""


@pytest.fixture(scope="module")
def report() -> FormationReport:
    return evaluate_formation(load_formation_cases(HELDOUT))


def test_the_heldout_file_is_a_case_file_of_the_declared_size() -> None:
    cases = load_formation_cases(HELDOUT).cases
    assert len(cases.positive) >= 30
    assert len(cases.negative) >= 10
    categories = {case.category for case in cases.negative}
    assert {"secret", "injection", "question", "hypothetical", "third_party"} <= categories


def test_recall_and_precision_stay_at_or_above_their_floors(report: FormationReport) -> None:
    assert report.policy_version == DETERMINISTIC_FORMATION_POLICY
    assert report.expected_total == 48
    assert report.true_positives >= TRUE_POSITIVES_FLOOR, [
        (row.id, row.missed) for row in report.cases if row.missed
    ]
    assert report.false_positives <= FALSE_POSITIVES_CEILING, [
        (row.id, [b.statement for b in row.unexpected]) for row in report.cases if row.unexpected
    ]


def test_no_negative_case_forms_and_hazards_are_refused(report: FormationReport) -> None:
    assert report.negative_formed == 0
    assert report.fabricated == 0
    loaded = load_formation_cases(HELDOUT)
    refused = {row.id: row.refused_hazard for row in report.cases}
    for case in loaded.cases.negative:
        if case.category in ("secret", "injection"):
            assert refused[case.id] >= 1, case.id
