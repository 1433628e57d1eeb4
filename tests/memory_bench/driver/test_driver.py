"""The deterministic driver, proven on a single inline scenario (spec build-sequence step 2)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest

from memory_bench.corpus import MemoryBenchmarkCorpus, scenario_timeline
from memory_bench.driver import (
    EVAL_PRINCIPAL,
    ProbeOutcome,
    prepare_scenario,
    run_deterministic_benchmark,
    run_probe,
)
from memory_bench.metrics import BENCHMARK_VERSION, DeterministicRun, ProbeMetrics
from memory_core import InMemoryStorage, Storage
from memory_core.base.events import EventType
from memory_core.domain import BeliefStatus
from memory_core.errors import UsageError
from memory_core.formation.extractor import Candidate, DeterministicExtractor, Turn
from memory_core.policy import (
    DETERMINISTIC_FORMATION_POLICY,
    PROVIDER_FORMATION_POLICY,
    RETRIEVAL_POLICY,
)

Inline = tuple[MemoryBenchmarkCorpus, str]


def _row(run: DeterministicRun, probe_id: str) -> ProbeMetrics:
    return next(row for row in run.probes if row.probe_id == probe_id)


class _KeptStorage:
    """A storage factory that keeps every tier it built, so a test can inspect it."""

    def __init__(self) -> None:
        self.built: list[InMemoryStorage] = []

    def __call__(self, scenario: object) -> Storage:
        storage = InMemoryStorage()
        self.built.append(storage)
        return storage


class _RecordingExtractor(DeterministicExtractor):
    """The deterministic extractor, recording when each turn it saw was said."""

    seen: list[Turn]

    def __init__(self) -> None:
        self.seen = []

    def extract(self, turn: Turn) -> list[Candidate]:
        self.seen.append(turn)
        return super().extract(turn)


@pytest.fixture
def run(inline_corpus: Inline) -> DeterministicRun:
    corpus, digest = inline_corpus
    return run_deterministic_benchmark(corpus, digest)


def test_provenance(run: DeterministicRun, inline_corpus: Inline) -> None:
    assert run.benchmark_version == BENCHMARK_VERSION
    assert run.corpus_digest == inline_corpus[1]
    assert run.formation_policy == DETERMINISTIC_FORMATION_POLICY
    assert run.provider_formation_policy == PROVIDER_FORMATION_POLICY
    assert run.retrieval_policy == RETRIEVAL_POLICY
    assert run.extractor == "DeterministicExtractor"
    assert run.storage == "memory"


def test_one_row_per_probe_and_scenario(run: DeterministicRun) -> None:
    assert [row.key for row in run.probes] == [
        f"mb-project-transfer-protected-001/p0{n}" for n in range(1, 6)
    ]
    assert [row.scenario_id for row in run.scenarios] == ["mb-project-transfer-protected-001"]
    assert run.metrics.scenarios == 1
    assert run.metrics.probes == 5
    assert run.metrics.retrieval.needed_total == 2


def test_every_probe_run_completes_on_one_prefix_with_both_moments(run: DeterministicRun) -> None:
    for row in run.probes:
        assert row.counts.runs_completed == 1, row.key
        assert row.counts.distinct_prefixes == 1, row.key
        # The snapshot recalled something for every probe: the store is not empty.
        assert row.counts.returned_snapshot > 0, row.key
    assert run.metrics.max_distinct_prefixes_per_probe == 1


def test_the_worked_scenario_behaves_as_the_spec_says(run: DeterministicRun) -> None:
    # The secret and the injection are refused before any candidate: nothing protected forms.
    assert run.scenarios[0].formation.policy_failures == 0
    assert run.metrics.retrieval.protected_rendered == 0
    # The portable preference carries into the other project ...
    assert _row(run, "p01").recalled_labels == ("pref_tabs",)
    # ... the local decision does not.
    assert _row(run, "p02").counts.false_transfers == 0
    # The retraction formed and superseded the assertion, which no trace renders.
    correction = _row(run, "p03")
    assert correction.formed_labels == ("apple_watch_retracted",)
    assert correction.counts.currency_violations == 0
    assert correction.counts.currency_unformed == 0
    for probe_id in ("p04", "p05"):
        assert _row(run, probe_id).counts.abstention_leaks == 0
    assert run.metrics.structural_zero_failures() == ()


def test_two_runs_are_identical(run: DeterministicRun, inline_corpus: Inline) -> None:
    again = run_deterministic_benchmark(*inline_corpus)
    assert again == run
    assert again.model_dump_json() == run.model_dump_json()


def test_storage_factory_runs_the_same_arm(run: DeterministicRun, inline_corpus: Inline) -> None:
    kept = _KeptStorage()
    other = run_deterministic_benchmark(*inline_corpus, storage=kept, storage_label="kept")
    assert other.storage == "kept"
    assert other.model_copy(update={"storage": "memory"}) == run
    assert len(kept.built) == 1


def test_probes_run_after_one_maintenance_pass_in_probe_scope(inline_corpus: Inline) -> None:
    kept = _KeptStorage()
    run_deterministic_benchmark(*inline_corpus, storage=kept)
    events = kept.built[0].events.page(EVAL_PRINCIPAL, limit=10_000)
    first_probe = min(e.sequence for e in events if e.event_type == EventType.RUN_STARTED)
    closed = [e for e in events if e.event_type == EventType.SESSION_CLOSED]
    # The maintenance sweep closed the idle scenario sessions, all before the first probe.
    assert closed
    assert all(e.sequence < first_probe for e in closed)
    runs = [e for e in events if e.event_type == EventType.RUN_STARTED]
    assert len(runs) == 5
    scopes = []
    for event in runs:
        assert event.session_id is not None
        session = kept.built[0].sessions.get(EVAL_PRINCIPAL, event.session_id)
        assert session is not None
        scopes.append(session.metadata.project_scope)
    assert scopes == ["orbit-app"] * 5


def test_sessions_form_at_their_own_scope(inline_corpus: Inline) -> None:
    kept = _KeptStorage()
    run_deterministic_benchmark(*inline_corpus, storage=kept)
    beliefs = kept.built[0].memories.list_beliefs(EVAL_PRINCIPAL)
    scopes = {belief.statement: belief.scope for belief in beliefs}
    assert scopes["The team decided to use Postgres with pgvector for the memory store."] == (
        "project:veetbot"
    )
    assert scopes["User prefers tabs over spaces."] == "user"
    statuses = {belief.statement: belief.status for belief in beliefs}
    assert statuses["User has an Apple Watch."] is BeliefStatus.SUPERSEDED


def test_clock_advances_before_sessions_and_turns(inline_corpus: Inline) -> None:
    corpus, digest = inline_corpus
    extractors: list[_RecordingExtractor] = []

    def factory() -> _RecordingExtractor:
        extractors.append(_RecordingExtractor())
        return extractors[-1]

    run_deterministic_benchmark(corpus, digest, extractor_factory=factory)
    scenario = corpus.scenarios[0]
    timeline = scenario_timeline(scenario)
    seen: Sequence[Turn] = extractors[-1].seen
    expected = []
    for window, session in zip(timeline.sessions, scenario.sessions, strict=True):
        offset = window.opened_offset
        for turn in session.turns:
            offset += turn.advance_seconds
            expected.append(scenario.start_at + timedelta(seconds=offset))
    # The secret and injection turns are refused before extraction; the extractor saw the
    # first three turns, each at its session's advance plus its own.
    assert [turn.created_at for turn in seen] == expected[:3]
    day = timedelta(days=1)
    assert expected[:3] == [
        scenario.start_at,
        scenario.start_at + 2 * day,
        scenario.start_at + 12 * day + timedelta(seconds=60),
    ]


def test_refuses_a_bad_digest(inline_corpus: Inline) -> None:
    with pytest.raises(UsageError, match="sha256"):
        run_deterministic_benchmark(inline_corpus[0], "not-a-digest")


def test_refuses_an_empty_corpus(inline_corpus: Inline) -> None:
    empty = inline_corpus[0].model_copy(update={"scenarios": []})
    with pytest.raises(UsageError, match="no scenario"):
        run_deterministic_benchmark(empty, inline_corpus[1])


def test_a_probe_reads_its_session_once(
    inline_corpus: Inline, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Beyond what the run itself reads, the driver reads the probe's session events once (for
    # the recall the run read); nothing re-reads the session to hand its events back.
    corpus, _ = inline_corpus
    scenario = corpus.scenarios[0]
    prepared = prepare_scenario(scenario)
    composition = prepared.composition
    reads: list[str] = []
    during_run: list[int] = []
    read_session = composition.events.read_session
    submit = composition.runs.submit

    def counting_read(principal: Any, session_id: str, *args: Any, **kwargs: Any) -> Any:
        reads.append(session_id)
        return read_session(principal, session_id, *args, **kwargs)

    def counting_submit(*args: Any, **kwargs: Any) -> Any:
        before = len(reads)
        try:
            return submit(*args, **kwargs)
        finally:
            during_run.append(len(reads) - before)

    monkeypatch.setattr(composition.events, "read_session", counting_read)
    monkeypatch.setattr(composition.runs, "submit", counting_submit)
    try:
        outcome = run_probe(prepared, scenario.probes[0])
    finally:
        composition.close()

    assert len(during_run) == 1
    assert len(reads) - during_run[0] == 1
    assert reads[-1] == outcome.run.session_id
    assert set(ProbeOutcome.__dataclass_fields__) == {"metrics", "run"}
