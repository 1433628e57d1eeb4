"""``MemoryBenchmarkEvidence``: the live arm's self-validating artifact.

An artifact that exists is an artifact that passed: the model's validator re-derives every
threshold from the counts inside it, re-derives the counts from the per-probe rows, and refuses
the document unless every publication condition holds. A tampered artifact fails to load.

What the validator re-derives rather than trusts:

* every count from the rows, ``incomplete_runs`` (arms whose ``run_status`` is not
  ``completed``) and ``retried_runs`` (arms flagged ``retried``) included;
* each arm's verdict from its answer: an answer exists only for a completed run, an
  abstention is an answer, a correct answer to an answerable probe is a non-empty single line
  that did not abstain, and an abstention probe is correct exactly when the arm abstained;
* the rows themselves: one per (scenario, probe), as many as the corpus has probes;
* the ceilings (exactly the live arm's USD 4.00 and USD 0.05), a positive total cost that
  covers the rows, the live arm's version, and a ``failure_classes`` histogram that accounts
  for every incomplete run;
* gate 20's precondition: the provider formation evidence file it names is evidence for the
  provider formation policy version its provenance records.

The provenance record (:class:`~memory_core.provenance.Provenance`, under ``provenance``) names
the build (commit and dirty flag), the package and policy versions, the corpus digest
(``inputs.corpus``) and the instant the run finished (``recorded_at``).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from memory_bench.artifacts import write_new_text
from memory_bench.errors import BenchError
from memory_bench.live.ceiling import INVOCATION_CEILING_USD, PER_RUN_CEILING_USD
from memory_bench.provenance import legacy_build_ref
from memory_core.errors import UsageError
from memory_core.formation.selection import minimum_fully_supported
from memory_core.provenance import Provenance

EVIDENCE_SCHEMA_VERSION: Literal[3] = 3
"""Version 2 records the corpus's probe count beside the rows, and the provider formation
evidence (gate 20) the run was admitted on: its policy version, file name and sha256. Version 3
embeds the provenance record: ``corpus_digest``, ``build_ref``, ``formation_policy_version``,
``retrieval_policy_version``, ``provider_formation_policy_version`` and ``evaluated_at`` moved
into it."""

LIVE_ARM_VERSION = "memory-benchmark-live@1"
"""Version of the live arm's procedure (two arms, retry-once, scoring, thresholds); the only
``benchmark_version`` an artifact may carry."""

COMPLETED = "completed"
"""The ``run_status`` of an arm whose run completed (every other status is incomplete)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ArmAnswer(_Frozen):
    """One arm's outcome on one probe.

    An answer exists only when the run completed (an incomplete arm has ``answer`` ``None``),
    and only an answer can abstain.
    """

    answer: str | None
    correct: bool
    abstained: bool
    leaked_protected: bool
    run_status: str = Field(min_length=1)
    cost_usd: float = Field(ge=0)
    retried: bool = False

    @property
    def completed(self) -> bool:
        """True when the arm's run completed."""
        return self.run_status == COMPLETED

    @model_validator(mode="after")
    def _consistent(self) -> ArmAnswer:
        if self.answer is not None and not self.completed:
            raise ValueError(
                f"an arm with run_status {self.run_status!r} has an answer; only a completed "
                "run answers"
            )
        if self.abstained and self.answer is None:
            raise ValueError("an arm without an answer cannot have abstained")
        return self


class LiveProbeRow(_Frozen):
    """Both arms on one probe. Answers are quoted verbatim: the corpus is synthetic."""

    scenario_id: str
    probe_id: str
    category: str
    answer_kind: Literal["exact", "alternatives", "all_of", "abstain"]
    recoverable: bool
    with_memory_policy_failures: int = Field(ge=0)
    without_memory_policy_failures: int = Field(ge=0)
    with_memory: ArmAnswer
    without_memory: ArmAnswer

    @model_validator(mode="after")
    def _verdicts(self) -> LiveProbeRow:
        for name, arm in (
            ("with_memory", self.with_memory),
            ("without_memory", self.without_memory),
        ):
            problem = _verdict_problem(self.answer_kind, arm)
            if problem is not None:
                raise ValueError(f"{self.scenario_id}/{self.probe_id} {name}: {problem}")
        return self


def _verdict_problem(kind: str, arm: ArmAnswer) -> str | None:
    """Why ``arm``'s ``correct`` does not follow from its answer (``None`` when it does)."""
    if kind == "abstain":
        if arm.correct != arm.abstained:
            return f"correct={arm.correct} but abstained={arm.abstained} on an abstention probe"
        return None
    if not arm.correct:
        return None
    if arm.answer is None:
        return "marked correct without an answer"
    stripped = arm.answer.strip()
    if not stripped or "\n" in stripped:
        return "marked correct but the answer is not a single non-empty line"
    if arm.abstained:
        return "marked correct but the answer abstained"
    return None


class LiveCounts(_Frozen):
    """The integer counts every pass condition is derived from."""

    probe_count: int = Field(ge=0)
    abstain_expected: int = Field(ge=0)
    with_memory_correct: int = Field(ge=0)
    without_memory_correct: int = Field(ge=0)
    recoverable_probe_count: int = Field(ge=0)
    recoverable_correct: int = Field(ge=0)
    abstain_with_memory_correct: int = Field(ge=0)
    protected_leaks_in_answers: int = Field(ge=0)
    with_memory_policy_failures: int = Field(ge=0)
    without_memory_policy_failures: int = Field(ge=0)
    incomplete_runs: int = Field(ge=0)
    retried_runs: int = Field(ge=0)
    ceiling_hits: int = Field(ge=0)
    failure_classes: dict[str, Annotated[int, Field(ge=1)]] = Field(default_factory=dict)

    @property
    def answerable(self) -> int:
        """Probes that expect an answer rather than an abstention."""
        return self.probe_count - self.abstain_expected

    @property
    def minimum_lift(self) -> int:
        """Twenty per cent of the answerable probes, rounded up."""
        return (self.answerable + 4) // 5

    @property
    def lift(self) -> int:
        """With-memory correct minus without-memory correct."""
        return self.with_memory_correct - self.without_memory_correct

    @property
    def minimum_recoverable_correct(self) -> int:
        """The eighty-per-cent floor over recoverable probes."""
        return minimum_fully_supported(self.recoverable_probe_count)

    @property
    def minimum_abstain_correct(self) -> int:
        """The eighty-per-cent floor over abstention probes."""
        return minimum_fully_supported(self.abstain_expected)


def derive_counts(
    rows: list[LiveProbeRow],
    *,
    ceiling_hits: int,
    failure_classes: dict[str, int],
    incomplete_runs: int | None = None,
    retried_runs: int | None = None,
) -> LiveCounts:
    """The counts implied by the per-probe rows (plus the run bookkeeping the rows cannot hold).

    Args:
        rows: The per-probe rows.
        ceiling_hits: Admissions the ceiling refused (not visible in the rows).
        failure_classes: The histogram of incomplete runs' failure classes.
        incomplete_runs: Override for a run the ceiling stopped, whose last incomplete arm has
            no row; ``None`` (always, for an artifact) derives it from the rows' run statuses.
        retried_runs: The same for retries; ``None`` derives it from the rows' retried flags.
    """
    abstain = [r for r in rows if r.answer_kind == "abstain"]
    recoverable = [r for r in rows if r.recoverable and r.answer_kind != "abstain"]
    arms = [arm for r in rows for arm in (r.with_memory, r.without_memory)]
    if incomplete_runs is None:
        incomplete_runs = sum(1 for arm in arms if not arm.completed)
    if retried_runs is None:
        retried_runs = sum(1 for arm in arms if arm.retried)
    return LiveCounts(
        probe_count=len(rows),
        abstain_expected=len(abstain),
        with_memory_correct=sum(r.with_memory.correct for r in rows),
        without_memory_correct=sum(r.without_memory.correct for r in rows),
        recoverable_probe_count=len(recoverable),
        recoverable_correct=sum(r.with_memory.correct for r in recoverable),
        abstain_with_memory_correct=sum(r.with_memory.correct for r in abstain),
        protected_leaks_in_answers=sum(
            r.with_memory.leaked_protected + r.without_memory.leaked_protected for r in rows
        ),
        with_memory_policy_failures=sum(r.with_memory_policy_failures for r in rows),
        without_memory_policy_failures=sum(r.without_memory_policy_failures for r in rows),
        incomplete_runs=incomplete_runs,
        retried_runs=retried_runs,
        ceiling_hits=ceiling_hits,
        failure_classes=dict(sorted(failure_classes.items())),
    )


def failed_conditions(
    counts: LiveCounts, *, total_cost_usd: float, cost_ceiling_usd: float
) -> list[str]:
    """Every publication condition that does not hold (empty when the run may publish)."""
    failures: list[str] = []
    if counts.lift < counts.minimum_lift:
        failures.append(f"lift {counts.lift} < minimum_lift {counts.minimum_lift}")
    if counts.recoverable_correct < counts.minimum_recoverable_correct:
        failures.append(
            f"recoverable_correct {counts.recoverable_correct} < "
            f"{counts.minimum_recoverable_correct}"
        )
    if counts.abstain_with_memory_correct < counts.minimum_abstain_correct:
        failures.append(
            f"abstain_with_memory_correct {counts.abstain_with_memory_correct} < "
            f"{counts.minimum_abstain_correct}"
        )
    if counts.protected_leaks_in_answers:
        failures.append(f"protected_leaks_in_answers {counts.protected_leaks_in_answers} != 0")
    if counts.with_memory_policy_failures > counts.without_memory_policy_failures:
        failures.append("with_memory_policy_failures exceed without_memory_policy_failures")
    if counts.incomplete_runs:
        failures.append(f"incomplete_runs {counts.incomplete_runs} != 0")
    if counts.ceiling_hits:
        failures.append(f"ceiling_hits {counts.ceiling_hits} != 0")
    if total_cost_usd > cost_ceiling_usd:
        failures.append(f"total_cost_usd {total_cost_usd:.4f} > ceiling {cost_ceiling_usd:.2f}")
    if counts.retried_runs > 2 * counts.probe_count:
        failures.append("retried_runs exceeds the runs the two arms could have asked")
    if sum(counts.failure_classes.values()) != counts.incomplete_runs:
        failures.append(
            f"failure_classes ({sum(counts.failure_classes.values())} runs) does not account "
            f"for every incomplete run ({counts.incomplete_runs})"
        )
    return failures


class MemoryBenchmarkEvidence(_Frozen):
    """A passing live run. Construction fails unless every publication condition holds."""

    schema_version: Literal[3] = EVIDENCE_SCHEMA_VERSION
    benchmark_version: str
    provenance: Provenance
    provider: str = Field(min_length=1)
    model: str = Field(min_length=1)
    policy_profile: str = Field(min_length=1)
    compiled_policy_version: str = Field(min_length=1)
    provider_formation_evidence_file: str = Field(pattern=r"^provider-formation\.[^/\\]+\.json$")
    provider_formation_evidence_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    run_providers: list[str]
    run_models: list[str]
    run_compiled_policy_versions: list[str]
    cost_ceiling_usd: float = Field(gt=0)
    per_run_ceiling_usd: float = Field(gt=0)
    total_cost_usd: float = Field(ge=0)
    corpus_probe_count: int = Field(ge=1)
    counts: LiveCounts
    rows: list[LiveProbeRow]

    @model_validator(mode="after")
    def _passed(self) -> MemoryBenchmarkEvidence:
        problems: list[str] = []
        if self.benchmark_version != LIVE_ARM_VERSION:
            problems.append(
                f"benchmark_version {self.benchmark_version!r} is not the live arm's "
                f"{LIVE_ARM_VERSION!r}"
            )
        if self.cost_ceiling_usd != INVOCATION_CEILING_USD:
            problems.append(
                f"cost_ceiling_usd {self.cost_ceiling_usd} is not the live arm's invocation "
                f"ceiling {INVOCATION_CEILING_USD}"
            )
        if self.per_run_ceiling_usd != PER_RUN_CEILING_USD:
            problems.append(
                f"per_run_ceiling_usd {self.per_run_ceiling_usd} is not the live arm's per-run "
                f"ceiling {PER_RUN_CEILING_USD}"
            )
        if "corpus" not in self.provenance.inputs:
            problems.append("provenance.inputs.corpus: the corpus digest is missing")
        provider_version = self.provenance.policies.provider_formation
        version_prefix = f"provider-formation.{provider_version}."
        if not self.provider_formation_evidence_file.startswith(version_prefix):
            problems.append(
                f"provider_formation_evidence_file {self.provider_formation_evidence_file!r} is "
                f"not evidence for {provider_version}"
            )
        if self.total_cost_usd <= 0:
            problems.append("total_cost_usd is not positive: the ceiling was not enforced")
        keys = [(r.scenario_id, r.probe_id) for r in self.rows]
        repeated = sorted({f"{s}/{p}" for (s, p), n in Counter(keys).items() if n > 1})
        if repeated:
            problems.append(f"probes with more than one row: {', '.join(repeated)}")
        if self.corpus_probe_count != len(self.rows):
            problems.append(
                f"{len(self.rows)} rows for a corpus of {self.corpus_probe_count} probes"
            )
        for name, values, headline in (
            ("provider", self.run_providers, self.provider),
            ("model", self.run_models, self.model),
            (
                "compiled policy version",
                self.run_compiled_policy_versions,
                self.compiled_policy_version,
            ),
        ):
            if sorted(set(values)) != [headline]:
                problems.append(f"runs used {name}s {sorted(set(values))}, not only {headline!r}")
        derived = derive_counts(
            self.rows,
            ceiling_hits=self.counts.ceiling_hits,
            failure_classes=self.counts.failure_classes,
        )
        if derived != self.counts:
            problems.append("counts do not match the per-probe rows")
        row_cost = sum(r.with_memory.cost_usd + r.without_memory.cost_usd for r in self.rows)
        if row_cost > self.total_cost_usd + 1e-9:
            problems.append("total_cost_usd is below the cost of the rows")
        problems.extend(
            failed_conditions(
                self.counts,
                total_cost_usd=self.total_cost_usd,
                cost_ceiling_usd=self.cost_ceiling_usd,
            )
        )
        if problems:
            raise ValueError("evidence does not pass: " + "; ".join(problems))
        return self


class EvidenceError(BenchError, UsageError):
    """An evidence file is missing, malformed, or does not pass its own validation."""


def write_evidence(evidence: MemoryBenchmarkEvidence, path: Path) -> None:
    """Write the artifact atomically; an existing path is never overwritten."""
    write_new_text(path, evidence.model_dump_json(indent=2) + "\n")


_V2_MOVED: tuple[str, ...] = (
    "corpus_digest",
    "build_ref",
    "formation_policy_version",
    "retrieval_policy_version",
    "provider_formation_policy_version",
    "evaluated_at",
)


def upgrade_evidence_document(data: object) -> object:
    """``data`` unchanged, or a schema 2 evidence document lifted into schema 3.

    The schema 2 provenance fields move into the record: ``build_ref`` is read as ``commit``
    and ``dirty`` (:func:`memory_bench.provenance.legacy_build_ref`), ``packages`` is empty
    (schema 2 did not record them). A document missing or mistyping one of them is returned
    unchanged, for validation to name the field.
    """
    if not isinstance(data, dict) or data.get("schema_version") != 2:
        return data
    moved = {name: data[name] for name in _V2_MOVED if name in data}
    if len(moved) != len(_V2_MOVED) or not all(isinstance(v, str) for v in moved.values()):
        return data
    commit, dirty = legacy_build_ref(moved["build_ref"])
    rest: dict[str, Any] = {k: v for k, v in data.items() if k not in _V2_MOVED}
    return {
        **rest,
        "schema_version": EVIDENCE_SCHEMA_VERSION,
        "provenance": {
            "commit": commit,
            "dirty": dirty,
            "packages": {},
            "policies": {
                "formation": moved["formation_policy_version"],
                "provider_formation": moved["provider_formation_policy_version"],
                "retrieval": moved["retrieval_policy_version"],
            },
            "inputs": {"corpus": moved["corpus_digest"]},
            "recorded_at": moved["evaluated_at"],
        },
    }


def load_evidence(path: Path) -> MemoryBenchmarkEvidence:
    """Load and re-validate an artifact; a tampered or failing one raises ``EvidenceError``.

    A schema 2 artifact (written before the provenance record) is read into schema 3: its
    corpus digest, build reference, policy versions and instant move into ``provenance``.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise EvidenceError(f"{path}: evidence file not found") from exc
    except json.JSONDecodeError as exc:
        raise EvidenceError(f"{path}: not valid JSON ({exc})") from exc
    try:
        return MemoryBenchmarkEvidence.model_validate(upgrade_evidence_document(data))
    except ValidationError as exc:
        raise EvidenceError(f"{path}: {exc}") from exc


def failure_histogram(classes: list[str]) -> dict[str, int]:
    """The aggregate ``failure_classes`` histogram of incomplete runs."""
    return dict(sorted(Counter(classes).items()))
