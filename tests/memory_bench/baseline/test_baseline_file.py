"""Baseline files: written once atomically, loaded with typed errors, integers only."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memory_bench.baseline import (
    Baseline,
    BaselineDirtyTreeError,
    BaselineError,
    BaselineExistsError,
    BaselineFormatError,
    BaselineNotFoundError,
    BaselineRefusedError,
    load_baseline,
    record_baseline,
    write_baseline,
)
from memory_bench.metrics import DeterministicMetrics, DeterministicRun
from memory_bench.source_tree import SourceTree
from memory_core.errors import UsageError

RECORDED = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
CLEAN = SourceTree(commit="abc123")
DIRTY = SourceTree(commit="abc123", changed=("packages/x.py",))


def _numbers(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [n for item in value.values() for n in _numbers(item)]
    if isinstance(value, list):
        return [n for item in value for n in _numbers(item)]
    if isinstance(value, bool):
        return [value]
    if isinstance(value, int | float):
        return [value]
    return []


def test_write_then_load_round_trips(tmp_path: Path, standard_run: DeterministicRun) -> None:
    baseline = Baseline.from_run(standard_run, build_ref="abc123", recorded_at=RECORDED)
    path = write_baseline(baseline, tmp_path / "baseline.json")
    assert load_baseline(path) == baseline
    assert path.read_text(encoding="utf-8").endswith("}\n")
    assert [p.name for p in tmp_path.iterdir()] == ["baseline.json"]


def test_baseline_holds_integers_only_and_no_trace_ids(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    baseline = Baseline.from_run(standard_run, build_ref="abc123", recorded_at=RECORDED)
    document = json.loads(write_baseline(baseline, tmp_path / "b.json").read_text())
    numbers = _numbers(document)
    assert numbers
    assert all(type(n) is int for n in numbers)
    assert "trace" not in json.dumps(document)
    assert set(document) == {
        "schema_version",
        "benchmark_version",
        "corpus_digest",
        "formation_policy",
        "provider_formation_policy",
        "retrieval_policy",
        "extractor",
        "build_ref",
        "recorded_at",
        "metrics",
        "scenarios",
        "probes",
    }
    assert len(document["probes"]) == 3


def test_write_refuses_an_existing_path(tmp_path: Path, standard_run: DeterministicRun) -> None:
    target = tmp_path / "baseline.json"
    target.write_text("keep me", encoding="utf-8")
    baseline = Baseline.from_run(standard_run, build_ref="abc123", recorded_at=RECORDED)
    with pytest.raises(BaselineExistsError, match="never overwritten") as info:
        write_baseline(baseline, target)
    assert isinstance(info.value, UsageError)
    assert target.read_text(encoding="utf-8") == "keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["baseline.json"]


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BaselineNotFoundError, match="--write-baseline"):
        load_baseline(tmp_path / "absent.json")


def test_load_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(BaselineFormatError, match="not JSON"):
        load_baseline(path)


def test_load_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(BaselineFormatError, match="JSON object"):
        load_baseline(path)


def test_load_refuses_unknown_fields_and_floats(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    baseline = Baseline.from_run(standard_run, build_ref="abc123", recorded_at=RECORDED)
    document = json.loads(baseline.to_json())
    document["metrics"]["end_to_end_recall"] = 0.5
    path = tmp_path / "extra.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(BaselineFormatError, match=r"metrics\.end_to_end_recall"):
        load_baseline(path)


def test_recorded_at_must_be_aware(standard_run: DeterministicRun) -> None:
    with pytest.raises(UsageError, match="timezone-aware"):
        Baseline.from_run(standard_run, build_ref="x", recorded_at=datetime(2026, 5, 1))


def test_record_baseline_writes_a_run_whose_structural_zeros_hold(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    path = record_baseline(
        standard_run, tmp_path / "baseline.json", source=CLEAN, recorded_at=RECORDED
    )
    assert load_baseline(path) == Baseline.from_run(
        standard_run, build_ref="abc123", recorded_at=RECORDED
    )
    assert "dirty_reason" not in json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "broken",
    ["protected_rendered", "currency_violations", "false_transfers", "abstention_leaks"],
)
def test_record_baseline_refuses_a_run_breaking_a_structural_zero(
    tmp_path: Path, standard_run: DeterministicRun, broken: str
) -> None:
    row = standard_run.probes[0]
    bad = row.model_copy(update={"counts": row.counts.model_copy(update={broken: 1})})
    probes = (bad, *standard_run.probes[1:])
    run = standard_run.model_copy(
        update={
            "probes": probes,
            "metrics": DeterministicMetrics.aggregate(standard_run.scenarios, probes),
        }
    )
    target = tmp_path / "baseline.json"

    with pytest.raises(BaselineRefusedError, match=f"{broken}=1") as caught:
        record_baseline(run, target, source=CLEAN, recorded_at=RECORDED)

    assert caught.value.failures == (f"{broken}=1",)
    assert isinstance(caught.value, UsageError)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("source", "named"),
    [
        (DIRTY, "1 tracked file(s) differ from abc123: packages/x.py"),
        (SourceTree(commit=None), "not a git checkout"),
    ],
)
@pytest.mark.parametrize("reason", [None, "", "   "])
def test_record_baseline_refuses_a_dirty_tree_without_a_reason(
    tmp_path: Path,
    standard_run: DeterministicRun,
    source: SourceTree,
    named: str,
    reason: str | None,
) -> None:
    target = tmp_path / "baseline.json"
    with pytest.raises(BaselineDirtyTreeError, match="--dirty-reason") as caught:
        record_baseline(
            standard_run, target, source=source, recorded_at=RECORDED, dirty_reason=reason
        )
    assert named in str(caught.value)
    assert caught.value.source == source
    assert isinstance(caught.value, UsageError)
    assert list(tmp_path.iterdir()) == []


def test_record_baseline_records_the_reason_for_a_dirty_tree(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    path = record_baseline(
        standard_run,
        tmp_path / "baseline.json",
        source=DIRTY,
        recorded_at=RECORDED,
        dirty_reason="  bisecting a regression on an uncommitted revert  ",
    )
    recorded = load_baseline(path)
    assert recorded.build_ref == "abc123+dirty"
    assert recorded.dirty_reason == "bisecting a regression on an uncommitted revert"


def test_record_baseline_refuses_a_reason_for_a_clean_tree(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    with pytest.raises(BaselineError, match="drop --dirty-reason"):
        record_baseline(
            standard_run,
            tmp_path / "baseline.json",
            source=CLEAN,
            recorded_at=RECORDED,
            dirty_reason="nothing to excuse",
        )
    assert list(tmp_path.iterdir()) == []


def test_an_explicit_build_ref_names_the_build_but_does_not_excuse_a_dirty_tree(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    with pytest.raises(BaselineDirtyTreeError):
        record_baseline(
            standard_run, tmp_path / "b.json", source=DIRTY, recorded_at=RECORDED, build_ref="v1"
        )
    path = record_baseline(
        standard_run, tmp_path / "b.json", source=CLEAN, recorded_at=RECORDED, build_ref="v1"
    )
    assert load_baseline(path).build_ref == "v1"
