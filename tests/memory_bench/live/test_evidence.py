"""The evidence artifact validates itself, is written atomically and never overwritten."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from memory_bench.artifacts import ArtifactExistsError
from memory_bench.live.evidence import (
    EvidenceError,
    MemoryBenchmarkEvidence,
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
        (("evaluated_at",), "2026-11-30T00:00:00", "timezone"),
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
