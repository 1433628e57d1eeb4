"""LoCoMo's fixed dev/test partition: ``--split dev|test|all`` by ``sample_id``."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memory_bench.source_tree import SourceTree
from memory_bench_external import ExternalMetrics, open_locomo, run_external
from memory_bench_external._split import DEV_SAMPLE_IDS, TEST_SAMPLE_IDS, select_split
from memory_cli.app import main
from memory_core.errors import UsageError

Records = Callable[[Path], list[dict[str, Any]]]
Writer = Callable[[str, list[dict[str, Any]]], Path]


def _renamed(records: list[dict[str, Any]], *ids: str) -> list[dict[str, Any]]:
    """Copies of the synthetic conversations under other sample_ids (cycling through them)."""
    found = []
    for index, sample_id in enumerate(ids):
        record = copy.deepcopy(records[index % len(records)])
        record["sample_id"] = sample_id
        found.append(record)
    return found


@pytest.fixture
def partitioned(locomo_fixture: Path, json_records: Records, write_records: Writer) -> Path:
    """Two dev, one test and one unassigned conversation (synthetic text, partition ids)."""
    records = _renamed(json_records(locomo_fixture), "conv-26", "conv-44", "conv-41", "conv-901")
    return write_records("partitioned_locomo.json", records)


def test_the_partition_is_fixed_and_disjoint() -> None:
    assert sorted(DEV_SAMPLE_IDS) == ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43"]
    assert sorted(TEST_SAMPLE_IDS) == ["conv-44", "conv-47", "conv-48", "conv-49", "conv-50"]
    assert not DEV_SAMPLE_IDS & TEST_SAMPLE_IDS


@pytest.mark.parametrize(
    ("split", "selected", "counts"),
    [
        ("dev", ["conv-26", "conv-41"], (2, 1, 1, 3)),
        ("test", ["conv-44"], (1, 2, 1, 4)),
        ("all", ["conv-26", "conv-41", "conv-44", "conv-901"], (4, 0, 1, 7)),
    ],
)
def test_a_split_selects_its_sample_ids_and_counts_the_rest(
    partitioned: Path, split: Any, selected: list[str], counts: tuple[int, int, int, int]
) -> None:
    source = open_locomo(partitioned, split=split)
    assert sorted(source.selected.values()) == selected
    assert source.split is not None and source.split.name == split
    found = source.split
    assert (found.in_split, found.other_split, found.unassigned, found.missing) == counts
    assert [i.instance_id for i in source.load().instances] == selected


def test_the_default_is_every_conversation(partitioned: Path) -> None:
    assert open_locomo(partitioned).selected == open_locomo(partitioned, split="all").selected


def test_the_sample_is_drawn_within_the_split(partitioned: Path) -> None:
    for seed in range(6):
        chosen = open_locomo(partitioned, split="dev", sample=1, seed=seed).selected.values()
        assert set(chosen) <= {"conv-26", "conv-41"}
    with pytest.raises(UsageError, match="exceeds the 2 instances of --split dev in the file"):
        open_locomo(partitioned, split="dev", sample=3)


def test_a_split_that_selects_nothing_is_refused(locomo_fixture: Path) -> None:
    # The synthetic file's sample_ids are in neither list: all runs them, dev and test refuse.
    assert len(open_locomo(locomo_fixture, split="all").selected) == 2
    for split in ("dev", "test"):
        with pytest.raises(UsageError, match=rf"--split {split} selects no conversation of "):
            open_locomo(locomo_fixture, split=split)


def test_an_unknown_split_is_refused() -> None:
    with pytest.raises(UsageError, match="--split must be one of dev, test, all"):
        select_split(["conv-26"], "train", path=Path("locomo10.json"))


def test_the_metrics_record_the_split_and_its_caveats(partitioned: Path) -> None:
    metrics = ExternalMetrics.from_run(
        run_external(open_locomo(partitioned, split="dev")),
        source=SourceTree(commit=None),
        recorded_at=datetime(2026, 5, 1, tzinfo=UTC),
    )
    assert metrics.split is not None
    assert metrics.split.model_dump() == {
        "name": "dev",
        "in_split": 2,
        "other_split": 1,
        "unassigned": 1,
        "missing": 3,
    }
    assert metrics.sample_size == 2 and metrics.population == 4
    caveats = " ".join(metrics.caveats)
    assert "dev split: the conversations designs are tuned on" in caveats
    assert "3 conversation(s) the dev split name are absent from the file" in caveats
    assert "1 conversation(s) of the file are in neither dev nor test (left out)" in caveats
    # No sample_id travels with the figures.
    text = metrics.to_json()
    assert not any(ident in text for ident in ("conv-26", "conv-41", "conv-44", "conv-901"))


def test_the_cli_runs_a_split_and_refuses_it_elsewhere(
    partitioned: Path,
    longmemeval_fixture: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    output = tmp_path / "dev.json"
    argv = ["eval", "memory-benchmark", "--external", "locomo", "--path", str(partitioned)]
    assert main([*argv, "--output", str(output), "--split", "test"]) == 0
    captured = capsys.readouterr()
    written = json.loads(output.read_text(encoding="utf-8"))
    assert written["split"]["name"] == "test" and written["sample_size"] == 1
    assert "split test" in captured.err and "words@10" in captured.err
    for refused, message in (
        (
            ["eval", "memory-benchmark", "--deterministic-only", "--split", "dev"],
            "--split apply only to an external dataset run",
        ),
        (
            [
                "eval",
                "memory-benchmark",
                "--external",
                "longmemeval",
                "--path",
                str(longmemeval_fixture),
                "--output",
                str(tmp_path / "lme.json"),
                "--split",
                "dev",
            ],
            "--split applies to --external locomo only",
        ),
    ):
        assert main(refused) == 2
        assert message in " ".join(capsys.readouterr().err.split())
    assert not (tmp_path / "lme.json").exists()


def test_help_names_the_split_and_its_ids(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "memory-benchmark", "--help"])
    text = "".join(capsys.readouterr().out.split())
    for needed in ("--split dev|test|all", "conv-26, 30, 41, 42, 43", "conv-44, 47, 48, 49, 50"):
        assert "".join(needed.split()) in text
