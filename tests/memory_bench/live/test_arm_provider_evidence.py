"""Gate 20 precedes live evidence: the live arm admits its first run only on valid, current
provider formation evidence for the provider and model it asks, and its artifact names that
evidence by file name and sha256.

Without it the arm stops with ``stopped_by="provider_evidence"`` and the named condition,
having sent nothing and written nothing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from memory_bench.live.arm import PROVIDER_EVIDENCE_CONDITION
from memory_bench.live.evidence import MemoryBenchmarkEvidence, load_evidence
from memory_core.policy import PROVIDER_FORMATION_POLICY

LiveKit = Any  # the ``live`` fixture (tests/memory_bench/live/conftest.py)

pytestmark = pytest.mark.gate("gate.memory.provider_positive_coverage_v2")


def _refused(live: LiveKit, tmp_path: Path, directory: Path, reason: str) -> None:
    output = tmp_path / "evidence.json"

    result = live.run(output, evidence_dir=directory)

    assert result.outcome == "failed"
    assert result.stopped_by == "provider_evidence"
    assert result.failed_conditions == [
        f"{PROVIDER_EVIDENCE_CONDITION}: {reason} (gate 20 precedes any live evidence)"
    ]
    assert result.error is not None and "agent eval memory-formation --provider" in result.error
    assert result.runs_admitted == 0 and result.rows == []
    assert live.server.requests == []
    assert not output.exists()
    assert f"failed: {result.failed_conditions[0]}" in result.diagnostics()


def test_no_provider_evidence_stops_the_arm_before_any_request(
    live: LiveKit, tmp_path: Path
) -> None:
    empty = tmp_path / "no-evidence"
    empty.mkdir()
    _refused(live, tmp_path, empty, "no_evidence")


def test_evidence_for_another_model_does_not_vouch_for_this_one(
    live: LiveKit, tmp_path: Path
) -> None:
    directory = tmp_path / "other"
    live.write_provider_evidence(directory, live.provider_evidence("another-model"))
    _refused(live, tmp_path, directory, "other_model")


def test_evidence_naming_another_provider_does_not_vouch(live: LiveKit, tmp_path: Path) -> None:
    directory = tmp_path / "mismatch"
    live.write_provider_evidence(directory, live.provider_evidence(provider="elsewhere"))
    _refused(live, tmp_path, directory, "provider_mismatch")


def test_tampered_evidence_below_the_floor_does_not_vouch(live: LiveKit, tmp_path: Path) -> None:
    directory = tmp_path / "tampered"
    path = live.write_provider_evidence(directory, live.provider_evidence())
    document = json.loads(path.read_text(encoding="utf-8"))
    document["fully_supported_positive"] = 16
    document["supported_case_ids"] = document["supported_case_ids"][:16]
    document["unsupported_case_ids"] = [f"fp-{n:03d}" for n in range(17, 22)]
    path.write_text(json.dumps(document), encoding="utf-8")
    _refused(live, tmp_path, directory, "invalid_evidence")


def test_a_passing_run_names_the_provider_evidence_it_was_admitted_on(
    live: LiveKit, tmp_path: Path
) -> None:
    output = tmp_path / "evidence.json"
    (vouching,) = sorted(live.evidence_dir.iterdir())

    result = live.run(output)

    assert result.passed, result.diagnostics()
    evidence = load_evidence(output)
    assert evidence.provenance.policies.provider_formation == PROVIDER_FORMATION_POLICY
    assert evidence.provider_formation_evidence_file == vouching.name
    assert (
        evidence.provider_formation_evidence_sha256
        == hashlib.sha256(vouching.read_bytes()).hexdigest()
        == result.provider_formation_evidence_sha256
    )


def test_the_artifact_refuses_provider_evidence_of_another_version(
    passing_document: dict[str, Any],
) -> None:
    passing_document["provider_formation_evidence_file"] = (
        "provider-formation.formation@1.gpt-4o-mini.json"
    )
    with pytest.raises(ValidationError, match=f"not evidence for {PROVIDER_FORMATION_POLICY}"):
        MemoryBenchmarkEvidence.model_validate(passing_document)
