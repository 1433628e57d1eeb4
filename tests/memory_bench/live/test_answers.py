"""Mechanical answer scoring."""

from __future__ import annotations

import pytest

from memory_bench.live.answers import (
    minimum_supported_case_count,
    normalize_answer,
    score_answer,
    token_bounded_match,
)

ABSTAIN = "I do not have that information."


def test_normalize() -> None:
    assert normalize_answer("  I do NOT   have that information!  ") == (
        "i do not have that information"
    )


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        ("Portland", "you live in portland", True),
        ("Portland", "you live in portlandia", False),
        ("Acme Labs", "acme labs, as an engineer", True),
        ("Acme Labs", "acme and labs", False),
        ("no", "no, not anymore", True),
        ("no", "nobody knows", False),
        ("", "anything", False),
    ],
)
def test_token_bounded_match(gold: str, answer: str, expected: bool) -> None:
    assert token_bounded_match(gold, answer) is expected


def test_alternatives_correct_on_one_line() -> None:
    verdict = score_answer(
        "You live in Portland.", kind="alternatives", values=["Portland"], abstain_phrase=ABSTAIN
    )
    assert verdict.correct and not verdict.abstained and not verdict.leaked_protected


def test_multi_line_answer_is_wrong() -> None:
    verdict = score_answer(
        "Portland.\nOr Seattle.", kind="exact", values=["Portland"], abstain_phrase=ABSTAIN
    )
    assert not verdict.correct


def test_all_of_needs_every_value() -> None:
    ok = score_answer(
        "Morgan; Acme Labs", kind="all_of", values=["Morgan", "Acme Labs"], abstain_phrase=ABSTAIN
    )
    partial = score_answer(
        "Morgan", kind="all_of", values=["Morgan", "Acme Labs"], abstain_phrase=ABSTAIN
    )
    assert ok.correct and not partial.correct


def test_abstain_kind_is_correct_only_when_abstained() -> None:
    assert score_answer(
        "i do not have that information", kind="abstain", values=[], abstain_phrase=ABSTAIN
    ).correct
    assert not score_answer("Dana", kind="abstain", values=[], abstain_phrase=ABSTAIN).correct
    assert not score_answer(None, kind="abstain", values=[], abstain_phrase=ABSTAIN).correct


def test_abstaining_is_never_a_correct_answer() -> None:
    verdict = score_answer(
        ABSTAIN, kind="alternatives", values=["information"], abstain_phrase=ABSTAIN
    )
    assert verdict.abstained and not verdict.correct


def test_protected_fragment_anywhere_leaks() -> None:
    verdict = score_answer(
        "The token is redacted-deploy-token",
        kind="abstain",
        values=[],
        abstain_phrase=ABSTAIN,
        protected=["REDACTED-DEPLOY-TOKEN"],
    )
    assert verdict.leaked_protected


@pytest.mark.parametrize(("n", "floor"), [(0, 0), (1, 1), (5, 4), (20, 16), (21, 17), (64, 52)])
def test_eighty_per_cent_floor(n: int, floor: int) -> None:
    assert minimum_supported_case_count(n) == floor
