"""LongMemEval: instances, categories, abstention, evidence turns and malformed files."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory_bench_external import DatasetError, load_longmemeval
from memory_core.errors import UsageError

Records = Callable[[Path], list[dict[str, object]]]
Writer = Callable[[str, list[dict[str, object]]], Path]


def test_fixture_maps_every_instance(longmemeval_fixture: Path) -> None:
    dataset = load_longmemeval(longmemeval_fixture)
    assert dataset.dataset == "longmemeval"
    assert dataset.license == "MIT"
    assert dataset.population == 5
    assert [i.instance_id for i in dataset.instances] == sorted(
        ["f1a2b3c4", "0d9e8f7a", "7c6b5a49", "3e4f5a6b_abs", "9a8b7c6d"]
    )
    categories = {i.instance_id: i.probes[0].category for i in dataset.instances}
    assert categories == {
        "f1a2b3c4": "single_hop",
        "0d9e8f7a": "update",
        "7c6b5a49": "single_hop",
        "3e4f5a6b_abs": "abstention",
        "9a8b7c6d": "temporal",
    }


def test_turns_sessions_and_clock(longmemeval_fixture: Path) -> None:
    dataset = load_longmemeval(longmemeval_fixture)
    instance = next(i for i in dataset.instances if i.instance_id == "f1a2b3c4")
    assert instance.principal == "user"
    assert [s.session_id for s in instance.sessions] == ["sharegpt_k1x9", "answer_f1a2b3c4_1"]
    assert instance.sessions[0].started_at == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    answer_session = instance.sessions[1]
    assert [t.turn_id for t in answer_session.turns] == [
        "answer_f1a2b3c4_1_1",
        "answer_f1a2b3c4_1_2",
        "answer_f1a2b3c4_1_3",
        "answer_f1a2b3c4_1_4",
    ]
    assert [t.is_principal for t in answer_session.turns] == [True, False, True, False]
    probe = instance.probes[0]
    assert probe.answer == "3"  # an integer answer becomes its decimal text
    assert probe.asked_at == datetime(2023, 5, 30, 23, 40, tzinfo=UTC)
    assert [(e.session_id, e.turn_id) for e in probe.evidence] == [
        ("answer_f1a2b3c4_1", "answer_f1a2b3c4_1_1")
    ]


def test_abstention_and_separately_reported_types(longmemeval_fixture: Path) -> None:
    probes = {p.probe_id: p for p in load_longmemeval(longmemeval_fixture).probes}
    abstain = probes["3e4f5a6b_abs"]
    assert abstain.abstention
    assert abstain.dataset_category == "multi-session"
    assert abstain.evidence == ()
    assistant = probes["7c6b5a49"]
    assert assistant.reported_separately
    assert assistant.scored
    # Its evidence is an assistant turn: the principal never said it.
    (evidence,) = assistant.evidence
    assert evidence.turn_id == "answer_7c6b5a49_1_2"
    assert not any(p.reported_separately for k, p in probes.items() if k != "7c6b5a49")


def test_unmarked_answer_session_falls_back_to_session_granularity(
    longmemeval_fixture: Path,
) -> None:
    dataset = load_longmemeval(longmemeval_fixture)
    probe = next(p for p in dataset.probes if p.probe_id == "9a8b7c6d")
    assert [(e.session_id, e.turn_id) for e in probe.evidence] == [
        ("answer_9a8b7c6d_1", None),
        ("answer_9a8b7c6d_2", "answer_9a8b7c6d_2_1"),
    ]
    # answer_9a8b7c6d_9 is not in the haystack: counted, not fatal.
    assert dataset.evidence.unknown == 1
    assert dataset.evidence.session_level == 1
    assert dataset.evidence.unusable_evidence == 1


def test_sample_is_reproducible(longmemeval_fixture: Path) -> None:
    first = load_longmemeval(longmemeval_fixture, sample=2, seed=9)
    again = load_longmemeval(longmemeval_fixture, sample=2, seed=9)
    assert first == again
    assert len(first.instances) == 2
    assert first.sample == 2 and first.seed == 9 and first.population == 5
    with pytest.raises(UsageError, match="exceeds the 5 instances"):
        load_longmemeval(longmemeval_fixture, sample=6)


@pytest.mark.parametrize(
    ("mutate", "field", "fragment"),
    [
        (lambda r: r.pop("question"), "question", "missing"),
        (lambda r: r.update(answer=None), "answer", "expected a string or a number"),
        (lambda r: r.update(question_type="x-type"), "question_type", "unknown question type"),
        (lambda r: r.update(question_date="May 30"), "question_date", "is not like"),
        (lambda r: r["haystack_dates"].pop(), "haystack_sessions", "differ in length"),
        (
            lambda r: r["haystack_sessions"][0][0].update(role="system"),
            "haystack_sessions[0][0].role",
            "expected 'user' or 'assistant'",
        ),
        (
            lambda r: r["haystack_sessions"][1][0].pop("content"),
            "haystack_sessions[1][0].content",
            "missing",
        ),
    ],
)
def test_missing_or_mistyped_fields_name_record_and_field(
    longmemeval_fixture: Path,
    json_records: Records,
    write_records: Writer,
    mutate: Callable[[dict[str, object]], object],
    field: str,
    fragment: str,
) -> None:
    records = copy.deepcopy(json_records(longmemeval_fixture))
    mutate(records[0])
    path = write_records("longmem_broken.json", records)
    with pytest.raises(DatasetError) as caught:
        load_longmemeval(path)
    error = caught.value
    assert (error.record, error.record_id, error.field) == (0, "f1a2b3c4", field)
    assert fragment in str(error)
    assert str(path) in str(error)


def test_truncated_and_wrong_shape_files(longmemeval_fixture: Path, tmp_path: Path) -> None:
    text = longmemeval_fixture.read_text(encoding="utf-8")
    truncated = tmp_path / "cut.json"
    truncated.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(DatasetError, match="truncated JSON"):
        load_longmemeval(truncated)
    shaped = tmp_path / "object.json"
    shaped.write_text('{"question_id": "x"}', encoding="utf-8")
    with pytest.raises(DatasetError, match="expected a JSON list at the top level"):
        load_longmemeval(shaped)
