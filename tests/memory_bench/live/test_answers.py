"""Mechanical answer scoring."""

from __future__ import annotations

import pytest

from memory_bench.live.answers import is_abstention, score_answer, token_bounded_match
from memory_bench.live.evidence import LiveCounts
from memory_core.formation.selection import minimum_fully_supported
from memory_core.text import label_key

ABSTAIN = "I do not have that information."


@pytest.mark.parametrize(
    "reply",
    [
        "  I do NOT   have that information!  ",
        "I do not have that information\u2026",  # an ellipsis, as models like to end
        "I do not have that information...",
        "i do not have that information",
    ],
)
def test_the_abstain_phrase_is_matched_in_the_benchmark_normal_form(reply: str) -> None:
    assert label_key(reply) == label_key(ABSTAIN) == "i do not have that information"
    assert is_abstention(reply, ABSTAIN)
    assert score_answer(reply, kind="abstain", values=[], abstain_phrase=ABSTAIN).correct


@pytest.mark.parametrize(
    ("reply", "phrase"),
    [
        (None, ABSTAIN),
        ("", ABSTAIN),
        ("I do not have that information, sorry.", ABSTAIN),
        ("I don't have that information.", ABSTAIN),
        ("?", " ? "),  # a phrase that normalizes to nothing never matches
    ],
)
def test_anything_else_is_not_an_abstention(reply: str | None, phrase: str) -> None:
    assert not is_abstention(reply, phrase)


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
def test_the_live_floors_are_the_core_eighty_per_cent_floor(n: int, floor: int) -> None:
    assert minimum_fully_supported(n) == floor
    zero = dict.fromkeys(LiveCounts.model_fields, 0)
    counts = LiveCounts.model_validate(
        {**zero, "failure_classes": {}, "probe_count": 2 * n, "abstain_expected": n}
        | {"recoverable_probe_count": n}
    )
    assert counts.minimum_recoverable_correct == counts.minimum_abstain_correct == floor
