"""The deterministic external run: real formation and retrieval over the fixtures, both arms
scored with evidence-provenance recall@k, dataset dates on the fixed clock."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memory_bench.driver import EVAL_PRINCIPAL, RunRecall
from memory_bench.harness import build_eval_composition
from memory_bench.source_tree import SourceTree
from memory_bench_external import (
    DatasetError,
    ExternalInstance,
    ExternalMetrics,
    open_halumem,
    open_locomo,
    open_longmemeval,
    run_external,
)
from memory_bench_external.run import (
    ExternalRun,
    MemoryProbe,
    in_turn_returned,
    instance_start,
    ranked_returned,
    record_instance,
)
from memory_bench_external.scoring import count_words
from memory_core.base.events import EventType
from memory_core.domain import BeliefStatus, RecallTrace
from memory_core.errors import UsageError

Records = Callable[[Path], list[dict[str, Any]]]
Writer = Callable[[str, list[dict[str, Any]]], Path]

AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def _rows(run: ExternalRun) -> dict[str, MemoryProbe]:
    return {f"{row.instance_id}/{row.outcome.probe_id}": row for row in run.memory_rows}


class _Progress:
    """Records what a run reports."""

    def __init__(self) -> None:
        self.checked_ids: list[str] = []
        self.started_ids: list[str] = []
        self.sessions = 0
        self.probes = 0

    def checked(self, instance: ExternalInstance) -> None:
        self.checked_ids.append(instance.instance_id)

    def started(self, instance: ExternalInstance) -> None:
        self.started_ids.append(instance.instance_id)

    def session_formed(self) -> None:
        self.sessions += 1

    def probe_answered(self) -> None:
        self.probes += 1


@pytest.mark.parametrize("which", ["locomo", "longmemeval", "halumem"])
def test_two_runs_write_identical_metrics(
    which: str, locomo_fixture: Path, longmemeval_fixture: Path, halumem_fixture: Path
) -> None:
    opener: dict[str, Callable[[], Any]] = {
        "locomo": lambda: open_locomo(locomo_fixture),
        "longmemeval": lambda: open_longmemeval(longmemeval_fixture),
        "halumem": lambda: open_halumem(halumem_fixture),
    }
    first = run_external(opener[which]())
    second = run_external(opener[which]())
    assert first == second
    stamp: dict[str, Any] = {"source": SourceTree(commit="a" * 40), "recorded_at": AT}
    assert (
        ExternalMetrics.from_run(first, **stamp).to_json()
        == ExternalMetrics.from_run(second, **stamp).to_json()
    )


def test_progress_sees_every_record_session_and_probe(locomo_fixture: Path) -> None:
    progress = _Progress()
    run = run_external(open_locomo(locomo_fixture), progress=progress)
    assert sorted(progress.checked_ids) == sorted(progress.started_ids) == ["conv-901", "conv-902"]
    assert progress.sessions == run.formation.sessions == 5
    assert progress.probes == len(run.memory_rows) == len(run.baseline_rows) == 8


def test_a_malformed_record_fails_before_any_instance_runs(
    locomo_fixture: Path, json_records: Records, write_records: Writer
) -> None:
    records = json_records(locomo_fixture)
    broken = copy.deepcopy(records[-1])
    del broken["conversation"]["session_1"][0]["speaker"]
    path = write_records("locomo_late_error.json", [*records[:-1], broken])
    progress = _Progress()
    with pytest.raises(DatasetError, match=r"record 1 \(conv-902\).*session_1\[0\]\.speaker"):
        run_external(open_locomo(path), progress=progress)
    assert progress.checked_ids == ["conv-901"]
    assert progress.started_ids == []


def test_other_speaker_is_recorded_but_never_a_source(locomo_fixture: Path) -> None:
    for speaker in ("a", "b"):
        instance = open_locomo(locomo_fixture, principal_speaker=speaker).load().instances[0]
        composition = build_eval_composition(instance_start(instance))
        try:
            recorded = record_instance(composition, instance)
            principal_turns = {r.event_id for r in recorded.turns if r.is_principal}
            for row in recorded.turns:
                if not row.is_principal:
                    event = composition.events.get(EVAL_PRINCIPAL, row.event_id)
                    assert (
                        event is not None
                        and event.event_type == EventType.ASSISTANT_MESSAGE_CREATED
                    )
            beliefs = composition.memory.list_memories(
                statuses=frozenset(BeliefStatus), principal=EVAL_PRINCIPAL
            )
            assert all(set(b.source_event_ids) <= principal_turns for b in beliefs)
            statements = " ".join(b.statement for b in beliefs)
            # Orla's first-person statements form only while she is the principal.
            assert ("Tallinn" in statements) == (speaker == "a")
            assert ("ceramics" in statements) == (speaker == "a")
        finally:
            composition.close()


def test_beliefs_map_back_to_their_evidence_turns(locomo_fixture: Path) -> None:
    run = run_external(open_locomo(locomo_fixture))
    rows = _rows(run)
    # "When did Orla move to Tallinn?" (evidence D2:2): the belief formed from D2:2 is the
    # in-turn recall's first item.
    moved = rows["conv-901/q002"]
    assert moved.outcome.first_hit == 1 and moved.evidence_in_turn
    # The adversarial question is run (it counts tokens and items) but not for recall@k.
    adversarial = [row for row in run.memory_rows if row.outcome.category == "abstention"]
    assert adversarial and not any(row.outcome.eligible for row in adversarial)
    # Excluded questions (evidence in Tobias's turns, or no usable id) are not run at all.
    assert run.exclusions == {"evidence_outside_principal": 2, "no_usable_evidence": 3}
    assert run.probes_parsed - sum(run.exclusions.values()) == len(run.memory_rows)
    for summary in (run.memory, run.baseline):
        assert 0 <= summary.matched <= summary.returned
        assert summary.noise == summary.returned - summary.matched


def test_single_session_assistant_scores_zero_and_is_reported_separately(
    longmemeval_fixture: Path,
) -> None:
    run = run_external(open_longmemeval(longmemeval_fixture))
    row = _rows(run)["7c6b5a49/7c6b5a49"]
    assert row.outcome.reported_separately and row.outcome.first_hit is None
    for summary in (run.memory, run.baseline):
        assert summary.separately.probes == 1 and summary.separately.at(10) == 0
        assert "single-session-assistant" in dict(summary.by_dataset_category)
    kayaks = _rows(run)["f1a2b3c4/f1a2b3c4"]
    assert kayaks.outcome.first_hit == 1


def test_session_granularity_evidence_matches_any_turn_of_the_session(
    halumem_fixture: Path,
) -> None:
    run = run_external(open_halumem(halumem_fixture))
    rows = _rows(run)
    # "What is Ilse's job?" names a memory point of session_1: the belief formed from the
    # session's first turn matches at session granularity.
    job = rows["0b6f2c1e-91aa-4c55-8f00-7d2e1a9c0001/s001_q001"]
    assert job.outcome.eligible and job.outcome.first_hit == 1
    # HaluMem questions are asked after the last session: their session-end instants clamp.
    assert run.probe_clamps == 7 and run.session_clamps == 0


def test_halumem_end_to_end_against_labeled_memory_points(halumem_fixture: Path) -> None:
    labels = run_external(open_halumem(halumem_fixture)).labels
    # Six memory points; "goes bouldering every Thursday" is superseded by the Monday update
    # ("lives in Delft" names no earlier point and supersedes nothing).
    assert (labels.labels, labels.expected, labels.superseded) == (6, 5, 1)
    # "works as a bridge engineer in Rotterdam", "My brother Tamas is a violin maker."
    # ("User's brother is Tamas.") and, since formation@7 reads habits and what happens to the
    # user's things, two more points (the Monday bouldering update among them) form with token
    # F1 >= 0.5 to their points;
    # "User lives in Utrecht" shares one stem with "Ilse Varga moved to Utrecht".
    assert labels.supported == 4
    assert labels.stale_live == 0
    assert labels.needed_recalled <= labels.needed_formed <= labels.needed
    assert labels.needed_recalled >= 1
    assert labels.returned_unmatched <= labels.returned


def test_dataset_dates_drive_the_clock_and_a_backwards_step_clamps(
    longmemeval_fixture: Path, json_records: Records, write_records: Writer
) -> None:
    kayaks, bike = copy.deepcopy(json_records(longmemeval_fixture)[:2])
    assert (kayaks["question_id"], bike["question_id"]) == ("f1a2b3c4", "0d9e8f7a")
    # In order, the kayak belief forms at its session's date.
    in_order = open_longmemeval(write_records("lme_in_order.json", [kayaks])).load()
    # The answer session dated before the first one: its step clamps to zero, so the belief
    # forms at the clock's instant, the first session's date.
    kayaks["haystack_dates"][1] = "2023/05/10 (Wed) 08:00"
    clamped = open_longmemeval(write_records("lme_clamped.json", [kayaks])).load()
    for dataset, formed_at, clamps in (
        (in_order, datetime(2023, 5, 22, 18, 5, tzinfo=UTC), 0),
        (clamped, datetime(2023, 5, 20, 2, 21, tzinfo=UTC), 1),
    ):
        instance = dataset.instances[0]
        composition = build_eval_composition(instance_start(instance))
        try:
            recorded = record_instance(composition, instance)
            assert recorded.session_clamps == clamps
            (belief,) = composition.memory.list_memories(principal=EVAL_PRINCIPAL)
            assert "kayaks" in belief.statement
            assert belief.created_at == belief.valid_from == formed_at
            assert composition.clock.now() == formed_at
        finally:
            composition.close()
    # The question date drives the probe's clock; one earlier than the clock clamps too.
    bike["question_date"] = "2023/01/01 (Sun) 00:00"
    run = run_external(open_longmemeval(write_records("lme_clamped_probe.json", [kayaks, bike])))
    assert (run.session_clamps, run.probe_clamps) == (1, 1)


def test_empty_turns_are_skipped_and_counted(
    locomo_fixture: Path, json_records: Records, write_records: Writer
) -> None:
    record = copy.deepcopy(json_records(locomo_fixture)[0])
    record["conversation"]["session_1"].append({"speaker": "Orla", "dia_id": "D1:6", "text": ""})
    path = write_records("locomo_empty_turn.json", [record])
    run = run_external(open_locomo(path))
    assert run.formation.empty_turns == 1
    assert run.formation.principal_turns + run.formation.non_source_turns == 12


def test_cut_offs_must_be_positive(locomo_fixture: Path) -> None:
    with pytest.raises(UsageError, match="positive integers"):
        run_external(open_locomo(locomo_fixture), ks=(0, 5))


def _trace(trace_id: str, moment: Any, *returned: str) -> RecallTrace:
    return RecallTrace(
        trace_id=trace_id,
        tenant_id=EVAL_PRINCIPAL.tenant_id,
        principal_id=EVAL_PRINCIPAL.principal_id,
        moment=moment,
        policy_version="retrieval@test",
        created_at=datetime(2023, 5, 8, tzinfo=UTC),
        returned=returned,
    )


def test_the_memory_arm_reads_in_turn_recall_first_then_the_snapshot() -> None:
    recall = RunRecall(
        snapshot=_trace("t-snap", "snapshot", "m-2", "m-3", "m-5"),
        in_turn=(_trace("t-in", "in_turn", "m-3", "m-1"), _trace("t-delta", "delta", "m-1", "m-4")),
        prefix_digests=(),
    )
    assert in_turn_returned(recall) == ["m-3", "m-1", "m-4"]
    assert ranked_returned(recall) == ["m-3", "m-1", "m-4", "m-2", "m-5"]
    blind_only = RunRecall(snapshot=recall.snapshot, in_turn=(), prefix_digests=())
    assert ranked_returned(blind_only) == ["m-2", "m-3", "m-5"]
    assert ranked_returned(RunRecall(snapshot=None, in_turn=(), prefix_digests=())) == []


def test_each_arm_counts_the_words_of_what_it_returned(locomo_fixture: Path) -> None:
    run = run_external(open_locomo(locomo_fixture))
    for row in run.baseline_rows:
        assert row.outcome.item_words == tuple(count_words(t.text) for t in row.retrieved)
    for memory_row in run.memory_rows:
        assert len(memory_row.outcome.item_words) == memory_row.outcome.returned
        assert all(words > 0 for words in memory_row.outcome.item_words)
    for summary, rows in (
        (run.memory, [row.outcome for row in run.memory_rows]),
        (run.baseline, [row.outcome for row in run.baseline_rows]),
    ):
        counted = [o for o in rows if o.eligible and not o.reported_separately]
        assert dict(summary.words_at_k) == {
            k: sum(sum(o.item_words[:k]) for o in counted) for k in run.ks
        }


def test_forming_turns_count_the_principal_turns_a_belief_cites(
    locomo_fixture: Path, json_records: Records, write_records: Writer
) -> None:
    before = run_external(open_locomo(locomo_fixture)).formation
    assert (before.forming_turns, before.principal_turns) == (8, 9)
    record = copy.deepcopy(json_records(locomo_fixture)[0])
    # A principal turn that states nothing is a principal turn that forms nothing.
    record["conversation"]["session_1"].append(
        {"speaker": "Orla", "dia_id": "D1:6", "text": "Haha, okay!"}
    )
    path = write_records("locomo_idle_turn.json", [record, *json_records(locomo_fixture)[1:]])
    after = run_external(open_locomo(path)).formation
    assert after.principal_turns == before.principal_turns + 1
    assert after.forming_turns == before.forming_turns
