"""Provider evidence plumbing: the output path, the command's usage errors, the shared floor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_bench.provider_evidence import evidence_path
from memory_cli.app import main
from memory_core.errors import UsageError
from memory_core.formation.selection import minimum_fully_supported
from memory_core.policy import PROVIDER_FORMATION_POLICY

NAME = f"provider-formation.{PROVIDER_FORMATION_POLICY}.test-model.json"


@given(st.integers(min_value=0, max_value=100_000))
def test_the_core_floor_is_the_smallest_integer_at_eighty_per_cent(count: int) -> None:
    floor = minimum_fully_supported(count)
    assert 5 * floor >= 4 * count > 5 * (floor - 1)  # the smallest integer >= 0.8 * count


def test_output_directory_receives_the_derived_name(tmp_path: Path) -> None:
    def place(output: Path) -> Path:
        return evidence_path(output, model="test-model", policy_version=PROVIDER_FORMATION_POLICY)

    assert place(tmp_path) == tmp_path / NAME
    assert place(tmp_path / "new-dir") == tmp_path / "new-dir" / NAME
    assert place(tmp_path / NAME) == tmp_path / NAME
    with pytest.raises(UsageError, match=f"must be named {NAME}"):
        place(tmp_path / "evidence.json")
    squatter = tmp_path / "evidence"
    squatter.write_text("a file where the directory should be")
    with pytest.raises(UsageError, match="must be named"):
        place(squatter)


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    """Captured stderr with the console's line wrapping undone."""
    return " ".join(capsys.readouterr().err.split())


def _formation(*args: str) -> list[str]:
    return ["eval", "memory-formation", *args]


def test_output_without_a_provider_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_formation("--output", str(tmp_path))) == 2
    assert "add --provider openai-compatible" in _err(capsys)
    assert list(tmp_path.iterdir()) == []


def test_a_misnamed_output_is_refused_before_any_model_call(
    chat_server: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        _formation(
            "--provider",
            "openai-compatible",
            "--model",
            "test-model",
            "--base-url",
            chat_server.base_url,
            "--output",
            str(tmp_path / "mine.json"),
        )
    )
    assert code == 2
    assert f"must be named {NAME}" in _err(capsys)
    assert chat_server.requests == []


def test_a_provider_run_needs_a_model_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MEMORY_MODEL", raising=False)
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    code = main(
        _formation("--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1")
    )
    assert code == 2
    assert "MEMORY_MODEL" in _err(capsys)
