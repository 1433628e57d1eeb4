"""A formation model given to ``build()`` but not selected under ``auto``: a warning and an
audit line saying why; none when it is selected or when no model was given."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from memory_core import Principal, build

OWNER = Principal("tests", "owner")
LOGGER = "memory_core.formation.selection"


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno >= 30]


def test_a_given_model_not_selected_warns_and_the_audit_says_why(
    make_model: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    model = make_model()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        app = build(
            principal=OWNER, formation_model=model, formation_mode="auto", evidence_dir=tmp_path
        )
    audit = app.formation_selection
    assert audit is not None and audit.selected == "deterministic"
    assert audit.not_selected is not None
    assert repr(model.model_name) in audit.not_selected
    assert "(no_evidence)" in audit.not_selected
    assert _warnings(caplog) == [audit.not_selected]


def test_a_selected_model_and_no_model_are_silent(
    make_model: Any, kit: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kit.write_evidence(tmp_path)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        chosen = build(
            principal=OWNER,
            formation_model=make_model(),
            formation_mode="auto",
            evidence_dir=tmp_path,
        )
        plain = build(principal=OWNER, evidence_dir=tmp_path)
    assert chosen.formation_selection is not None
    assert chosen.formation_selection.selected == "provider"
    assert chosen.formation_selection.not_selected is None
    assert plain.formation_selection is not None
    assert plain.formation_selection.not_selected is None
    assert _warnings(caplog) == []
