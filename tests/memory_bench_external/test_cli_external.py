"""``agent eval memory-benchmark --external``: the metrics file, refusals, typed errors, help."""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import memory_bench_external
from memory_bench_external import load_locomo
from memory_cli import eval_external
from memory_cli.app import main

Records = Callable[[Path], list[dict[str, Any]]]
Writer = Callable[[str, list[dict[str, Any]]], Path]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(["eval", "memory-benchmark", *argv])
    captured = capsys.readouterr()
    document = json.loads(captured.out) if captured.out.strip() else None
    return status, document, captured.err


@pytest.mark.parametrize(
    ("dataset", "fixture", "extra"),
    [
        ("longmemeval", "synthetic_longmemeval.json", ()),
        ("locomo", "synthetic_locomo.json", ("--principal-speaker", "b")),
        ("halumem", "synthetic_halumem.jsonl", ("--sample", "1", "--seed", "4")),
    ],
)
def test_writes_the_metrics_file_and_prints_the_result(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    dataset: str,
    fixture: str,
    extra: tuple[str, ...],
) -> None:
    source = Path(__file__).parent / "fixtures" / fixture
    output = tmp_path / "out" / "metrics.json"
    status, document, err = _run(
        capsys, "--external", dataset, "--path", str(source), "--output", str(output), *extra
    )
    assert status == 0
    written = json.loads(output.read_text(encoding="utf-8"))
    assert document["arm"] == "external" and document["passed"] is True
    assert document["metrics"] == written
    assert written["dataset"] == dataset
    assert str(source) not in output.read_text(encoding="utf-8")
    assert "recall@1" in err and f"metrics written to {output}" in err


def test_an_existing_output_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    locomo_fixture: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    output = tmp_path / "metrics.json"
    output.write_text("keep me", encoding="utf-8")

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the dataset was opened")

    monkeypatch.setattr(memory_bench_external, "open_locomo", no_work)
    status, document, err = _run(
        capsys, "--external", "locomo", "--path", str(locomo_fixture), "--output", str(output)
    )
    assert (status, document) == (2, None)
    assert "already exists" in err
    assert output.read_text(encoding="utf-8") == "keep me"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda records: records[0].pop("qa"), r"record 0 \(conv-901\).*field 'qa'.*missing"),
        (
            lambda records: records[1]["conversation"]["session_1"][0].update(speaker=7),
            r"record 1 \(conv-902\).*conversation\.session_1\[0\]\.speaker.*expected a string",
        ),
    ],
)
def test_a_malformed_file_exits_two_naming_record_and_field_and_writes_nothing(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    locomo_fixture: Path,
    json_records: Records,
    write_records: Writer,
    mutate: Callable[[list[dict[str, Any]]], object],
    message: str,
) -> None:
    records = copy.deepcopy(json_records(locomo_fixture))
    mutate(records)
    path = write_records("locomo_bad.json", records)
    output = tmp_path / "metrics.json"
    status, document, err = _run(
        capsys, "--external", "locomo", "--path", str(path), "--output", str(output)
    )
    assert (status, document) == (2, None)
    flat = " ".join(err.split())
    assert str(path) in flat
    assert re.search(message, flat)
    assert not output.exists()
    assert list(tmp_path.glob(".metrics.json.*")) == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('[{"sample_id": "conv-1", "qa": [', "truncated JSON"),
        ('{"sample_id": "conv-1"}', "expected a JSON list at the top level"),
    ],
)
def test_truncated_or_wrong_shape_files_exit_two(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content, encoding="utf-8")
    output = tmp_path / "metrics.json"
    status, _, err = _run(
        capsys, "--external", "locomo", "--path", str(path), "--output", str(output)
    )
    assert status == 2
    assert message in " ".join(err.split())
    assert not output.exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--external", "locomo", "--path", "x.json"], "--output PATH is required"),
        (["--external", "locomo", "--output", "m.json"], "--path FILE is required"),
        (
            ["--external", "halumem", "--path", "x", "--output", "m", "--principal-speaker", "a"],
            "--principal-speaker applies to --external locomo only",
        ),
        (
            ["--external", "locomo", "--path", "x", "--output", "m", "--seed", "3"],
            "pass --sample N with it",
        ),
        (
            ["--external", "locomo", "--path", "x", "--output", "m", "--no-deterministic-only"],
            "does not run external datasets",
        ),
        (
            ["--external", "locomo", "--path", "x", "--output", "m", "--write-baseline", "b"],
            "--write-baseline are refused with --external",
        ),
        (
            ["--external", "locomo", "--path", "x", "--output", "m", "--max-retries", "0"],
            "--max-retries are refused with --external",
        ),
        (["--deterministic-only", "--path", "x.json"], "--path apply only to an external"),
        (
            ["--external", "locomo", "--path", "x", "--output", "m", "--sample", "0"],
            "--sample must be at least 1",
        ),
    ],
)
def test_usage_errors(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    status, document, err = _run(capsys, *argv)
    assert (status, document) == (2, None)
    assert message in " ".join(err.split())
    assert not (tmp_path / "m").exists()


def test_help_says_what_each_dataset_needs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "memory-benchmark", "--help"])
    # argparse wraps at spaces and hyphens: compare with whitespace removed.
    text = "".join(capsys.readouterr().out.split())
    for needed in (
        "longmemeval_s_cleaned.json",
        "locomo10.json",
        "HaluMem-Medium.jsonl",
        "--principal-speaker a|b",
        "--output PATH",
        "CC BY-NC-ND 4.0",
    ):
        assert "".join(needed.split()) in text


def test_the_progress_bar_shows_checking_ingestion_and_probing(locomo_fixture: Path) -> None:
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, width=100)
    dataset = load_locomo(locomo_fixture)
    with eval_external._ProgressBar(console, records=len(dataset.instances)) as bar:
        for instance in dataset.instances:
            bar.checked(instance)
        for instance in dataset.instances:
            bar.started(instance)
            for _ in instance.sessions:
                bar.session_formed()
            for probe in instance.probes:
                if probe.scored:
                    bar.probe_answered()
    shown = stream.getvalue()
    assert "checking records" in shown and "2/2" in shown
    assert "ingesting sessions" in shown and "5/5" in shown
    assert "answering probes" in shown and "8/8" in shown


def test_an_unwritable_output_exits_two_before_the_dataset_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the dataset was opened before the output was checked")

    monkeypatch.setattr(memory_bench_external, "open_longmemeval", never)
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    output = blocker / "metrics.json"
    source = Path(__file__).parent / "fixtures" / "synthetic_longmemeval.json"

    status, document, err = _run(
        capsys, "--external", "longmemeval", "--path", str(source), "--output", str(output)
    )

    assert status == 2
    assert document is None
    assert f"error: {output} cannot be written" in err


def test_paths_with_brackets_are_printed_literally(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # "[/x]" would be a closing Rich tag: printed as markup it raised MarkupError after the
    # metrics file had been written.
    source = Path(__file__).parent / "fixtures" / "synthetic_longmemeval.json"
    output = tmp_path / "out[/x]" / "[a-z0-9].json"
    status, document, err = _run(
        capsys, "--external", "longmemeval", "--path", str(source), "--output", str(output)
    )
    assert status == 0
    assert document["written"] == str(output)
    assert f"metrics written to {output}" in err
