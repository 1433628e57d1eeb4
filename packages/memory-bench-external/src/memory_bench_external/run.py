"""The deterministic external run: a dataset's instances through real formation and retrieval.

Each instance gets a composition of its own, built by the evaluation harness exactly as the
deterministic arm builds one per scenario (:func:`memory_bench.harness.build_eval_composition`:
in-memory storage, fixed clock at the instance's first date, sequential ids, the scripted
one-turn model, no tools), and the same loop drives it::

    for session in instance.sessions:
        clock -> session.started_at                   # dataset dates; a backwards step clamps
        view = sessions.create(EVAL_PRINCIPAL, "general", {"project_scope": None})
        for turn in session.turns:
            clock -> turn.timestamp, when the dataset has one (HaluMem)
            principal turn  -> sessions.record_user_message       (a formation source)
            any other turn  -> sessions.record_assistant_message  (a non-source message)
            remember the event id appended for (session_id, turn_id)
        memory.run(trigger="session_close", scope="general", session_id=view.id)

    maintenance_factory().run_once()                  # once, after the last session

    for probe in instance.probes if probe.scored:
        clock -> probe.asked_at
        view = sessions.create(...); run = runs.submit(probe.question, view.id)
        both recall moments from the run's events (memory_bench.driver.read_run_recall)
        returned beliefs, in-turn ranks first then the snapshot's, each mapped through its
        source_event_ids back to the dataset turns it was formed from

The external data is not forced into the benchmark corpus's authoring rules: instances keep
their own shapes (hundreds of probes, hundreds of sessions, speakers other than the user).
The raw-turn BM25 baseline answers the same probes in the same pass, and both arms are scored
with the same evidence-provenance recall@k (see :mod:`memory_bench_external.scoring`).

Everything here is a function of the file, the sample and the code: two runs produce equal
results.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Protocol

from memory_bench.driver import RunRecall, extractor_name, read_run_recall
from memory_bench.harness import EVAL_PRINCIPAL, build_eval_composition
from memory_bench.metrics import BENCHMARK_VERSION
from memory_bench_external._load import DatasetSource
from memory_bench_external._split import SplitSelection
from memory_bench_external._types import (
    DatasetName,
    EvidenceTally,
    ExternalBelief,
    ExternalInstance,
    ExternalProbe,
    PrincipalSpeaker,
)
from memory_bench_external.baseline import BaselineProbe, baseline_probes
from memory_bench_external.scoring import (
    DEFAULT_KS,
    F1_CORRECT,
    ProbeProvenance,
    Provenance,
    ProvenanceSummary,
    answer_tokens,
    count_words,
    score_probe,
    summarize,
)
from memory_core import bootstrap
from memory_core.domain import LIVE_STATUSES, Belief, BeliefStatus, RecallTrace
from memory_core.errors import UsageError
from memory_core.formation.extractor import DeterministicExtractor
from memory_core.policy import RETRIEVAL_POLICY

SESSION_SCOPE = "general"
"""The scope every dataset session consolidates at (the datasets have no projects)."""


class RunProgress(Protocol):
    """What a run reports as it goes, for a progress bar."""

    def checked(self, instance: ExternalInstance) -> None:
        """A selected record was parsed in the checking pass (its sizes are now known)."""
        ...

    def started(self, instance: ExternalInstance) -> None:
        """The run of ``instance`` began."""
        ...

    def session_formed(self) -> None:
        """One session was recorded and consolidated."""
        ...

    def probe_answered(self) -> None:
        """One probe was answered by both arms."""
        ...


class _NoProgress:
    def checked(self, instance: ExternalInstance) -> None:
        del instance

    def started(self, instance: ExternalInstance) -> None:
        del instance

    def session_formed(self) -> None:
        return None

    def probe_answered(self) -> None:
        return None


@dataclass(frozen=True, kw_only=True)
class FormationTally:
    """What the sessions of a run recorded and formed (integers; sums over instances).

    Attributes:
        sessions: Dataset sessions recorded.
        principal_turns: Turns recorded as the principal's messages (formation sources).
        non_source_turns: Turns recorded as non-source messages (the other speaker).
        empty_turns: Turns skipped because they carry no text at all.
        proposed: Candidates formation proposed.
        committed: Beliefs committed.
        reinforced: Existing beliefs reinforced.
        superseded: Beliefs superseded by a newer statement.
        conflicted: Contradictions committed flagged.
        rejected: Candidates rejected by a durable rejection.
        refused_hazard: Candidates refused as hazards (secrets, injections).
        dropped_for_ceiling: Candidates dropped for the per-session ceiling.
        live_beliefs: Beliefs live (active or provisional) after the last probe.
        beliefs: Beliefs of any status after the last probe.
        forming_turns: Principal turns some belief of any status cites as a source after the
            last probe (the share of the principal's turns that formed memory).
    """

    sessions: int = 0
    principal_turns: int = 0
    non_source_turns: int = 0
    empty_turns: int = 0
    proposed: int = 0
    committed: int = 0
    reinforced: int = 0
    superseded: int = 0
    conflicted: int = 0
    rejected: int = 0
    refused_hazard: int = 0
    dropped_for_ceiling: int = 0
    live_beliefs: int = 0
    beliefs: int = 0
    forming_turns: int = 0

    def __add__(self, other: FormationTally) -> FormationTally:
        """Field-wise sum."""
        return FormationTally(
            **{
                name: getattr(self, name) + getattr(other, name)
                for name in self.__dataclass_fields__
            }
        )


@dataclass(frozen=True, kw_only=True)
class LabelTally:
    """End-to-end figures against a dataset's labeled beliefs (HaluMem memory points).

    A returned or live belief *matches* a label when the normalized, stemmed token F1 of its
    statement against the label's statement is at least 0.5 (the datasets' answer metric used
    as a deterministic stand-in for the model judge the published figures use).

    Attributes:
        labels: Labeled beliefs.
        expected: Labels no later label supersedes.
        supported: Expected labels matched by a live belief after the last session.
        superseded: Labels a later label supersedes.
        stale_live: Live beliefs matching a superseded label (and no expected one).
        needed: Needed labels summed over the probes run (abstention excluded).
        needed_formed: Of those, labels matched by a live belief when the probe ran.
        needed_recalled: Of those, labels matched by a belief the probe's recall returned.
        returned: Beliefs returned to probes that needed some label.
        returned_unmatched: Of those, beliefs matching none of the probe's needed labels.
    """

    labels: int = 0
    expected: int = 0
    supported: int = 0
    superseded: int = 0
    stale_live: int = 0
    needed: int = 0
    needed_formed: int = 0
    needed_recalled: int = 0
    returned: int = 0
    returned_unmatched: int = 0

    def __add__(self, other: LabelTally) -> LabelTally:
        """Field-wise sum."""
        return LabelTally(
            **{
                name: getattr(self, name) + getattr(other, name)
                for name in self.__dataclass_fields__
            }
        )


@dataclass(frozen=True, kw_only=True)
class MemoryProbe:
    """The memory arm's answer to one probe.

    Attributes:
        instance_id: The instance the probe belongs to.
        outcome: Provenance outcome over the returned beliefs (in-turn ranks first, then the
            snapshot's) and the tokens the recall rendered (snapshot plus in-turn).
        returned_snapshot: Beliefs the session snapshot returned.
        returned_in_turn: Beliefs the in-turn recall returned (distinct over its traces).
        evidence_in_snapshot: Some snapshot belief matches the probe's evidence.
        evidence_in_turn: Some in-turn belief matches the probe's evidence.
        run_completed: Whether the probe's run reached the completed status.
        labels: The probe's end-to-end figures (needed labels, HaluMem only).
    """

    instance_id: str
    outcome: ProbeProvenance
    returned_snapshot: int
    returned_in_turn: int
    evidence_in_snapshot: bool
    evidence_in_turn: bool
    run_completed: bool
    labels: LabelTally


@dataclass(frozen=True, kw_only=True)
class InstanceResult:
    """Both arms over one instance.

    Attributes:
        instance_id: The dataset's identifier of the instance.
        probes_parsed: Probes the adapter read, excluded ones included.
        exclusions: Excluded probes by reason (sorted by reason).
        evidence: The instance's evidence tally.
        session_clamps: Session or turn instants earlier than the clock (zero advance).
        probe_clamps: Probe instants earlier than the clock (zero advance).
        formation: What the sessions recorded and formed.
        labels: Formation and probe figures against labeled beliefs (zeros without labels).
        memory: The memory arm's rows, in probe order.
        baseline: The raw-turn baseline's rows, in probe order.
    """

    instance_id: str
    probes_parsed: int
    exclusions: tuple[tuple[str, int], ...]
    evidence: EvidenceTally
    session_clamps: int
    probe_clamps: int
    formation: FormationTally
    labels: LabelTally
    memory: tuple[MemoryProbe, ...]
    baseline: tuple[BaselineProbe, ...]


@dataclass(frozen=True, kw_only=True)
class ExternalRun:
    """A deterministic external run: identity of the data, and both arms' results.

    Carries no local path and no dataset text beyond what the in-memory rows hold; the
    metrics document (:mod:`memory_bench_external.metrics`) keeps counts only.

    Attributes:
        dataset: Which dataset.
        license: The dataset's license.
        sha256: Hex sha256 of the file that was read.
        population: Instances in the file.
        sample: The requested sample size (``None``: every instance).
        seed: The sampling seed.
        principal_speaker: LoCoMo's principal speaker (``None`` elsewhere).
        split: LoCoMo's dev/test split and what it kept (``None`` elsewhere).
        ks: The recall cut-offs.
        benchmark_version: The benchmark's version (``memory_bench.metrics``).
        formation_policy: The extractor's policy version.
        retrieval_policy: The retrieval policy version.
        extractor: The extractor's name.
        instances: Per-instance results, sorted by instance id.
    """

    dataset: DatasetName
    license: str
    sha256: str
    population: int
    sample: int | None
    seed: int
    principal_speaker: PrincipalSpeaker | None
    split: SplitSelection | None
    ks: tuple[int, ...]
    benchmark_version: str
    formation_policy: str
    retrieval_policy: str
    extractor: str
    instances: tuple[InstanceResult, ...]

    @property
    def memory_rows(self) -> tuple[MemoryProbe, ...]:
        """Every memory-arm row, in instance then probe order."""
        return tuple(row for result in self.instances for row in result.memory)

    @property
    def baseline_rows(self) -> tuple[BaselineProbe, ...]:
        """Every baseline row, in instance then probe order."""
        return tuple(row for result in self.instances for row in result.baseline)

    @property
    def memory(self) -> ProvenanceSummary:
        """The memory arm's provenance recall@k, noise and tokens."""
        return summarize((row.outcome for row in self.memory_rows), ks=self.ks)

    @property
    def baseline(self) -> ProvenanceSummary:
        """The raw-turn baseline's provenance recall@k, noise and tokens."""
        return summarize((row.outcome for row in self.baseline_rows), ks=self.ks)

    @property
    def formation(self) -> FormationTally:
        """Formation summed over instances."""
        total = FormationTally()
        for result in self.instances:
            total = total + result.formation
        return total

    @property
    def labels(self) -> LabelTally:
        """End-to-end label figures summed over instances."""
        total = LabelTally()
        for result in self.instances:
            total = total + result.labels
        return total

    @property
    def evidence(self) -> EvidenceTally:
        """The evidence tally summed over instances."""
        total = EvidenceTally()
        for result in self.instances:
            total = total + result.evidence
        return total

    @property
    def exclusions(self) -> dict[str, int]:
        """Excluded probes by reason, summed over instances (sorted by reason)."""
        counts: Counter[str] = Counter()
        for result in self.instances:
            counts.update(dict(result.exclusions))
        return dict(sorted(counts.items()))

    @property
    def probes_parsed(self) -> int:
        """Probes read, excluded ones included."""
        return sum(result.probes_parsed for result in self.instances)

    @property
    def session_clamps(self) -> int:
        """Session and turn instants earlier than the clock, clamped to a zero advance."""
        return sum(result.session_clamps for result in self.instances)

    @property
    def probe_clamps(self) -> int:
        """Probe instants earlier than the clock, clamped to a zero advance."""
        return sum(result.probe_clamps for result in self.instances)

    @property
    def has_labels(self) -> bool:
        """Whether the dataset has labeled beliefs (end-to-end figures apply)."""
        return self.dataset == "halumem"


class _DatasetClock:
    """Moves a composition's fixed clock to dataset instants, never backwards."""

    def __init__(self, composition: bootstrap.Composition) -> None:
        self._composition = composition

    def to(self, instant: datetime) -> bool:
        """Advance to ``instant``; ``True`` when it lies behind the clock (no advance)."""
        seconds = (instant - self._composition.clock.now()).total_seconds()
        if seconds > 0:
            self._composition.advance(seconds)
        return seconds < 0


@dataclass(frozen=True, kw_only=True)
class RecordedTurn:
    """The event appended for one dataset turn.

    Attributes:
        event_id: The appended event (``user.message.created`` for a principal turn,
            ``assistant.message.created`` for a non-source one).
        session_id: The dataset session of the turn.
        turn_id: The dataset turn.
        is_principal: Whether the turn was recorded as a formation source.
    """

    event_id: str
    session_id: str
    turn_id: str
    is_principal: bool


@dataclass(frozen=True, kw_only=True)
class RecordedInstance:
    """An instance's sessions recorded and consolidated in a composition.

    Attributes:
        turns: The event appended for each recorded turn, in order (empty turns are skipped).
        formation: What recording and consolidation counted (no live-belief totals yet).
        session_clamps: Session or turn instants earlier than the clock (zero advance).
    """

    turns: tuple[RecordedTurn, ...]
    formation: FormationTally
    session_clamps: int

    @cached_property
    def _by_event(self) -> dict[str, RecordedTurn]:
        return {turn.event_id: turn for turn in self.turns}

    def provenance(self, belief: Belief) -> Provenance:
        """The dataset turns (and their sessions) a belief's source events recorded."""
        found = [self._by_event[e] for e in belief.source_event_ids if e in self._by_event]
        return Provenance(
            turn_ids=frozenset(turn.turn_id for turn in found),
            session_ids=frozenset(turn.session_id for turn in found),
        )


class _LabelMatcher:
    """Matches statements to labeled beliefs by token F1 (an inverted index over stems)."""

    def __init__(self, beliefs: Sequence[ExternalBelief]) -> None:
        self._tokens = {
            belief.label: Counter(answer_tokens(belief.statement)) for belief in beliefs
        }
        self._sizes = {label: sum(tokens.values()) for label, tokens in self._tokens.items()}
        self._by_token: dict[str, list[str]] = {}
        for label, tokens in self._tokens.items():
            for token in sorted(tokens):
                self._by_token.setdefault(token, []).append(label)
        self._cache: dict[str, frozenset[str]] = {}

    def labels(self, statement: str) -> frozenset[str]:
        """The labels whose statement has token F1 >= 0.5 with ``statement``."""
        cached = self._cache.get(statement)
        if cached is not None:
            return cached
        found = Counter(answer_tokens(statement))
        size = sum(found.values())
        candidates = {label for token in found for label in self._by_token.get(token, ())}
        matched: set[str] = set()
        for label in candidates:
            same = sum((self._tokens[label] & found).values())
            precision = same / size
            recall = same / self._sizes[label]
            if 2 * precision * recall / (precision + recall) >= F1_CORRECT:
                matched.add(label)
        result = frozenset(matched)
        self._cache[statement] = result
        return result

    def matched(self, statements: Iterable[str]) -> frozenset[str]:
        """The labels some statement matches."""
        found: set[str] = set()
        for statement in statements:
            found.update(self.labels(statement))
        return frozenset(found)


def _formation_labels(
    matcher: _LabelMatcher, instance: ExternalInstance, live: Sequence[Belief]
) -> LabelTally:
    superseded = frozenset(label for belief in instance.beliefs for label in belief.supersedes)
    current = frozenset(b.label for b in instance.beliefs if b.label not in superseded)
    matched = [matcher.labels(belief.statement) for belief in live]
    supported = frozenset().union(*matched) & current if matched else frozenset()
    return LabelTally(
        labels=len(instance.beliefs),
        expected=len(current),
        supported=len(supported),
        superseded=len(superseded),
        stale_live=sum(1 for labels in matched if labels & superseded and not labels & current),
    )


def instance_start(instance: ExternalInstance) -> datetime:
    """Where an instance's fixed clock starts: its first session, else its first probe."""
    if instance.sessions:
        return instance.sessions[0].started_at
    return min(probe.asked_at for probe in instance.probes)


def record_instance(
    composition: bootstrap.Composition,
    instance: ExternalInstance,
    *,
    progress: RunProgress | None = None,
) -> RecordedInstance:
    """Record every session of ``instance`` and consolidate each at the general scope.

    Dataset dates drive the composition's fixed clock (a backwards step is clamped and
    counted). Principal turns are recorded as user messages, every other turn as a non-source
    (assistant) message; a turn with no text at all is skipped and counted.
    """
    report = progress or _NoProgress()
    clock = _DatasetClock(composition)
    tally = FormationTally()
    recorded: list[RecordedTurn] = []
    clamps = 0
    for session in instance.sessions:
        clamps += clock.to(session.started_at)
        view = composition.sessions.create(
            principal=EVAL_PRINCIPAL, agent="general", metadata={"project_scope": None}
        )
        principal_turns = non_source = empty = 0
        for turn in session.turns:
            if turn.timestamp is not None:
                clamps += clock.to(turn.timestamp)
            text = turn.content
            if not text.strip():
                empty += 1
                continue
            if turn.is_principal:
                event = composition.sessions.record_user_message(
                    view.id, text, principal=EVAL_PRINCIPAL
                )
                principal_turns += 1
            else:
                event = composition.sessions.record_assistant_message(
                    view.id, text, principal=EVAL_PRINCIPAL
                )
                non_source += 1
            recorded.append(
                RecordedTurn(
                    event_id=event.event_id,
                    session_id=session.session_id,
                    turn_id=turn.turn_id,
                    is_principal=turn.is_principal,
                )
            )
        result = composition.memory.run(
            trigger="session_close", scope=SESSION_SCOPE, session_id=view.id
        )
        tally = tally + FormationTally(
            sessions=1,
            principal_turns=principal_turns,
            non_source_turns=non_source,
            empty_turns=empty,
            proposed=result.proposed,
            committed=result.committed,
            reinforced=result.reinforced,
            superseded=result.superseded,
            conflicted=result.conflicted,
            rejected=result.rejected,
            refused_hazard=result.refused_hazard,
            dropped_for_ceiling=result.dropped_for_ceiling,
        )
        report.session_formed()
    return RecordedInstance(turns=tuple(recorded), formation=tally, session_clamps=clamps)


MEMORY_RANKING = (
    "in-turn recall first: the beliefs each in_turn or delta recall trace of the probe's run "
    "returned, traces in event order and each trace's beliefs in its rank order; then the "
    "question-blind session snapshot's beliefs in its rank order; a belief returned twice "
    "keeps its first rank"
)
"""The order the memory arm's returned beliefs are read in by recall@k and words@k."""


def _returned(trace: RecallTrace | None) -> list[str]:
    return [] if trace is None else list(trace.returned)


def in_turn_returned(recall: RunRecall) -> list[str]:
    """The distinct beliefs the run's in-turn (and delta) recall returned, in rank order."""
    found: list[str] = []
    for trace in recall.in_turn:
        found.extend(belief_id for belief_id in trace.returned if belief_id not in found)
    return found


def _ranked(in_turn: list[str], snapshot: list[str]) -> list[str]:
    seen = set(in_turn)
    return in_turn + [belief_id for belief_id in snapshot if belief_id not in seen]


def ranked_returned(recall: RunRecall) -> list[str]:
    """Every belief a probe's run returned, ranked as :data:`MEMORY_RANKING` states."""
    return _ranked(in_turn_returned(recall), _returned(recall.snapshot))


def _answer_probe(
    composition: bootstrap.Composition,
    instance: ExternalInstance,
    probe: ExternalProbe,
    recorded: RecordedInstance,
    matcher: _LabelMatcher,
) -> MemoryProbe:
    needs_labels = bool(probe.needed) and not probe.abstention
    if not probe.question.strip():
        # Nothing to ask (the run refuses an empty prompt): nothing is returned.
        return MemoryProbe(
            instance_id=instance.instance_id,
            outcome=score_probe(probe, [], tokens=0, words=()),
            returned_snapshot=0,
            returned_in_turn=0,
            evidence_in_snapshot=False,
            evidence_in_turn=False,
            run_completed=False,
            labels=LabelTally(needed=len(frozenset(probe.needed)) if needs_labels else 0),
        )
    live = composition.memory.list_memories(statuses=LIVE_STATUSES, principal=EVAL_PRINCIPAL)
    view = composition.sessions.create(
        principal=EVAL_PRINCIPAL, agent="general", metadata={"project_scope": None}
    )
    run = composition.runs.submit(probe.question, view.id, principal=EVAL_PRINCIPAL)
    recall = read_run_recall(composition, run, view.id, EVAL_PRINCIPAL)
    in_turn = in_turn_returned(recall)
    snapshot = _returned(recall.snapshot)
    ranked = _ranked(in_turn, snapshot)  # ranked_returned, without re-deriving in_turn
    beliefs: dict[str, Belief] = {}
    for belief_id in ranked:
        belief = composition.storage.memories.get(EVAL_PRINCIPAL, belief_id)
        if belief is not None:
            beliefs[belief_id] = belief
    kept = [belief_id for belief_id in ranked if belief_id in beliefs]
    provenance = {belief_id: recorded.provenance(beliefs[belief_id]) for belief_id in kept}
    traces = ([recall.snapshot] if recall.snapshot is not None else []) + list(recall.in_turn)
    outcome = score_probe(
        probe,
        [provenance[belief_id] for belief_id in kept],
        tokens=sum(trace.rendered_tokens for trace in traces),
        words=[count_words(beliefs[belief_id].statement) for belief_id in kept],
    )

    def hits(ids: Sequence[str]) -> bool:
        found = [provenance[i] for i in ids if i in provenance]
        sub = score_probe(probe, found, tokens=0, words=[0] * len(found))
        return sub.first_hit is not None

    labels = LabelTally()
    if needs_labels:
        needed = frozenset(probe.needed)
        returned = [matcher.labels(beliefs[belief_id].statement) for belief_id in kept]
        labels = LabelTally(
            needed=len(needed),
            needed_formed=len(needed & matcher.matched(belief.statement for belief in live)),
            needed_recalled=len(needed & frozenset().union(*returned)) if returned else 0,
            returned=len(returned),
            returned_unmatched=sum(1 for found in returned if not found & needed),
        )
    return MemoryProbe(
        instance_id=instance.instance_id,
        outcome=outcome,
        returned_snapshot=len(snapshot),
        returned_in_turn=len(in_turn),
        evidence_in_snapshot=hits(snapshot),
        evidence_in_turn=hits(in_turn),
        run_completed=run.completed,
        labels=labels,
    )


def run_instance(
    instance: ExternalInstance,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    progress: RunProgress | None = None,
) -> InstanceResult:
    """Run both arms over one instance in a composition of its own.

    Raises:
        UsageError: ``ks`` is empty or holds a cut-off below 1.
    """
    if not ks or min(ks) < 1:
        raise UsageError(f"recall cut-offs must be positive integers, got {list(ks)}")
    report = progress or _NoProgress()
    composition = build_eval_composition(instance_start(instance))
    try:
        matcher = _LabelMatcher(instance.beliefs)
        recorded = record_instance(composition, instance, progress=report)
        composition.maintenance_factory().run_once()
        after_sessions = composition.memory.list_memories(
            statuses=LIVE_STATUSES, principal=EVAL_PRINCIPAL
        )
        label_formation = (
            _formation_labels(matcher, instance, after_sessions)
            if instance.beliefs
            else LabelTally()
        )
        baseline = {row.outcome.probe_id: row for row in baseline_probes(instance, k=max(ks))}
        memory_rows: list[MemoryProbe] = []
        baseline_rows: list[BaselineProbe] = []
        clock = _DatasetClock(composition)
        probe_clamps = 0
        for probe in instance.probes:
            if not probe.scored:
                continue
            probe_clamps += clock.to(probe.asked_at)
            memory_rows.append(_answer_probe(composition, instance, probe, recorded, matcher))
            baseline_rows.append(baseline[probe.probe_id])
            report.probe_answered()
        every = composition.memory.list_memories(
            statuses=frozenset(BeliefStatus), principal=EVAL_PRINCIPAL
        )
        sources = {event_id for belief in every for event_id in belief.source_event_ids}
        formation = recorded.formation + FormationTally(
            live_beliefs=sum(1 for belief in every if belief.is_live),
            beliefs=len(every),
            forming_turns=sum(
                1 for turn in recorded.turns if turn.is_principal and turn.event_id in sources
            ),
        )
        probe_labels = LabelTally()
        for row in memory_rows:
            probe_labels = probe_labels + row.labels
        exclusions = Counter(
            probe.exclusion.value for probe in instance.probes if probe.exclusion is not None
        )
        return InstanceResult(
            instance_id=instance.instance_id,
            probes_parsed=len(instance.probes),
            exclusions=tuple(sorted(exclusions.items())),
            evidence=instance.evidence,
            session_clamps=recorded.session_clamps,
            probe_clamps=probe_clamps,
            formation=formation,
            labels=label_formation + probe_labels,
            memory=tuple(memory_rows),
            baseline=tuple(baseline_rows),
        )
    finally:
        composition.close()


def _checked(source: DatasetSource, progress: RunProgress) -> Iterator[ExternalInstance]:
    for instance in source.iter_instances():
        progress.checked(instance)
        yield instance


def run_external(
    source: DatasetSource,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    progress: RunProgress | None = None,
) -> ExternalRun:
    """Run the deterministic external arm over a dataset's selected instances.

    The selected records are parsed once to check them (a malformed record fails the run
    before any instance is run), then again one at a time while they run, so memory holds
    one instance and the integer results rather than the whole sample.

    Args:
        source: The indexed, sampled dataset file (``open_longmemeval`` and friends).
        ks: The recall cut-offs (the baseline retrieves ``max(ks)`` turns per probe).
        progress: Told about each checked record, session formed and probe answered.

    Raises:
        DatasetError: A selected record is unreadable as the dataset.
        UsageError: ``ks`` is empty or holds a cut-off below 1.
    """
    if not ks or min(ks) < 1:
        raise UsageError(f"recall cut-offs must be positive integers, got {list(ks)}")
    report = progress or _NoProgress()
    for _ in _checked(source, report):
        pass
    results: list[InstanceResult] = []
    for instance in source.iter_instances():
        report.started(instance)
        results.append(run_instance(instance, ks=ks, progress=report))
    results.sort(key=lambda result: result.instance_id)
    extractor = DeterministicExtractor()
    return ExternalRun(
        dataset=source.dataset,
        license=source.license,
        sha256=source.sha256,
        population=source.population,
        sample=source.sample,
        seed=source.seed,
        principal_speaker=source.principal_speaker,
        split=source.split,
        ks=tuple(ks),
        benchmark_version=BENCHMARK_VERSION,
        formation_policy=extractor.policy_version,
        retrieval_policy=RETRIEVAL_POLICY,
        extractor=extractor_name(extractor),
        instances=tuple(results),
    )
