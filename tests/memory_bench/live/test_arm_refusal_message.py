"""The live arm's gate-20 refusal tells the operator what to run for this model, and nothing
that cannot help (issue 22): no literal ``--model M``, no ``MEMORY_FORMATION_PROVIDER=auto``
(the live arm always requires provider formation evidence)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

LiveKit = Any  # the ``live`` fixture (tests/memory_bench/live/conftest.py)


def test_the_refusal_names_this_model_and_offers_no_fallback(live: LiveKit, tmp_path: Path) -> None:
    empty = tmp_path / "no-evidence"
    empty.mkdir()
    result = live.run(tmp_path / "evidence.json", evidence_dir=empty)
    assert result.stopped_by == "provider_evidence"
    assert result.error is not None
    assert f"--model {live.model_name}" in result.error
    assert "--model M " not in result.error
    assert "MEMORY_FORMATION_PROVIDER" not in result.error
    assert "auto" not in result.error
    assert live.server.requests == []
