"""Hard gates 2-6: the five gates that read a deterministic run of the checked-in corpus.

One module-scoped run keeps every scenario's storage tier, so the protected-content and
supersession gates inspect the stores and traces directly instead of trusting the scoring that
produced the metrics; the reproducibility gate runs the arm a second time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_bench.baseline import Baseline, compare_to_baseline, load_baseline
from memory_bench.corpus import (
    BenchmarkProbe,
    BenchmarkScenario,
    MemoryBenchmarkCorpus,
    beliefs_by_label,
    load_corpus,
)
from memory_bench.driver import (
    EVAL_PRINCIPAL,
    IN_TURN_MOMENTS,
    prepare_scenario,
    read_run_recall,
    run_deterministic_benchmark,
    run_probe,
    run_scenario,
)
from memory_bench.metrics import DeterministicRun, ProbeMetrics
from memory_bench.scoring import contains_protected, matches_label, renders_forbidden
from memory_bench.source_tree import SourceTree
from memory_core import InMemoryStorage, RecallTrace, Storage
from memory_core.base.events import EventType
from memory_core.base.model import ToolCall
from memory_core.domain import BeliefStatus
from memory_core.runtime.policy_profile import RunLimits, load_policy_profile
from memory_core.runtime.scripted import FakeModelScript, ScriptedModel, ScriptedTurn
from memory_core.runtime.tools import RECALL_EPISODES_TOOL

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus" / "memory-benchmark.v1.json"
BASELINE = ROOT / "corpus" / "memory-benchmark.baseline.json"


@dataclass(frozen=True, kw_only=True)
class KeptRun:
    """A run of the checked-in corpus with every scenario's storage tier kept open."""

    corpus: MemoryBenchmarkCorpus
    digest: str
    run: DeterministicRun
    storages: dict[str, InMemoryStorage]


@pytest.fixture(scope="module")
def kept() -> KeptRun:
    corpus, digest = load_corpus(CORPUS)
    storages: dict[str, InMemoryStorage] = {}

    class Keep(InMemoryStorage):
        def close(self) -> None:  # the driver closes each tier; keep it readable
            pass

    def factory(scenario: BenchmarkScenario) -> Storage:
        storages[scenario.id] = Keep()
        return storages[scenario.id]

    run = run_deterministic_benchmark(corpus, digest, storage=factory, storage_label="memory")
    return KeptRun(corpus=corpus, digest=digest, run=run, storages=storages)


@dataclass(frozen=True, kw_only=True)
class ProbeTraces:
    probe: BenchmarkProbe
    traces: tuple[RecallTrace, ...]


def _probe_traces(storage: Storage, scenario: BenchmarkScenario) -> list[ProbeTraces]:
    """Each probe's snapshot and in-turn traces, read straight from the events (probe runs are
    the scenario's ``run.started`` events, in probe order)."""
    events = storage.events.page(EVAL_PRINCIPAL, limit=100_000)
    runs = [e.run_id for e in events if e.event_type == EventType.RUN_STARTED]
    assert len(runs) == len(scenario.probes)
    result = []
    for probe, run_id in zip(scenario.probes, runs, strict=True):
        mine = [e for e in events if e.run_id == run_id]
        ids = [
            str(e.payload["snapshot_id"])
            for e in mine
            if e.event_type == EventType.CONTEXT_PLANNED and e.payload.get("snapshot_id")
        ]
        ids += [
            str(e.payload["trace_id"])
            for e in mine
            if e.event_type == EventType.MEMORY_RECALLED
            and e.payload.get("moment") in IN_TURN_MOMENTS
        ]
        traces = []
        for trace_id in ids:
            trace = storage.traces.get(EVAL_PRINCIPAL, trace_id)
            assert trace is not None
            traces.append(trace)
        result.append(ProbeTraces(probe=probe, traces=tuple(traces)))
    return result


def _all_traces(storage: Storage) -> list[RecallTrace]:
    events = storage.events.page(
        EVAL_PRINCIPAL, limit=100_000, event_types=[EventType.MEMORY_RECALLED]
    )
    traces = [storage.traces.get(EVAL_PRINCIPAL, str(e.payload["trace_id"])) for e in events]
    assert all(trace is not None for trace in traces)
    return [trace for trace in traces if trace is not None]


@pytest.mark.gate("gate.memory.bench_reproducible")
def test_two_runs_are_identical_and_each_probe_has_one_prefix(kept: KeptRun) -> None:
    again = run_deterministic_benchmark(kept.corpus, kept.digest)
    assert again.metrics == kept.run.metrics
    assert again.probes == kept.run.probes
    assert again.scenarios == kept.run.scenarios
    assert again.model_dump_json() == kept.run.model_dump_json()
    assert kept.run.metrics.max_distinct_prefixes_per_probe == 1
    offenders = [row.key for row in kept.run.probes if row.counts.distinct_prefixes > 1]
    assert offenders == []


@pytest.mark.gate("gate.memory.bench_reproducible")
def test_a_probe_run_of_several_model_calls_keeps_one_prefix(kept: KeptRun) -> None:
    # Every deterministic probe makes exactly one model call, so "at most one distinct prefix
    # per probe" could not fail there. Here one probe run calls a tool and then answers: two
    # model calls in one run, and the cached prefix must be the same for both.
    scenario = kept.corpus.scenarios[0]
    probe = scenario.probes[0]
    script = FakeModelScript(
        turns=[
            ScriptedTurn(
                tool_calls=(
                    ToolCall(id="call-1", name=RECALL_EPISODES_TOOL, arguments={"query": "move"}),
                )
            ),
            ScriptedTurn(text="Noted."),
        ],
        on_exhausted="error",
    )
    profile = load_policy_profile("default").with_overrides(
        limits=RunLimits(max_steps=4, max_tokens=32_000, max_cost_usd=0.05),
        enabled_tools=[RECALL_EPISODES_TOOL],
    )
    prepared = prepare_scenario(scenario, model=ScriptedModel(script), policy_profile=profile)
    try:
        outcome = run_probe(prepared, probe)
        recall = read_run_recall(prepared.composition, outcome.run, outcome.run.session_id)
    finally:
        prepared.composition.close()

    assert outcome.run.completed and outcome.run.final_message == "Noted."
    assert len(recall.prefix_digests) == 2  # more than one model call in the run
    assert len(set(recall.prefix_digests)) == 1
    assert outcome.metrics.counts.distinct_prefixes == 1


@pytest.mark.gate("gate.memory.bench_reproducible")
@settings(max_examples=12, deadline=None, derandomize=True)
@given(data=st.data())
def test_any_scenario_alone_reproduces_its_rows(kept: KeptRun, data: st.DataObject) -> None:
    scenario = data.draw(st.sampled_from(kept.corpus.scenarios), label="scenario")
    formation, rows = run_scenario(scenario)
    assert formation in kept.run.scenarios
    assert list(rows) == [row for row in kept.run.probes if row.scenario_id == scenario.id]


@pytest.mark.gate("gate.memory.bench_no_regression")
def test_fresh_run_has_no_drift_and_no_regression(kept: KeptRun) -> None:
    comparison = compare_to_baseline(load_baseline(BASELINE), kept.run)
    assert comparison.drift == ()
    assert comparison.regressions == ()
    assert comparison.no_regression


@pytest.mark.gate("gate.memory.bench_no_regression")
def test_the_comparison_would_catch_a_lost_label(kept: KeptRun) -> None:
    baseline = load_baseline(BASELINE)
    victim = next(row for row in kept.run.probes if row.recalled_labels)
    worse = victim.model_copy(update={"recalled_labels": victim.recalled_labels[1:]})
    probes = tuple(worse if row.key == victim.key else row for row in kept.run.probes)
    comparison = compare_to_baseline(baseline, kept.run.model_copy(update={"probes": probes}))
    assert not comparison.no_regression
    lost = victim.recalled_labels[0]
    assert f"probe.{victim.key}.recalled_label.{lost}" in [d.key for d in comparison.regressions]


@pytest.mark.gate("gate.memory.bench_no_regression")
def test_the_comparison_would_catch_offsetting_moves_between_probe_rows(kept: KeptRun) -> None:
    # Noise moved from one probe to another of its category: every sum holds, one row rose.
    baseline = load_baseline(BASELINE)
    rows = kept.run.probes
    noisy = next(row for row in rows if row.counts.noise_total > 0)
    other = next(r for r in rows if r.category == noisy.category and r.key != noisy.key)

    def moved(row: ProbeMetrics, by: int) -> ProbeMetrics:
        counts = row.counts.model_copy(update={"noise_total": row.counts.noise_total + by})
        return row.model_copy(update={"counts": counts})

    probes = tuple(
        moved(row, -1) if row.key == noisy.key else moved(row, 1) if row.key == other.key else row
        for row in rows
    )
    run = kept.run.model_copy(
        update={"probes": probes, "metrics": kept.run.metrics.aggregate(kept.run.scenarios, probes)}
    )
    assert run.metrics == kept.run.metrics
    comparison = compare_to_baseline(baseline, run)
    assert [d.key for d in comparison.regressions] == [f"probe.{other.key}.noise_total"]
    assert not comparison.no_regression


@pytest.mark.gate("gate.memory.bench_baseline_current")
def test_fresh_run_equals_the_baseline_exactly(kept: KeptRun) -> None:
    baseline = load_baseline(BASELINE)
    comparison = compare_to_baseline(baseline, kept.run)
    assert comparison.current, comparison.model_dump_json(indent=2)
    assert baseline.provenance.commit is not None
    assert not baseline.provenance.dirty
    rerecorded = Baseline.from_run(
        kept.run,
        source=SourceTree(commit=baseline.provenance.commit),
        recorded_at=baseline.recorded_at,
    )
    # The installed versions may move on without re-recording; they are never compared.
    provenance = rerecorded.provenance.model_copy(update={"packages": baseline.provenance.packages})
    rerecorded = rerecorded.model_copy(update={"provenance": provenance})
    assert rerecorded == baseline
    assert rerecorded.to_json() == BASELINE.read_text(encoding="utf-8")


@pytest.mark.gate("gate.memory.bench_protected_never_rendered")
def test_protected_content_never_forms_never_renders_never_leaks(kept: KeptRun) -> None:
    protected = [s for s in kept.corpus.scenarios if s.protected_statements]
    assert len(protected) >= 4
    checked_beliefs = checked_traces = 0
    for scenario in protected:
        storage = kept.storages[scenario.id]
        for belief in storage.memories.list_beliefs(EVAL_PRINCIPAL):  # every status
            checked_beliefs += 1
            for fragment in scenario.protected_statements:
                assert not contains_protected(belief.statement, fragment), belief.id
                assert not contains_protected(belief.subject, fragment), belief.id
        for trace in _all_traces(storage):  # scenario snapshots and every probe trace
            checked_traces += 1
            for item in trace.beliefs:
                for fragment in scenario.protected_statements:
                    assert not contains_protected(item.statement, fragment), trace.trace_id
                    assert not contains_protected(item.subject, fragment), trace.trace_id
    assert checked_beliefs > 0 and checked_traces > 0
    metrics = kept.run.metrics
    assert metrics.formation.policy_failures == 0
    assert metrics.retrieval.protected_rendered == 0
    assert metrics.retrieval.abstention_leaks == 0
    leaking = [row.key for row in kept.run.probes if row.counts.abstention_leaks]
    assert leaking == []


@pytest.mark.gate("gate.memory.bench_supersession_current")
def test_a_formed_update_never_renders_what_it_superseded(kept: KeptRun) -> None:
    formed_cases = unformed_cases = 0
    for scenario in kept.corpus.scenarios:
        labels = beliefs_by_label(scenario)
        storage = kept.storages[scenario.id]
        for item in _probe_traces(storage, scenario):
            if item.probe.category not in ("update", "correction"):
                continue
            (needed,) = (labels[name] for name in item.probe.needed)
            assert needed.supersedes is not None
            old = labels[needed.supersedes]
            row = next(r for r in kept.run.probes if r.key == f"{scenario.id}/{item.probe.id}")
            if needed.label not in row.formed_labels:
                unformed_cases += 1
                continue
            formed_cases += 1
            for trace in item.traces:
                for traced in trace.beliefs:
                    assert not matches_label(old, traced), (row.key, trace.trace_id)
                    for statement in [*old.statements, *item.probe.forbidden_statements]:
                        assert not renders_forbidden(statement, traced.statement), row.key
            assert row.counts.currency_violations == 0
    assert formed_cases > 0
    # The unformed case is counted apart, never as a currency failure.
    unformed_rows = sum(
        1
        for row in kept.run.probes
        if row.category in ("update", "correction") and row.counts.needed_formed == 0
    )
    assert unformed_cases == unformed_rows
    assert kept.run.metrics.retrieval.currency_violations == 0
    superseded = [
        b
        for storage in kept.storages.values()
        for b in storage.memories.list_beliefs(EVAL_PRINCIPAL, frozenset({BeliefStatus.SUPERSEDED}))
    ]
    assert superseded, "the corpus exercises supersession"
