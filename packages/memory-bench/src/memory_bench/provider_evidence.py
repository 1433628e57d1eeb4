"""Provider formation evidence: score provider formation on the case file, publish if it passed.

:func:`run_provider_formation` runs every case of the formation case file through the governed
formation service with a :class:`~memory_core.formation.provider.ProviderExtractor` (one
instance, so its counters cover the run), scores it with the formation evaluation's matching
(:func:`memory_bench.formation_eval.evaluate_formation`), and derives the gate-20 counts:

* a positive case is **fully supported** when every expected belief formed (matched one to
  one) and no formed belief carries a forbidden statement;
* a negative case **formed** when it formed any belief at all.

The artifact, :class:`~memory_core.formation.selection.ProviderFormationEvidence` (defined in
the core so that startup selection can re-validate it without this package), is published only
when its own validator accepts it: at least the eighty-per-cent floor of the positive cases
fully supported (:func:`memory_bench.provider_floor.positive_coverage_floor`;
gate.memory.provider_positive_coverage_v2), no negative case formed,
and no model call lost to an error. It is written atomically under the name derived from the
provider policy version and model, and never overwritten: an existing target is refused before
any model call. A failing run returns its diagnostics and writes nothing.

The artifact and the run both carry the provenance record
(:func:`memory_bench.provenance.provenance_of`) under ``provenance``: the checkout's commit and
dirty flag, the package and policy versions, ``inputs.case_file`` (the case file's sha256) and
``recorded_at`` (the clock's instant when the run finished).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from memory_bench.artifacts import prepare_output, write_new_text
from memory_bench.formation_eval import FormationReport, LoadedCases, evaluate_formation
from memory_bench.provenance import provenance_of
from memory_bench.source_tree import SourceTree, read_source_tree
from memory_core.base.model import Model
from memory_core.clock import Clock
from memory_core.errors import UsageError
from memory_core.formation.provider import ProviderCounters, ProviderExtractor
from memory_core.formation.selection import (
    PROVIDER_EVIDENCE_SCHEMA_VERSION,
    InvalidProviderEvidenceError,
    ProviderFormationEvidence,
    evidence_failures,
    load_provider_evidence,
    minimum_fully_supported,
    provider_evidence_filename,
)
from memory_core.policy import PROVIDER_FORMATION_POLICY
from memory_core.profiles import MemoryProfiles
from memory_core.provenance import Provenance


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ProviderCountsModel(_Frozen):
    """The extractor's counters as they appear in the run's JSON."""

    turns: int
    turns_without_statements: int
    requests: int
    replies_accepted: int
    candidates_accepted: int
    malformed_replies: int
    hostile_replies: int
    transient_errors: int
    permanent_errors: int
    rejections: dict[str, int]
    candidates_dropped: int
    dropped: dict[str, int]
    statements_rewritten: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    cost_known: bool

    @classmethod
    def of(cls, counters: ProviderCounters) -> ProviderCountsModel:
        """Copy a counters snapshot."""
        return cls(
            turns=counters.turns,
            turns_without_statements=counters.turns_without_statements,
            requests=counters.requests,
            replies_accepted=counters.replies_accepted,
            candidates_accepted=counters.candidates_accepted,
            malformed_replies=counters.malformed_replies,
            hostile_replies=counters.hostile_replies,
            transient_errors=counters.transient_errors,
            permanent_errors=counters.permanent_errors,
            rejections=dict(counters.rejections),
            candidates_dropped=counters.candidates_dropped,
            dropped=dict(counters.dropped),
            statements_rewritten=counters.statements_rewritten,
            input_tokens=counters.input_tokens,
            output_tokens=counters.output_tokens,
            cost_usd=counters.cost_usd,
            cost_known=counters.cost_known,
        )


class ProviderFormationRun(_Frozen):
    """One provider formation run: the gate counts, diagnostics and the scored report.

    ``failures`` is empty exactly when the run may publish; ``published`` names the artifact
    when one was written.
    """

    provenance: Provenance
    provider: str
    model: str
    case_file: str
    positive_cases: int
    fully_supported_positive: int
    minimum_fully_supported: int
    negative_cases: int
    negatives_formed: int
    unsupported_case_ids: list[str]
    formed_negative_case_ids: list[str]
    counters: ProviderCountsModel
    failures: list[str]
    published: str | None
    report: FormationReport

    @property
    def passed(self) -> bool:
        """True when every publication condition held."""
        return not self.failures


def evidence_path(output: Path, *, model: str, policy_version: str) -> Path:
    """Where ``--output`` puts the evidence.

    A directory, or a missing path not ending in ``.json``, is the evidence directory (created
    when missing) and receives the derived name. Any other path names the file and must carry
    the derived name, since startup selection looks only for that name.

    Raises:
        UsageError: The path names a file other than the derived one.
    """
    name = provider_evidence_filename(policy_version, model)
    if output.is_dir() or (not output.exists() and output.suffix.casefold() != ".json"):
        return output / name
    if output.name != name:
        raise UsageError(
            f"--output {output}: provider formation evidence for {policy_version} and model "
            f"{model!r} must be named {name} (startup selection looks for exactly that name); "
            "pass the evidence directory instead"
        )
    return output


def _field_errors(error: ValidationError) -> list[str]:
    """Field-level validation errors (the document-level ones come from the counts)."""
    return [
        f"{'.'.join(str(part) for part in detail['loc'])}: {detail['msg']}"
        for detail in error.errors()
        if detail["loc"]
    ]


def run_provider_formation(
    loaded: LoadedCases,
    *,
    model: Model,
    clock: Clock,
    output: Path | None = None,
    profiles: MemoryProfiles | None = None,
    source: SourceTree | None = None,
) -> ProviderFormationRun:
    """Score provider formation on the case file and publish the evidence when it passes.

    Args:
        loaded: The formation case file.
        model: The model the provider extractor asks.
        clock: Stamps the provenance's ``recorded_at`` when the run finishes.
        output: Evidence directory or exact evidence path; ``None`` scores without publishing.
        profiles: Memory profiles for the formation service (shipped defaults when omitted).
        source: The checkout the run is built from (default: the working directory's, read
            with :func:`~memory_bench.source_tree.read_source_tree`).

    Returns:
        The run; ``published`` is set only when an artifact was written.

    Raises:
        ArtifactExistsError: The target exists (checked before any model call).
        ArtifactWriteError: The target's directory cannot be created or written (checked
            before any model call).
        UsageError: ``output`` names a file other than the derived evidence name.
    """
    policy_version = PROVIDER_FORMATION_POLICY
    target = (
        evidence_path(output, model=model.model_name, policy_version=policy_version)
        if output is not None
        else None
    )
    if target is not None:
        prepare_output(target)
    extractor = ProviderExtractor(model=model)
    report = evaluate_formation(loaded, profiles=profiles, extractor=extractor)
    counters = extractor.counters
    positives = [row for row in report.cases if row.kind == "positive"]
    negatives = [row for row in report.cases if row.kind == "negative"]
    supported = sorted(r.id for r in positives if r.matched == r.expected and not r.fabricated)
    unsupported = sorted(r.id for r in positives if r.id not in set(supported))
    formed_negatives = sorted(r.id for r in negatives if r.formed)
    provenance = provenance_of(
        source if source is not None else read_source_tree(),
        inputs={"case_file": loaded.sha256},
        recorded_at=clock.now(),
    )
    fields: dict[str, Any] = {
        "schema_version": PROVIDER_EVIDENCE_SCHEMA_VERSION,
        "kind": "provider_formation",
        "provenance": provenance,
        "provider": model.provider,
        "model": model.model_name,
        "case_file": loaded.path.name,
        "positive_cases": len(positives),
        "fully_supported_positive": len(supported),
        "minimum_fully_supported": minimum_fully_supported(len(positives)),
        "negative_cases": len(negatives),
        "negatives_formed": len(formed_negatives),
        "supported_case_ids": tuple(supported),
        "unsupported_case_ids": tuple(unsupported),
        "requests": counters.requests,
        "malformed_replies": counters.malformed_replies,
        "hostile_replies": counters.hostile_replies,
        "model_errors": counters.model_errors,
    }
    evidence: ProviderFormationEvidence | None = None
    failures: list[str] = []
    try:
        evidence = ProviderFormationEvidence.model_validate(fields)
    except ValidationError as exc:
        unvalidated = ProviderFormationEvidence.model_construct(**fields)
        failures = evidence_failures(unvalidated) + _field_errors(exc)
    published: str | None = None
    if evidence is not None and target is not None:
        write_new_text(target, evidence.model_dump_json(indent=2) + "\n")
        published = str(target)
    return ProviderFormationRun(
        provenance=provenance,
        provider=model.provider,
        model=model.model_name,
        case_file=loaded.path.name,
        positive_cases=len(positives),
        fully_supported_positive=len(supported),
        minimum_fully_supported=minimum_fully_supported(len(positives)),
        negative_cases=len(negatives),
        negatives_formed=len(formed_negatives),
        unsupported_case_ids=unsupported,
        formed_negative_case_ids=formed_negatives,
        counters=ProviderCountsModel.of(counters),
        failures=failures,
        published=published,
        report=report,
    )


def diagnostics(run: ProviderFormationRun) -> list[str]:
    """Human-readable lines explaining a run (what failed, which cases, what the model did)."""
    counters = run.counters
    cost = (
        f"USD {counters.cost_usd:.4f}"
        if counters.cost_known
        else f"USD unknown (estimate {counters.cost_usd:.4f}: unpriced model or no usage reported)"
    )
    lines = [
        f"provider formation {run.provenance.policies.provider_formation} with "
        f"{run.provider} model {run.model!r} on {run.case_file} "
        f"(sha256 {run.provenance.inputs['case_file'][:12]}; build "
        f"{run.provenance.describe()})",
        f"fully supported positive cases: {run.fully_supported_positive} of "
        f"{run.positive_cases} (need {run.minimum_fully_supported}); negative cases formed: "
        f"{run.negatives_formed} of {run.negative_cases} (need 0)",
        f"model calls: {counters.requests}, accepted replies {counters.replies_accepted}, "
        f"malformed {counters.malformed_replies}, hostile {counters.hostile_replies}, "
        f"transient errors {counters.transient_errors}, other errors "
        f"{counters.permanent_errors}; tokens {counters.input_tokens} in / "
        f"{counters.output_tokens} out, {cost}",
        f"statements rewritten from the first person: {counters.statements_rewritten}; "
        f"malformed candidates dropped from accepted replies: {counters.candidates_dropped}",
    ]
    if counters.rejections:
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(counters.rejections.items()))
        lines.append(f"rejected replies by reason: {reasons}")
    rows = {row.id: row for row in run.report.cases}
    for case_id in run.unsupported_case_ids:
        row = rows[case_id]
        lines.append(
            f"  {case_id}: matched {row.matched} of {row.expected}"
            + (f", fabricated {row.fabricated}" if row.fabricated else "")
        )
    for case_id in run.formed_negative_case_ids:
        lines.append(f"  {case_id}: negative case formed {len(rows[case_id].formed)} belief(s)")
    lines += [f"not published: {failure}" for failure in run.failures]
    if run.published is not None:
        lines.append(f"published {run.published}")
    return lines


__all__ = [
    "InvalidProviderEvidenceError",
    "ProviderCountsModel",
    "ProviderFormationEvidence",
    "ProviderFormationRun",
    "diagnostics",
    "evidence_path",
    "load_provider_evidence",
    "provider_evidence_filename",
    "run_provider_formation",
]
