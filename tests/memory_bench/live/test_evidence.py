"""The evidence artifact validates itself, is written atomically and never overwritten."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from memory_bench.artifacts import ArtifactExistsError
from memory_bench.live.evidence import (
    LIVE_ARM_VERSION,
    EvidenceError,
    LiveCounts,
    MemoryBenchmarkEvidence,
    failed_conditions,
    load_evidence,
    write_evidence,
)


def test_passing_document_validates(passing_document: dict[str, Any]) -> None:
    evidence = MemoryBenchmarkEvidence.model_validate(passing_document)
    assert evidence.counts.with_memory_correct == 14
    assert evidence.counts.lift == 7
    assert evidence.counts.minimum_lift == 2
    assert evidence.counts.minimum_recoverable_correct == 8


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        (("counts", "with_memory_correct"), 13, "counts do not match"),
        (("counts", "incomplete_runs"), 1, "incomplete_runs"),
        (("counts", "ceiling_hits"), 1, "ceiling_hits"),
        (("total_cost_usd",), 4.5, "total_cost_usd"),
        (("total_cost_usd",), 0.01, "below the cost"),
        (("run_models",), ["gpt-4o-mini", "gpt-4o"], "models"),
        (("provenance", "recorded_at"), "2026-11-30T00:00:00", "timezone"),
        (("provenance", "commit"), "0123abc+dirty", "commit"),
        (("provenance", "inputs"), {}, "corpus digest is missing"),
        (("provenance", "policies", "provider_formation"), "formation@1", "not evidence for"),
    ],
)
def test_tampered_or_failing_document_is_refused(
    passing_document: dict[str, Any], path: tuple[str, ...], value: Any, reason: str
) -> None:
    target = passing_document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ValidationError, match=reason):
        MemoryBenchmarkEvidence.model_validate(passing_document)


def _schema_2(document: dict[str, Any], build_ref: str) -> dict[str, Any]:
    """``document`` as a schema 2 artifact spelled it."""
    old = {k: v for k, v in document.items() if k != "provenance"}
    provenance = document["provenance"]
    return {
        **old,
        "schema_version": 2,
        "corpus_digest": provenance["inputs"]["corpus"],
        "build_ref": build_ref,
        "formation_policy_version": provenance["policies"]["formation"],
        "retrieval_policy_version": provenance["policies"]["retrieval"],
        "provider_formation_policy_version": provenance["policies"]["provider_formation"],
        "evaluated_at": provenance["recorded_at"],
    }


@pytest.mark.parametrize(
    ("build_ref", "commit", "dirty"),
    [
        ("0123abc" + "0" * 33, "0123abc" + "0" * 33, False),
        ("0123abc" + "0" * 33 + "+dirty", "0123abc" + "0" * 33, True),
        ("0123abc", None, True),
    ],
)
def test_a_schema_2_artifact_is_read_into_schema_3(
    passing_document: dict[str, Any],
    tmp_path: Path,
    build_ref: str,
    commit: str | None,
    dirty: bool,
) -> None:
    path = tmp_path / "v2.json"
    path.write_text(json.dumps(_schema_2(passing_document, build_ref)), encoding="utf-8")
    evidence = load_evidence(path)
    current = MemoryBenchmarkEvidence.model_validate(passing_document)
    assert (evidence.provenance.commit, evidence.provenance.dirty) == (commit, dirty)
    assert evidence.provenance.packages == {}
    assert evidence.provenance.policies == current.provenance.policies
    assert evidence.provenance.inputs == current.provenance.inputs
    assert evidence.provenance.recorded_at == current.provenance.recorded_at
    assert evidence.model_dump(exclude={"provenance"}) == current.model_dump(exclude={"provenance"})


def test_a_tampered_schema_2_artifact_is_still_refused(
    passing_document: dict[str, Any], tmp_path: Path
) -> None:
    document = _schema_2(passing_document, "0123abc")
    document["counts"]["with_memory_correct"] = 13
    path = tmp_path / "v2.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(EvidenceError, match="counts do not match"):
        load_evidence(path)
    del document["evaluated_at"]
    path.unlink()
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(EvidenceError, match="schema_version"):
        load_evidence(path)


def _arm(document: dict[str, Any], index: int, name: str = "with_memory") -> dict[str, Any]:
    arm: dict[str, Any] = document["rows"][index][name]
    return arm


def test_an_incomplete_arm_the_counts_omit_is_refused(passing_document: dict[str, Any]) -> None:
    # /tmp/rv/evidence_tamper.py: a failed run hidden behind incomplete_runs == 0.
    _arm(passing_document, 5, "without_memory").update(
        answer=None, correct=False, run_status="failed"
    )
    with pytest.raises(ValidationError, match="counts do not match"):
        MemoryBenchmarkEvidence.model_validate(passing_document)


def test_a_retry_the_counts_omit_is_refused(passing_document: dict[str, Any]) -> None:
    _arm(passing_document, 3)["retried"] = True
    with pytest.raises(ValidationError, match="counts do not match"):
        MemoryBenchmarkEvidence.model_validate(passing_document)


@pytest.mark.parametrize(
    ("index", "update", "reason"),
    [
        (1, {"answer": None}, "marked correct without an answer"),
        (1, {"answer": "Portland\nor Seattle"}, "not a single non-empty line"),
        (1, {"answer": "   "}, "not a single non-empty line"),
        (1, {"abstained": True}, "marked correct but the answer abstained"),
        (12, {"abstained": False}, "on an abstention probe"),
        (0, {"correct": False, "abstained": True, "answer": None}, "cannot have abstained"),
        (0, {"run_status": "budget_exhausted"}, "only a completed run answers"),
    ],
)
def test_a_verdict_the_answer_does_not_support_is_refused(
    passing_document: dict[str, Any], index: int, update: dict[str, Any], reason: str
) -> None:
    # /tmp/rv/evidence_tamper2.py: correct answers that are None, abstained or unfinished.
    _arm(passing_document, index).update(update)
    with pytest.raises(ValidationError, match=reason):
        MemoryBenchmarkEvidence.model_validate(passing_document)


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("cost_ceiling_usd", 1000.0, "invocation ceiling 4.0"),
        ("per_run_ceiling_usd", 500.0, "per-run ceiling 0.05"),
        ("benchmark_version", "anything", f"not the live arm's {LIVE_ARM_VERSION!r}"),
        ("corpus_probe_count", 16, "15 rows for a corpus of 16 probes"),
    ],
)
def test_ceilings_version_and_probe_count_are_the_live_arms(
    passing_document: dict[str, Any], field: str, value: Any, reason: str
) -> None:
    passing_document[field] = value
    with pytest.raises(ValidationError, match=reason):
        MemoryBenchmarkEvidence.model_validate(passing_document)


def test_a_free_run_is_refused(passing_document: dict[str, Any]) -> None:
    for row in passing_document["rows"]:
        row["with_memory"]["cost_usd"] = row["without_memory"]["cost_usd"] = 0.0
    passing_document["total_cost_usd"] = 0.0
    with pytest.raises(ValidationError, match="total_cost_usd is not positive"):
        MemoryBenchmarkEvidence.model_validate(passing_document)


def test_a_probe_with_two_rows_is_refused(passing_document: dict[str, Any]) -> None:
    passing_document["rows"][2]["probe_id"] = passing_document["rows"][1]["probe_id"]
    with pytest.raises(ValidationError, match="more than one row: mb-x-001/p01"):
        MemoryBenchmarkEvidence.model_validate(passing_document)


def test_a_histogram_of_runs_that_did_not_fail_is_refused(
    passing_document: dict[str, Any],
) -> None:
    passing_document["counts"]["failure_classes"] = {"failed:TransientModelError": 1}
    with pytest.raises(ValidationError, match="does not account for every incomplete run"):
        MemoryBenchmarkEvidence.model_validate(passing_document)


def test_incomplete_runs_without_a_histogram_fail_the_histogram_condition(
    passing_document: dict[str, Any],
) -> None:
    counts = LiveCounts.model_validate({**passing_document["counts"], "incomplete_runs": 2})
    problems = failed_conditions(counts, total_cost_usd=0.3, cost_ceiling_usd=4.0)
    assert "failure_classes (0 runs) does not account for every incomplete run (2)" in problems
    with pytest.raises(ValidationError):
        LiveCounts.model_validate({**passing_document["counts"], "failure_classes": {"x": 0}})


def test_insufficient_lift_is_refused(passing_document: dict[str, Any]) -> None:
    for row in passing_document["rows"][:10]:
        row["without_memory"]["correct"] = row["with_memory"]["correct"]
    passing_document["counts"]["without_memory_correct"] = 14
    with pytest.raises(ValidationError, match="lift 0 < minimum_lift 2"):
        MemoryBenchmarkEvidence.model_validate(passing_document)


def test_written_once_and_reloaded(passing_document: dict[str, Any], tmp_path: Path) -> None:
    evidence = MemoryBenchmarkEvidence.model_validate(passing_document)
    target = tmp_path / "evidence.json"
    write_evidence(evidence, target)
    assert load_evidence(target) == evidence
    before = target.read_bytes()
    with pytest.raises(ArtifactExistsError):
        write_evidence(evidence, target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["evidence.json"]


def test_tampered_file_fails_to_load(passing_document: dict[str, Any], tmp_path: Path) -> None:
    target = tmp_path / "evidence.json"
    write_evidence(MemoryBenchmarkEvidence.model_validate(passing_document), target)
    data = json.loads(target.read_text())
    data["rows"][1]["with_memory"]["correct"] = False
    target.write_text(json.dumps(data))
    with pytest.raises(EvidenceError, match="counts do not match"):
        load_evidence(target)
