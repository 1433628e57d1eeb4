"""The provider-evidence refusal: the real model name, and the ``auto`` fallback only where it
helps (issue 22: the message printed a literal ``--model M`` and suggested
``MEMORY_FORMATION_PROVIDER=auto`` to the live arm, which always requires evidence)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memory_core.formation.selection import (
    ProviderEvidenceRequiredError,
    SelectionMode,
    select_extractor,
)

ModelFactory = Any


def test_the_refusal_names_the_model_and_keeps_the_fallback_apart(
    make_model: ModelFactory, tmp_path: Path
) -> None:
    with pytest.raises(ProviderEvidenceRequiredError) as refused:
        select_extractor(
            SelectionMode.REQUIRED, model=make_model(model="qwen 1.5b"), evidence_dir=tmp_path
        )
    message = str(refused.value)
    assert "--model 'qwen 1.5b'" in message  # the configured name, quoted for a shell
    assert "--model M " not in message
    assert "MEMORY_FORMATION_PROVIDER=auto" in message  # at startup auto does start
    remedy = refused.value.remedy  # for callers that always require evidence
    assert "--model 'qwen 1.5b'" in remedy
    assert "auto" not in remedy
