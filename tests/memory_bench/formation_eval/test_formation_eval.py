"""The formation evaluation: case file, matching, figures, and ``agent eval memory-formation``."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from rich.console import Console

from memory_bench.formation_eval import (
    ExpectedBelief,
    FormationCaseFileError,
    FormationReport,
    default_case_path,
    evaluate_formation,
    load_formation_cases,
    render_summary,
    text_matches,
    triple_matches,
)
from memory_cli import main
from memory_core import BeliefType
from memory_core.policy import DETERMINISTIC_FORMATION_POLICY
from memory_core.text import label_key

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "corpus" / "memory-formation.v2.json"


@pytest.fixture(scope="module")
def report() -> FormationReport:
    return evaluate_formation(load_formation_cases(CASES))


def test_checked_in_case_file_loads_with_its_digest() -> None:
    loaded = load_formation_cases(CASES)
    assert loaded.sha256 == hashlib.sha256(CASES.read_bytes()).hexdigest()
    assert len(loaded.cases.positive) >= 21
    assert len(loaded.cases.negative) >= 15
    categories = {c.category for c in loaded.cases.negative}
    assert {"secret", "injection", "question", "hypothetical", "third_party"} <= categories
    assert "assistant_turn" in categories
    assert default_case_path(ROOT / "packages") == CASES


def test_no_secret_or_injection_forms_and_figures_add_up(report: FormationReport) -> None:
    assert report.fabricated == 0
    assert report.negative_formed == 0
    assert report.policy_version == DETERMINISTIC_FORMATION_POLICY
    assert report.true_positives == sum(r.matched for r in report.cases)
    assert report.formed_total == report.true_positives + report.false_positives
    assert report.expected_total == report.true_positives + report.false_negatives
    assert report.precision == pytest.approx(report.true_positives / report.formed_total)
    assert report.recall == pytest.approx(report.true_positives / report.expected_total)
    refused = {r.id: r.refused_hazard for r in report.cases if r.kind == "negative"}
    loaded = load_formation_cases(CASES)
    for case in loaded.cases.negative:
        if case.category in ("secret", "injection"):
            assert refused[case.id] >= 1, case.id


def test_the_specifications_worked_turns_form_exactly_their_labels(report: FormationReport) -> None:
    rows = {r.id: r for r in report.cases}
    for case_id in [f"fp-{i:03d}" for i in range(1, 9)]:
        row = rows[case_id]
        assert (row.matched, row.missed, row.unexpected) == (row.expected, [], []), case_id


def test_evaluation_is_reproducible(report: FormationReport) -> None:
    again = evaluate_formation(load_formation_cases(CASES))
    assert again.model_dump_json() == report.model_dump_json()


def test_matching_normalizes_case_whitespace_and_trailing_punctuation() -> None:
    assert label_key("  User   Lives in  Portland now. ") == "user lives in portland now"
    assert label_key("Really?!") == "really"
    assert text_matches("user lives in PORTLAND", ["User lives in Portland."])
    assert not text_matches("User lives in Portland, Oregon.", ["User lives in Portland."])
    expected = ExpectedBelief(
        belief_type=BeliefType.USER_MODEL_ATTR,
        subjects=["home location", "location"],
        statements=["User lives in Portland now.", "User lives in Portland."],
    )
    assert triple_matches(expected, "user_model_attr", "Location", "user lives in portland")
    assert expected.matches(BeliefType.USER_MODEL_ATTR, "home location", "User lives in Portland.")
    assert not expected.matches(BeliefType.FACT, "home location", "User lives in Portland.")
    assert not expected.matches(BeliefType.USER_MODEL_ATTR, "employment", "User lives in Portland.")


def test_expected_belief_is_frozen_strict_and_subclassable() -> None:
    class LabeledBelief(ExpectedBelief):
        label: str

    labeled = LabeledBelief(
        belief_type=BeliefType.RELATIONSHIP,
        subjects=["wife"],
        statements=["User's wife is Morgan."],
        label="wife_morgan",
    )
    assert labeled.matches("relationship", "Wife", "user's wife is morgan")
    with pytest.raises(ValidationError):
        ExpectedBelief.model_validate(
            {"belief_type": "fact", "subjects": ["x"], "statements": ["y"], "extra": 1}
        )
    with pytest.raises(ValidationError):
        ExpectedBelief(belief_type=BeliefType.FACT, subjects=[], statements=["y"])
    with pytest.raises(ValidationError):
        labeled.label = "other"  # type: ignore[misc]


def _write(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _document() -> dict[str, object]:
    loaded: dict[str, object] = json.loads(CASES.read_text(encoding="utf-8"))
    return loaded


def test_malformed_case_files_name_the_file_and_the_field(tmp_path: Path) -> None:
    with pytest.raises(FormationCaseFileError, match="cannot read"):
        load_formation_cases(tmp_path / "missing.json")

    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(FormationCaseFileError, match=r"broken\.json: not valid JSON"):
        load_formation_cases(broken)

    document = _document()
    document["positive"][0]["expected"][0]["belief_type"] = "opinion"  # type: ignore[index]
    with pytest.raises(FormationCaseFileError, match=r"cases\.json.*positive\.0\.expected\.0"):
        load_formation_cases(_write(tmp_path, document))

    document = _document()
    document["negative"][0]["surprise"] = True  # type: ignore[index]
    with pytest.raises(FormationCaseFileError, match=r"negative\.0\.surprise"):
        load_formation_cases(_write(tmp_path, document))

    document = _document()
    document["negative"][1]["id"] = document["negative"][0]["id"]  # type: ignore[index]
    with pytest.raises(FormationCaseFileError, match="repeated: fn-001"):
        load_formation_cases(_write(tmp_path, document))

    document = _document()
    document["positive"] = document["positive"][:20]  # type: ignore[index]
    with pytest.raises(FormationCaseFileError, match="positive"):
        load_formation_cases(_write(tmp_path, document))


def test_summary_table_names_the_figures(report: FormationReport) -> None:
    console = Console(record=True, width=160)
    console.print(render_summary(report))
    text = console.export_text()
    assert f"precision {report.precision:.3f}" in text
    assert "fp-001" in text and "fn-001" in text
    assert report.sha256[:12] in text


def test_cli_prints_parseable_json_on_stdout(
    capsys: pytest.CaptureFixture[str], report: FormationReport
) -> None:
    status = main(["eval", "memory-formation", "--cases", str(CASES), "--table", "always"])
    captured = capsys.readouterr()
    assert status == 0
    printed = json.loads(captured.out)
    assert printed["precision"] == report.precision
    assert printed["recall"] == report.recall
    assert printed["fabricated"] == 0
    assert len(printed["cases"]) == report.positive_cases + report.negative_cases
    assert "Formation evaluation" in captured.err


def test_cli_exits_2_on_a_malformed_case_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document()
    del document["negative"]
    path = _write(tmp_path, document)
    status = main(["eval", "memory-formation", "--cases", str(path), "--table", "never"])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    assert "cases.json" in captured.err and "negative" in captured.err


def test_cli_exits_1_when_forbidden_content_forms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document()
    document["positive"][0]["forbidden_statements"] = ["Seattle"]  # type: ignore[index]
    path = _write(tmp_path, document)
    status = main(["eval", "memory-formation", "--cases", str(path), "--table", "never"])
    assert status == 1
    assert json.loads(capsys.readouterr().out)["fabricated"] == 1
