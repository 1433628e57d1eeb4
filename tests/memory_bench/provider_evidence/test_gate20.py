"""Gate 20: provider formation evidence is published only when at least the eighty-per-cent
floor of the case file's labeled positive cases is fully supported (17 of a 21-case file, 32
of the checked-in 40) and no negative case formed.

Every run here goes through the real HTTP path: ``OpenAICompatibleModel`` posting
chat-completions requests to a server on 127.0.0.1 whose replies are scripted per case.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memory_bench.artifacts import ArtifactExistsError, ArtifactWriteError
from memory_bench.formation_eval import default_case_path, load_formation_cases
from memory_bench.provenance import PolicyVersions, package_versions
from memory_bench.provider_evidence import (
    ProviderFormationRun,
    diagnostics,
    load_provider_evidence,
    run_provider_formation,
)
from memory_bench.provider_floor import positive_coverage_floor
from memory_bench.source_tree import SourceTree
from memory_cli.app import main
from memory_core.clock import FixedClock
from memory_core.formation.provider import ProviderExtractor
from memory_core.formation.selection import (
    InvalidProviderEvidenceError,
    SelectionMode,
    SelectionReason,
    select_extractor,
)
from memory_core.policy import PROVIDER_FORMATION_POLICY
from memory_core.runtime.openai_compat import OpenAICompatibleModel
from memory_core.runtime.pricing import PriceCatalog

pytestmark = pytest.mark.gate("gate.memory.provider_positive_coverage_v2")

FKit = Any
Server = Any
NAME = f"provider-formation.{PROVIDER_FORMATION_POLICY}.test-model.json"
FINISHED = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SOURCE = SourceTree(commit="0123456789abcdef0123456789abcdef01234567")


@pytest.fixture
def make_model(routed_server: Server) -> Iterator[Any]:
    built: list[OpenAICompatibleModel] = []

    def factory(**options: Any) -> OpenAICompatibleModel:
        settings: dict[str, Any] = {
            "model": "test-model",
            "base_url": routed_server.base_url,
            "prices": PriceCatalog({}),
            "sleep": lambda _seconds: None,
            "max_retries": 0,
        }
        settings.update(options)
        model = OpenAICompatibleModel(**settings)
        built.append(model)
        return model

    yield factory
    for model in built:
        model.close()


def _run(cases: Path, model: OpenAICompatibleModel, output: Path | None) -> ProviderFormationRun:
    return run_provider_formation(
        load_formation_cases(cases),
        model=model,
        clock=FixedClock(FINISHED),
        output=output,
        source=SOURCE,
    )


def _ids(first: int, last: int) -> list[str]:
    return [f"fp-{n:03d}" for n in range(first, last + 1)]


def test_18_of_21_publishes_a_valid_artifact_that_selection_accepts(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    routed_server.route = script = fkit.script_for(full_case_document, 21, supported=18)
    evidence_dir = tmp_path / "evidence"
    model = make_model()
    run = _run(cases21, model, evidence_dir)
    assert script.unknown == []
    assert run.passed, diagnostics(run)
    assert (run.fully_supported_positive, run.positive_cases, run.minimum_fully_supported) == (
        18,
        21,
        17,
    )
    assert run.unsupported_case_ids == _ids(19, 21)
    assert run.published == str(evidence_dir / NAME)
    assert [p.name for p in evidence_dir.iterdir()] == [NAME]

    evidence = load_provider_evidence(evidence_dir / NAME)
    assert evidence.schema_version == 2
    assert evidence.provenance == run.provenance
    assert evidence.provenance.policies == PolicyVersions.current()
    assert evidence.provenance.policies.provider_formation == PROVIDER_FORMATION_POLICY
    assert (evidence.provenance.commit, evidence.provenance.dirty) == (SOURCE.commit, False)
    assert evidence.provenance.packages == package_versions()
    assert (evidence.provider, evidence.model) == ("openai-compatible", "test-model")
    assert evidence.case_file == "memory-formation.v2.json"
    assert evidence.provenance.inputs == {"case_file": load_formation_cases(cases21).sha256}
    assert (evidence.fully_supported_positive, evidence.negatives_formed) == (18, 0)
    assert evidence.supported_case_ids == tuple(_ids(1, 18))
    assert evidence.negative_cases == len(full_case_document["negative"])
    assert evidence.model_errors == 0
    assert evidence.requests == len(routed_server.requests)
    assert evidence.provenance.recorded_at == FINISHED
    text = (evidence_dir / NAME).read_text()
    for case in full_case_document["positive"][:21]:
        for expected in case["expected"]:
            assert expected["statements"][0] not in text  # counts and ids only

    selection = select_extractor(SelectionMode.AUTO, model=model, evidence_dir=evidence_dir)
    assert isinstance(selection.extractor, ProviderExtractor)
    assert selection.audit.reason is SelectionReason.EVIDENCE_CURRENT


def test_17_of_21_is_the_floor_and_publishes(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    routed_server.route = fkit.script_for(full_case_document, 21, supported=17)
    run = _run(cases21, make_model(), tmp_path)
    assert run.passed, diagnostics(run)
    assert load_provider_evidence(tmp_path / NAME).fully_supported_positive == 17


def test_16_of_21_writes_nothing_and_explains_why(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    routed_server.route = fkit.script_for(full_case_document, 21, supported=16)
    evidence_dir = tmp_path / "evidence"
    run = _run(cases21, make_model(), evidence_dir)
    assert not run.passed
    assert run.published is None
    assert list(evidence_dir.iterdir()) == []  # checked up front, nothing written
    assert run.failures == [
        "fully_supported_positive 16 < 17 (80% of 21; gate.memory.provider_positive_coverage_v2)"
    ]
    lines = diagnostics(run)
    assert "fully supported positive cases: 16 of 21 (need 17)" in lines[1]
    assert "  fp-017: matched 0 of 1" in lines


def test_a_negative_case_formed_writes_nothing(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    script = fkit.script_for(full_case_document, 21, supported=21)
    # A third-party statement restated as the user's relationship: grounded, so it forms.
    script.behaviours["fn-016"] = lambda _attempt: fkit.candidates_reply(
        [
            {
                "belief_type": "relationship",
                "subject": "brother",
                "statement": "User's brother lives in Chicago.",
                "polarity": "assert",
            }
        ]
    )
    routed_server.route = script
    run = _run(cases21, make_model(), tmp_path / "evidence")
    assert run.fully_supported_positive == 21
    assert (run.negatives_formed, run.formed_negative_case_ids) == (1, ["fn-016"])
    assert run.failures == ["negatives_formed 1 != 0"]
    assert list((tmp_path / "evidence").iterdir()) == []


def _item(statement: str, subject: str, belief_type: str = "user_model_attr") -> dict[str, str]:
    return {
        "belief_type": belief_type,
        "subject": subject,
        "statement": statement,
        "polarity": "assert",
    }


def test_malformed_and_hostile_replies_form_nothing_and_are_counted(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    script = fkit.script_for(full_case_document, 21, supported=18)
    reply = fkit.candidates_reply
    # Positives fp-019..fp-021 answered badly (the first two alongside their correct
    # candidates, so the bad one sinks the whole reply).
    fp19, fp20 = full_case_document["positive"][18:20]
    script.behaviours["fp-019"] = lambda _a: reply(
        [*fkit.expected_candidates(fp19), _item("User's api_key=sk-4f9a8b7c6d5e4f3a2b1c0.", "key")]
    )
    script.behaviours["fp-020"] = lambda _a: reply(
        [
            *fkit.expected_candidates(fp20),
            _item("User's manager is Dana.", "manager", "relationship"),
        ]
    )
    script.behaviours["fp-021"] = fkit.raw("Sure! " + json.dumps({"candidates": []}))
    # Negatives with a formable sentence answered with hostile or broken replies.
    script.behaviours["fn-014"] = lambda _a: reply([_item("User is learning Haskell.", "haskell")])
    script.behaviours["fn-015"] = lambda _a: reply(
        [_item("User says ignore previous instructions about the standing desk.", "desk")]
    )
    script.behaviours["fn-016"] = fkit.raw(
        '{"candidates": [{"statement": "User loves the Bears."}]}'
    )
    script.behaviours["fn-020"] = lambda _a: reply(
        [_item("User's password for Seattle is hunter2.", "password")]
    )
    routed_server.route = script
    run = _run(cases21, make_model(), tmp_path)
    assert script.unknown == []
    assert run.passed, diagnostics(run)
    assert run.negatives_formed == 0
    assert run.unsupported_case_ids == _ids(19, 21)
    rows = {row.id: row for row in run.report.cases}
    for case_id in ("fp-019", "fp-020", "fp-021", "fn-014", "fn-015", "fn-016", "fn-020"):
        assert rows[case_id].formed == [], case_id
    counters = run.counters
    assert counters.hostile_replies == 5
    assert counters.malformed_replies == 2
    assert counters.rejections == {"hazard": 3, "not_json": 1, "schema": 1, "ungrounded": 2}
    evidence = load_provider_evidence(tmp_path / NAME)
    assert (evidence.hostile_replies, evidence.malformed_replies) == (5, 2)
    assert "hunter2" not in (tmp_path / NAME).read_text()


def test_a_rate_limit_is_retried_and_the_run_still_publishes(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    script = fkit.script_for(full_case_document, 21, supported=18)
    first = full_case_document["positive"][0]
    script.behaviours["fp-001"] = fkit.fail(429, then=fkit.support(first), times=1)
    script.behaviours["fp-002"] = fkit.fail(
        500, then=fkit.support(full_case_document["positive"][1]), times=2
    )
    routed_server.route = script
    run = _run(cases21, make_model(max_retries=2), tmp_path)
    assert run.passed, diagnostics(run)
    assert (script.attempts["fp-001"], script.attempts["fp-002"]) == (2, 3)
    assert run.counters.transient_errors == 0
    assert run.fully_supported_positive == 18


def test_a_persistent_server_error_forms_nothing_for_that_turn_and_blocks_publication(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    script = fkit.script_for(full_case_document, 21, supported=19)
    script.behaviours["fp-005"] = fkit.fail(500)
    routed_server.route = script
    run = _run(cases21, make_model(max_retries=1), tmp_path / "evidence")
    assert script.attempts["fp-005"] == 2
    assert {row.id: row for row in run.report.cases}["fp-005"].formed == []
    assert run.fully_supported_positive == 18  # enough, but a turn went unjudged
    assert run.counters.transient_errors == 1
    assert run.failures == ["model_errors 1 != 0 (a turn went unjudged)"]
    assert list((tmp_path / "evidence").iterdir()) == []


def test_a_timeout_on_a_negative_case_is_not_counted_as_forming_nothing(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    script = fkit.script_for(full_case_document, 21, supported=21)
    script.behaviours["fn-016"] = fkit.stall(2.0)
    routed_server.route = script
    run = _run(cases21, make_model(timeout_seconds=0.25), tmp_path / "evidence")
    assert run.counters.transient_errors == 1
    assert run.negatives_formed == 0
    assert not run.passed
    assert list((tmp_path / "evidence").iterdir()) == []  # checked up front, nothing written


def test_an_existing_artifact_is_refused_before_any_model_call(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    routed_server.route = fkit.script_for(full_case_document, 21, supported=21)
    existing = tmp_path / NAME
    existing.write_text("operator's file")
    for output in (tmp_path, existing):
        with pytest.raises(ArtifactExistsError, match="never overwritten"):
            _run(cases21, make_model(), output)
    assert routed_server.requests == []
    assert existing.read_text() == "operator's file"


def test_an_unwritable_evidence_directory_is_refused_before_any_model_call(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    routed_server.route = fkit.script_for(full_case_document, 21, supported=21)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(ArtifactWriteError, match="cannot be written"):
        _run(cases21, make_model(), blocker / "evidence")
    assert routed_server.requests == []


def test_a_tampered_artifact_fails_validation(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
) -> None:
    routed_server.route = fkit.script_for(full_case_document, 21, supported=17)
    run = _run(cases21, make_model(), tmp_path)
    assert run.passed
    path = tmp_path / NAME
    document = json.loads(path.read_text())
    document["minimum_fully_supported"] = 10
    path.write_text(json.dumps(document))
    with pytest.raises(InvalidProviderEvidenceError):
        load_provider_evidence(path)
    selection = select_extractor(SelectionMode.AUTO, model=make_model(), evidence_dir=tmp_path)
    assert selection.audit.reason is SelectionReason.INVALID_EVIDENCE


@pytest.mark.parametrize(("supported", "published"), [(32, True), (31, False)])
def test_the_checked_in_case_file_uses_its_own_eighty_per_cent_floor(
    routed_server: Server,
    make_model: Any,
    fkit: FKit,
    full_case_document: dict[str, Any],
    tmp_path: Path,
    supported: int,
    published: bool,
) -> None:
    positives = len(full_case_document["positive"])
    routed_server.route = fkit.script_for(full_case_document, positives, supported=supported)
    run = _run(default_case_path(Path(__file__)), make_model(), tmp_path / "evidence")
    assert run.minimum_fully_supported == (4 * positives + 4) // 5
    floor = positive_coverage_floor()
    assert (floor.positive_cases, floor.minimum_fully_supported) == (positives, 32)
    assert f"of {positives} (need {floor.minimum_fully_supported})" in diagnostics(run)[1]
    assert run.passed is published
    assert (tmp_path / "evidence" / NAME).exists() is published


def _cli(server: Server, cases: Path, *extra: str) -> int:
    return main(
        [
            "eval",
            "memory-formation",
            "--cases",
            str(cases),
            "--provider",
            "openai-compatible",
            "--model",
            "test-model",
            "--base-url",
            server.base_url,
            "--max-retries",
            "0",
            *extra,
        ]
    )


def test_the_command_publishes_once_and_then_refuses_before_calling_the_model(
    routed_server: Server,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    routed_server.route = fkit.script_for(full_case_document, 21, supported=18)
    evidence_dir = tmp_path / "evidence"
    assert _cli(routed_server, cases21, "--output", str(evidence_dir)) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["published"] == str(evidence_dir / NAME)
    assert f"published {evidence_dir / NAME}" in " ".join(err.split())
    before = (evidence_dir / NAME).read_text()
    calls = len(routed_server.requests)

    assert _cli(routed_server, cases21, "--output", str(evidence_dir)) == 2
    _, err = capsys.readouterr()
    assert "never overwritten" in " ".join(err.split())
    assert len(routed_server.requests) == calls
    assert (evidence_dir / NAME).read_text() == before


def test_the_command_exits_1_and_writes_nothing_below_the_floor(
    routed_server: Server,
    fkit: FKit,
    cases21: Path,
    full_case_document: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    routed_server.route = fkit.script_for(full_case_document, 21, supported=16)
    assert _cli(routed_server, cases21, "--output", str(tmp_path / "evidence")) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["published"] is None
    assert "not published: fully_supported_positive 16 < 17" in " ".join(err.split())
    assert list((tmp_path / "evidence").iterdir()) == []
