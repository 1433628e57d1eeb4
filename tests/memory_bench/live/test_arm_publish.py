"""Gate 7: live evidence exists only when every pass condition held.

Driven end to end through a real chat-completions server on 127.0.0.1 (the ``live`` fixture):
a passing run writes exactly one artifact that loads and re-validates; a failing run writes
nothing; an existing artifact is refused before any request reaches the server; a tampered
artifact fails to load.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memory_bench.artifacts import ArtifactExistsError, ArtifactWriteError
from memory_bench.live.arm import LIVE_ARM_VERSION, default_live_policy_profile, probe_prompt
from memory_bench.live.evidence import EvidenceError, load_evidence
from memory_bench.provenance import PolicyVersions, package_versions
from memory_bench.source_tree import SourceTree
from memory_core.errors import UsageError
from memory_core.formation.extractor import DeterministicExtractor
from memory_core.policy import PROVIDER_FORMATION_POLICY, RETRIEVAL_POLICY
from memory_core.runtime.openai_compat import OpenAICompatibleModel

LiveKit = Any  # the ``live`` fixture (tests/memory_bench/live/conftest.py)

pytestmark = pytest.mark.gate("gate.memory.bench_evidence_publish")


def test_a_passing_run_writes_exactly_one_valid_artifact(live: LiveKit, tmp_path: Path) -> None:
    output = tmp_path / "evidence" / "memory-benchmark-live.json"

    result = live.run(output)

    assert result.passed, result.diagnostics()
    assert result.evidence_path == str(output)
    assert [p.name for p in output.parent.iterdir()] == [output.name]  # no temporary file left
    evidence = load_evidence(output)
    profile = default_live_policy_profile()
    assert evidence.benchmark_version == LIVE_ARM_VERSION
    assert evidence.schema_version == 3
    assert evidence.provenance.inputs == {"corpus": live.digest}
    assert (evidence.provenance.commit, evidence.provenance.dirty) == (live.build_ref, False)
    assert evidence.provenance.packages == package_versions()
    assert evidence.provenance == result.provenance
    assert (evidence.provider, evidence.model) == ("openai-compatible", live.model_name)
    assert evidence.policy_profile == profile.name == "no-tools"
    assert evidence.compiled_policy_version == profile.compiled_version
    assert evidence.run_compiled_policy_versions == [profile.compiled_version]
    assert evidence.provenance.policies == PolicyVersions(
        formation=DeterministicExtractor().policy_version,
        provider_formation=PROVIDER_FORMATION_POLICY,
        retrieval=RETRIEVAL_POLICY,
    )
    assert evidence.provenance.recorded_at == datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert [(r.scenario_id, r.probe_id) for r in evidence.rows] == [
        (scenario.id, probe.id) for scenario in live.corpus.scenarios for probe in scenario.probes
    ]
    # Every probe was asked exactly twice, with the instruction appended, and nothing else.
    assert len(live.server.requests) == 2 * len(live.probes) == 18
    assert sorted(live.turns()) == sorted(
        probe_prompt(probe, live.corpus) for probe in live.probes for _ in range(2)
    )
    assert evidence.counts.incomplete_runs == evidence.counts.retried_runs == 0
    # Without memory the reader abstains everywhere, so only the abstentions are right there.
    assert evidence.counts.without_memory_correct == evidence.counts.abstain_expected == 3
    assert evidence.counts.lift >= evidence.counts.minimum_lift
    assert evidence.total_cost_usd == pytest.approx(18 * (100 * 0.5 + 10 * 2.0) / 1e6)
    assert evidence.total_cost_usd == pytest.approx(
        sum(r.with_memory.cost_usd + r.without_memory.cost_usd for r in evidence.rows)
    )
    assert evidence.rows == result.rows
    assert evidence.counts == result.counts


def test_only_the_with_memory_arm_sees_memory(live: LiveKit, tmp_path: Path) -> None:
    result = live.run(tmp_path / "evidence.json")

    assert result.passed
    with_memory, without_memory = live.server.requests[0::2], live.server.requests[1::2]
    assert all(live.memory_lines(r["messages"][:-1]) for r in with_memory)
    assert not any(live.memory_lines(r["messages"]) for r in without_memory)
    first = result.rows[0]
    assert (first.with_memory.answer, first.with_memory.correct) == ("Portland", True)
    assert first.without_memory.abstained and not first.without_memory.correct
    assert first.recoverable


def test_a_failing_run_writes_nothing_and_returns_diagnostics(
    live: LiveKit, tmp_path: Path
) -> None:
    live.reader.amnesiac = True  # memory is rendered but the model ignores it: no lift
    output = tmp_path / "evidence.json"

    result = live.run(output)

    assert result.outcome == "failed"
    assert not result.passed
    assert result.evidence_path is None
    assert list(tmp_path.iterdir()) == []
    assert result.counts is not None and result.counts.lift == 0
    assert any(c.startswith("lift 0 < minimum_lift") for c in result.failed_conditions)
    assert any(c.startswith("recoverable_correct 0 < ") for c in result.failed_conditions)
    assert "nothing published" in result.summary_line()
    assert len(live.server.requests) == 18  # it ran to the end; it just did not pass


def test_an_existing_artifact_is_refused_before_any_request(live: LiveKit, tmp_path: Path) -> None:
    output = tmp_path / "evidence.json"
    output.write_text("an earlier artifact\n", encoding="utf-8")
    built: list[OpenAICompatibleModel] = []

    with pytest.raises(ArtifactExistsError, match="never overwritten"):
        live.run(output, model_factory=live.factory(built=built))

    assert live.server.requests == []
    assert built == []  # not even a model was built
    assert output.read_text(encoding="utf-8") == "an earlier artifact\n"


def test_an_unwritable_output_is_refused_before_any_request(live: LiveKit, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    built: list[OpenAICompatibleModel] = []

    with pytest.raises(ArtifactWriteError, match="cannot be written"):
        live.run(blocker / "evidence.json", model_factory=live.factory(built=built))

    assert live.server.requests == []
    assert built == []


def test_a_dirty_checkout_is_recorded_as_dirty(live: LiveKit, tmp_path: Path) -> None:
    dirty = SourceTree(commit=live.build_ref, changed=("packages/x.py",))
    result = live.run(tmp_path / "evidence.json", source=dirty, build_ref=None)
    assert result.passed, result.diagnostics()
    provenance = load_evidence(tmp_path / "evidence.json").provenance
    assert (provenance.commit, provenance.dirty) == (live.build_ref, True)


@pytest.mark.parametrize(
    ("build_ref", "source", "message"),
    [
        ("f" * 40, None, "is not the checkout's HEAD"),
        ("0123", None, "too short to name a commit"),
        ("0123456", SourceTree(commit=None), "no git checkout"),
    ],
)
def test_a_build_ref_that_is_not_the_checkouts_commit_is_refused_before_any_request(
    live: LiveKit, tmp_path: Path, build_ref: str, source: SourceTree | None, message: str
) -> None:
    built: list[OpenAICompatibleModel] = []
    extra: dict[str, Any] = {} if source is None else {"source": source}
    with pytest.raises(UsageError, match=message):
        live.run(
            tmp_path / "evidence.json",
            build_ref=build_ref,
            model_factory=live.factory(built=built),
            **extra,
        )
    assert live.server.requests == []
    assert built == []
    assert not (tmp_path / "evidence.json").exists()


def test_a_build_ref_prefix_of_the_commit_is_accepted(live: LiveKit, tmp_path: Path) -> None:
    result = live.run(tmp_path / "evidence.json", build_ref=live.build_ref[:7].upper())
    assert result.passed, result.diagnostics()


def test_a_published_artifact_is_never_overwritten(live: LiveKit, tmp_path: Path) -> None:
    output = tmp_path / "evidence.json"
    assert live.run(output).passed
    before = output.read_bytes()
    sent = len(live.server.requests)

    with pytest.raises(ArtifactExistsError):
        live.run(output, build_ref="another-commit")

    assert len(live.server.requests) == sent
    assert output.read_bytes() == before


def _tamper(document: dict[str, Any], how: str, model: str) -> None:
    counts = document["counts"]
    if how == "flip_an_answer":
        document["rows"][0]["with_memory"]["correct"] = False
    elif how == "consistent_but_below_threshold":
        for row in document["rows"]:
            if row["answer_kind"] != "abstain":
                row["with_memory"]["correct"] = False
        counts["with_memory_correct"] = counts["abstain_expected"]
        counts["recoverable_correct"] = 0
    elif how == "an_incomplete_run":
        counts["incomplete_runs"] = 1
        counts["failure_classes"] = {"failed:TransientModelError": 1}
    elif how == "a_second_model":
        document["run_models"] = [model, "another-model"]
    elif how == "cheaper_than_its_rows":
        document["total_cost_usd"] = 0.0
    elif how == "over_the_ceiling":
        document["total_cost_usd"] = 4.01
    elif how == "a_naive_timestamp":
        document["provenance"]["recorded_at"] = "2026-11-30T12:00:00"
    else:
        raise AssertionError(how)


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("flip_an_answer", "counts do not match the per-probe rows"),
        ("consistent_but_below_threshold", "lift 0 < minimum_lift"),
        ("an_incomplete_run", "incomplete_runs 1 != 0"),
        ("a_second_model", "runs used models"),
        ("cheaper_than_its_rows", "below the cost of the rows"),
        ("over_the_ceiling", "total_cost_usd 4.0100 > ceiling 4.00"),
        ("a_naive_timestamp", "timezone"),
    ],
)
def test_a_tampered_artifact_fails_validation(
    live: LiveKit, tmp_path: Path, how: str, reason: str
) -> None:
    output = tmp_path / "evidence.json"
    assert live.run(output).passed
    document = json.loads(output.read_text(encoding="utf-8"))
    _tamper(document, how, live.model_name)
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(document), encoding="utf-8")

    with pytest.raises(EvidenceError, match=reason):
        load_evidence(tampered)
    assert load_evidence(output).counts.lift > 0  # the untouched artifact still validates
