"""``agent bench recall``: the JSON report on stdout, the table on stderr, exit statuses.

Tiny sizes only; no assertion is about how fast anything ran.
"""

from __future__ import annotations

import pytest

from memory_bench.perf import RecallBenchReport
from memory_cli.app import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["bench", "recall", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_memory_run_prints_a_report_and_no_table_when_told_not_to(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(
        capsys, "--storage", "memory", "--beliefs", "40", "--queries", "3", "--table", "never"
    )
    assert status == 0
    report = RecallBenchReport.model_validate_json(out)
    assert (report.storage, report.beliefs, report.queries, report.seed) == ("memory", 40, 3, 0)
    assert report.in_turn.samples == report.snapshot.samples == 3
    assert err == ""


def test_the_table_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(
        capsys, "--beliefs", "25", "--queries", "2", "--seed", "5", "--table", "always"
    )
    assert status == 0
    assert RecallBenchReport.model_validate_json(out).seed == 5
    assert "p50 ms" in err and "snapshot" in err and "beliefs/s" in err


def test_postgres_run_uses_a_temporary_schema(
    capsys: pytest.CaptureFixture[str], postgres_url: str
) -> None:
    status, out, _ = _run(
        capsys,
        "--storage",
        "postgres",
        "--url",
        postgres_url,
        "--beliefs",
        "30",
        "--queries",
        "2",
        "--table",
        "never",
    )
    assert status == 0
    report = RecallBenchReport.model_validate_json(out)
    assert (report.storage, report.beliefs) == ("postgres", 30)


def test_the_same_seed_loads_the_same_beliefs_on_both_tiers(
    capsys: pytest.CaptureFixture[str], postgres_url: str
) -> None:
    reports = []
    for tier in ("memory", "postgres"):
        url = ("--url", postgres_url) if tier == "postgres" else ()
        status, out, _ = _run(
            capsys, "--storage", tier, *url, "--beliefs", "60", "--queries", "4", "--table", "never"
        )
        assert status == 0
        reports.append(RecallBenchReport.model_validate_json(out))
    memory, postgres = reports
    assert memory.live_beliefs == postgres.live_beliefs
    assert memory.in_turn.returned_mean == postgres.in_turn.returned_mean
    assert memory.snapshot.returned_mean == postgres.snapshot.returned_mean


def test_an_unreachable_server_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(
        capsys,
        "--storage",
        "postgres",
        "--url",
        "postgresql://postgres@127.0.0.1:1/none",
        "--beliefs",
        "5",
    )
    assert status == 1
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_url_for_the_memory_tier_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "--url", "postgresql://127.0.0.1/x", "--beliefs", "5")
    assert (status, out) == (2, "")
    assert "--url applies to --storage postgres" in err


@pytest.mark.parametrize("flag", ["--beliefs", "--queries"])
def test_sizes_below_one_are_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    argv = ["--beliefs", "5", flag, "0"] if flag == "--queries" else [flag, "0"]
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "recall", *argv])
    assert exit_info.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err
