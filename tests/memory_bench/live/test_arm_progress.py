"""Live arm progress (one stderr line per probe arm) and the ``--limit-scenarios`` smoke run,
which never publishes evidence (issue 22: the live arm printed nothing until the end)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memory_cli.app import main
from memory_core.errors import UsageError
from memory_core.formation.selection import EVIDENCE_DIR_ENV

LiveKit = Any  # the ``live`` / ``full_live`` fixtures (tests/memory_bench/live/conftest.py)

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "corpus" / "memory-benchmark.v1.json"


def test_every_probe_arm_reports_as_it_finishes(live: LiveKit, tmp_path: Path) -> None:
    lines: list[str] = []
    result = live.run(tmp_path / "evidence.json", progress=lines.append)
    total = len(live.probes)
    assert len(lines) == 2 * total
    first = live.corpus.scenarios[0]
    assert lines[0].startswith(f"probe 1/{total} {first.id}/{first.probes[0].id} with_memory: ")
    assert lines[1].startswith(f"probe 1/{total} {first.id}/{first.probes[0].id} without_memory")
    assert lines[-1].startswith(f"probe {total}/{total} ")
    assert all("completed" in line and "USD" in line for line in lines)
    assert sum("correct" in line for line in lines[0::2]) == result.counts.with_memory_correct


def test_a_smoke_run_asks_the_first_scenarios_and_never_publishes(
    live: LiveKit, tmp_path: Path
) -> None:
    first = live.corpus.scenarios[0]
    result = live.run(None, limit_scenarios=1)
    assert result.outcome == "smoke"
    assert result.passed is False
    assert [row.probe_id for row in result.rows] == [p.id for p in first.probes]
    assert len(live.server.requests) == 2 * len(first.probes)
    assert result.evidence_path is None
    assert result.failed_conditions[0].startswith("smoke run: the first 1 of 2 scenarios")
    assert "never published as evidence" in result.summary_line()
    assert list(tmp_path.iterdir()) == []


def test_a_smoke_run_refuses_an_output_and_a_limit_below_one(live: LiveKit, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="never publishes evidence"):
        live.run(tmp_path / "evidence.json", limit_scenarios=1)
    with pytest.raises(UsageError, match=">= 1"):
        live.run(None, limit_scenarios=0)
    with pytest.raises(UsageError, match="output is required"):
        live.run(None)
    assert live.server.requests == []


def _smoke(capsys: pytest.CaptureFixture[str], live: LiveKit, *extra: str) -> tuple[int, str, str]:
    status = main(
        [
            "eval",
            "memory-benchmark",
            "--no-deterministic-only",
            "--corpus",
            str(CORPUS),
            "--model",
            live.model_name,
            "--base-url",
            live.server.base_url,
            *extra,
        ]
    )
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_command_runs_a_smoke_test_with_progress_on_stderr(
    capsys: pytest.CaptureFixture[str],
    full_live: LiveKit,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("MEMORY_MODEL", "MEMORY_MODEL_BASE_URL", "MEMORY_MODEL_PRICES", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RUN_LIVE_MODEL_TESTS", "1")
    monkeypatch.setenv(EVIDENCE_DIR_ENV, str(full_live.evidence_dir))
    prices = tmp_path / "prices.yaml"
    prices.write_text(f"models:\n  {full_live.model_name}: {{input: 0.5, output: 2.0}}\n")

    status, out, err = _smoke(capsys, full_live, "--prices", str(prices), "--limit-scenarios", "2")
    assert status == 0, err
    document = json.loads(out)
    assert document["outcome"] == "smoke"
    probes = sum(len(s.probes) for s in full_live.corpus.scenarios[:2])
    assert len(document["rows"]) == probes
    progress = [line for line in err.splitlines() if line.startswith("probe ")]
    assert len(progress) == 2 * probes
    assert "live arm: SMOKE; a smoke run, never published as evidence" in err

    output = tmp_path / "evidence.json"
    status, _, err = _smoke(capsys, full_live, "--limit-scenarios", "1", "--output", str(output))
    assert status == 2
    assert "never publishes evidence" in " ".join(err.split())
    assert not output.exists()
