"""The live arm's derived thresholds, held at counts where rounding down and up disagree.

``minimum_lift`` is twenty per cent of the answerable probes rounded up, and both
eighty-per-cent floors (recoverable, abstention) round up: at 52 answerable probes (corpus v1)
a lift of 10 is short of 11, at 21 recoverable probes 16 correct is short of 17, at 12
abstention probes 9 is short of 10. Each boundary is asserted on the counts, on the
publication conditions, and on a whole evidence document, so a threshold rounding down (or a
comparison loosened from ``<`` to ``<=`` the other way) fails here.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic import ValidationError

from memory_bench.live.evidence import (
    ArmAnswer,
    LiveCounts,
    LiveProbeRow,
    MemoryBenchmarkEvidence,
    derive_counts,
    failed_conditions,
)
from memory_core.formation.selection import minimum_fully_supported


def _arm(correct: bool, *, abstain: bool) -> ArmAnswer:
    return ArmAnswer(
        answer="I do not have that information." if abstain and correct else "Portland",
        correct=correct,
        abstained=abstain and correct,
        leaked_protected=False,
        run_status="completed",
        cost_usd=0.01,
    )


def row(i: int, *, kind: str = "alternatives", with_ok: bool, without_ok: bool) -> LiveProbeRow:
    """Probe ``i``: answerable and recoverable, or an abstention probe."""
    abstain = kind == "abstain"
    return LiveProbeRow(
        scenario_id="mb-x-001",
        probe_id=f"p{i:02d}",
        category="abstention" if abstain else "single_hop",
        answer_kind="abstain" if abstain else "alternatives",
        recoverable=not abstain,
        with_memory_policy_failures=0,
        without_memory_policy_failures=0,
        with_memory=_arm(with_ok, abstain=abstain),
        without_memory=_arm(without_ok, abstain=abstain),
    )


pytestmark = pytest.mark.gate("gate.memory.bench_evidence_publish")

ZERO: dict[str, Any] = {**dict.fromkeys(LiveCounts.model_fields, 0), "failure_classes": {}}


def _counts(**fields: int) -> LiveCounts:
    return LiveCounts.model_validate({**ZERO, **fields})


def _conditions(counts: LiveCounts) -> list[str]:
    return failed_conditions(counts, total_cost_usd=1.0, cost_ceiling_usd=4.0)


@pytest.mark.parametrize("answerable", range(0, 130))
def test_minimum_lift_is_twenty_per_cent_rounded_up(answerable: int) -> None:
    counts = _counts(probe_count=answerable + 7, abstain_expected=7)
    assert counts.minimum_lift == math.ceil(answerable / 5)


@pytest.mark.parametrize("cases", range(0, 130))
def test_the_eighty_per_cent_floor_rounds_up(cases: int) -> None:
    assert minimum_fully_supported(cases) == math.ceil(4 * cases / 5)


@pytest.mark.parametrize(("lift", "published"), [(10, False), (11, True)])
def test_with_fifty_two_answerable_probes_a_lift_of_ten_does_not_publish(
    lift: int, published: bool
) -> None:
    # Corpus v1: 64 probes, 12 abstentions, 52 answerable; 10.4 rounds up to 11.
    counts = _counts(
        probe_count=64,
        abstain_expected=12,
        with_memory_correct=20 + lift,
        without_memory_correct=20,
        abstain_with_memory_correct=12,
    )
    assert counts.answerable == 52
    assert counts.minimum_lift == 11
    assert (f"lift {lift} < minimum_lift 11" in _conditions(counts)) is not published
    assert (_conditions(counts) == []) is published


@pytest.mark.parametrize(("correct", "published"), [(16, False), (17, True)])
def test_recoverable_correct_is_held_at_the_floor_of_twenty_one(
    correct: int, published: bool
) -> None:
    counts = _counts(
        probe_count=21,
        recoverable_probe_count=21,
        recoverable_correct=correct,
        with_memory_correct=correct,
    )
    assert counts.minimum_recoverable_correct == 17
    assert (_conditions(counts) == []) is published
    if not published:
        assert _conditions(counts) == [f"recoverable_correct {correct} < 17"]


@pytest.mark.parametrize(("correct", "published"), [(9, False), (10, True)])
def test_abstain_correct_is_held_at_the_floor_of_twelve(correct: int, published: bool) -> None:
    counts = _counts(probe_count=12, abstain_expected=12, abstain_with_memory_correct=correct)
    assert counts.minimum_abstain_correct == 10
    assert (_conditions(counts) == []) is published
    if not published:
        assert _conditions(counts) == [f"abstain_with_memory_correct {correct} < 10"]


def _document(passing_document: dict[str, Any], rows: list[LiveProbeRow]) -> dict[str, Any]:
    counts = derive_counts(rows, ceiling_hits=0, failure_classes={})
    return {
        **passing_document,
        "corpus_probe_count": len(rows),
        "total_cost_usd": 0.02 * len(rows) + 0.01,
        "counts": counts.model_dump(),
        "rows": [r.model_dump() for r in rows],
    }


@pytest.mark.parametrize(("lift", "published"), [(10, False), (11, True)])
def test_an_evidence_document_with_lift_ten_of_fifty_two_is_refused(
    passing_document: dict[str, Any], lift: int, published: bool
) -> None:
    # 52 answerable probes, all right with memory and 52 - lift right without; 12 abstentions.
    rows = [row(i, with_ok=True, without_ok=i < 52 - lift) for i in range(52)]
    rows += [row(52 + i, kind="abstain", with_ok=True, without_ok=True) for i in range(12)]
    document = _document(passing_document, rows)
    if published:
        evidence = MemoryBenchmarkEvidence.model_validate(document)
        assert (evidence.counts.lift, evidence.counts.minimum_lift) == (11, 11)
    else:
        with pytest.raises(ValidationError, match="lift 10 < minimum_lift 11"):
            MemoryBenchmarkEvidence.model_validate(document)
