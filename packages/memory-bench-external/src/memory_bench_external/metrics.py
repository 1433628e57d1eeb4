"""The external metrics document: what leaves an external run, counts and ratios only.

The document names the dataset, its license, the sample and seed, and carries the provenance
record every artifact embeds (:class:`memory_bench.provenance.Provenance`: commit, dirty flag,
package and policy versions, ``inputs.dataset_file``, the sha256 of the local file that was
read, and ``recorded_at``), and carries the figures of both arms side by side with the caveats that
travel with them. It holds no statement, no question, no answer, no identifier of an instance
and no local path, so publishing it publishes nothing of the dataset. It is informational: not
an activation artifact and not a baseline.

Counts are integers; every ratio is derived from counts in the same document (rounded to four
places) and is ``null`` when its denominator is zero. The rules and caveats the document
states are worded in :mod:`memory_bench_external._wording` and re-exported here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from memory_bench.provenance import PolicyVersions, Provenance, provenance_of
from memory_bench.source_tree import SourceTree
from memory_bench_external._split import SplitName, SplitSelection
from memory_bench_external._types import DatasetName, EvidenceTally, PrincipalSpeaker
from memory_bench_external._wording import (
    BASELINE_METHOD,
    BASELINE_RANKING,
    COMMON_CAVEATS,
    DATASET_CAVEATS,
    LABEL_MATCH_RULE,
    PROVENANCE_RULE,
    SPLIT_CAVEATS,
    WORDS_RULE,
    caveats_for,
    split_caveats,
)
from memory_bench_external.run import MEMORY_RANKING, ExternalRun, FormationTally, LabelTally
from memory_bench_external.scoring import ProvenanceSummary, RecallAtK

METRICS_SCHEMA_VERSION: Literal[4] = 4
"""The version of the metrics document's shape (2: ``split``, ``ranking_order`` and
``words_at_k`` were added; 3: the provenance record under ``provenance`` replaces
``file_sha256`` and ``policies``; 4: ``formation.forming_turns`` was added)."""

METRICS_KIND: Literal["memory-benchmark-external-metrics"] = "memory-benchmark-external-metrics"
"""The document's kind, so a reader can tell it from evidence and baselines."""


class _Document(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


class RecallFigures(_Document):
    """Recall@k over a set of eligible probes.

    Attributes:
        probes: Eligible probes (scored, not abstention, with usable evidence).
        hits: ``k`` (as text) -> probes with an evidence match within the first ``k``.
        recall: ``k`` -> ``hits / probes``.
    """

    probes: int = Field(ge=0)
    hits: dict[str, int]
    recall: dict[str, float | None]

    @classmethod
    def of(cls, recall: RecallAtK) -> RecallFigures:
        """The figures of one :class:`RecallAtK`."""
        return cls(
            probes=recall.probes,
            hits={str(k): count for k, count in recall.hits},
            recall={str(k): _ratio(count, recall.probes) for k, count in recall.hits},
        )


class WordFigures(_Document):
    """What recall@k costs: the words of the first ``k`` items returned.

    Attributes:
        probes: Probes counted (the same probes as ``recall_at_k``).
        words: ``k`` (as text) -> words of the first ``k`` items, summed over those probes.
        per_probe: ``k`` -> ``words / probes``.
    """

    probes: int = Field(ge=0)
    words: dict[str, int]
    per_probe: dict[str, float | None]

    @classmethod
    def of(cls, summary: ProvenanceSummary) -> WordFigures:
        """The words@k of one arm's :class:`ProvenanceSummary`."""
        probes = summary.overall.probes
        return cls(
            probes=probes,
            words={str(k): count for k, count in summary.words_at_k},
            per_probe={str(k): _ratio(count, probes) for k, count in summary.words_at_k},
        )


class ArmFigures(_Document):
    """One arm's figures over the probes run.

    Attributes:
        ranking_order: The order the arm's returned items are read in at every ``k``.
        probes_run: Scored probes the arm answered (abstention included).
        recall_at_k: Provenance recall@k over eligible probes not reported separately.
        words_at_k: The words returned at each ``k`` over the same probes.
        by_category: The same per benchmark probe category.
        by_dataset_category: Per the dataset's own category (separately reported ones too).
        reported_separately: Over the probes reported separately (LongMemEval
            single-session-assistant).
        returned: Items returned to the eligible probes in ``recall_at_k``.
        matched: Of those, items matching the probe's evidence.
        noise: ``returned - matched``.
        noise_ratio: ``noise / returned``.
        abstention_returned: Items returned to abstention probes.
        tokens: Tokens rendered over every probe run.
        tokens_per_probe: ``tokens / probes_run``.
    """

    ranking_order: str
    probes_run: int = Field(ge=0)
    recall_at_k: RecallFigures
    words_at_k: WordFigures
    by_category: dict[str, RecallFigures]
    by_dataset_category: dict[str, RecallFigures]
    reported_separately: RecallFigures
    returned: int = Field(ge=0)
    matched: int = Field(ge=0)
    noise: int = Field(ge=0)
    noise_ratio: float | None
    abstention_returned: int = Field(ge=0)
    tokens: int = Field(ge=0)
    tokens_per_probe: float | None

    @classmethod
    def of(cls, summary: ProvenanceSummary, *, ranking_order: str) -> ArmFigures:
        """The figures of one arm's :class:`ProvenanceSummary`, read in ``ranking_order``."""
        return cls(
            ranking_order=ranking_order,
            probes_run=summary.probes,
            recall_at_k=RecallFigures.of(summary.overall),
            words_at_k=WordFigures.of(summary),
            by_category={name: RecallFigures.of(r) for name, r in summary.by_category},
            by_dataset_category={
                name: RecallFigures.of(r) for name, r in summary.by_dataset_category
            },
            reported_separately=RecallFigures.of(summary.separately),
            returned=summary.returned,
            matched=summary.matched,
            noise=summary.noise,
            noise_ratio=_ratio(summary.noise, summary.returned),
            abstention_returned=summary.abstention_returned,
            tokens=summary.tokens,
            tokens_per_probe=_ratio(summary.tokens, summary.probes),
        )


class MomentFigures(_Document):
    """Where the memory arm's evidence-matching beliefs arrived from (eligible probes).

    Attributes:
        returned_snapshot: Beliefs returned by probe sessions' snapshots.
        returned_in_turn: Beliefs returned by in-turn recall.
        evidence_in_snapshot: Probes with an evidence match in the snapshot.
        evidence_in_turn: Probes with an evidence match in the in-turn recall.
        evidence_in_both: Probes with an evidence match in both.
        runs_completed: Probe runs that completed.
    """

    returned_snapshot: int = Field(ge=0)
    returned_in_turn: int = Field(ge=0)
    evidence_in_snapshot: int = Field(ge=0)
    evidence_in_turn: int = Field(ge=0)
    evidence_in_both: int = Field(ge=0)
    runs_completed: int = Field(ge=0)


class MemoryArmFigures(ArmFigures):
    """The memory arm: the shared figures plus where its evidence arrived from.

    Attributes:
        moments: Snapshot versus in-turn attribution.
    """

    moments: MomentFigures


class FormationFigures(_Document):
    """What the sessions recorded and formed (see :class:`FormationTally`)."""

    sessions: int = Field(ge=0)
    principal_turns: int = Field(ge=0)
    non_source_turns: int = Field(ge=0)
    empty_turns: int = Field(ge=0)
    proposed: int = Field(ge=0)
    committed: int = Field(ge=0)
    reinforced: int = Field(ge=0)
    superseded: int = Field(ge=0)
    conflicted: int = Field(ge=0)
    rejected: int = Field(ge=0)
    refused_hazard: int = Field(ge=0)
    dropped_for_ceiling: int = Field(ge=0)
    live_beliefs: int = Field(ge=0)
    beliefs: int = Field(ge=0)
    forming_turns: int = Field(ge=0)

    def forming_share(self) -> float | None:
        """``forming_turns / principal_turns``: the share of the principal's turns that formed
        a belief (None with no principal turn)."""
        return self.forming_turns / self.principal_turns if self.principal_turns else None

    @classmethod
    def of(cls, tally: FormationTally) -> FormationFigures:
        """The figures of a :class:`FormationTally`."""
        return cls(**{name: getattr(tally, name) for name in cls.model_fields})


class EndToEndFigures(_Document):
    """Figures against labeled beliefs (HaluMem memory points); see :class:`LabelTally`.

    Attributes:
        match_rule: How a belief matches a labeled memory point.
        labels: Labeled memory points.
        expected: Labels no later update supersedes.
        supported: Expected labels matched by a live belief after the last session.
        formation_recall: ``supported / expected``.
        superseded: Labels superseded by a later update.
        stale_live: Live beliefs matching only superseded labels.
        needed: Needed labels summed over probes.
        needed_formed: Needed labels matched by a live belief when the probe ran.
        needed_recalled: Needed labels matched by a belief the probe's recall returned.
        recall: ``needed_recalled / needed``.
        returned: Beliefs returned to probes needing some label.
        returned_unmatched: Of those, beliefs matching none of the probe's needed labels.
        noise_ratio: ``returned_unmatched / returned``.
    """

    match_rule: str
    labels: int = Field(ge=0)
    expected: int = Field(ge=0)
    supported: int = Field(ge=0)
    formation_recall: float | None
    superseded: int = Field(ge=0)
    stale_live: int = Field(ge=0)
    needed: int = Field(ge=0)
    needed_formed: int = Field(ge=0)
    needed_recalled: int = Field(ge=0)
    recall: float | None
    returned: int = Field(ge=0)
    returned_unmatched: int = Field(ge=0)
    noise_ratio: float | None

    @classmethod
    def of(cls, tally: LabelTally) -> EndToEndFigures:
        """The figures of a :class:`LabelTally`."""
        return cls(
            match_rule=LABEL_MATCH_RULE,
            labels=tally.labels,
            expected=tally.expected,
            supported=tally.supported,
            formation_recall=_ratio(tally.supported, tally.expected),
            superseded=tally.superseded,
            stale_live=tally.stale_live,
            needed=tally.needed,
            needed_formed=tally.needed_formed,
            needed_recalled=tally.needed_recalled,
            recall=_ratio(tally.needed_recalled, tally.needed),
            returned=tally.returned,
            returned_unmatched=tally.returned_unmatched,
            noise_ratio=_ratio(tally.returned_unmatched, tally.returned),
        )


class ProbeFigures(_Document):
    """How many probes were read, run and counted.

    Attributes:
        parsed: Probes the adapter read.
        run: Probes both arms answered (not excluded).
        excluded: Excluded probes by reason.
        abstention: Abstention probes run.
        eligible: Probes counted by recall@k (run, not abstention, with usable evidence),
            separately reported ones included.
        reported_separately: Probes run and reported outside the aggregate.
        without_evidence: Non-abstention probes run with no usable evidence.
    """

    parsed: int = Field(ge=0)
    run: int = Field(ge=0)
    excluded: dict[str, int]
    abstention: int = Field(ge=0)
    eligible: int = Field(ge=0)
    reported_separately: int = Field(ge=0)
    without_evidence: int = Field(ge=0)


class EvidenceFigures(_Document):
    """What became of the dataset's evidence references (see :class:`EvidenceTally`)."""

    references: int = Field(ge=0)
    turn_level: int = Field(ge=0)
    session_level: int = Field(ge=0)
    compound: int = Field(ge=0)
    missing_turns: int = Field(ge=0)
    malformed: int = Field(ge=0)
    unknown: int = Field(ge=0)
    empty_lists: int = Field(ge=0)
    unresolved_updates: int = Field(ge=0)
    unusable: int = Field(ge=0)

    @classmethod
    def of(cls, tally: EvidenceTally) -> EvidenceFigures:
        """The figures of an :class:`EvidenceTally`."""
        return cls(
            references=tally.references,
            turn_level=tally.turn_level,
            session_level=tally.session_level,
            compound=tally.compound,
            missing_turns=tally.missing_turns,
            malformed=tally.malformed,
            unknown=tally.unknown,
            empty_lists=tally.empty_lists,
            unresolved_updates=tally.unresolved_updates,
            unusable=tally.unusable_evidence,
        )


class ClockFigures(_Document):
    """How the dataset's dates drove the fixed clock.

    Attributes:
        session_clamps: Session or turn instants earlier than the clock (zero advance).
        probe_clamps: Probe instants earlier than the clock (zero advance).
    """

    session_clamps: int = Field(ge=0)
    probe_clamps: int = Field(ge=0)


class SplitFigures(_Document):
    """LoCoMo's fixed dev/test partition: which split ran and what it kept (counts only).

    Attributes:
        name: ``dev``, ``test`` or ``all``.
        in_split: The file's conversations in the split (what ``sample`` draws from).
        other_split: The file's conversations of the other named split, left out.
        unassigned: The file's conversations in neither list (run only by ``all``).
        missing: Conversations the split lists that the file lacks (both lists for ``all``).
    """

    name: SplitName
    in_split: int = Field(ge=0)
    other_split: int = Field(ge=0)
    unassigned: int = Field(ge=0)
    missing: int = Field(ge=0)

    @classmethod
    def of(cls, selection: SplitSelection) -> SplitFigures:
        """The figures of a :class:`SplitSelection`."""
        return cls(
            name=selection.name,
            in_split=selection.in_split,
            other_split=selection.other_split,
            unassigned=selection.unassigned,
            missing=selection.missing,
        )


class ExternalMetrics(_Document):
    """The metrics document of one external run.

    Attributes:
        schema_version: ``4``.
        kind: ``memory-benchmark-external-metrics``.
        arm: ``deterministic``.
        provenance: The build, package and policy versions, the sha256 of the local file that
            was read (``inputs.dataset_file``) and when the document was made.
        benchmark_version: The benchmark procedure's version.
        extractor: The extractor the sessions formed with.
        dataset: Which dataset.
        license: The dataset's license.
        population: Instances in the file.
        sample: The requested sample size (``null``: every instance).
        sample_size: Instances run.
        seed: The sampling seed.
        principal_speaker: LoCoMo's principal speaker (``null`` elsewhere).
        split: LoCoMo's dev/test split and what it kept (``null`` elsewhere).
        ks: The recall cut-offs.
        provenance_rule: How evidence-provenance recall@k is counted.
        words_rule: How words@k is counted.
        baseline_method: How the raw-turn baseline retrieves.
        probes: Probe counts.
        evidence: Evidence reference tally.
        clock: Clock clamps.
        formation: What the sessions formed.
        memory: The memory arm.
        raw_turn_bm25: The raw-turn baseline, side by side with ``memory``.
        end_to_end: Figures against labeled beliefs (HaluMem), else ``null``.
        caveats: What the figures do and do not mean.
    """

    schema_version: Literal[4] = METRICS_SCHEMA_VERSION
    kind: Literal["memory-benchmark-external-metrics"] = METRICS_KIND
    arm: Literal["deterministic"] = "deterministic"
    provenance: Provenance
    benchmark_version: str = Field(min_length=1)
    extractor: str = Field(min_length=1)
    dataset: DatasetName
    license: str
    population: int = Field(ge=0)
    sample: int | None
    sample_size: int = Field(ge=0)
    seed: int
    principal_speaker: PrincipalSpeaker | None
    split: SplitFigures | None
    ks: list[int]
    provenance_rule: str
    words_rule: str
    baseline_method: str
    probes: ProbeFigures
    evidence: EvidenceFigures
    clock: ClockFigures
    formation: FormationFigures
    memory: MemoryArmFigures
    raw_turn_bm25: ArmFigures
    end_to_end: EndToEndFigures | None
    caveats: list[str]

    @model_validator(mode="after")
    def _names_its_file(self) -> ExternalMetrics:
        if "dataset_file" not in self.provenance.inputs:
            raise ValueError("provenance.inputs.dataset_file: the file's sha256 is missing")
        return self

    @classmethod
    def from_run(
        cls, run: ExternalRun, *, source: SourceTree, recorded_at: datetime
    ) -> ExternalMetrics:
        """Build the document of ``run`` (counts and derived ratios only).

        Args:
            run: The external run.
            source: The checkout the run was built from (``read_source_tree()``).
            recorded_at: The instant the document records (timezone-aware).
        """
        memory = run.memory
        rows = run.memory_rows
        eligible = [row for row in rows if row.outcome.eligible]
        outcomes = [row.outcome for row in rows]
        moments = MomentFigures(
            returned_snapshot=sum(row.returned_snapshot for row in rows),
            returned_in_turn=sum(row.returned_in_turn for row in rows),
            evidence_in_snapshot=sum(row.evidence_in_snapshot for row in eligible),
            evidence_in_turn=sum(row.evidence_in_turn for row in eligible),
            evidence_in_both=sum(
                row.evidence_in_snapshot and row.evidence_in_turn for row in eligible
            ),
            runs_completed=sum(row.run_completed for row in rows),
        )
        current = PolicyVersions.current()
        return cls(
            provenance=provenance_of(
                source,
                inputs={"dataset_file": run.sha256},
                recorded_at=recorded_at,
                policies=PolicyVersions(
                    formation=run.formation_policy,
                    provider_formation=current.provider_formation,
                    retrieval=run.retrieval_policy,
                ),
            ),
            benchmark_version=run.benchmark_version,
            extractor=run.extractor,
            dataset=run.dataset,
            license=run.license,
            population=run.population,
            sample=run.sample,
            sample_size=len(run.instances),
            seed=run.seed,
            principal_speaker=run.principal_speaker,
            split=SplitFigures.of(run.split) if run.split is not None else None,
            ks=list(run.ks),
            provenance_rule=PROVENANCE_RULE,
            words_rule=WORDS_RULE,
            baseline_method=BASELINE_METHOD,
            probes=ProbeFigures(
                parsed=run.probes_parsed,
                run=len(outcomes),
                excluded=run.exclusions,
                abstention=sum(1 for o in outcomes if o.category == "abstention"),
                eligible=sum(1 for o in outcomes if o.eligible),
                reported_separately=sum(1 for o in outcomes if o.reported_separately),
                without_evidence=memory.without_evidence,
            ),
            evidence=EvidenceFigures.of(run.evidence),
            clock=ClockFigures(session_clamps=run.session_clamps, probe_clamps=run.probe_clamps),
            formation=FormationFigures.of(run.formation),
            memory=MemoryArmFigures(
                **ArmFigures.of(memory, ranking_order=MEMORY_RANKING).model_dump(),
                moments=moments,
            ),
            raw_turn_bm25=ArmFigures.of(run.baseline, ranking_order=BASELINE_RANKING),
            end_to_end=EndToEndFigures.of(run.labels) if run.has_labels else None,
            caveats=list(caveats_for(run.dataset, sampled=run.sample is not None, split=run.split)),
        )

    def to_json(self) -> str:
        """The document as the bytes written to the metrics file (indented, one final
        newline); equal runs give equal text."""
        return self.model_dump_json(indent=2) + "\n"


__all__ = [
    "BASELINE_METHOD",
    "BASELINE_RANKING",
    "COMMON_CAVEATS",
    "DATASET_CAVEATS",
    "LABEL_MATCH_RULE",
    "METRICS_KIND",
    "METRICS_SCHEMA_VERSION",
    "PROVENANCE_RULE",
    "SPLIT_CAVEATS",
    "WORDS_RULE",
    "ArmFigures",
    "ClockFigures",
    "EndToEndFigures",
    "EvidenceFigures",
    "ExternalMetrics",
    "FormationFigures",
    "MemoryArmFigures",
    "MomentFigures",
    "ProbeFigures",
    "RecallFigures",
    "SplitFigures",
    "WordFigures",
    "caveats_for",
    "split_caveats",
]
