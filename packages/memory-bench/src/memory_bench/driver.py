"""The deterministic arm: drive a corpus through real formation and retrieval, score it.

Per scenario the driver builds one composition with the evaluation harness and never leaves
it (:func:`memory_bench.harness.build_eval_composition`: the scripted acknowledgement, the
probe policy, a fixed clock, sequential ids, all through ``bootstrap.build``)::

    composition = build_eval_composition(scenario.start_at, storage=..., extractor=...)

    for session in scenario.sessions:
        clock.advance(session.advance_seconds)
        view = sessions.create(EVAL_PRINCIPAL, "general", {"project_scope": ...})
        for turn in session.turns:
            clock.advance(turn.advance_seconds)
            sessions.record_user_message(view.id, turn.text)
        memory.run(trigger="session_close", scope=<project:name or general>, session_id=view.id)

    maintenance_factory().run_once()                 # once, after the last session

    for probe in scenario.probes:
        clock.advance(probe.advance_seconds)
        live = memory.list_memories(LIVE_STATUSES)
        view = sessions.create(EVAL_PRINCIPAL, "general", {"project_scope": ...})
        run  = runs.submit(probe.question, view.id)  # the bare question, no instruction
        snapshot trace: the run's context.planned event names it (snapshot_id)
        in-turn traces: the run's memory.recalled events (moments in_turn and delta)
        prefix digests: the run's model.called events
        score_probe(...)

The harness calls ``memory.run`` directly instead of closing the session (the spec's
documented harness path). Maintenance runs exactly once, before the first probe, so probes
never change the store the next probe reads. Formation is scored after the last probe over
every belief of the principal, so a belief that formed at any point is counted.

The arm is a function of the corpus and the code: in-memory storage by default, a fixed clock,
sequential ids and a scripted model that never sees a network.

The live arm reuses the same loop through three hooks: :func:`prepare_scenario` (the composition
once its sessions are consolidated and maintenance has run, optionally with a real ``model`` and
an explicit policy profile), :func:`run_probe` (one probe, optionally with another prompt,
returning the ``Run`` record beside the probe's row), and
:func:`score_scenario_formation`. ``run_scenario`` is exactly those three in sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memory_bench.corpus import BenchmarkProbe, BenchmarkScenario, MemoryBenchmarkCorpus
from memory_bench.harness import (
    EVAL_PRINCIPAL,
    PROBE_ACK_TEXT,
    PROBE_POLICY_PROFILE,
    PROBE_RUN_LIMITS,
    PROBE_TOOLS,
    build_eval_composition,
)
from memory_bench.metrics import (
    BENCHMARK_VERSION,
    DeterministicMetrics,
    DeterministicRun,
    ProbeMetrics,
    ScenarioMetrics,
)
from memory_bench.scoring import ProbeObservation, score_formation, score_probe
from memory_core import bootstrap
from memory_core.base.events import (
    ContextPlanned,
    EventType,
    MemoryRecalled,
    ModelCalled,
    SessionClosed,
)
from memory_core.base.model import Model
from memory_core.domain import (
    LIVE_STATUSES,
    Belief,
    BeliefStatus,
    Event,
    Principal,
    RecallTrace,
    scope_for_project,
)
from memory_core.errors import UsageError
from memory_core.formation.extractor import DeterministicExtractor, Extractor
from memory_core.policy import PROVIDER_FORMATION_POLICY, RETRIEVAL_POLICY
from memory_core.ports import Storage
from memory_core.runtime.policy_profile import PolicyProfile
from memory_core.runtime.run import Run

IN_TURN_MOMENTS: frozenset[str] = frozenset({"in_turn", "delta"})
"""``memory.recalled`` moments counted as in-turn recall (the delta recall is part of a turn)."""

StorageFactory = Callable[[BenchmarkScenario], Storage]
"""Builds a fresh, isolated storage tier for one scenario (e.g. a new PostgreSQL schema)."""

ExtractorFactory = Callable[[], Extractor]
"""Builds the formation extractor of one scenario's composition."""


def extractor_name(extractor: Extractor) -> str:
    """The name a run records for its extractor: its ``name`` attribute or its class name."""
    name = getattr(extractor, "name", None)
    return name if isinstance(name, str) and name else type(extractor).__name__


@dataclass(frozen=True, kw_only=True)
class RunRecall:
    """The recall one run read, from its own events.

    Attributes:
        snapshot: The session's snapshot trace, named by the run's ``context.planned`` event
            (``None`` when none was recorded).
        in_turn: The run's in-turn and delta traces (``memory.recalled`` events), in order.
        prefix_digests: The prefix digest of each of the run's model calls, in order.
    """

    snapshot: RecallTrace | None
    in_turn: tuple[RecallTrace, ...]
    prefix_digests: tuple[str, ...]


def read_run_recall(
    composition: bootstrap.Composition,
    run: Run,
    session_id: str,
    principal: Principal = EVAL_PRINCIPAL,
) -> RunRecall:
    """Read both recall moments of ``run`` (in session ``session_id``) from its events."""
    events = [
        event
        for event in composition.events.read_session(principal, session_id)
        if event.run_id == run.run_id
    ]
    snapshot_ids = [
        event.payload_as(ContextPlanned).snapshot_id
        for event in events
        if event.event_type == EventType.CONTEXT_PLANNED
    ]
    snapshot_id = next((value for value in snapshot_ids if value is not None), None)
    snapshot = (
        composition.memory.get_recall_trace(snapshot_id, principal=principal)
        if snapshot_id is not None
        else None
    )
    recalls = [
        event.payload_as(MemoryRecalled)
        for event in events
        if event.event_type == EventType.MEMORY_RECALLED
    ]
    in_turn = [
        composition.memory.get_recall_trace(recalled.trace_id, principal=principal)
        for recalled in recalls
        if recalled.moment in IN_TURN_MOMENTS
    ]
    prefixes = [
        event.payload_as(ModelCalled).prefix_digest
        for event in events
        if event.event_type == EventType.MODEL_CALLED
    ]
    return RunRecall(snapshot=snapshot, in_turn=tuple(in_turn), prefix_digests=tuple(prefixes))


def _probe_observation(
    composition: bootstrap.Composition, run: Run, live: Sequence[Belief], session_id: str
) -> ProbeObservation:
    recall = read_run_recall(composition, run, session_id)
    return ProbeObservation(
        live_beliefs=tuple(live),
        snapshot=recall.snapshot,
        in_turn=recall.in_turn,
        prefix_digests=recall.prefix_digests,
        run_completed=run.completed,
    )


def _closed_sessions_dropped(events: Sequence[Event]) -> int:
    total = 0
    for event in events:
        if event.event_type == EventType.SESSION_CLOSED:
            total += event.payload_as(SessionClosed).dropped_for_ceiling or 0
    return total


def _all_events(composition: bootstrap.Composition, event_types: Sequence[str]) -> list[Event]:
    found: list[Event] = []
    cursor = 0
    while True:
        page = composition.events.page(
            EVAL_PRINCIPAL, after_sequence=cursor, limit=500, event_types=event_types
        )
        found.extend(page)
        if len(page) < 500:
            return found
        cursor = page[-1].sequence


@dataclass(frozen=True, kw_only=True)
class PreparedScenario:
    """A scenario's composition once its sessions are consolidated and maintenance has run.

    Attributes:
        scenario: The scenario it was built for.
        composition: Its composition; the clock stands after the last session, before the
            first probe's advance. The caller closes it (``composition.close()``).
        dropped_for_ceiling: Candidates the sessions' consolidations dropped for the ceiling.
    """

    scenario: BenchmarkScenario
    composition: bootstrap.Composition
    dropped_for_ceiling: int


@dataclass(frozen=True, kw_only=True)
class ProbeOutcome:
    """One probe asked through the driver's loop.

    Attributes:
        metrics: The probe's scored row.
        run: The ``Run`` record the runtime returned.
    """

    metrics: ProbeMetrics
    run: Run


def prepare_scenario(
    scenario: BenchmarkScenario,
    *,
    storage: str | StorageFactory = "memory",
    database_url: str | None = None,
    extractor_factory: ExtractorFactory = DeterministicExtractor,
    model: Model | None = None,
    policy_profile: PolicyProfile | None = None,
) -> PreparedScenario:
    """Build a scenario's composition, consolidate each session and run maintenance once.

    Args:
        scenario: The scenario to lay on the fixed clock.
        storage: ``"memory"``, a backend name, or a factory of a fresh storage per scenario.
        database_url: URL for a named database backend.
        extractor_factory: Builds the composition's formation extractor.
        model: Answer probe runs with this model instead of the scripted acknowledgement (the
            live arm's real model).
        policy_profile: The runtime policy of probe runs, used as given; ``None`` is the
            deterministic arm's ``PROBE_POLICY_PROFILE`` with ``PROBE_TOOLS`` and
            ``PROBE_RUN_LIMITS``.
    """
    tier: str | Storage = storage if isinstance(storage, str) else storage(scenario)
    composition = build_eval_composition(
        scenario.start_at,
        storage=tier,
        database_url=database_url,
        model=model,
        policy_profile=policy_profile,
        extractor=extractor_factory(),
    )
    try:
        dropped_for_ceiling = 0
        for session in scenario.sessions:
            composition.advance(session.advance_seconds)
            view = composition.sessions.create(
                principal=EVAL_PRINCIPAL,
                agent="general",
                metadata={"project_scope": session.project_scope},
            )
            for turn in session.turns:
                composition.advance(turn.advance_seconds)
                composition.sessions.record_user_message(
                    view.id, turn.text, principal=EVAL_PRINCIPAL
                )
            result = composition.memory.run(
                trigger="session_close",
                scope=scope_for_project(session.project_scope),
                session_id=view.id,
            )
            dropped_for_ceiling += result.dropped_for_ceiling

        composition.maintenance_factory().run_once()
    except BaseException:
        composition.close()
        raise
    return PreparedScenario(
        scenario=scenario, composition=composition, dropped_for_ceiling=dropped_for_ceiling
    )


def score_scenario_formation(prepared: PreparedScenario) -> ScenarioMetrics:
    """Score formation over every belief of the principal, any status (after the last probe)."""
    composition = prepared.composition
    dropped_for_ceiling = prepared.dropped_for_ceiling + _closed_sessions_dropped(
        _all_events(composition, [EventType.SESSION_CLOSED])
    )
    beliefs = composition.memory.list_memories(
        statuses=frozenset(BeliefStatus), principal=EVAL_PRINCIPAL
    )
    formation = score_formation(prepared.scenario, beliefs, dropped_for_ceiling=dropped_for_ceiling)
    return ScenarioMetrics(scenario_id=prepared.scenario.id, formation=formation)


def run_scenario(
    scenario: BenchmarkScenario,
    *,
    storage: str | StorageFactory = "memory",
    database_url: str | None = None,
    extractor_factory: ExtractorFactory = DeterministicExtractor,
) -> tuple[ScenarioMetrics, tuple[ProbeMetrics, ...]]:
    """Drive one scenario through its own composition and score it."""
    prepared = prepare_scenario(
        scenario, storage=storage, database_url=database_url, extractor_factory=extractor_factory
    )
    try:
        rows = [run_probe(prepared, probe).metrics for probe in scenario.probes]
        return score_scenario_formation(prepared), tuple(rows)
    finally:
        prepared.composition.close()


def run_probe(
    prepared: PreparedScenario, probe: BenchmarkProbe, *, prompt: str | None = None
) -> ProbeOutcome:
    """Advance the clock by the probe's advance, ask it in a fresh session and score it.

    Args:
        prepared: The scenario's composition, its clock standing before this probe's advance.
        probe: The probe to ask.
        prompt: The prompt to submit (default: the bare question, as the deterministic arm
            asks it; the live arm appends the corpus's probe instruction).
    """
    composition = prepared.composition
    composition.advance(probe.advance_seconds)
    live = composition.memory.list_memories(statuses=LIVE_STATUSES, principal=EVAL_PRINCIPAL)
    view = composition.sessions.create(
        principal=EVAL_PRINCIPAL, agent="general", metadata={"project_scope": probe.project_scope}
    )
    run = composition.runs.submit(
        probe.question if prompt is None else prompt, view.id, principal=EVAL_PRINCIPAL
    )
    observation = _probe_observation(composition, run, live, view.id)
    return ProbeOutcome(metrics=score_probe(probe, prepared.scenario, observation), run=run)


def run_deterministic_benchmark(
    corpus: MemoryBenchmarkCorpus,
    digest: str,
    *,
    storage: str | StorageFactory = "memory",
    storage_label: str | None = None,
    database_url: str | None = None,
    extractor_factory: ExtractorFactory = DeterministicExtractor,
) -> DeterministicRun:
    """Run the deterministic arm over ``corpus`` and return its integer metrics.

    Args:
        corpus: A loaded (validated) corpus.
        digest: The sha256 of the corpus file, as ``load_corpus`` returned it.
        storage: ``"memory"`` (default), a backend name ``bootstrap.build`` resolves, or a
            factory building a fresh isolated ``Storage`` per scenario. Every scenario needs
            a store of its own (identifiers restart per scenario), so a shared database
            backend is passed as a factory that hands out a fresh schema each time.
        storage_label: The tier name the result records (defaults to ``storage`` when it is a
            name, else ``"custom"``).
        database_url: URL for a named database backend.
        extractor_factory: Builds each scenario's formation extractor.

    Raises:
        UsageError: ``digest`` is not a hex sha256, or the corpus has no scenario.
    """
    if len(digest) != 64 or any(ch not in "0123456789abcdef" for ch in digest):
        raise UsageError(
            f"corpus digest {digest!r} is not a lowercase hex sha256; pass the digest "
            "load_corpus returned"
        )
    if not corpus.scenarios:
        raise UsageError("the corpus has no scenario; nothing to run")
    extractor = extractor_factory()
    scenarios: list[ScenarioMetrics] = []
    probes: list[ProbeMetrics] = []
    for scenario in corpus.scenarios:
        formation, rows = run_scenario(
            scenario,
            storage=storage,
            database_url=database_url,
            extractor_factory=extractor_factory,
        )
        scenarios.append(formation)
        probes.extend(rows)
    label = storage_label or (storage if isinstance(storage, str) else "custom")
    return DeterministicRun(
        benchmark_version=BENCHMARK_VERSION,
        corpus_digest=digest,
        formation_policy=extractor.policy_version,
        provider_formation_policy=PROVIDER_FORMATION_POLICY,
        retrieval_policy=RETRIEVAL_POLICY,
        extractor=extractor_name(extractor),
        storage=label,
        metrics=DeterministicMetrics.aggregate(scenarios, probes),
        scenarios=tuple(scenarios),
        probes=tuple(probes),
    )


__all__ = [
    "EVAL_PRINCIPAL",
    "IN_TURN_MOMENTS",
    "PROBE_ACK_TEXT",
    "PROBE_POLICY_PROFILE",
    "PROBE_RUN_LIMITS",
    "PROBE_TOOLS",
    "ExtractorFactory",
    "PreparedScenario",
    "ProbeOutcome",
    "RunRecall",
    "StorageFactory",
    "extractor_name",
    "prepare_scenario",
    "read_run_recall",
    "run_deterministic_benchmark",
    "run_probe",
    "run_scenario",
    "score_scenario_formation",
]
