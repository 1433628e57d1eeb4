"""``agent report`` and ``agent eval memory-benchmark --report``: one HTML page per run,
refused over an existing file before any work, a malformed result a typed error (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _support.report_figures import (
    DETERMINISTIC,
    EXTERNAL,
    assert_deterministic_bars,
    assert_external_bars,
    live_result,
)

import memory_bench.driver
from memory_cli.app import main

ROOT = Path(__file__).resolve().parents[2]
LOCOMO = ROOT / "tests" / "memory_bench_external" / "fixtures" / "synthetic_locomo.json"


def _main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_report_renders_a_saved_deterministic_result(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "report.html"
    status, _, err = _main(capsys, "report", str(DETERMINISTIC), "-o", str(target))
    assert status == 0
    assert f"report written to {target}" in err
    document = json.loads(DETERMINISTIC.read_text(encoding="utf-8"))
    assert_deterministic_bars(target.read_text(encoding="utf-8"), document)


def test_report_renders_external_metrics_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "report.html"
    status, _, _ = _main(capsys, "report", str(EXTERNAL), "-o", str(target))
    assert status == 0
    metrics = json.loads(EXTERNAL.read_text(encoding="utf-8"))
    assert_external_bars(target.read_text(encoding="utf-8"), metrics)


def test_report_renders_a_live_result(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "live.json"
    source.write_text(live_result().model_dump_json(indent=2), encoding="utf-8")
    target = tmp_path / "live.html"
    status, _, _ = _main(capsys, "report", str(source), "-o", str(target))
    assert status == 0
    html = target.read_text(encoding="utf-8")
    assert "Outcome: failed" in html
    assert "local-test-model" in html


def test_report_refuses_an_existing_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "report.html"
    target.write_text("old", encoding="utf-8")
    status, _, err = _main(capsys, "report", str(DETERMINISTIC), "-o", str(target))
    assert status == 2
    assert "never overwritten" in err
    assert target.read_text(encoding="utf-8") == "old"


@pytest.mark.parametrize(
    ("content", "named"),
    [
        ("{", "not JSON"),
        ('{"arm": "deterministic", "result": {}}', "field result.benchmark_version"),
        ('{"kind": "memory-benchmark-external-metrics", "ks": "x"}', "field "),
        ('{"arm": "external", "metrics": null}', "field metrics"),
    ],
)
def test_malformed_result_exits_2_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, named: str
) -> None:
    source = tmp_path / "result.json"
    source.write_text(content, encoding="utf-8")
    target = tmp_path / "out" / "report.html"
    status, _, err = _main(capsys, "report", str(source), "-o", str(target))
    assert status == 2
    assert str(source) in err
    assert named in err
    assert not target.exists()


def test_deterministic_run_writes_its_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "run.html"
    status, out, err = _main(
        capsys, "eval", "memory-benchmark", "--deterministic-only", "--report", str(target)
    )
    assert status == 0
    assert f"report written to {target}" in err
    document = json.loads(out)
    html = target.read_text(encoding="utf-8")
    assert "Baseline: current" in html
    assert_deterministic_bars(html, document)
    # The same page as rendering the printed document afterwards.
    saved = tmp_path / "result.json"
    saved.write_text(out, encoding="utf-8")
    again = tmp_path / "again.html"
    assert _main(capsys, "report", str(saved), "-o", str(again))[0] == 0
    assert again.read_text(encoding="utf-8") == html


def test_existing_report_path_is_refused_before_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def must_not_run(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the benchmark ran although --report was refused")

    monkeypatch.setattr(memory_bench.driver, "run_deterministic_benchmark", must_not_run)
    target = tmp_path / "run.html"
    target.write_text("old", encoding="utf-8")
    status, out, err = _main(
        capsys, "eval", "memory-benchmark", "--deterministic-only", "--report", str(target)
    )
    assert status == 2
    assert out == ""
    assert "never overwritten" in err
    assert target.read_text(encoding="utf-8") == "old"


@pytest.mark.parametrize("name", ["run.txt", "run"])
def test_report_must_be_html(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    status, _, err = _main(
        capsys,
        "eval",
        "memory-benchmark",
        "--deterministic-only",
        "--report",
        str(tmp_path / name),
    )
    assert status == 2
    assert "name an .html file" in err


def test_external_run_writes_its_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    output, target = tmp_path / "metrics.json", tmp_path / "external.html"
    status, _, _ = _main(
        capsys,
        "eval",
        "memory-benchmark",
        "--external",
        "locomo",
        "--path",
        str(LOCOMO),
        "--output",
        str(output),
        "--report",
        str(target),
    )
    assert status == 0
    metrics = json.loads(output.read_text(encoding="utf-8"))
    assert_external_bars(target.read_text(encoding="utf-8"), metrics)


def test_external_report_and_output_must_differ(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    same = tmp_path / "x.html"
    status, _, err = _main(
        capsys,
        "eval",
        "memory-benchmark",
        "--external",
        "locomo",
        "--path",
        str(LOCOMO),
        "--output",
        str(same),
        "--report",
        str(same),
    )
    assert status == 2
    assert "name the same file" in err
    assert not same.exists()


def test_skipped_live_run_writes_its_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RUN_LIVE_MODEL_TESTS", raising=False)
    target = tmp_path / "live.html"
    status, _, _ = _main(
        capsys,
        "eval",
        "memory-benchmark",
        "--no-deterministic-only",
        "--output",
        str(tmp_path / "evidence.json"),
        "--build-ref",
        "abc",
        "--report",
        str(target),
    )
    assert status == 0
    assert "Outcome: skipped" in target.read_text(encoding="utf-8")
    assert not (tmp_path / "evidence.json").exists()
