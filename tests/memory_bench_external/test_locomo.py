"""LoCoMo: the principal speaker, image turns, lenient evidence and the scoring filter."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory_bench_external import DatasetError, ProbeExclusion, load_locomo
from memory_core.errors import UsageError

Records = Callable[[Path], list[dict[str, object]]]
Writer = Callable[[str, list[dict[str, object]]], Path]


def test_sessions_follow_present_keys_only(locomo_fixture: Path) -> None:
    dataset = load_locomo(locomo_fixture)
    assert dataset.license == "CC-BY-NC-4.0"
    assert dataset.principal_speaker == "a"
    conv = dataset.instances[0]
    assert conv.instance_id == "conv-901"
    # session_4_date_time exists without a session_4.
    assert [s.session_id for s in conv.sessions] == ["session_1", "session_2", "session_3"]
    assert [s.started_at for s in conv.sessions] == [
        datetime(2023, 5, 8, 13, 56, tzinfo=UTC),
        datetime(2023, 6, 27, 10, 37, tzinfo=UTC),
        datetime(2023, 9, 3, 19, 5, tzinfo=UTC),
    ]
    assert all(p.asked_at == conv.sessions[-1].started_at for p in conv.probes)


def test_principal_speaker_picks_the_source(locomo_fixture: Path) -> None:
    as_a = load_locomo(locomo_fixture, principal_speaker="a").instances[0]
    as_b = load_locomo(locomo_fixture, principal_speaker="b").instances[0]
    assert as_a.principal == "Orla" and as_b.principal == "Tobias"
    first = as_a.sessions[0].turns
    assert [t.is_principal for t in first] == [True, False, True, False, True]
    assert [t.is_principal for t in as_b.sessions[0].turns] == [False, True, False, True, False]
    with pytest.raises(UsageError, match="--principal-speaker"):
        load_locomo(locomo_fixture, principal_speaker="c")  # type: ignore[arg-type]


def test_image_turn_keeps_its_caption(locomo_fixture: Path) -> None:
    turn = load_locomo(locomo_fixture).instances[0].sessions[0].turns[2]
    assert turn.turn_id == "D1:3"
    assert turn.image_caption == "a photo of a grey dog lying on a sofa"
    assert turn.content == (
        "Here is Biscuit on the sofa. [shared an image: a photo of a grey dog lying on a sofa]"
    )


def test_categories_answers_and_f1_modes(locomo_fixture: Path) -> None:
    probes = {p.probe_id: p for p in load_locomo(locomo_fixture).instances[0].probes}
    assert (probes["q001"].category, probes["q001"].f1_mode) == ("multi_hop", "multi_answer")
    assert probes["q002"].category == "temporal"
    assert (probes["q003"].dataset_category, probes["q003"].f1_mode) == (
        "open_domain",
        "first_alternative",
    )
    assert probes["q004"].answer == "4"
    adversarial = probes["q005"]
    assert adversarial.abstention and adversarial.category == "abstention"
    assert adversarial.answer == ""
    assert adversarial.forbidden == ("that she needs better shoes",)
    assert adversarial.scored


def test_evidence_is_lenient_and_counted(locomo_fixture: Path) -> None:
    dataset = load_locomo(locomo_fixture)
    probes = {p.probe_id: p for p in dataset.instances[0].probes}
    # "D1:5; D2:4" is split into its two ids.
    assert [e.turn_id for e in probes["q003"].evidence] == ["D1:5", "D2:4"]
    # "D2:99": session 2 has no turn 99, so the session stands in for it.
    assert [(e.session_id, e.turn_id) for e in probes["q008"].evidence] == [("session_2", None)]
    assert probes["q008"].scored
    # "D" and "D9:1" resolve to nothing; [] and a missing key are empty lists.
    for probe_id in ("q007", "q009", "q010"):
        assert probes[probe_id].exclusion is ProbeExclusion.NO_USABLE_EVIDENCE
    tally = dataset.evidence
    assert (tally.compound, tally.missing_turns, tally.malformed, tally.unknown) == (1, 1, 1, 1)
    assert tally.empty_lists == 2
    assert tally.unusable_evidence == 4


def test_only_questions_evidenced_in_principal_turns_are_scored(locomo_fixture: Path) -> None:
    as_a = {p.probe_id: p for p in load_locomo(locomo_fixture).instances[0].probes}
    as_b = {
        p.probe_id: p
        for p in load_locomo(locomo_fixture, principal_speaker="b").instances[0].probes
    }
    # q006's evidence D2:3 is Tobias speaking.
    assert as_a["q006"].exclusion is ProbeExclusion.EVIDENCE_OUTSIDE_PRINCIPAL
    assert as_b["q006"].scored
    assert as_a["q004"].scored
    assert as_b["q004"].exclusion is ProbeExclusion.EVIDENCE_OUTSIDE_PRINCIPAL
    # Mixed evidence (a principal turn and another speaker's turn) is not scored either.
    dataset = load_locomo(locomo_fixture)
    assert dataset.exclusions() == {"evidence_outside_principal": 2, "no_usable_evidence": 3}


@pytest.mark.parametrize(
    ("mutate", "field", "fragment"),
    [
        (
            lambda r: r["conversation"].pop("session_2_date_time"),
            "conversation.session_2_date_time",
            "expected a date string",
        ),
        (
            lambda r: r["conversation"].update(session_1_date_time="yesterday"),
            "conversation.session_1_date_time",
            "is not like",
        ),
        (lambda r: r["conversation"].pop("speaker_a"), "conversation.speaker_a", "missing"),
        (
            lambda r: r["conversation"]["session_1"][1].pop("dia_id"),
            "conversation.session_1[1].dia_id",
            "missing",
        ),
        (lambda r: r["qa"][0].pop("answer"), "qa[0].answer", "missing"),
        (lambda r: r["qa"][1].update(category=6), "qa[1].category", "expected an integer 1-5"),
        (lambda r: r["qa"][1].update(category="2"), "qa[1].category", "expected an integer 1-5"),
        (lambda r: r.update(qa={}), "qa", "expected a JSON list"),
    ],
)
def test_missing_or_mistyped_fields_name_record_and_field(
    locomo_fixture: Path,
    json_records: Records,
    write_records: Writer,
    mutate: Callable[[dict[str, object]], object],
    field: str,
    fragment: str,
) -> None:
    records = copy.deepcopy(json_records(locomo_fixture))
    mutate(records[0])
    path = write_records("locomo_broken.json", records)
    with pytest.raises(DatasetError) as caught:
        load_locomo(path)
    error = caught.value
    assert (error.record, error.record_id, error.field) == (0, "conv-901", field)
    assert fragment in str(error)


def test_truncated_and_wrong_shape_files(locomo_fixture: Path, tmp_path: Path) -> None:
    text = locomo_fixture.read_text(encoding="utf-8")
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) - 40], encoding="utf-8")
    with pytest.raises(DatasetError, match="truncated JSON") as caught:
        load_locomo(cut)
    assert caught.value.record == 1
    wrong = tmp_path / "dict.json"
    wrong.write_text('{"conv-901": {}}', encoding="utf-8")
    with pytest.raises(DatasetError, match="expected a JSON list at the top level"):
        load_locomo(wrong)
