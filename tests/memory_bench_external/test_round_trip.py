"""Gate 9: each loader round-trips its synthetic fixture into scenarios, labeled beliefs and
probes with evidence references.

For external data the scenario form is the dataset-neutral :class:`ExternalInstance` (sessions
of turns marked principal or not, labeled beliefs, probes with :class:`ExternalEvidence`), not
the checked-in corpus's ``BenchmarkScenario``, whose authoring rules (user-only turns, at most
99 sessions and six probes, labels with subjects) the public files do not satisfy. Each test
maps the fixture, writes the mapped values back into the file's own shape and compares that
with the fixture, then records the instance in a real composition and follows every evidence
reference to the event appended for its turn, whose text is the fixture's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memory_bench.driver import EVAL_PRINCIPAL
from memory_bench.harness import build_eval_composition
from memory_bench_external import (
    ExternalInstance,
    load_halumem,
    load_locomo,
    load_longmemeval,
)
from memory_bench_external._dates import (
    parse_halumem_datetime,
    parse_locomo_datetime,
    parse_longmemeval_datetime,
)
from memory_bench_external.run import instance_start, record_instance
from memory_core.base.events import EventType
from memory_core.text import matching_key

Records = Callable[[Path], list[dict[str, Any]]]
GATE = pytest.mark.gate("gate.memory.bench_external_adapters")

_WELL_FORMED_DIA_ID = re.compile(r"^D(\d+):(\d+)$")


def _events_follow_evidence(instance: ExternalInstance) -> None:
    """Record ``instance``; every evidence reference of a scored probe resolves to events whose
    text is the dataset turn's, appended as the right kind of message."""
    composition = build_eval_composition(instance_start(instance))
    try:
        recorded = record_instance(composition, instance)
        by_turn = {(r.session_id, r.turn_id): r for r in recorded.turns}
        turns = {
            (session.session_id, turn.turn_id): turn
            for session in instance.sessions
            for turn in session.turns
        }
        assert set(by_turn) == {key for key, turn in turns.items() if turn.content.strip()}
        for key, row in by_turn.items():
            event = composition.events.get(EVAL_PRINCIPAL, row.event_id)
            assert event is not None
            assert event.payload["text"] == turns[key].content
            expected = (
                EventType.USER_MESSAGE_CREATED
                if turns[key].is_principal
                else EventType.ASSISTANT_MESSAGE_CREATED
            )
            assert event.event_type == expected
        for probe in instance.probes:
            if not probe.scored:
                continue
            for ref in probe.evidence:
                if ref.turn_id is not None:
                    assert (ref.session_id, ref.turn_id) in by_turn
                else:
                    assert any(session == ref.session_id for session, _ in by_turn)
    finally:
        composition.close()


@GATE
def test_locomo_round_trip(locomo_fixture: Path, json_records: Records) -> None:
    raw_samples = {str(r["sample_id"]): r for r in json_records(locomo_fixture)}
    dataset = load_locomo(locomo_fixture)
    assert {i.instance_id for i in dataset.instances} == set(raw_samples)
    for instance in dataset.instances:
        raw = raw_samples[instance.instance_id]
        conversation = raw["conversation"]
        assert isinstance(conversation, dict)
        # Sessions and turns, written back in the file's shape.
        written: dict[str, object] = {"speaker_a": conversation["speaker_a"]}
        for session in instance.sessions:
            written[session.session_id] = [
                {"speaker": t.speaker, "dia_id": t.turn_id, "text": t.text}
                | ({"blip_caption": t.image_caption} if t.image_caption else {})
                for t in session.turns
            ]
            written[f"{session.session_id}_date_time"] = session.started_at
        expected: dict[str, object] = {"speaker_a": conversation["speaker_a"]}
        for key, value in conversation.items():
            if re.fullmatch(r"session_\d+", key):
                assert isinstance(value, list)
                expected[key] = [
                    {k: turn[k] for k in ("speaker", "dia_id", "text", "blip_caption") if k in turn}
                    for turn in value
                ]
                expected[f"{key}_date_time"] = parse_locomo_datetime(
                    str(conversation[f"{key}_date_time"])
                )
        assert written == expected
        assert instance.principal == conversation["speaker_a"]
        # Probes: one per QA, in order, with the well-formed evidence ids as references.
        qa = raw["qa"]
        assert isinstance(qa, list)
        assert len(instance.probes) == len(qa)
        for probe, item in zip(instance.probes, qa, strict=True):
            assert probe.question == item["question"]
            if item["category"] == 5:
                assert probe.abstention and probe.category == "abstention"
                assert probe.forbidden == (str(item["adversarial_answer"]),)
                continue
            assert probe.answer == str(item["answer"])
            clean = [
                e
                for e in item.get("evidence", [])
                if isinstance(e, str) and _WELL_FORMED_DIA_ID.match(e)
            ]
            resolvable = [e for e in clean if instance.turn(e) is not None]
            assert {ref.turn_id for ref in probe.evidence if ref.turn_id} >= set(resolvable)
            for ref in probe.evidence:
                assert ref.dataset_ref is not None
                if ref.turn_id is not None:
                    turn = instance.turn(ref.turn_id)
                    assert (
                        turn is not None
                        and ref.session_id == f"session_{ref.turn_id[1:].split(':')[0]}"
                    )
                    # Only questions evidenced in the principal's turns are scored.
                    assert turn.is_principal or not probe.scored
        _events_follow_evidence(instance)


@GATE
def test_longmemeval_round_trip(longmemeval_fixture: Path, json_records: Records) -> None:
    raw_records = {str(r["question_id"]): r for r in json_records(longmemeval_fixture)}
    dataset = load_longmemeval(longmemeval_fixture)
    assert {i.instance_id for i in dataset.instances} == set(raw_records)
    for instance in dataset.instances:
        raw = raw_records[instance.instance_id]
        written = {
            "haystack_session_ids": [s.session_id for s in instance.sessions],
            "haystack_dates": [s.started_at for s in instance.sessions],
            "haystack_sessions": [
                [{"role": t.speaker, "content": t.text} for t in s.turns] for s in instance.sessions
            ],
        }
        sessions = raw["haystack_sessions"]
        assert isinstance(sessions, list)
        assert written == {
            "haystack_session_ids": raw["haystack_session_ids"],
            "haystack_dates": [parse_longmemeval_datetime(d) for d in raw["haystack_dates"]],
            "haystack_sessions": [
                [{"role": t["role"], "content": t["content"]} for t in body] for body in sessions
            ],
        }
        assert all(
            t.is_principal == (t.speaker == "user") for s in instance.sessions for t in s.turns
        )
        (probe,) = instance.probes
        assert (probe.question, probe.answer) == (raw["question"], str(raw["answer"]))
        assert probe.asked_at == parse_longmemeval_datetime(str(raw["question_date"]))
        # Evidence: the has_answer turns of the answer sessions, "<session>_<index + 1>".
        marked = {
            (sid, f"{sid}_{index + 1}")
            for sid, body in zip(raw["haystack_session_ids"], sessions, strict=True)
            if sid in raw["answer_session_ids"]
            for index, turn in enumerate(body)
            if turn.get("has_answer") is True
        }
        turn_refs = {(ref.session_id, ref.turn_id) for ref in probe.evidence if ref.turn_id}
        if probe.abstention:
            assert probe.evidence == ()
        else:
            assert turn_refs == marked
        _events_follow_evidence(instance)


@GATE
def test_halumem_round_trip(halumem_fixture: Path, json_records: Records) -> None:
    raw_users = {str(r["uuid"]): r for r in json_records(halumem_fixture)}
    dataset = load_halumem(halumem_fixture)
    assert {i.instance_id for i in dataset.instances} == set(raw_users)
    for instance in dataset.instances:
        raw_sessions = raw_users[instance.instance_id]["sessions"]
        assert isinstance(raw_sessions, list)
        by_label = {belief.label: belief for belief in instance.beliefs}
        # Sessions and dialogue.
        assert [
            [{"role": t.speaker, "content": t.text} for t in s.turns] for s in instance.sessions
        ] == [
            [{"role": d["role"], "content": d["content"]} for d in s["dialogue"]]
            for s in raw_sessions
        ]
        assert [s.started_at for s in instance.sessions] == [
            parse_halumem_datetime(s["start_time"]) for s in raw_sessions
        ]
        # Memory points are the labeled beliefs, in order; updates name what they supersede.
        points = [
            (number, p)
            for number, s in enumerate(raw_sessions, 1)
            for p in s.get("memory_points", [])
        ]
        assert [b.statement for b in instance.beliefs] == [p["memory_content"] for _, p in points]
        for belief, (number, point) in zip(instance.beliefs, points, strict=True):
            assert belief.session_id == f"session_{number}"
            assert belief.memory_type == point["memory_type"]
            assert belief.is_update == (point["is_update"] == "True")
            superseded = [by_label[label].statement for label in belief.supersedes]
            assert set(superseded) <= set(point.get("original_memories", []))
        # Questions are probes asked after their session, needing the labels their evidence names.
        questions = [
            (number, q) for number, s in enumerate(raw_sessions, 1) for q in s.get("questions", [])
        ]
        assert len(instance.probes) == len(questions)
        for probe, (number, question) in zip(instance.probes, questions, strict=True):
            assert probe.question == question["question"]
            assert probe.after_session == f"session_{number}"
            needed = {matching_key(by_label[label].statement) for label in probe.needed}
            stated = {matching_key(b.statement) for b in instance.beliefs}
            contents = [
                e.get("memory_content") if isinstance(e, dict) else e for e in question["evidence"]
            ]
            named = {matching_key(c) for c in contents if isinstance(c, str)} & stated
            assert needed == (set() if probe.abstention else named)
            assert {ref.session_id for ref in probe.evidence} == {
                by_label[label].session_id for label in probe.needed
            }
            assert all(ref.turn_id is None for ref in probe.evidence)  # session granularity
        _events_follow_evidence(instance)
