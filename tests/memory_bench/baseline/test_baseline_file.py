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
COMMIT = "abc123" + "0" * 34
CLEAN = SourceTree(commit=COMMIT)
DIRTY = SourceTree(commit=COMMIT, changed=("packages/x.py",))


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
    baseline = Baseline.from_run(standard_run, source=CLEAN, recorded_at=RECORDED)
    path = write_baseline(baseline, tmp_path / "baseline.json")
    assert load_baseline(path) == baseline
    assert path.read_text(encoding="utf-8").endswith("}\n")
    assert [p.name for p in tmp_path.iterdir()] == ["baseline.json"]


def test_baseline_holds_integers_only_and_no_trace_ids(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    baseline = Baseline.from_run(standard_run, source=CLEAN, recorded_at=RECORDED)
    document = json.loads(write_baseline(baseline, tmp_path / "b.json").read_text())
    numbers = _numbers(document)
    assert numbers
    assert all(type(n) is int for n in numbers if type(n) is not bool)
    assert [n for n in numbers if type(n) is bool] == [False]  # provenance.dirty only
    assert "trace" not in json.dumps(document)
    assert list(document) == [
        "schema_version",
        "benchmark_version",
        "extractor",
        "provenance",
        "metrics",
        "scenarios",
        "probes",
    ]
    assert document["schema_version"] == 2
    assert list(document["provenance"]) == [
        "commit",
        "dirty",
        "packages",
        "policies",
        "inputs",
        "recorded_at",
    ]
    assert document["provenance"]["commit"] == COMMIT
    assert document["provenance"]["dirty"] is False
    assert document["provenance"]["inputs"] == {"corpus": standard_run.corpus_digest}
    assert document["provenance"]["policies"] == {
        "formation": standard_run.formation_policy,
        "provider_formation": standard_run.provider_formation_policy,
        "retrieval": standard_run.retrieval_policy,
    }
    assert len(document["probes"]) == 3


def test_write_refuses_an_existing_path(tmp_path: Path, standard_run: DeterministicRun) -> None:
    target = tmp_path / "baseline.json"
    target.write_text("keep me", encoding="utf-8")
    baseline = Baseline.from_run(standard_run, source=CLEAN, recorded_at=RECORDED)
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
    baseline = Baseline.from_run(standard_run, source=CLEAN, recorded_at=RECORDED)
    document = json.loads(baseline.to_json())
    document["metrics"]["end_to_end_recall"] = 0.5
    path = tmp_path / "extra.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(BaselineFormatError, match=r"metrics\.end_to_end_recall"):
        load_baseline(path)


def test_recorded_at_must_be_aware(standard_run: DeterministicRun) -> None:
    with pytest.raises(UsageError, match="timezone-aware"):
        Baseline.from_run(standard_run, source=CLEAN, recorded_at=datetime(2026, 5, 1))


def test_record_baseline_writes_a_run_whose_structural_zeros_hold(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    path = record_baseline(
        standard_run, tmp_path / "baseline.json", source=CLEAN, recorded_at=RECORDED
    )
    assert load_baseline(path) == Baseline.from_run(
        standard_run, source=CLEAN, recorded_at=RECORDED
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
        (DIRTY, "1 tracked file(s) differ from abc123000000: packages/x.py"),
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
    assert recorded.provenance.commit == COMMIT
    assert recorded.provenance.dirty is True
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


def test_a_tree_outside_git_is_recorded_dirty_without_a_commit(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    path = record_baseline(
        standard_run,
        tmp_path / "b.json",
        source=SourceTree(commit=None),
        recorded_at=RECORDED,
        dirty_reason="an unpacked source archive",
    )
    provenance = load_baseline(path).provenance
    assert provenance.commit is None
    assert provenance.dirty is True
    assert not provenance.clean


def _v1_document(baseline: Baseline, build_ref: str) -> dict[str, Any]:
    """``baseline`` as a schema 1 file spelled it."""
    document = json.loads(baseline.to_json())
    provenance = document.pop("provenance")
    return {
        "schema_version": 1,
        "benchmark_version": document["benchmark_version"],
        "corpus_digest": provenance["inputs"]["corpus"],
        "formation_policy": provenance["policies"]["formation"],
        "provider_formation_policy": provenance["policies"]["provider_formation"],
        "retrieval_policy": provenance["policies"]["retrieval"],
        "extractor": document["extractor"],
        "build_ref": build_ref,
        "recorded_at": provenance["recorded_at"],
        "metrics": document["metrics"],
        "scenarios": document["scenarios"],
        "probes": document["probes"],
    }


@pytest.mark.parametrize(
    ("build_ref", "commit", "dirty"),
    [
        (COMMIT, COMMIT, False),
        (f"{COMMIT}+dirty", COMMIT, True),
        ("unknown", None, True),
        ("v1", None, True),
    ],
)
def test_a_schema_1_file_is_read_into_schema_2(
    tmp_path: Path,
    standard_run: DeterministicRun,
    build_ref: str,
    commit: str | None,
    dirty: bool,
) -> None:
    current = Baseline.from_run(standard_run, source=CLEAN, recorded_at=RECORDED)
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(_v1_document(current, build_ref), indent=2), encoding="utf-8")
    loaded = load_baseline(path)
    assert loaded.schema_version == 2
    assert loaded.provenance.commit == commit
    assert loaded.provenance.dirty is dirty
    assert loaded.provenance.packages == {}
    assert loaded.provenance.policies == current.provenance.policies
    assert loaded.corpus_digest == standard_run.corpus_digest
    assert loaded.recorded_at == RECORDED
    assert (loaded.metrics, loaded.scenarios, loaded.probes) == (
        current.metrics,
        current.scenarios,
        current.probes,
    )


def test_a_schema_1_file_keeps_its_strict_shape(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    current = Baseline.from_run(standard_run, source=CLEAN, recorded_at=RECORDED)
    document = _v1_document(current, COMMIT)
    document["provenance"] = json.loads(current.to_json())["provenance"]
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(BaselineFormatError, match="provenance"):
        load_baseline(path)


def test_a_schema_2_file_must_name_its_corpus(
    tmp_path: Path, standard_run: DeterministicRun
) -> None:
    document = json.loads(
        Baseline.from_run(standard_run, source=CLEAN, recorded_at=RECORDED).to_json()
    )
    document["provenance"]["inputs"] = {}
    path = tmp_path / "nameless.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(BaselineFormatError, match="corpus digest"):
        load_baseline(path)
