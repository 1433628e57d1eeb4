"""``agent eval memory-benchmark --deterministic-only``: usage errors, exit statuses, the JSON
result on stdout, the summary on stderr, and write-once baselines."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from _support.git_checkout import git, head, make_checkout

import memory_bench.driver
import memory_core.bootstrap
import memory_store_pg
from memory_bench.baseline import load_baseline
from memory_bench.metrics import DeterministicRun
from memory_cli.app import main
from memory_core.errors import StorageUnavailableError

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus" / "memory-benchmark.v1.json"
BASELINE = ROOT / "corpus" / "memory-benchmark.baseline.json"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(["eval", "memory-benchmark", *argv])
    captured = capsys.readouterr()
    document = json.loads(captured.out) if captured.out.strip() else None
    return status, document, captured.err


@pytest.fixture(autouse=True)
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs from a clean git checkout (a recording reads the working directory's
    tree), unless it moves elsewhere."""
    root = make_checkout(tmp_path / "checkout")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    target = tmp_path / "corpus.json"
    shutil.copyfile(CORPUS, target)
    return target


def test_output_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, document, err = _run(
        capsys, "--deterministic-only", "--output", str(tmp_path / "evidence.json")
    )
    assert status == 2
    assert document is None
    assert "--output is refused for the deterministic arm" in err
    assert not (tmp_path / "evidence.json").exists()


def test_the_arm_must_be_named(capsys: pytest.CaptureFixture[str]) -> None:
    status, document, err = _run(capsys)
    assert status == 2
    assert document is None
    assert "--deterministic-only" in err


def test_any_corpus_without_a_baseline_reports_metrics(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path
) -> None:
    status, document, err = _run(capsys, "--deterministic-only", "--corpus", str(corpus_copy))
    assert status == 0
    assert document["passed"] is True
    assert document["baseline"] is None
    result = DeterministicRun.model_validate(document["result"])
    assert result.metrics.scenarios >= 12
    assert set(document["ratios"]["aggregate"]) == {
        "formation_precision",
        "formation_recall",
        "end_to_end_recall",
        "retrieval_recall_given_formed",
        "noise_ratio",
    }
    assert "Retrieval by category" in err
    assert "Recall by session distance" in err
    assert "baseline: none given" in err


def test_write_baseline_then_compare_then_refuse_overwrite(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path, tmp_path: Path, checkout: Path
) -> None:
    target = tmp_path / "baseline.json"
    status, document, err = _run(
        capsys,
        "--deterministic-only",
        "--corpus",
        str(corpus_copy),
        "--write-baseline",
        str(target),
    )
    assert status == 0
    assert document["written_baseline"] == str(target)
    recorded = load_baseline(target)
    assert recorded.provenance.commit == head(checkout)
    assert recorded.provenance.dirty is False
    assert recorded.dirty_reason is None
    assert "baseline recorded" in err

    status, document, err = _run(
        capsys, "--deterministic-only", "--corpus", str(corpus_copy), "--baseline", str(target)
    )
    assert status == 0
    assert document["baseline"]["current"] is True
    assert "baseline: current" in err

    before = target.read_bytes()
    status, document, err = _run(
        capsys,
        "--deterministic-only",
        "--corpus",
        str(corpus_copy),
        "--write-baseline",
        str(target),
    )
    assert status == 2
    assert document is None  # refused before anything ran
    assert "never overwritten" in err
    assert target.read_bytes() == before


def test_drift_exits_one(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path, tmp_path: Path
) -> None:
    target = tmp_path / "baseline.json"
    assert (
        _run(
            capsys,
            "--deterministic-only",
            "--corpus",
            str(corpus_copy),
            "--write-baseline",
            str(target),
        )[0]
        == 0
    )
    # The same corpus with one more byte is a different corpus: its digest drifts.
    corpus_copy.write_text(corpus_copy.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    status, document, err = _run(
        capsys, "--deterministic-only", "--corpus", str(corpus_copy), "--baseline", str(target)
    )
    assert status == 1
    assert document["passed"] is False
    assert [d["key"] for d in document["baseline"]["comparison"]["drift"]] == ["corpus_digest"]
    assert "DRIFT" in err


def test_a_run_breaking_the_structural_zeros_is_not_recorded(
    capsys: pytest.CaptureFixture[str],
    corpus_copy: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = memory_bench.driver.run_deterministic_benchmark

    def leaky(*args: Any, **kwargs: Any) -> DeterministicRun:
        run = real(*args, **kwargs)
        row = run.probes[0]
        bad = row.model_copy(
            update={"counts": row.counts.model_copy(update={"false_transfers": 1})}
        )
        probes = (bad, *run.probes[1:])
        metrics = run.metrics.aggregate(run.scenarios, probes)
        return run.model_copy(update={"probes": probes, "metrics": metrics})

    monkeypatch.setattr(memory_bench.driver, "run_deterministic_benchmark", leaky)
    target = tmp_path / "baseline.json"
    status, document, err = _run(
        capsys,
        "--deterministic-only",
        "--corpus",
        str(corpus_copy),
        "--write-baseline",
        str(target),
    )
    assert status == 1
    assert document["structural_zero_failures"] == ["false_transfers=1"]
    assert document["written_baseline"] is None
    assert "NOT recorded" in err
    assert not target.exists()


def test_write_baseline_with_a_baseline_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path, tmp_path: Path
) -> None:
    # A regressing run compared against --baseline exited 1 and was recorded all the same.
    target = tmp_path / "new-baseline.json"
    status, document, err = _run(
        capsys,
        "--deterministic-only",
        "--corpus",
        str(corpus_copy),
        "--baseline",
        str(BASELINE),
        "--write-baseline",
        str(target),
    )
    assert status == 2
    assert document is None  # refused before anything ran
    assert "pass one of them" in err
    assert not target.exists()


def test_default_run_compares_the_checked_in_baseline(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    status, document, err = _run(capsys, "--deterministic-only")
    assert status == 0, err
    assert document["baseline"]["path"] == str(Path("corpus") / "memory-benchmark.baseline.json")
    assert document["baseline"]["current"] is True


def test_default_corpus_needs_the_repository_root(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    status, document, err = _run(capsys, "--deterministic-only")
    assert status == 2
    assert document is None
    assert "--corpus" in err


# --- exception text is printed literally, never parsed as Rich markup ----------------------

BRACKETS = "[a-z0-9] [/x] [bold]"
"""Text that Rich would parse as markup: a style, a closing tag that matches nothing."""


def test_a_usage_error_naming_a_bracketed_path_exits_two_and_prints_it_literally(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "x[/x]" / "[a-z0-9].json"
    status, document, err = _run(capsys, "--deterministic-only", "--corpus", str(missing))
    assert status == 2
    assert document is None
    assert str(missing) in err
    assert err.startswith("error: ")


def test_db_upgrade_prints_an_unavailable_server_literally(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(url: str | None, *, revision: str = "head") -> None:
        raise StorageUnavailableError(f"cannot reach {url}: {BRACKETS}")

    monkeypatch.setattr(memory_store_pg, "upgrade", unreachable)
    status = main(["db", "upgrade", "--url", "postgresql://u@h/[db]"])
    err = capsys.readouterr().err
    assert status == 1
    assert f"error: cannot reach postgresql://u@h/[db]: {BRACKETS}" in err


def test_memory_replay_prints_an_unavailable_server_literally(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(**_: Any) -> None:
        raise StorageUnavailableError(f"server down: {BRACKETS}")

    monkeypatch.setattr(memory_core.bootstrap, "build", unreachable)
    status = main(
        ["memory", "replay", "--session", "s1", "--principal", "p", "--url", "x", "--confirm"]
    )
    err = capsys.readouterr().err
    assert status == 1
    assert f"error: server down: {BRACKETS}" in err


def test_a_baseline_path_with_brackets_is_printed_literally(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path, tmp_path: Path
) -> None:
    target = tmp_path / "[/x]" / "baseline[bold].json"
    target.parent.mkdir(parents=True)
    status, document, err = _run(
        capsys,
        "--deterministic-only",
        "--corpus",
        str(corpus_copy),
        "--write-baseline",
        str(target),
    )
    assert status == 0
    assert document["written_baseline"] == str(target)
    assert f"baseline recorded at {target}" in err


# --- a recording names a clean commit, or says why not -------------------------------------


def _write(capsys: pytest.CaptureFixture[str], corpus: Path, target: Path, *extra: str) -> Any:
    return _run(
        capsys, "--deterministic-only", "--corpus", str(corpus), "--write-baseline", str(target),
        *extra,
    )  # fmt: skip


def test_a_clean_checkout_records_its_commit(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path, checkout: Path
) -> None:
    status, _document, err = _write(capsys, corpus_copy, checkout / "baseline.json")
    assert status == 0, err
    provenance = load_baseline(checkout / "baseline.json").provenance
    assert (provenance.commit, provenance.dirty) == (head(checkout), False)


def test_a_dirty_checkout_is_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path, checkout: Path, tmp_path: Path
) -> None:
    (checkout / "README.md").write_text("edited, not committed\n", encoding="utf-8")
    target = tmp_path / "baseline.json"
    status, document, err = _write(capsys, corpus_copy, target)
    assert status == 2
    assert document is None  # refused before the run
    assert "dirty tree" in err
    assert "README.md" in err
    assert "--dirty-reason" in err
    assert not target.exists()


def test_a_dirty_checkout_with_a_reason_is_recorded_with_it(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path, checkout: Path, tmp_path: Path
) -> None:
    (checkout / "README.md").write_text("edited, not committed\n", encoding="utf-8")
    target = tmp_path / "baseline.json"
    status, _document, err = _write(
        capsys, corpus_copy, target, "--dirty-reason", "measuring an uncommitted experiment"
    )
    assert status == 0, err
    recorded = load_baseline(target)
    assert (recorded.provenance.commit, recorded.provenance.dirty) == (head(checkout), True)
    assert recorded.dirty_reason == "measuring an uncommitted experiment"
    assert "measuring an uncommitted experiment" in err


def test_re_recording_after_git_rm_of_the_baseline_is_clean(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path, checkout: Path
) -> None:
    target = checkout / "baseline.json"
    assert _write(capsys, corpus_copy, target)[0] == 0
    git(checkout, "add", "baseline.json")
    git(checkout, "commit", "-q", "-m", "record")
    git(checkout, "rm", "-q", "baseline.json")
    status, _document, err = _write(capsys, corpus_copy, target)
    assert status == 0, err
    provenance = load_baseline(target).provenance
    assert (provenance.commit, provenance.dirty) == (head(checkout), False)


def test_outside_a_checkout_a_recording_needs_a_reason(
    capsys: pytest.CaptureFixture[str],
    corpus_copy: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    elsewhere = tmp_path / "not-a-checkout"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    status, _, err = _write(capsys, corpus_copy, elsewhere / "b.json")
    assert status == 2
    assert "not a git checkout" in err
    status, _, err = _write(capsys, corpus_copy, elsewhere / "b.json", "--dirty-reason", "sdist")
    assert status == 0, err
    provenance = load_baseline(elsewhere / "b.json").provenance
    assert (provenance.commit, provenance.dirty) == (None, True)


def test_a_baseline_is_named_by_git_not_by_build_ref(
    capsys: pytest.CaptureFixture[str], corpus_copy: Path, tmp_path: Path
) -> None:
    target = tmp_path / "baseline.json"
    status, document, err = _write(capsys, corpus_copy, target, "--build-ref", "test-ref")
    assert status == 2
    assert document is None
    assert "--build-ref configure the live arm" in err
    assert not target.exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--deterministic-only", "--dirty-reason", "x"], "pass it with --write-baseline"),
        (["--write-baseline", "b.json", "--dirty-reason", "x"], "drop --dirty-reason"),
        (
            ["--no-deterministic-only", "--output", "e.json", "--dirty-reason", "x"],
            "belong to the deterministic arm",
        ),
    ],
)
def test_a_misplaced_dirty_reason_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
    corpus_copy: Path,
    checkout: Path,
    argv: list[str],
    message: str,
) -> None:
    if "--write-baseline" in argv:
        argv = ["--deterministic-only", "--corpus", str(corpus_copy), *argv]
    status, document, err = _run(capsys, *argv)
    assert status == 2
    assert document is None
    assert message in err
    assert not (checkout / "b.json").exists()
