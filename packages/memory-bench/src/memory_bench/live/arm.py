"""The live arm: every probe asked twice through a real model, scored mechanically, and published
only as evidence that re-validates itself.

It runs only when ``RUN_LIVE_MODEL_TESTS=1``; otherwise :func:`run_live_benchmark` returns a
clean skip without building a model or sending a request. For each scenario and each probe::

    with_memory     the deterministic driver's loop (prepare_scenario, run_probe) with the real
                    model, the probe instruction appended to the question
    without_memory  a fresh composition per probe carrying the same session metadata (the
                    probe's project scope) at the same instant, and the probe alone

Both arms' compositions come from the evaluation harness
(:func:`memory_bench.harness.build_eval_composition`, the real model and the live policy
profile), the with-memory one through the driver's ``prepare_scenario``.

Before any request, the model and policy are bounded statically: a model whose worst-case run
(every step a full context window in and the full output reservation out, at the catalog
price) could exceed the USD 0.05 per-run ceiling is refused
(:class:`~memory_bench.live.ceiling.RunCostAboveCeilingError`), since the runtime checks a
run's ``max_cost_usd`` only after a call is paid for. Before every run, retries included, the
:class:`~memory_bench.live.ceiling.CostCeiling` admits it only if what was already spent plus
the USD 0.05 per-run ceiling stays within the USD 4.00 invocation ceiling; a refusal stops the
invocation with ``stopped_by="cost_ceiling"``. If the
first completed run cost nothing the arm aborts with "model pricing unavailable; ceiling
unenforceable" (``stopped_by="pricing_unavailable"``). Neither publishes anything.

Gate 20 is the precondition of any live evidence: before the first run is admitted the evidence
directory (``evidence_dir``, default :func:`~memory_core.formation.selection.default_evidence_dir`)
must hold valid provider formation evidence for the current provider formation policy and this
provider and model, exactly as startup selection's ``required`` mode checks it. Without it the
arm stops with ``stopped_by="provider_evidence"`` and the failed condition
:data:`PROVIDER_EVIDENCE_CONDITION`, having sent nothing and written nothing; with it, the
evidence records that file's name and sha256.

The retry-once rule: an arm whose run ended without an answer is asked once more, against a
composition built the same way but freshly, unless the runtime itself decided the termination
(``budget_exhausted``, ``step_exhausted``, ``context_overflow``, ``permanent_model_error``),
which is kept on the first attempt. An arm that failed outside the run (an exception, recorded
as ``arm_error`` with the exception's type) is retried like a ``failed`` run. Every attempt's
cost counts, billed or not. Whatever is still incomplete after that is reported one
:class:`IncompleteRun` each (status, error class, billed, cost) in the result, never a message;
the evidence carries only the ``failure_classes`` histogram.

Scoring is :func:`~memory_bench.live.answers.score_answer`. A probe is *recoverable* when it
expects an answer and its with-memory traces recalled every needed label. An arm's policy
failures are the probe's forbidden statements its answer states (token-bounded, as traces are
judged), plus, for the with-memory arm, what its traces rendered that the deterministic arm's
structural zeros forbid (a protected fragment, a superseded statement, an abstention leak, a
false transfer).

When every pass condition holds, the evidence model is built (it re-derives every threshold
from its own counts) and written atomically to ``output``; ``output`` is refused before anything
is spent if it exists, and a failing run writes nothing and returns its diagnostics.

A ``progress`` callback receives one line per finished probe arm (status, verdict, seconds,
cost, spent so far). A smoke run (``limit_scenarios=N``) asks only the first ``N`` scenarios,
under every check a full run makes, and ends ``outcome="smoke"``: it takes no ``output`` and
never publishes evidence, whatever its counts.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, computed_field

from memory_bench.artifacts import ArtifactExistsError, ArtifactWriteError, prepare_output
from memory_bench.corpus import (
    BenchmarkProbe,
    BenchmarkScenario,
    MemoryBenchmarkCorpus,
    scenario_timeline,
)
from memory_bench.driver import PreparedScenario, ProbeOutcome, prepare_scenario, run_probe
from memory_bench.errors import BenchError
from memory_bench.harness import (
    EVAL_PRINCIPAL,
    PROBE_POLICY_PROFILE,
    PROBE_RUN_LIMITS,
    PROBE_TOOLS,
    build_eval_composition,
)
from memory_bench.live.answers import score_answer
from memory_bench.live.ceiling import (
    CostCeiling,
    PricingUnavailableError,
    require_bounded_run_cost,
)
from memory_bench.live.evidence import (
    LIVE_ARM_VERSION,
    ArmAnswer,
    LiveCounts,
    LiveProbeRow,
    MemoryBenchmarkEvidence,
    derive_counts,
    failed_conditions,
    failure_histogram,
    write_evidence,
)
from memory_bench.metrics import ProbeMetrics
from memory_bench.provenance import PolicyVersions, Provenance, provenance_of
from memory_bench.scoring import renders_forbidden
from memory_bench.source_tree import SourceTree, read_source_tree
from memory_core.base.model import Message, Model, ModelResponse, ToolSpec
from memory_core.clock import Clock, SystemClock
from memory_core.errors import ConfigurationError, UsageError
from memory_core.formation.extractor import DeterministicExtractor
from memory_core.formation.selection import (
    ProviderEvidenceRequiredError,
    SelectionMode,
    default_evidence_dir,
    select_extractor,
)
from memory_core.policy import PROVIDER_FORMATION_POLICY, RETRIEVAL_POLICY
from memory_core.runtime.context import load_context_plan
from memory_core.runtime.policy_profile import ModelPolicy, PolicyProfile, load_policy_profile
from memory_core.runtime.pricing import PriceCatalog
from memory_core.runtime.run import Run, RunStatus

LIVE_ENV = "RUN_LIVE_MODEL_TESTS"
"""The environment variable that must be ``1`` for the live arm to spend anything."""

ARM_ERROR = "arm_error"
"""Terminal status recorded for an arm that failed outside its run (the error class is the
exception's type)."""

RUNTIME_DECIDED: frozenset[str] = frozenset(
    {
        RunStatus.BUDGET_EXHAUSTED.value,
        RunStatus.STEP_EXHAUSTED.value,
        RunStatus.CONTEXT_OVERFLOW.value,
        RunStatus.PERMANENT_MODEL_ERROR.value,
    }
)
"""Terminations the runtime decided on rather than suffered: kept on the first attempt."""

PROVIDER_EVIDENCE_CONDITION = "provider_formation_evidence_current"
"""The failed condition a live run reports when gate 20's evidence is missing or invalid."""

ArmName = Literal["with_memory", "without_memory"]
StoppedBy = Literal["cost_ceiling", "pricing_unavailable", "provider_evidence"]
Outcome = Literal["passed", "failed", "skipped", "smoke"]

ModelFactory = Callable[[], Model]
"""Builds the real model, called only once the arm is cleared to spend."""


def live_skip_reason(environ: Mapping[str, str] | None = None) -> str | None:
    """Why the live arm does not run (``None`` when ``RUN_LIVE_MODEL_TESTS`` is ``1``)."""
    value = (os.environ if environ is None else environ).get(LIVE_ENV)
    if value == "1":
        return None
    return (
        f"{LIVE_ENV} is not 1; the live arm calls a real model and spends money, so it runs "
        f"only when {LIVE_ENV}=1 is set"
    )


def probe_prompt(probe: BenchmarkProbe, corpus: MemoryBenchmarkCorpus) -> str:
    """The live prompt: the question with the corpus's probe instruction appended."""
    return f"{probe.question}\n\n{corpus.probe_instruction}"


def default_live_policy_profile() -> PolicyProfile:
    """The deterministic arm's probe policy: ``no-tools`` with the driver's tools and limits."""
    return load_policy_profile(PROBE_POLICY_PROFILE).with_overrides(
        limits=PROBE_RUN_LIMITS, enabled_tools=PROBE_TOOLS
    )


def load_model_policy(path: Path) -> ModelPolicy:
    """Load a ``--model-policy`` YAML file (the profile's ``model`` section, e.g.
    ``max_output_tokens: 512``).

    Raises:
        ConfigurationError: the file is missing, not YAML, or not a valid model policy.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigurationError(f"{path}: model policy file not found") from exc
    except yaml.YAMLError as exc:
        raise ConfigurationError(f"{path}: not valid YAML ({exc})") from exc
    try:
        return ModelPolicy.model_validate(data if data is not None else {})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigurationError(f"{path}: invalid model policy ({problems})") from exc


def live_policy_profile(
    policy_profile: PolicyProfile | str | Path | None = None,
    *,
    model_policy: ModelPolicy | None = None,
    per_run_ceiling_usd: float | None = None,
) -> PolicyProfile:
    """The runtime policy of every live run: the named profile (default: the deterministic
    arm's probe policy) with ``model_policy`` replacing its model section.

    Raises:
        ConfigurationError: the profile cannot be resolved.
        UsageError: the profile lets one run spend more than the per-run ceiling the
            pre-admission check reserves (the ceiling arithmetic would not hold).
    """
    profile = (
        default_live_policy_profile()
        if policy_profile is None
        else load_policy_profile(policy_profile)
    )
    if model_policy is not None:
        profile = PolicyProfile.model_validate({**profile.model_dump(), "model": model_policy})
    per_run = CostCeiling().per_run_usd if per_run_ceiling_usd is None else per_run_ceiling_usd
    if profile.limits.max_cost_usd > per_run:
        raise UsageError(
            f"policy profile {profile.name!r} lets one run spend USD "
            f"{profile.limits.max_cost_usd:.2f}, above the live arm's per-run ceiling of USD "
            f"{per_run:.2f} that each admission reserves; lower limits.max_cost_usd"
        )
    return profile


class IncompleteRun(BaseModel):
    """A probe arm still without an answer after the retry-once rule (a diagnostic, never
    published: the evidence keeps only the histogram of ``failure_class``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario_id: str
    probe_id: str
    arm: ArmName
    status: str
    error_class: str | None
    billed: bool
    cost_usd: float = Field(ge=0)
    attempts: int = Field(ge=1)

    @property
    def failure_class(self) -> str:
        """The histogram key: ``status`` or ``status:ErrorClass``."""
        return self.status if self.error_class is None else f"{self.status}:{self.error_class}"

    def line(self) -> str:
        """One terminal line: where, how it ended, whether it was billed and what it cost."""
        return (
            f"incomplete {self.scenario_id}/{self.probe_id} {self.arm}: status={self.status} "
            f"error_class={self.error_class or '-'} billed={'yes' if self.billed else 'no'} "
            f"cost_usd={self.cost_usd:.6f} attempts={self.attempts}"
        )


class LiveThresholds(BaseModel):
    """The thresholds derived from a run's counts, for display (the evidence re-derives them)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    answerable: int
    lift: int
    minimum_lift: int
    recoverable_probe_count: int
    recoverable_correct: int
    minimum_recoverable_correct: int
    abstain_expected: int
    abstain_with_memory_correct: int
    minimum_abstain_correct: int

    @classmethod
    def of(cls, counts: LiveCounts) -> LiveThresholds:
        """Derive the thresholds of ``counts``."""
        return cls(
            answerable=counts.answerable,
            lift=counts.lift,
            minimum_lift=counts.minimum_lift,
            recoverable_probe_count=counts.recoverable_probe_count,
            recoverable_correct=counts.recoverable_correct,
            minimum_recoverable_correct=counts.minimum_recoverable_correct,
            abstain_expected=counts.abstain_expected,
            abstain_with_memory_correct=counts.abstain_with_memory_correct,
            minimum_abstain_correct=counts.minimum_abstain_correct,
        )


class LiveBenchmarkResult(BaseModel):
    """The result document of one live invocation, printed as JSON whether it passed or not."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    arm: Literal["live"] = "live"
    outcome: Outcome
    skip_reason: str | None = None
    stopped_by: StoppedBy | None = None
    error: str | None = None
    benchmark_version: str = LIVE_ARM_VERSION
    provenance: Provenance | None = None
    provider: str | None = None
    model: str | None = None
    policy_profile: str | None = None
    compiled_policy_version: str | None = None
    provider_formation_evidence_file: str | None = None
    provider_formation_evidence_sha256: str | None = None
    cost_ceiling_usd: float | None = None
    per_run_ceiling_usd: float | None = None
    total_cost_usd: float = 0.0
    runs_admitted: int = 0
    counts: LiveCounts | None = None
    thresholds: LiveThresholds | None = None
    failed_conditions: list[str] = Field(default_factory=list)
    incomplete: list[IncompleteRun] = Field(default_factory=list)
    rows: list[LiveProbeRow] = Field(default_factory=list)
    evidence_path: str | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def passed(self) -> bool:
        """True when the run passed and its evidence was written."""
        return self.outcome == "passed"

    def summary_line(self) -> str:
        """The one-line verdict printed on the terminal."""
        if self.outcome == "skipped":
            return f"live arm: skipped ({self.skip_reason})"
        parts = [f"live arm: {self.outcome.upper()}"]
        if self.outcome == "smoke":
            parts.append("a smoke run, never published as evidence")
        if self.stopped_by is not None:
            parts.append(f"stopped_by={self.stopped_by}")
        if self.thresholds is not None and self.counts is not None:
            t = self.thresholds
            parts.append(
                f"probes {self.counts.probe_count}, lift {t.lift} (min {t.minimum_lift}), "
                f"recoverable {t.recoverable_correct}/{t.recoverable_probe_count} "
                f"(min {t.minimum_recoverable_correct}), abstain "
                f"{t.abstain_with_memory_correct}/{t.abstain_expected} "
                f"(min {t.minimum_abstain_correct}), leaks "
                f"{self.counts.protected_leaks_in_answers}, incomplete "
                f"{self.counts.incomplete_runs}, retried {self.counts.retried_runs}"
            )
        ceiling = self.cost_ceiling_usd if self.cost_ceiling_usd is not None else 0.0
        parts.append(
            f"runs {self.runs_admitted}, cost USD {self.total_cost_usd:.4f} of {ceiling:.2f}"
        )
        if self.evidence_path is not None:
            parts.append(f"evidence written to {self.evidence_path}")
        else:
            parts.append("nothing published")
        return "; ".join(parts)

    def diagnostics(self) -> list[str]:
        """The summary line, one line per incomplete run, then each failed condition."""
        lines = [self.summary_line()]
        lines.extend(run.line() for run in self.incomplete)
        if self.error is not None:
            lines.append(f"error: {self.error}")
        lines.extend(f"failed: {condition}" for condition in self.failed_conditions)
        return lines


class _MeteredModel:
    """Wraps the real model and records every answered call (what was billed, by whom)."""

    def __init__(self, inner: Model) -> None:
        self._inner = inner
        self.responses: list[ModelResponse] = []

    @property
    def inner(self) -> Model:
        return self._inner

    @property
    def provider(self) -> str:
        return self._inner.provider

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ModelResponse:
        response = self._inner.complete(messages, tools)
        self.responses.append(response)
        return response

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if callable(close):
            close()


@dataclass(frozen=True, kw_only=True)
class _Attempt:
    status: str
    error_class: str | None
    answer: str | None
    calls: tuple[ModelResponse, ...]
    run: Run | None
    metrics: ProbeMetrics | None = None

    @property
    def completed(self) -> bool:
        return self.status == RunStatus.COMPLETED.value

    @property
    def cost_usd(self) -> float:
        return sum(call.cost_usd for call in self.calls)

    @property
    def cost_known(self) -> bool:
        return all(call.cost_known for call in self.calls)

    @property
    def usage_reported(self) -> bool:
        return all(call.usage_reported for call in self.calls)


@dataclass(frozen=True, kw_only=True)
class _ArmResult:
    final: _Attempt
    attempts: tuple[_Attempt, ...]

    @property
    def retried(self) -> bool:
        return len(self.attempts) > 1

    @property
    def cost_usd(self) -> float:
        return sum(attempt.cost_usd for attempt in self.attempts)

    @property
    def billed(self) -> bool:
        return any(attempt.calls for attempt in self.attempts)


class _CeilingRefused(BenchError):
    """The pre-admission check refused a run; the invocation stops."""


@dataclass
class _Ledger:
    """Everything the invocation has spent and seen so far."""

    ceiling: CostCeiling
    retried_runs: int = 0
    incomplete: list[IncompleteRun] = field(default_factory=list)
    providers: set[str] = field(default_factory=set)
    models: set[str] = field(default_factory=set)
    policy_versions: set[str] = field(default_factory=set)

    def observe(self, attempt: _Attempt) -> None:
        for call in attempt.calls:
            self.providers.add(call.provider)
            self.models.add(call.model)
        if attempt.run is not None:
            self.policy_versions.add(attempt.run.policy_version)


class _WithMemoryArm:
    """The deterministic driver's loop over one scenario, answered by the real model.

    Probes run in order on one composition; a retry (or a probe after an arm error) gets a
    composition built the same way, freshly, with its clock advanced to the same instant.
    """

    def __init__(
        self,
        scenario: BenchmarkScenario,
        *,
        model: Model,
        profile: PolicyProfile,
        prompt: Callable[[BenchmarkProbe], str],
    ) -> None:
        self._scenario = scenario
        self._model = model
        self._profile = profile
        self._prompt = prompt
        self._prepared: PreparedScenario | None = None
        self._next_index = 0

    def _fresh(self, index: int) -> PreparedScenario:
        prepared = prepare_scenario(
            self._scenario,
            extractor_factory=DeterministicExtractor,
            model=self._model,
            policy_profile=self._profile,
        )
        earlier = sum(probe.advance_seconds for probe in self._scenario.probes[:index])
        prepared.composition.advance(earlier)
        return prepared

    def ask(self, index: int, *, fresh: bool) -> ProbeOutcome:
        probe = self._scenario.probes[index]
        if fresh:
            prepared = self._fresh(index)
            try:
                return run_probe(prepared, probe, prompt=self._prompt(probe))
            finally:
                prepared.composition.close()
        if self._prepared is None or self._next_index != index:
            self.close()
            self._prepared = self._fresh(index)
        self._next_index = index + 1
        try:
            return run_probe(self._prepared, probe, prompt=self._prompt(probe))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._prepared is not None:
            self._prepared.composition.close()
            self._prepared = None


def _ask_without_memory(
    probe: BenchmarkProbe,
    *,
    instant: datetime,
    model: Model,
    profile: PolicyProfile,
    prompt: str,
) -> Run:
    composition = build_eval_composition(instant, model=model, policy_profile=profile)
    try:
        view = composition.sessions.create(
            principal=EVAL_PRINCIPAL,
            agent="general",
            metadata={"project_scope": probe.project_scope},
        )
        return composition.runs.submit(prompt, view.id, principal=EVAL_PRINCIPAL)
    finally:
        composition.close()


def _attempt(meter: _MeteredModel, ask: Callable[[], tuple[Run, ProbeMetrics | None]]) -> _Attempt:
    start = len(meter.responses)
    try:
        run, metrics = ask()
    except Exception as exc:  # the arm's error boundary: typed, never a message
        return _Attempt(
            status=ARM_ERROR,
            error_class=type(exc).__name__,
            answer=None,
            calls=tuple(meter.responses[start:]),
            run=None,
        )
    return _Attempt(
        status=run.status.value,
        error_class=run.error_class,
        answer=run.final_message,
        calls=tuple(meter.responses[start:]),
        run=run,
        metrics=metrics,
    )


def _ask_arm(
    ledger: _Ledger,
    meter: _MeteredModel,
    ask: Callable[[bool], tuple[Run, ProbeMetrics | None]],
    *,
    where: tuple[str, str, ArmName],
) -> _ArmResult:
    """One probe arm under the retry-once rule, each attempt admitted by the ceiling first."""
    if not ledger.ceiling.admit():
        raise _CeilingRefused
    first = _attempt(meter, lambda: ask(False))
    ledger.observe(first)
    ledger.ceiling.record(
        first.cost_usd,
        completed=first.completed,
        cost_known=first.cost_known,
        usage_reported=first.usage_reported,
    )
    attempts = [first]
    if not first.completed and first.status not in RUNTIME_DECIDED:
        if not ledger.ceiling.admit():
            ledger.incomplete.append(_incomplete(where, _ArmResult(final=first, attempts=(first,))))
            raise _CeilingRefused
        ledger.retried_runs += 1
        second = _attempt(meter, lambda: ask(True))
        ledger.observe(second)
        ledger.ceiling.record(
            second.cost_usd,
            completed=second.completed,
            cost_known=second.cost_known,
            usage_reported=second.usage_reported,
        )
        attempts.append(second)
    result = _ArmResult(final=attempts[-1], attempts=tuple(attempts))
    if not result.final.completed:
        ledger.incomplete.append(_incomplete(where, result))
    return result


def _incomplete(where: tuple[str, str, ArmName], result: _ArmResult) -> IncompleteRun:
    scenario_id, probe_id, arm = where
    return IncompleteRun(
        scenario_id=scenario_id,
        probe_id=probe_id,
        arm=arm,
        status=result.final.status,
        error_class=result.final.error_class,
        billed=result.billed,
        cost_usd=result.cost_usd,
        attempts=len(result.attempts),
    )


def _answer_policy_failures(probe: BenchmarkProbe, answer: str | None) -> int:
    if not answer:
        return 0
    return sum(
        1 for forbidden in probe.forbidden_statements if renders_forbidden(forbidden, answer)
    )


def _trace_policy_failures(metrics: ProbeMetrics | None) -> int:
    if metrics is None:
        return 0
    counts = metrics.counts
    return (
        counts.protected_rendered
        + counts.currency_violations
        + counts.abstention_leaks
        + counts.false_transfers
    )


def _arm_answer(
    result: _ArmResult,
    probe: BenchmarkProbe,
    scenario: BenchmarkScenario,
    corpus: MemoryBenchmarkCorpus,
) -> ArmAnswer:
    answer = result.final.answer if result.final.completed else None
    score = score_answer(
        answer,
        kind=probe.answer.kind,
        values=probe.answer.values,
        abstain_phrase=corpus.abstain_phrase,
        protected=scenario.protected_statements,
    )
    return ArmAnswer(
        answer=answer,
        correct=score.correct,
        abstained=score.abstained,
        leaked_protected=score.leaked_protected,
        run_status=result.final.status,
        cost_usd=result.cost_usd,
        retried=result.retried,
    )


def _probe_row(
    scenario: BenchmarkScenario,
    probe: BenchmarkProbe,
    with_memory: _ArmResult,
    with_answer: ArmAnswer,
    without_answer: ArmAnswer,
) -> LiveProbeRow:
    """The probe's row from both arms' scored answers (:func:`_arm_answer`, scored once)."""
    metrics = with_memory.final.metrics
    answerable = probe.answer.kind != "abstain"
    recoverable = (
        answerable
        and metrics is not None
        and metrics.counts.needed_recalled == metrics.counts.needed_total
    )
    return LiveProbeRow(
        scenario_id=scenario.id,
        probe_id=probe.id,
        category=probe.category,
        answer_kind=probe.answer.kind,
        recoverable=recoverable,
        with_memory_policy_failures=_answer_policy_failures(probe, with_answer.answer)
        + _trace_policy_failures(metrics),
        without_memory_policy_failures=_answer_policy_failures(probe, without_answer.answer),
        with_memory=with_answer,
        without_memory=without_answer,
    )


@dataclass
class _Progress:
    """One line per finished probe arm, for an operator watching a long run."""

    emit: Callable[[str], None] | None
    total: int
    ceiling: CostCeiling
    done: int = 0
    where: str = ""
    started: float = 0.0

    def start(self, scenario_id: str, probe_id: str) -> None:
        self.done += 1
        self.where = f"{scenario_id}/{probe_id}"
        self.started = time.monotonic()

    def arm(self, name: ArmName, answer: ArmAnswer) -> None:
        if self.emit is None:
            return
        verdict = "correct" if answer.correct else "abstained" if answer.abstained else "wrong"
        if answer.run_status != RunStatus.COMPLETED.value:
            verdict = "incomplete"
        seconds = time.monotonic() - self.started
        self.emit(
            f"probe {self.done}/{self.total} {self.where} {name}: {answer.run_status}"
            f"{' (retried)' if answer.retried else ''}, {verdict}, {seconds:.1f} s, "
            f"USD {answer.cost_usd:.6f}; spent USD {self.ceiling.spent_usd:.4f}"
        )
        self.started = time.monotonic()


MIN_BUILD_REF_CHARS = 7
"""The shortest ``--build-ref`` accepted as a prefix of the checkout's commit."""


def check_build_ref(build_ref: str, source: SourceTree) -> None:
    """Refuse a ``build_ref`` that does not name ``source``'s commit.

    The evidence records the commit git reports (:mod:`memory_bench.provenance`); an
    operator's ``--build-ref`` is a check that it is the commit they meant to measure.

    Raises:
        UsageError: ``build_ref`` is shorter than seven characters, the directory is no git
            checkout, or ``build_ref`` is not a prefix of its commit.
    """
    ref = build_ref.strip().lower()
    if len(ref) < MIN_BUILD_REF_CHARS:
        raise UsageError(
            f"--build-ref {build_ref!r} is too short to name a commit; pass at least "
            f"{MIN_BUILD_REF_CHARS} hex digits of HEAD (or leave it out: the evidence records "
            "the commit git reports)"
        )
    if source.commit is None:
        raise UsageError(
            f"--build-ref {build_ref!r} names a commit, but the working directory is no git "
            "checkout; run from the checkout, or leave --build-ref out (the evidence then "
            "records no commit)"
        )
    if not source.commit.startswith(ref):
        raise UsageError(
            f"--build-ref {build_ref!r} is not the checkout's HEAD {source.commit}; check out "
            "the commit you mean to measure (the evidence records the commit git reports)"
        )


def _single(values: set[str], fallback: str) -> str:
    return next(iter(values)) if len(values) == 1 else fallback


def run_live_benchmark(
    corpus: MemoryBenchmarkCorpus,
    digest: str,
    *,
    output: Path | None,
    model_factory: ModelFactory,
    build_ref: str | None = None,
    source: SourceTree | None = None,
    policy_profile: PolicyProfile | None = None,
    environ: Mapping[str, str] | None = None,
    clock: Clock | None = None,
    ceiling: CostCeiling | None = None,
    prices: PriceCatalog | None = None,
    evidence_dir: Path | None = None,
    limit_scenarios: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> LiveBenchmarkResult:
    """Run the live arm over ``corpus`` and publish evidence to ``output`` if it passes.

    Args:
        corpus: A loaded (validated) corpus.
        digest: The sha256 of the corpus file, as ``load_corpus`` returned it.
        output: Where the evidence is written; refused before anything is spent if it exists
            or its directory cannot be written (:func:`~memory_bench.artifacts.prepare_output`).
        model_factory: Builds the real model; called only when the arm is cleared to spend.
        build_ref: The commit the operator means to measure; when given it must be ``source``'s
            commit or a prefix of it (at least 7 hex digits), else the run is refused.
        source: The checkout the run is built from, whose commit and dirty flag the provenance
            record names (default: the working directory's, read with
            :func:`~memory_bench.source_tree.read_source_tree`).
        policy_profile: The runtime policy of every run (default:
            :func:`live_policy_profile`'s default, the deterministic arm's probe policy).
        environ: Where ``RUN_LIVE_MODEL_TESTS`` is read (default: ``os.environ``).
        clock: The clock of the evidence timestamp (default: the wall clock).
        ceiling: The cost ceiling (default: USD 4.00 per invocation, USD 0.05 per run).
        prices: The catalog the model's calls are priced from, for the static per-run bound
            (default: the model's own ``prices``, as ``OpenAICompatibleModel`` exposes them).
        evidence_dir: Where gate 20's provider formation evidence is looked up (default:
            ``default_evidence_dir()``, i.e. ``MEMORY_EVIDENCE_DIR`` or ``evidence/``).
        limit_scenarios: A smoke run over the first ``limit_scenarios`` scenarios only: it
            runs everything a full run does (gate 20, the ceiling, both arms) but never
            publishes evidence (``output`` must be ``None``) and ends ``outcome="smoke"``.
        progress: Called with one line per probe arm as it finishes (the CLI prints them on
            stderr), so a long run shows where it is.

    Returns:
        The result document: ``skipped`` (nothing built, nothing sent), ``failed`` (nothing
        written; diagnostics, ``stopped_by`` when the ceiling, the pricing guard or missing
        provider formation evidence stopped it)
        or ``passed`` (the evidence was written to ``output``), or ``smoke`` for a smoke run
        (nothing written, whatever its counts).

    Raises:
        ArtifactExistsError: ``output`` exists (raised before anything is spent).
        ArtifactWriteError: ``output``'s directory cannot be created or written (raised before
            anything is spent).
        RunCostAboveCeilingError: one run of the model under the policy could cost more than
            the per-run ceiling (raised after the model is built, before any request).
        UsageError: the digest is malformed, ``build_ref`` is not the checkout's commit, the
            corpus is empty, the policy profile lets a run spend more than the per-run
            ceiling, no price catalog is known for the model, ``output`` is missing for a full
            run or given for a smoke run, or ``limit_scenarios`` is below 1.
    """
    reason = live_skip_reason(environ)
    if reason is not None:
        return LiveBenchmarkResult(outcome="skipped", skip_reason=reason)
    smoke = limit_scenarios is not None
    if limit_scenarios is not None and limit_scenarios < 1:
        raise UsageError(f"limit_scenarios must be >= 1, got {limit_scenarios}")
    if smoke and output is not None:
        raise UsageError(
            "a smoke run (limit_scenarios, --limit-scenarios) never publishes evidence; "
            "drop the output path"
        )
    if output is None and not smoke:
        raise UsageError("output is required for a live run: the evidence file it publishes")
    if output is not None:
        prepare_output(output)
    if len(digest) != 64 or any(ch not in "0123456789abcdef" for ch in digest):
        raise UsageError(
            f"corpus digest {digest!r} is not a lowercase hex sha256; pass the digest "
            "load_corpus returned"
        )
    tree = source if source is not None else read_source_tree()
    if build_ref is not None:
        check_build_ref(build_ref, tree)
    if not corpus.scenarios:
        raise UsageError("the corpus has no scenario; nothing to run")
    gauge = ceiling if ceiling is not None else CostCeiling()
    profile = live_policy_profile(policy_profile, per_run_ceiling_usd=gauge.per_run_usd)
    timestamps = clock if clock is not None else SystemClock()
    extractor = DeterministicExtractor()

    ledger = _Ledger(ceiling=gauge)
    rows: list[LiveProbeRow] = []
    stopped_by: StoppedBy | None = None
    error: str | None = None
    meter = _MeteredModel(model_factory())
    policies = PolicyVersions(
        formation=extractor.policy_version,
        provider_formation=PROVIDER_FORMATION_POLICY,
        retrieval=RETRIEVAL_POLICY,
    )

    def stamp() -> Provenance:
        return provenance_of(
            tree,
            inputs={"corpus": digest},
            recorded_at=timestamps.now(),
            policies=policies,
        )

    header: dict[str, object] = {
        "provider": meter.provider,
        "model": meter.model_name,
        "policy_profile": profile.name,
        "compiled_policy_version": profile.compiled_version,
        "cost_ceiling_usd": gauge.ceiling_usd,
        "per_run_ceiling_usd": gauge.per_run_usd,
    }
    try:
        _bound_run_cost(meter, profile, prices=prices, per_run_usd=gauge.per_run_usd)
        vouched = _provider_evidence(meter, evidence_dir)
    except BaseException:
        meter.close()
        raise
    if isinstance(vouched, ProviderEvidenceRequiredError):
        meter.close()
        return LiveBenchmarkResult.model_validate(
            {
                **header,
                "provenance": stamp(),
                "outcome": "failed",
                "stopped_by": "provider_evidence",
                "error": vouched.remedy,  # the live arm always requires evidence: no fallback
                "failed_conditions": [
                    f"{PROVIDER_EVIDENCE_CONDITION}: {vouched.audit.reason.value} "
                    f"(gate 20 precedes any live evidence)"
                ],
            }
        )
    evidence_file, evidence_sha256 = vouched
    header["provider_formation_evidence_file"] = evidence_file
    header["provider_formation_evidence_sha256"] = evidence_sha256
    scenarios = corpus.scenarios[:limit_scenarios] if smoke else corpus.scenarios
    report = _Progress(
        emit=progress, total=sum(len(scenario.probes) for scenario in scenarios), ceiling=gauge
    )
    try:
        for scenario in scenarios:
            timeline = scenario_timeline(scenario)
            with_arm = _WithMemoryArm(
                scenario,
                model=meter,
                profile=profile,
                prompt=lambda probe: probe_prompt(probe, corpus),
            )
            try:
                for index, probe in enumerate(scenario.probes):
                    report.start(scenario.id, probe.id)
                    with_result = _ask_arm(
                        ledger,
                        meter,
                        _with_memory_ask(with_arm, index),
                        where=(scenario.id, probe.id, "with_memory"),
                    )
                    with_answer = _arm_answer(with_result, probe, scenario, corpus)
                    report.arm("with_memory", with_answer)
                    without_result = _ask_arm(
                        ledger,
                        meter,
                        _without_memory_ask(
                            probe,
                            instant=timeline.at(timeline.probe_offset(probe.id)),
                            model=meter,
                            profile=profile,
                            prompt=probe_prompt(probe, corpus),
                        ),
                        where=(scenario.id, probe.id, "without_memory"),
                    )
                    without_answer = _arm_answer(without_result, probe, scenario, corpus)
                    report.arm("without_memory", without_answer)
                    rows.append(
                        _probe_row(scenario, probe, with_result, with_answer, without_answer)
                    )
            finally:
                with_arm.close()
    except _CeilingRefused:
        stopped_by = "cost_ceiling"
    except PricingUnavailableError as exc:
        stopped_by = "pricing_unavailable"
        error = str(exc)
    finally:
        meter.close()

    counts = derive_counts(
        rows,
        # The ledger's own tallies: they differ from the rows' only when the ceiling stopped
        # the invocation after an arm whose probe never got a row.
        incomplete_runs=len(ledger.incomplete),
        retried_runs=ledger.retried_runs,
        ceiling_hits=gauge.ceiling_hits,
        failure_classes=failure_histogram([run.failure_class for run in ledger.incomplete]),
    )
    provider = _single(ledger.providers, meter.provider)
    model_name = _single(ledger.models, meter.model_name)
    problems = failed_conditions(
        counts, total_cost_usd=gauge.spent_usd, cost_ceiling_usd=gauge.ceiling_usd
    )
    if stopped_by is not None:
        problems.insert(0, f"stopped_by {stopped_by}: the corpus was not completed")
    if smoke:
        problems.insert(
            0,
            f"smoke run: the first {len(scenarios)} of {len(corpus.scenarios)} scenarios only; "
            "a smoke run never publishes evidence",
        )
    provenance = stamp()
    result = LiveBenchmarkResult.model_validate(
        {
            **header,
            "provenance": provenance,
            "outcome": "failed",
            "stopped_by": stopped_by,
            "error": error,
            "provider": provider,
            "model": model_name,
            "total_cost_usd": gauge.spent_usd,
            "runs_admitted": gauge.runs_admitted,
            "counts": counts,
            "thresholds": LiveThresholds.of(counts),
            "failed_conditions": problems,
            "incomplete": list(ledger.incomplete),
            "rows": rows,
        }
    )
    if smoke:
        return result.model_copy(update={"outcome": "smoke"})
    if problems or output is None:
        return result
    try:
        evidence = MemoryBenchmarkEvidence(
            benchmark_version=LIVE_ARM_VERSION,
            provenance=provenance,
            provider=provider,
            model=model_name,
            policy_profile=profile.name,
            compiled_policy_version=profile.compiled_version,
            provider_formation_evidence_file=evidence_file,
            provider_formation_evidence_sha256=evidence_sha256,
            run_providers=sorted(ledger.providers),
            run_models=sorted(ledger.models),
            run_compiled_policy_versions=sorted(ledger.policy_versions),
            cost_ceiling_usd=gauge.ceiling_usd,
            per_run_ceiling_usd=gauge.per_run_usd,
            total_cost_usd=gauge.spent_usd,
            corpus_probe_count=sum(len(scenario.probes) for scenario in corpus.scenarios),
            counts=counts,
            rows=rows,
        )
    except ValidationError as exc:
        messages = [str(err["msg"]) for err in exc.errors()]
        return result.model_copy(update={"failed_conditions": messages})
    try:
        write_evidence(evidence, output)
    except (ArtifactExistsError, ArtifactWriteError) as exc:
        return result.model_copy(update={"error": str(exc)})
    return result.model_copy(update={"outcome": "passed", "evidence_path": str(output)})


def _provider_evidence(
    meter: _MeteredModel, evidence_dir: Path | None
) -> tuple[str, str] | ProviderEvidenceRequiredError:
    """Gate 20's precondition: the name and sha256 of the valid, current provider formation
    evidence for this provider and model, or why there is none (nothing is sent either way)."""
    directory = evidence_dir if evidence_dir is not None else default_evidence_dir()
    try:
        selection = select_extractor(
            SelectionMode.REQUIRED,
            model=meter,
            evidence_dir=directory,
            provider_policy_version=PROVIDER_FORMATION_POLICY,
        )
    except ProviderEvidenceRequiredError as exc:
        return exc
    name = selection.audit.evidence_file
    if name is None:  # required mode names the file it accepted
        raise UsageError("provider formation evidence was accepted without a file name")
    digest = hashlib.sha256((directory / name).read_bytes()).hexdigest()
    return name, digest


def _bound_run_cost(
    meter: _MeteredModel,
    profile: PolicyProfile,
    *,
    prices: PriceCatalog | None,
    per_run_usd: float,
) -> None:
    """Refuse, before any request, a model whose worst-case run exceeds the per-run ceiling."""
    catalog = prices if prices is not None else getattr(meter.inner, "prices", None)
    if not isinstance(catalog, PriceCatalog):
        raise UsageError(
            f"no price catalog is known for model {meter.model_name!r}, so the cost of one "
            "run cannot be bounded before it is spent; pass prices= to run_live_benchmark"
        )
    require_bounded_run_cost(
        profile,
        model=meter.model_name,
        price=catalog.price(meter.model_name),
        context_window_tokens=load_context_plan().context_window_tokens,
        per_run_usd=per_run_usd,
    )


def _with_memory_ask(
    arm: _WithMemoryArm, index: int
) -> Callable[[bool], tuple[Run, ProbeMetrics | None]]:
    def ask(fresh: bool) -> tuple[Run, ProbeMetrics | None]:
        outcome = arm.ask(index, fresh=fresh)
        return outcome.run, outcome.metrics

    return ask


def _without_memory_ask(
    probe: BenchmarkProbe,
    *,
    instant: datetime,
    model: Model,
    profile: PolicyProfile,
    prompt: str,
) -> Callable[[bool], tuple[Run, ProbeMetrics | None]]:
    def ask(fresh: bool) -> tuple[Run, ProbeMetrics | None]:
        # Every attempt of this arm is a fresh composition already; ``fresh`` changes nothing.
        run = _ask_without_memory(
            probe, instant=instant, model=model, profile=profile, prompt=prompt
        )
        return run, None

    return ask


__all__ = [
    "ARM_ERROR",
    "LIVE_ARM_VERSION",
    "LIVE_ENV",
    "RUNTIME_DECIDED",
    "ArmName",
    "IncompleteRun",
    "LiveBenchmarkResult",
    "LiveThresholds",
    "ModelFactory",
    "StoppedBy",
    "default_live_policy_profile",
    "live_policy_profile",
    "live_skip_reason",
    "load_model_policy",
    "probe_prompt",
    "run_live_benchmark",
]
