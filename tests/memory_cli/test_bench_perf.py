"""``agent bench perf``: the lane's JSON report at tiny sizes, its table, its exit statuses.

Tiny sizes and no start-up rounds (a subprocess run of the deterministic arm); no assertion
is about how fast anything ran, only about which figures the report holds and their shape.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bench.perf_lane import PerfReport
from memory_cli.app import main

TINY = (
    "--beliefs", "60", "--small", "20", "--mid", "30", "--footprint", "25", "--turns", "3",
    "--rounds", "2", "--per-round", "2", "--startup-rounds", "0",
)  # fmt: skip


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["bench", "perf", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _figures(report: PerfReport) -> list[tuple[str, str]]:
    return [(c.tier, c.figure) for c in report.comparisons]


def test_a_memory_run_writes_every_memory_figure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "perf.json"
    status, out, err = _run(capsys, "--storage", "memory", *TINY, "--output", str(output))
    assert status == 0
    assert out.strip() == f"perf report: {output}"
    report = PerfReport.model_validate_json(output.read_text(encoding="utf-8"))
    assert report.tiers == ("memory",)
    assert _figures(report) == [
        ("memory", "in-turn recall 60 / 20"),
        ("memory", "in-turn recall / bm25s fast path at 60"),
        ("memory", "consolidate a 3-turn session: 60 held / 0"),
        ("memory", "reject(): 60 / 30"),
    ]
    for comparison in report.comparisons:
        assert comparison.rounds == 2
        assert comparison.ratio.min <= comparison.ratio.median <= comparison.ratio.max
        assert comparison.meets == (comparison.ratio.median <= (comparison.target or 0))
    assert report.footprint.beliefs == 25 and report.footprint.bytes_per_belief > 0
    assert set(report.load_seconds) == {"memory/beliefs", "memory/small", "memory/mid"}
    assert "bytes per belief" in err and "reject(): 60 / 30" in err


def test_an_existing_output_is_refused_with_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "perf.json"
    output.write_text("keep me", encoding="utf-8")
    status, _, err = _run(capsys, "--storage", "memory", *TINY, "--output", str(output))
    assert status == 2
    assert "already exists" in err
    assert output.read_text(encoding="utf-8") == "keep me"


def test_without_output_the_report_goes_to_a_fresh_temporary_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _run(capsys, "--storage", "memory", *TINY, "--table", "never")
    assert status == 0
    path = Path(out.strip().removeprefix("perf report: "))
    assert PerfReport.model_validate_json(path.read_text(encoding="utf-8")).tiers == ("memory",)


def test_a_postgres_run_times_recall_against_its_sql(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, postgres_url: str
) -> None:
    output = tmp_path / "perf.json"
    argv = ("--storage", "postgres", "--url", postgres_url, *TINY, "--output", str(output))
    status, _, _ = _run(capsys, *argv, "--table", "never")
    assert status == 0
    report = PerfReport.model_validate_json(output.read_text(encoding="utf-8"))
    assert _figures(report) == [
        ("postgres", "in-turn recall 60 / 20"),
        ("postgres", "in-turn recall / the SQL it sends at 60"),
        ("postgres", "in-turn recall / bare lexical SELECT at 60"),
        ("postgres", "consolidate a 3-turn session: 60 held / 0"),
        ("postgres", "reject(): 60 / 30"),
    ]
