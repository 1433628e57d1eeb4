"""HaluMem: memory points as labeled beliefs, updates as supersessions, questions as probes."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory_bench_external import DatasetError, load_halumem
from memory_core.domain import BeliefType

Records = Callable[[Path], list[dict[str, object]]]
Writer = Callable[[str, list[dict[str, object]]], Path]


def test_users_sessions_and_turns(halumem_fixture: Path) -> None:
    dataset = load_halumem(halumem_fixture)
    assert dataset.license == "CC-BY-NC-ND-4.0"
    assert dataset.population == 2
    user = dataset.instances[0]
    assert user.instance_id == "0b6f2c1e-91aa-4c55-8f00-7d2e1a9c0001"
    assert [s.session_id for s in user.sessions] == ["session_1", "session_2", "session_3"]
    first = user.sessions[0]
    assert first.started_at == datetime(2029, 1, 15, 15, 12, 20, tzinfo=UTC)
    assert first.ended_at == datetime(2029, 1, 15, 15, 40, 2, tzinfo=UTC)
    assert [t.turn_id for t in first.turns[:3]] == ["session_1:1", "session_1:2", "session_1:3"]
    assert [t.is_principal for t in first.turns[:2]] == [True, False]
    assert first.turns[0].timestamp == first.started_at


def test_memory_points_become_labeled_beliefs(halumem_fixture: Path) -> None:
    beliefs = {b.label: b for b in load_halumem(halumem_fixture).instances[0].beliefs}
    assert sorted(beliefs) == ["m001_001", "m001_002", "m001_003", "m002_001", "m002_002"]
    assert beliefs["m001_001"].belief_type is BeliefType.USER_MODEL_ATTR
    assert beliefs["m001_002"].belief_type is BeliefType.FACT
    assert beliefs["m001_003"].belief_type is BeliefType.RELATIONSHIP
    assert beliefs["m001_003"].source == "secondary"
    assert beliefs["m001_002"].importance == 0.5


def test_string_boolean_updates_become_supersessions(halumem_fixture: Path) -> None:
    dataset = load_halumem(halumem_fixture)
    beliefs = {b.label: b for b in dataset.instances[0].beliefs}
    update = beliefs["m002_001"]
    assert update.is_update and update.supersedes == ("m001_002",)
    assert not beliefs["m001_002"].is_update
    # "Ilse Varga lives in Delft." was never a memory point: counted, not fatal.
    assert beliefs["m002_002"].is_update and beliefs["m002_002"].supersedes == ()
    assert dataset.evidence.unresolved_updates == 1


def test_questions_become_probes_with_needed_labels(halumem_fixture: Path) -> None:
    dataset = load_halumem(halumem_fixture)
    probes = {p.probe_id: p for p in dataset.instances[0].probes}
    recall = probes["s001_q001"]
    assert recall.category == "single_hop"
    assert recall.needed == ("m001_001",)
    assert [(e.session_id, e.turn_id) for e in recall.evidence] == [("session_1", None)]
    assert recall.after_session == "session_1"
    assert recall.asked_at == datetime(2029, 1, 15, 15, 40, 2, tzinfo=UTC)
    boundary = probes["s001_q002"]
    assert boundary.abstention and boundary.category == "abstention" and boundary.evidence == ()
    assert probes["s002_q001"].category == "update"
    assert probes["s002_q001"].needed == ("m002_001",)
    multi = probes["s002_q002"]
    assert multi.category == "multi_hop"
    assert multi.needed == ("m001_003", "m001_001")
    assert probes["s002_q003"].category == "correction"
    assert probes["s002_q004"].category == "preference"
    # A plain-string evidence entry is matched too; an integer answer becomes text.
    assert probes["s002_q005"].needed == ("m001_001",)
    assert probes["s002_q005"].answer == "6"
    assert dataset.evidence.unknown == 1  # "Ilse Varga loves sailing." is no memory point


def test_generated_filler_session_without_questions(halumem_fixture: Path) -> None:
    user = load_halumem(halumem_fixture).instances[0]
    filler = user.sessions[2]
    assert len(filler.turns) == 2
    assert not any(p.after_session == "session_3" for p in user.probes)


@pytest.mark.parametrize(
    ("mutate", "field", "fragment"),
    [
        (lambda r: r["sessions"][0].pop("start_time"), "sessions[0].start_time", "missing"),
        (lambda r: r["sessions"][1].update(end_time="soon"), "sessions[1].end_time", "is not like"),
        (
            lambda r: r["sessions"][0]["memory_points"][0].update(is_update="yes"),
            "sessions[0].memory_points[0].is_update",
            "expected true/false",
        ),
        (
            lambda r: r["sessions"][0]["memory_points"][1].pop("memory_content"),
            "sessions[0].memory_points[1].memory_content",
            "missing",
        ),
        (
            lambda r: r["sessions"][0]["dialogue"][0].update(role="narrator"),
            "sessions[0].dialogue[0].role",
            "expected 'user' or 'assistant'",
        ),
        (
            lambda r: r["sessions"][1]["questions"][0].update(question_type="Trivia"),
            "sessions[1].questions[0].question_type",
            "unknown question type",
        ),
        (
            lambda r: r["sessions"][1]["questions"][0].pop("answer"),
            "sessions[1].questions[0].answer",
            "missing",
        ),
    ],
)
def test_missing_or_mistyped_fields_name_line_and_field(
    halumem_fixture: Path,
    json_records: Records,
    write_records: Writer,
    mutate: Callable[[dict[str, object]], object],
    field: str,
    fragment: str,
) -> None:
    records = copy.deepcopy(json_records(halumem_fixture))
    mutate(records[0])
    path = write_records("halumem_broken.jsonl", records)
    with pytest.raises(DatasetError) as caught:
        load_halumem(path)
    error = caught.value
    assert (error.record, error.record_id, error.field) == (
        1,
        "0b6f2c1e-91aa-4c55-8f00-7d2e1a9c0001",
        field,
    )
    assert "line 1" in str(error)
    assert fragment in str(error)


def test_truncated_and_wrong_shape_files(halumem_fixture: Path, tmp_path: Path) -> None:
    text = halumem_fixture.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[: len(text) - 100], encoding="utf-8")
    with pytest.raises(DatasetError, match="truncated JSON on the last line") as caught:
        load_halumem(cut)
    assert caught.value.record == 2
    as_list = tmp_path / "list.jsonl"
    as_list.write_text("[\n" + text.replace("\n", ",\n").rstrip(",\n") + "\n]\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="line 1"):
        load_halumem(as_list)
