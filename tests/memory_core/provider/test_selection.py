"""Extractor selection (auto | required | off) and the provider evidence document."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from memory_core.errors import ConfigurationError, UsageError
from memory_core.formation import DeterministicExtractor
from memory_core.formation.provider import ProviderExtractor
from memory_core.formation.selection import (
    EVIDENCE_DIR_ENV,
    SELECTION_MODE_ENV,
    InvalidProviderEvidenceError,
    ProviderEvidenceRequiredError,
    ProviderFormationEvidence,
    SelectionAudit,
    SelectionMode,
    SelectionReason,
    default_evidence_dir,
    load_provider_evidence,
    minimum_fully_supported,
    parse_selection_mode,
    provider_evidence_filename,
    select_extractor,
    selection_mode_from_env,
)
from memory_core.policy import DETERMINISTIC_FORMATION_POLICY, PROVIDER_FORMATION_POLICY
from memory_core.runtime.scripted import FakeModelScript, ScriptedModel, ScriptedTurn

NEXT = f"formation@{int(PROVIDER_FORMATION_POLICY.split('@')[1]) + 1}"
"""A provider policy version after the current one (a version bump)."""

Kit = Any
ModelFactory = Any

AUTO = SelectionMode.AUTO
REQUIRED = SelectionMode.REQUIRED
OFF = SelectionMode.OFF


# -- file names ---------------------------------------------------------------------------


def test_file_name_is_derived_from_the_policy_version_and_model() -> None:
    assert (
        provider_evidence_filename("formation@6", "gpt-4o-mini")
        == "provider-formation.formation@6.gpt-4o-mini.json"
    )
    assert (
        provider_evidence_filename("formation@6", "meta-llama/Llama-3.1-8B-Instruct")
        == "provider-formation.formation@6.meta-llama%2FLlama-3.1-8B-Instruct.json"
    )
    assert provider_evidence_filename("formation@8", "m") != provider_evidence_filename(
        "formation@6", "m"
    )


@pytest.mark.parametrize(
    "model", ["llama3.1:8b", "../../etc/passwd", "a b", "..", "m%2Fx", "m/x", "C:\\models\\x"]
)
def test_any_model_name_maps_to_one_plain_file_name(model: str) -> None:
    name = provider_evidence_filename("formation@6", model)
    assert "/" not in name and "\\" not in name and ":" not in name and " " not in name
    assert Path(name).name == name


def test_distinct_models_never_share_a_file_name() -> None:
    models = ["m/x", "m%2Fx", "m_x", "m:x", "M/x", "m x", "m+x"]
    names = {provider_evidence_filename("formation@6", m) for m in models}
    assert len(names) == len(models)


def test_file_name_refuses_empty_and_overlong_names() -> None:
    with pytest.raises(UsageError, match="non-empty"):
        provider_evidence_filename("formation@6", " ")
    with pytest.raises(UsageError, match="at most"):
        provider_evidence_filename("formation@6", "m" * 201)


# -- the evidence document -----------------------------------------------------------------


def test_minimum_is_the_eighty_per_cent_floor() -> None:
    assert minimum_fully_supported(21) == 17
    assert minimum_fully_supported(20) == 16
    assert minimum_fully_supported(40) == 32
    assert minimum_fully_supported(5) == 4


def test_passing_evidence_validates_and_names_its_file(kit: Kit) -> None:
    evidence = ProviderFormationEvidence.model_validate(kit.evidence_fields())
    assert evidence.file_name == f"provider-formation.{PROVIDER_FORMATION_POLICY}.test-model.json"
    with pytest.raises(ValidationError, match="frozen"):
        setattr(evidence, "negatives_formed", 1)  # noqa: B010


def test_seventeen_of_twenty_one_is_enough(kit: Kit) -> None:
    ids = [f"fp-{n:03d}" for n in range(1, 22)]
    fields = kit.evidence_fields(
        fully_supported_positive=17, supported_case_ids=ids[:17], unsupported_case_ids=ids[17:]
    )
    assert ProviderFormationEvidence.model_validate(fields).fully_supported_positive == 17


_POLICIES = {
    "formation": "formation@7",
    "provider_formation": PROVIDER_FORMATION_POLICY,
    "retrieval": "retrieval@2",
}


def _provenance(**overrides: Any) -> dict[str, Any]:
    """The fixtures' provenance record with overrides (test modules cannot import conftest)."""
    fields: dict[str, Any] = {
        "commit": "0123456789abcdef0123456789abcdef01234567",
        "dirty": False,
        "packages": {"memory-core": "0.1.0"},
        "policies": _POLICIES,
        "inputs": {"case_file": "a" * 64},
        "recorded_at": "2026-03-02T09:00:00Z",
    }
    return {**fields, **overrides}


FAILING: list[tuple[str, dict[str, Any], str]] = [
    (
        "16 of 21",
        {
            "fully_supported_positive": 16,
            "supported_case_ids": [f"fp-{n:03d}" for n in range(1, 17)],
            "unsupported_case_ids": [f"fp-{n:03d}" for n in range(17, 22)],
        },
        "fully_supported_positive 16 < 17",
    ),
    ("a negative formed", {"negatives_formed": 1}, "negatives_formed 1 != 0"),
    ("a model error", {"model_errors": 2}, "model_errors 2 != 0"),
    ("lowered floor", {"minimum_fully_supported": 10}, "minimum_fully_supported 10"),
    ("count without ids", {"fully_supported_positive": 19}, "19"),
    (
        "ids do not add up",
        {"unsupported_case_ids": ["fp-019", "fp-020"]},
        "for 21 positive cases",
    ),
    (
        "id listed twice",
        {"unsupported_case_ids": ["fp-001", "fp-020", "fp-021"]},
        "listed twice",
    ),
    (
        "unsorted ids",
        {"unsupported_case_ids": ["fp-021", "fp-020", "fp-019"]},
        "sorted",
    ),
    ("too few positives", {"positive_cases": 20}, "positive_cases"),
    ("too few negatives", {"negative_cases": 3}, "negative_cases"),
    (
        "unknown version shape",
        {"provenance": _provenance(policies={**_POLICIES, "provider_formation": "v6"})},
        "provider_formation",
    ),
    ("path as case file", {"case_file": "/home/me/cases.json"}, "case_file"),
    ("bad digest", {"provenance": _provenance(inputs={"case_file": "abc"})}, "case_file"),
    ("no case file digest", {"provenance": _provenance(inputs={})}, "case_file"),
    ("non-UTC", {"provenance": _provenance(recorded_at="2026-03-02T09:00:00+02:00")}, "UTC"),
    ("naive time", {"provenance": _provenance(recorded_at="2026-03-02T09:00:00")}, "recorded_at"),
    ("dirty suffix", {"provenance": _provenance(commit="0123abc+dirty")}, "commit"),
    ("no provenance", {"provenance": None}, "provenance"),
    ("extra field", {"statement": "User lives in Oslo."}, "statement"),
    ("schema version", {"schema_version": 1}, "schema_version"),
    ("a schema 1 field", {"provider_policy_version": "formation@8"}, "provider_policy_version"),
]


@pytest.mark.parametrize(
    ("overrides", "message"), [(o, m) for _, o, m in FAILING], ids=[n for n, _, _ in FAILING]
)
def test_evidence_refuses_every_failed_condition(
    kit: Kit, overrides: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        ProviderFormationEvidence.model_validate(kit.evidence_fields(**overrides))


def test_load_revalidates_and_checks_the_name(kit: Kit, tmp_path: Path) -> None:
    path = kit.write_evidence(tmp_path)
    assert load_provider_evidence(path).model == kit.MODEL
    renamed = path.rename(
        tmp_path / provider_evidence_filename(PROVIDER_FORMATION_POLICY, "other-model")
    )
    with pytest.raises(InvalidProviderEvidenceError, match="belong in"):
        load_provider_evidence(renamed)
    tampered = json.loads(renamed.read_text())
    tampered["fully_supported_positive"] = 16
    path.write_text(json.dumps(tampered))
    with pytest.raises(InvalidProviderEvidenceError, match="not valid provider formation"):
        load_provider_evidence(path)
    path.write_text("{not json")
    with pytest.raises(InvalidProviderEvidenceError):
        load_provider_evidence(path)
    with pytest.raises(InvalidProviderEvidenceError, match="cannot read"):
        load_provider_evidence(tmp_path / "missing.json")


def test_the_fixture_provenance_is_the_kits(kit: Kit) -> None:
    assert kit.provenance_fields() == _provenance()


def test_schema_1_evidence_is_refused_naming_the_file_and_the_remedy(
    kit: Kit, tmp_path: Path
) -> None:
    current = kit.evidence_fields()
    provenance = current.pop("provenance")
    schema_1 = {
        **current,
        "schema_version": 1,
        "provider_policy_version": provenance["policies"]["provider_formation"],
        "case_file_sha256": provenance["inputs"]["case_file"],
        "created_at": provenance["recorded_at"],
    }
    name = provider_evidence_filename(PROVIDER_FORMATION_POLICY, kit.MODEL)
    path = kit.write_raw(tmp_path, name, schema_1)
    with pytest.raises(InvalidProviderEvidenceError) as caught:
        load_provider_evidence(path)
    message = str(caught.value)
    assert message.startswith(f"{name}: provider formation evidence of schema 1")
    assert f"Remove {path} and republish" in message
    assert "agent eval memory-formation --provider" in message


# -- selection -----------------------------------------------------------------------------


def test_auto_with_matching_evidence_selects_the_provider(
    make_model: ModelFactory, kit: Kit, tmp_path: Path
) -> None:
    kit.write_evidence(tmp_path)
    model = make_model()
    selection = select_extractor(AUTO, model=model, evidence_dir=tmp_path)
    assert isinstance(selection.extractor, ProviderExtractor)
    assert selection.extractor.model is model
    assert selection.audit == SelectionAudit(
        mode=AUTO,
        selected="provider",
        policy_version=PROVIDER_FORMATION_POLICY,
        provider_policy_version=PROVIDER_FORMATION_POLICY,
        reason=SelectionReason.EVIDENCE_CURRENT,
        evidence_file=f"provider-formation.{PROVIDER_FORMATION_POLICY}.test-model.json",
    )


def test_required_with_matching_evidence_selects_the_provider(
    make_model: ModelFactory, kit: Kit, tmp_path: Path
) -> None:
    kit.write_evidence(tmp_path)
    selection = select_extractor(REQUIRED, model=make_model(), evidence_dir=tmp_path)
    assert selection.audit.selected == "provider"
    assert selection.extractor.policy_version == PROVIDER_FORMATION_POLICY


def _deterministic(
    mode: SelectionMode, model: Any, directory: Path, version: str = PROVIDER_FORMATION_POLICY
) -> SelectionAudit:
    selection = select_extractor(
        mode, model=model, evidence_dir=directory, provider_policy_version=version
    )
    assert isinstance(selection.extractor, DeterministicExtractor)
    assert selection.audit.selected == "deterministic"
    assert selection.audit.policy_version == DETERMINISTIC_FORMATION_POLICY
    return selection.audit


def test_auto_without_an_evidence_directory_falls_back(
    make_model: ModelFactory, tmp_path: Path
) -> None:
    audit = _deterministic(AUTO, make_model(), tmp_path / "absent")
    assert (audit.reason, audit.evidence_file) == (SelectionReason.NO_EVIDENCE, None)


def test_auto_with_an_unrelated_directory_falls_back(
    make_model: ModelFactory, tmp_path: Path
) -> None:
    (tmp_path / "memory-benchmark.live.json").write_text("{}")
    assert _deterministic(AUTO, make_model(), tmp_path).reason is SelectionReason.NO_EVIDENCE


def test_a_provider_version_bump_makes_bundled_evidence_stale(
    make_model: ModelFactory, kit: Kit, tmp_path: Path
) -> None:
    kit.write_evidence(tmp_path)  # published at the current version
    audit = _deterministic(AUTO, make_model(), tmp_path, version=NEXT)
    assert audit.reason is SelectionReason.STALE_VERSION
    assert audit.provider_policy_version == NEXT
    with pytest.raises(ProviderEvidenceRequiredError) as refused:
        select_extractor(
            REQUIRED,
            model=make_model(),
            evidence_dir=tmp_path,
            provider_policy_version=NEXT,
        )
    assert refused.value.audit.reason is SelectionReason.STALE_VERSION
    assert f"provider-formation.{NEXT}.test-model.json" in str(refused.value)


def test_evidence_whose_name_says_current_but_contents_say_stale_is_invalid(
    make_model: ModelFactory, kit: Kit, tmp_path: Path
) -> None:
    kit.write_evidence(tmp_path, name=provider_evidence_filename(NEXT, kit.MODEL))
    audit = _deterministic(AUTO, make_model(), tmp_path, version=NEXT)
    assert audit.reason is SelectionReason.INVALID_EVIDENCE
    assert audit.evidence_file == f"provider-formation.{NEXT}.test-model.json"


def test_evidence_for_another_model_does_not_vouch_for_this_one(
    make_model: ModelFactory, kit: Kit, tmp_path: Path
) -> None:
    kit.write_evidence(tmp_path, model="other-model")
    assert _deterministic(AUTO, make_model(), tmp_path).reason is SelectionReason.OTHER_MODEL


def test_tampered_evidence_is_never_selected(
    make_model: ModelFactory, kit: Kit, tmp_path: Path
) -> None:
    path = kit.write_evidence(tmp_path)
    document = json.loads(path.read_text())
    document["fully_supported_positive"] = 12
    document["supported_case_ids"] = document["supported_case_ids"][:12]
    document["unsupported_case_ids"] = sorted(
        [*document["unsupported_case_ids"], *[f"fp-{n:03d}" for n in range(13, 19)]]
    )
    path.write_text(json.dumps(document))
    assert _deterministic(AUTO, make_model(), tmp_path).reason is SelectionReason.INVALID_EVIDENCE
    with pytest.raises(ProviderEvidenceRequiredError, match="invalid_evidence"):
        select_extractor(REQUIRED, model=make_model(), evidence_dir=tmp_path)


def test_evidence_for_another_provider_is_not_selected(
    make_model: ModelFactory, kit: Kit, tmp_path: Path
) -> None:
    kit.write_evidence(tmp_path, provider="some-other-provider")
    assert _deterministic(AUTO, make_model(), tmp_path).reason is SelectionReason.PROVIDER_MISMATCH


def test_a_scripted_model_never_has_provider_evidence(kit: Kit, tmp_path: Path) -> None:
    kit.write_evidence(tmp_path)
    scripted = ScriptedModel(FakeModelScript(turns=[ScriptedTurn(text="ok")]))
    assert _deterministic(AUTO, scripted, tmp_path).reason in (
        SelectionReason.OTHER_MODEL,
        SelectionReason.PROVIDER_MISMATCH,
    )


def test_auto_without_a_model_falls_back_and_required_refuses(kit: Kit, tmp_path: Path) -> None:
    kit.write_evidence(tmp_path)
    assert _deterministic(AUTO, None, tmp_path).reason is SelectionReason.NO_MODEL
    with pytest.raises(ProviderEvidenceRequiredError, match="no model"):
        select_extractor(REQUIRED, model=None, evidence_dir=tmp_path)


def test_required_without_evidence_refuses_with_a_typed_error(
    make_model: ModelFactory, tmp_path: Path
) -> None:
    with pytest.raises(ProviderEvidenceRequiredError) as refused:
        select_extractor(REQUIRED, model=make_model(), evidence_dir=tmp_path)
    error = refused.value
    assert isinstance(error, ConfigurationError)
    assert error.audit.mode is REQUIRED
    assert error.audit.reason is SelectionReason.NO_EVIDENCE
    assert "agent eval memory-formation --provider" in str(error)


def test_off_is_deterministic_even_with_current_evidence(
    make_model: ModelFactory, kit: Kit, tmp_path: Path
) -> None:
    kit.write_evidence(tmp_path)
    assert _deterministic(OFF, make_model(), tmp_path).reason is SelectionReason.MODE_OFF


def test_the_audit_is_content_free(make_model: ModelFactory, kit: Kit, tmp_path: Path) -> None:
    secret_dir = tmp_path / "User lives in Seattle"
    kit.write_raw(
        secret_dir,
        provider_evidence_filename(PROVIDER_FORMATION_POLICY, kit.MODEL),
        {"statement": "User lives in Seattle.", "password": "hunter2"},
    )
    audit = _deterministic(AUTO, make_model(), secret_dir)
    assert audit.reason is SelectionReason.INVALID_EVIDENCE
    assert [f.name for f in dataclasses.fields(audit)] == [
        "mode",
        "selected",
        "policy_version",
        "provider_policy_version",
        "reason",
        "evidence_file",
        "not_selected",
    ]
    assert audit.not_selected is not None
    rendered = repr(audit) + json.dumps(dataclasses.asdict(audit))
    for fragment in ("Seattle", "hunter2", "User lives", str(tmp_path)):
        assert fragment not in rendered


# -- configuration helpers ------------------------------------------------------------------


def test_modes_parse_and_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_selection_mode(" Required ") is REQUIRED
    with pytest.raises(UsageError, match="auto, required, off"):
        parse_selection_mode("sometimes")
    monkeypatch.delenv(SELECTION_MODE_ENV, raising=False)
    assert selection_mode_from_env() is AUTO
    monkeypatch.setenv(SELECTION_MODE_ENV, "off")
    assert selection_mode_from_env() is OFF


def test_default_evidence_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(EVIDENCE_DIR_ENV, raising=False)
    nested = tmp_path / "repo" / "packages" / "x"
    nested.mkdir(parents=True)
    (tmp_path / "repo" / "evidence").mkdir()
    assert default_evidence_dir(nested) == (tmp_path / "repo" / "evidence").resolve()
    monkeypatch.setenv(EVIDENCE_DIR_ENV, str(tmp_path / "elsewhere"))
    assert default_evidence_dir(nested) == tmp_path / "elsewhere"
