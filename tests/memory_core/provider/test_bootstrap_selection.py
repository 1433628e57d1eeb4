"""``bootstrap.build`` selects the formation extractor through the bundled-evidence rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memory_core import Principal, build
from memory_core.formation.selection import (
    ProviderEvidenceRequiredError,
    SelectionReason,
)

OWNER = Principal("tests", "owner")
"""The principal the compositions of this module belong to."""

Kit = Any
ModelFactory = Any


def test_without_a_formation_model_formation_is_deterministic(tmp_path: Path) -> None:
    app = build(principal=OWNER, evidence_dir=tmp_path)
    assert app.formation_selection is not None
    assert app.formation_selection.selected == "deterministic"
    assert app.formation_selection.reason is SelectionReason.NO_MODEL


def test_auto_with_current_evidence_uses_the_provider(
    make_model: ModelFactory, kit: Kit, tmp_path: Path
) -> None:
    kit.write_evidence(tmp_path)
    app = build(
        principal=OWNER, formation_model=make_model(), formation_mode="auto", evidence_dir=tmp_path
    )
    assert app.formation_selection is not None
    assert app.formation_selection.selected == "provider"
    assert app.formation_selection.reason is SelectionReason.EVIDENCE_CURRENT


def test_auto_without_evidence_falls_back_and_says_why(
    make_model: ModelFactory, tmp_path: Path
) -> None:
    app = build(
        principal=OWNER, formation_model=make_model(), formation_mode="auto", evidence_dir=tmp_path
    )
    assert app.formation_selection is not None
    assert app.formation_selection.selected == "deterministic"
    assert app.formation_selection.reason is SelectionReason.NO_EVIDENCE


def test_required_without_evidence_refuses_to_start(
    make_model: ModelFactory, tmp_path: Path
) -> None:
    with pytest.raises(ProviderEvidenceRequiredError):
        build(
            principal=OWNER,
            formation_model=make_model(),
            formation_mode="required",
            evidence_dir=tmp_path,
        )


def test_an_explicit_extractor_bypasses_selection() -> None:
    from memory_core.formation import DeterministicExtractor

    assert build(principal=OWNER, extractor=DeterministicExtractor()).formation_selection is None
