"""gate.memory.profiles_wired: the shipped document is the defaults, overlays reach the
retriever, unknown keys are refused by name, and the idle boundary is not a knob."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from memory_core import ConfigurationError
from memory_core.policy import SESSION_IDLE_SECONDS
from memory_core.profiles import (
    MemoryProfiles,
    RetrievalProfile,
    load_profiles,
    shipped_document,
)

GATE = pytest.mark.gate("gate.memory.profiles_wired")


def _keys(document: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    for key, value in document.items():
        path = f"{prefix}{key}"
        yield path
        if isinstance(value, Mapping):
            yield from _keys(value, f"{path}.")


# 1. the shipped document is exactly the defaults ---------------------------------------------


@GATE
def test_shipped_document_loads_to_exactly_the_default_models() -> None:
    assert load_profiles() == MemoryProfiles()
    assert MemoryProfiles.model_validate(shipped_document()) == MemoryProfiles()


@GATE
def test_shipped_document_writes_out_every_default_and_nothing_else() -> None:
    # Not only equal after validation: every knob is written in the file with its default
    # value, so an operator reviewing the document reads the whole inventory.
    assert shipped_document() == MemoryProfiles().model_dump(by_alias=True, mode="json")


def test_default_ranking_weights_keep_confidence_and_authority_positive() -> None:
    for field in ("confidence", "authority"):
        with pytest.raises(ConfigurationError, match=f"ranking_weights.{field}"):
            load_profiles({"retrieval": {"ranking_weights": {field: 0}}})


# 2. an overlay changes the value the retriever actually uses ---------------------------------


@GATE
def test_mapping_overlay_per_subject_cap_changes_what_recall_returns(
    recall_with: Callable[[MemoryProfiles], Any],
) -> None:
    shipped = recall_with(load_profiles())("Where do I live?")
    tighter = recall_with(load_profiles({"retrieval": {"per_subject_cap": 1}}))("Where do I live?")
    looser = recall_with(load_profiles({"retrieval": {"per_subject_cap": 3}}))("Where do I live?")
    assert load_profiles().retrieval.per_subject_cap == 2
    assert shipped.trace.returned_count == 2
    assert tighter.trace.returned_count == 1
    assert looser.trace.returned_count == 3


@GATE
def test_file_overlay_in_turn_budget_changes_what_recall_returns(
    tmp_path: Path, recall_with: Callable[[MemoryProfiles], Any]
) -> None:
    overlay = tmp_path / "memory-profiles.yaml"
    overlay.write_text(
        "retrieval:\n  per_subject_cap: 3\n  in_turn:\n    max_items: 2\n", encoding="utf-8"
    )
    profiles = load_profiles(overlay)
    assert profiles.retrieval.in_turn.max_items == 2
    assert profiles.retrieval.in_turn.max_tokens == 400  # untouched keys keep the shipped value
    result = recall_with(profiles)("Where do I live?")
    assert result.trace.returned_count == 2
    assert result.trace.dropped_count == 1
    assert len(result.block.split("\n")) == 3


@GATE
def test_overlay_durable_share_changes_the_snapshot(
    recall_with: Callable[[MemoryProfiles], Any],
) -> None:
    def durable_returned(share: float) -> int:
        profiles = load_profiles({"retrieval": {"durable_item_share": share}})
        result = recall_with(profiles)(project_scope="orbit", max_items=4, max_tokens=1000)
        return sum(1 for t in result.trace.beliefs if t.scope == "user")

    # with no reservation the newest (project) beliefs take three of four slots; a full
    # reservation keeps every slot for durable beliefs
    assert durable_returned(0.0) == 1
    assert durable_returned(1.0) == 4


@GATE
def test_overlay_trace_retention_changes_the_operator_expiry(
    recall_with: Callable[[MemoryProfiles], Any],
) -> None:
    trace = recall_with(load_profiles({"trace": {"operator_retention_days": 7}}))("live").trace
    assert trace.operator_expires_at == trace.created_at + timedelta(days=7)
    assert trace.user_expires_at == trace.created_at + timedelta(days=365)


@GATE
def test_overlay_ranking_weights_reach_the_score(
    recall_with: Callable[[MemoryProfiles], Any],
) -> None:
    # The three home beliefs match the turn equally; fusion favours the newest (least
    # trusted), confidence and authority favour the oldest. The weights decide.
    def first_city(weights: dict[str, float]) -> str:
        overlay = {"retrieval": {"per_subject_cap": 3, "ranking_weights": weights}}
        result = recall_with(load_profiles(overlay))("Where do I live?")
        statement: str = result.trace.beliefs[0].statement
        return statement

    assert first_city({}) == "User lives near Lisbon."
    assert first_city({"match": 100.0, "confidence": 0.001, "authority": 0.001}) == (
        "User lives near Faro."
    )


@GATE
def test_overlay_validation_runs_on_the_merged_document() -> None:
    profiles = load_profiles({"retrieval": {"ranking_weights": {"utility": 0.3}}})
    assert profiles.retrieval.ranking_weights.utility == 0.3
    assert profiles.retrieval.ranking_weights.match == 1.0
    assert profiles.formation == MemoryProfiles().formation


# 3. unknown keys are refused, naming the field ----------------------------------------------


@GATE
@pytest.mark.parametrize(
    ("overlay", "field"),
    [
        ({"retreival": {}}, "retreival"),
        ({"retrieval": {"per_subject_capp": 1}}, "retrieval.per_subject_capp"),
        ({"retrieval": {"ranking_weights": {"recency": 1.0}}}, "retrieval.ranking_weights.recency"),
        ({"retrieval": {"in_turn": {"max_item": 3}}}, "retrieval.in_turn.max_item"),
        ({"snapshot": {"interactive": {"max_items": 3}}}, "snapshot.interactive"),
        ({"trace": {"operator_retention": 3}}, "trace.operator_retention"),
    ],
)
def test_unknown_keys_are_refused_by_name(overlay: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigurationError) as raised:
        load_profiles(overlay)
    message = str(raised.value)
    assert field in message
    assert "profile overlay" in message


@GATE
def test_unknown_keys_in_a_file_name_the_file_and_the_field(tmp_path: Path) -> None:
    overlay = tmp_path / "ops.yaml"
    overlay.write_text("retrieval:\n  sematic_enabled: true\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"ops\.yaml.*retrieval\.sematic_enabled"):
        load_profiles(overlay)


def test_bad_values_and_bad_files_are_configuration_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"retrieval\.per_subject_cap"):
        load_profiles({"retrieval": {"per_subject_cap": 0}})
    with pytest.raises(ConfigurationError, match="not found"):
        load_profiles(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("retrieval: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="not valid YAML"):
        load_profiles(broken)
    listed = tmp_path / "list.yaml"
    listed.write_text("- retrieval\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="mapping"):
        load_profiles(listed)


# 4. the idle boundary is a constant, not a knob ---------------------------------------------


@GATE
def test_session_idle_seconds_is_absent_from_the_document() -> None:
    keys = list(_keys(shipped_document()))
    assert keys, "the shipped document has knobs"
    assert not [k for k in keys if "idle" in k.casefold()]
    assert SESSION_IDLE_SECONDS == 30 * 60
    assert not any("idle" in name for name in _model_fields(MemoryProfiles))


@GATE
def test_the_idle_boundary_cannot_be_overlaid() -> None:
    for overlay in (
        {"formation": {"session_idle_seconds": 60}},
        {"session_idle_seconds": 60},
        {"retrieval": {"SESSION_IDLE_SECONDS": 60}},
    ):
        with pytest.raises(ConfigurationError, match=r"(?i)idle_seconds"):
            load_profiles(overlay)


def _model_fields(model: type[Any], prefix: str = "") -> Iterator[str]:
    for name, info in model.model_fields.items():
        yield f"{prefix}{name}"
        annotation = info.annotation
        if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
            yield from _model_fields(annotation, f"{prefix}{name}.")


def test_profile_models_are_frozen() -> None:
    profile = RetrievalProfile()
    with pytest.raises(Exception, match="frozen"):
        profile.per_subject_cap = 5  # type: ignore[misc]
