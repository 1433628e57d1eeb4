"""Extractor selection: provider formation only where bundled evidence vouches for it.

Modes (:class:`SelectionMode`):

* ``auto``: the :class:`~memory_core.formation.provider.ProviderExtractor` is used only when
  the evidence directory holds a valid :class:`ProviderFormationEvidence` file whose **name
  and contents** match the current provider policy version, the provider and the model;
  otherwise the :class:`~memory_core.formation.deterministic.DeterministicExtractor` is used and
  the :class:`SelectionAudit` says why.
* ``required``: the same check, but without matching evidence startup refuses with
  :class:`ProviderEvidenceRequiredError`.
* ``off``: always deterministic.

The evidence document is defined here, in the core, because selection must re-validate it
without importing the benchmark package that publishes it (``memory_bench.provider_evidence``
re-exports it and writes it). An artifact that exists is an artifact that passed: its
validator re-derives the gate from the counts inside it (gate 20: at least the eighty-per-cent
floor of the labeled positive cases fully supported, no negative case formed, no model call
lost), so a hand-edited file fails to load and is never selected.

Schema 2 embeds the provenance record (:class:`~memory_core.provenance.Provenance`) under
``provenance``: the provider policy version is ``provenance.policies.provider_formation``, the
case file's sha256 ``provenance.inputs.case_file`` and the instant ``provenance.recorded_at``.
A schema 1 file (which named the build nowhere) is refused with an
:class:`InvalidProviderEvidenceError` that names the file and says to republish it.

File names (:func:`provider_evidence_filename`)::

    provider-formation.<policy version>.<model, percent-encoded>.json
    provider-formation.formation@8.gpt-4o-mini.json
    provider-formation.formation@8.meta-llama%2FLlama-3.1-8B-Instruct.json

Percent-encoding (every character but letters, digits, ``_.-~@``) keeps any model name a single
portable file name and keeps the mapping one-to-one, so two models never share a file.

The audit is content-free: a mode, the selected extractor, reason code, policy versions and
the evidence file's name; never a statement, a path or a count.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shlex
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from pathlib import Path
from typing import Literal, Self
from urllib.parse import quote

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from memory_core.base.model import Model
from memory_core.errors import ConfigurationError, UsageError
from memory_core.formation.extractor import DeterministicExtractor, Extractor
from memory_core.formation.provider import ProviderExtractor
from memory_core.policy import PROVIDER_FORMATION_POLICY
from memory_core.provenance import Provenance

_log = logging.getLogger(__name__)

PROVIDER_EVIDENCE_PREFIX = "provider-formation"
"""Every provider formation evidence file name starts with this and a dot."""

PROVIDER_EVIDENCE_SCHEMA_VERSION: Literal[2] = 2
"""Version 2 embeds the provenance record (``provider_policy_version``, ``case_file_sha256``
and ``created_at`` of version 1 moved into it)."""

MIN_POSITIVE_CASES = 21
"""Evidence must cover at least the twenty-one labeled positive cases of the expanded corpus."""

MIN_NEGATIVE_CASES = 15
"""Evidence must cover at least as many negative cases as the case file schema demands."""

MAX_MODEL_NAME_CHARS = 200

EVIDENCE_DIR_ENV = "MEMORY_EVIDENCE_DIR"
"""Overrides where :func:`default_evidence_dir` looks for bundled evidence."""

SELECTION_MODE_ENV = "MEMORY_FORMATION_PROVIDER"
"""``auto`` (default), ``required`` or ``off``; read by :func:`selection_mode_from_env`."""

_SAFE = "@"
_ZERO = timedelta(0)


def minimum_fully_supported(positive_cases: int) -> int:
    """The eighty-per-cent floor: the smallest integer >= 0.8 * ``positive_cases``."""
    return (4 * positive_cases + 4) // 5


def provider_evidence_filename(policy_version: str, model: str) -> str:
    """The file name of provider formation evidence for a policy version and model.

    Raises:
        UsageError: The version or model name is empty, or the model name is too long.
    """
    if not policy_version.strip() or not model.strip():
        raise UsageError("provider evidence needs a non-empty policy version and model name")
    if len(model) > MAX_MODEL_NAME_CHARS:
        raise UsageError(
            f"model name is {len(model)} characters; evidence file names allow at most "
            f"{MAX_MODEL_NAME_CHARS}"
        )
    version = quote(policy_version, safe=_SAFE)
    return f"{PROVIDER_EVIDENCE_PREFIX}.{version}.{quote(model, safe=_SAFE)}.json"


def _version_prefix(policy_version: str) -> str:
    return f"{PROVIDER_EVIDENCE_PREFIX}.{quote(policy_version, safe=_SAFE)}."


class ProviderFormationEvidence(BaseModel):
    """Proof that a provider formed well enough on the case file to be selected.

    The validator refuses the document unless every publication condition holds, re-deriving
    them from the counts and case ids inside it.

    Attributes:
        schema_version: Version of this document's shape.
        kind: Always ``provider_formation``.
        provenance: The build, packages and policies of the run (``policies.
            provider_formation`` is the provider formation policy it exercised), the case
            file's sha256 (``inputs.case_file``) and when it finished (``recorded_at``, UTC).
        provider: The model provider (``openai-compatible``).
        model: The model identifier.
        case_file: The case file's name (no directory).
        positive_cases: Labeled positive cases run.
        fully_supported_positive: Positive cases whose every expected belief formed and
            nothing forbidden did.
        minimum_fully_supported: The eighty-per-cent floor of ``positive_cases``.
        negative_cases: Negative cases run.
        negatives_formed: Negative cases that formed any belief.
        supported_case_ids: The fully supported positive cases, sorted.
        unsupported_case_ids: The other positive cases, sorted.
        requests: Model calls made.
        malformed_replies: Replies rejected for their form.
        hostile_replies: Replies rejected for a hazard or an ungrounded statement.
        model_errors: Model calls that got no reply (must be zero).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: Literal[2]
    kind: Literal["provider_formation"]
    provenance: Provenance
    provider: str = Field(min_length=1, max_length=100)
    model: str = Field(min_length=1, max_length=MAX_MODEL_NAME_CHARS)
    case_file: str = Field(min_length=1, pattern=r"^[^/\\]+$")
    positive_cases: int = Field(ge=MIN_POSITIVE_CASES)
    fully_supported_positive: int = Field(ge=0)
    minimum_fully_supported: int = Field(ge=0)
    negative_cases: int = Field(ge=MIN_NEGATIVE_CASES)
    negatives_formed: int = Field(ge=0)
    supported_case_ids: tuple[str, ...]
    unsupported_case_ids: tuple[str, ...]
    requests: int = Field(ge=0)
    malformed_replies: int = Field(ge=0)
    hostile_replies: int = Field(ge=0)
    model_errors: int = Field(ge=0)

    @model_validator(mode="after")
    def _provenance(self) -> Self:
        if "case_file" not in self.provenance.inputs:
            raise ValueError("provenance.inputs.case_file: the case file's sha256 is missing")
        if self.provenance.recorded_at.utcoffset() != _ZERO:
            raise ValueError("provenance.recorded_at must be UTC")
        return self

    @model_validator(mode="after")
    def _passed(self) -> Self:
        failures = evidence_failures(self)
        if failures:
            raise ValueError("; ".join(failures))
        return self

    @property
    def file_name(self) -> str:
        """The only file name this evidence may be stored under."""
        return provider_evidence_filename(self.provenance.policies.provider_formation, self.model)


def evidence_failures(evidence: ProviderFormationEvidence) -> list[str]:
    """Every publication condition the evidence's own counts do not satisfy."""
    failures: list[str] = []
    supported = evidence.supported_case_ids
    unsupported = evidence.unsupported_case_ids
    floor = minimum_fully_supported(evidence.positive_cases)
    if evidence.minimum_fully_supported != floor:
        failures.append(
            f"minimum_fully_supported {evidence.minimum_fully_supported} != "
            f"80% floor of {evidence.positive_cases} positive cases ({floor})"
        )
    if len(supported) != evidence.fully_supported_positive:
        failures.append(
            f"{len(supported)} supported case ids for fully_supported_positive "
            f"{evidence.fully_supported_positive}"
        )
    if len(supported) + len(unsupported) != evidence.positive_cases:
        failures.append(
            f"{len(supported)} + {len(unsupported)} case ids for {evidence.positive_cases} "
            "positive cases"
        )
    ids = (*supported, *unsupported)
    if len(set(ids)) != len(ids):
        failures.append("a positive case id is listed twice")
    if list(supported) != sorted(supported) or list(unsupported) != sorted(unsupported):
        failures.append("case ids must be sorted")
    if evidence.fully_supported_positive < floor:
        failures.append(
            f"fully_supported_positive {evidence.fully_supported_positive} < {floor} "
            f"(80% of {evidence.positive_cases}; gate.memory.provider_positive_coverage_v2)"
        )
    if evidence.fully_supported_positive > evidence.positive_cases:
        failures.append("fully_supported_positive exceeds positive_cases")
    if evidence.negatives_formed:
        failures.append(f"negatives_formed {evidence.negatives_formed} != 0")
    if evidence.negatives_formed > evidence.negative_cases:
        failures.append("negatives_formed exceeds negative_cases")
    if evidence.model_errors:
        failures.append(f"model_errors {evidence.model_errors} != 0 (a turn went unjudged)")
    return failures


class InvalidProviderEvidenceError(UsageError):
    """An evidence file is unreadable, fails validation, or sits under the wrong name."""


def load_provider_evidence(path: Path) -> ProviderFormationEvidence:
    """Read and re-validate an evidence file, including that its name matches its contents.

    Raises:
        InvalidProviderEvidenceError: Unreadable, not JSON, failing validation, or misnamed.
    """
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidProviderEvidenceError(f"{path}: cannot read evidence ({exc})") from exc
    try:
        document = json.loads(raw)
        if isinstance(document, dict) and document.get("schema_version") == 1:
            raise InvalidProviderEvidenceError(
                f"{path.name}: provider formation evidence of schema 1, which names no build "
                f"(commit, dirty flag, package and policy versions); this version reads schema "
                f"{PROVIDER_EVIDENCE_SCHEMA_VERSION} only. Remove {path} and republish it with "
                "`agent eval memory-formation --provider ... --output evidence/`"
            )
        evidence = ProviderFormationEvidence.model_validate(document)
    except InvalidProviderEvidenceError:
        raise
    except ValueError as exc:
        detail = (
            "; ".join(str(e["msg"]) for e in exc.errors()[:3])
            if isinstance(exc, ValidationError)
            else str(exc)
        )
        raise InvalidProviderEvidenceError(
            f"{path.name}: not valid provider formation evidence ({detail}); republish it with "
            "`agent eval memory-formation --provider ... --output evidence/`"
        ) from exc
    if path.name != evidence.file_name:
        raise InvalidProviderEvidenceError(
            f"{path.name}: its contents name {evidence.provenance.policies.provider_formation} "
            f"and model "
            f"{evidence.model!r}, which belong in {evidence.file_name}"
        )
    return evidence


class SelectionMode(StrEnum):
    """How the formation extractor is chosen at startup."""

    AUTO = "auto"
    REQUIRED = "required"
    OFF = "off"


def parse_selection_mode(value: str) -> SelectionMode:
    """Parse ``auto``, ``required`` or ``off`` (case-insensitive).

    Raises:
        UsageError: Any other value.
    """
    try:
        return SelectionMode(value.strip().casefold())
    except ValueError as exc:
        modes = ", ".join(m.value for m in SelectionMode)
        raise UsageError(f"unknown provider selection mode {value!r}; use one of {modes}") from exc


def selection_mode_from_env() -> SelectionMode:
    """The mode named by ``MEMORY_FORMATION_PROVIDER``; ``auto`` when it is unset or empty."""
    value = os.environ.get(SELECTION_MODE_ENV, "")
    return parse_selection_mode(value) if value.strip() else SelectionMode.AUTO


def default_evidence_dir(start: Path | None = None) -> Path:
    """Where bundled evidence lives: ``MEMORY_EVIDENCE_DIR``, else the first ``evidence/``
    directory at or above ``start`` (the working directory), else ``./evidence``."""
    override = os.environ.get(EVIDENCE_DIR_ENV)
    if override:
        return Path(override)
    origin = (start or Path.cwd()).resolve()
    for folder in (origin, *origin.parents):
        candidate = folder / "evidence"
        if candidate.is_dir():
            return candidate
    return origin / "evidence"


class SelectionReason(StrEnum):
    """Why an extractor was selected (reason codes of the audit)."""

    EVIDENCE_CURRENT = "evidence_current"
    """Valid evidence names the current provider version, this provider and this model."""
    MODE_OFF = "mode_off"
    """The provider is switched off."""
    NO_MODEL = "no_model"
    """No model was configured for formation."""
    NO_EVIDENCE = "no_evidence"
    """The evidence directory holds no provider formation evidence at all."""
    STALE_VERSION = "stale_version"
    """Evidence exists only for other provider policy versions (the version moved)."""
    OTHER_MODEL = "other_model"
    """Evidence for the current version exists, but not for this model."""
    INVALID_EVIDENCE = "invalid_evidence"
    """The file for this version and model fails validation or is misnamed."""
    PROVIDER_MISMATCH = "provider_mismatch"
    """The file for this version and model names another provider."""


SelectedExtractor = Literal["provider", "deterministic"]


@dataclass(frozen=True, kw_only=True)
class SelectionAudit:
    """What was selected and why; content-free (no statement, path or count).

    Attributes:
        mode: The selection mode in force.
        selected: ``provider`` or ``deterministic``.
        policy_version: The formation policy version beliefs will record.
        provider_policy_version: The current provider formation policy version.
        reason: Why.
        evidence_file: The evidence file's name (no directory) when one was consulted.
        not_selected: When a formation model was given but ``auto`` chose the deterministic
            extractor, one sentence saying why (also logged as a warning); else ``None``.
    """

    mode: SelectionMode
    selected: SelectedExtractor
    policy_version: str
    provider_policy_version: str
    reason: SelectionReason
    evidence_file: str | None = None
    not_selected: str | None = None


@dataclass(frozen=True, kw_only=True)
class ExtractorSelection:
    """The extractor to hand ``GovernedMemoryService`` and the audit of the choice."""

    extractor: Extractor
    audit: SelectionAudit


class ProviderEvidenceRequiredError(ConfigurationError):
    """``required`` mode found no evidence vouching for the configured provider and model.

    ``str(error)`` is the startup message (it names the ``auto`` fallback, which starts with the
    deterministic extractor); ``remedy`` is the same message without that fallback, for callers
    that always require evidence (the live arm), where ``auto`` cannot help.
    """

    def __init__(self, audit: SelectionAudit, message: str, *, fallback: str = "") -> None:
        super().__init__(f"{message}{fallback}")
        self.audit = audit
        self.remedy = message


@dataclass(frozen=True, kw_only=True)
class _Finding:
    reason: SelectionReason
    evidence_file: str | None


def _inspect(directory: Path, *, policy_version: str, provider: str, model: str) -> _Finding:
    name = provider_evidence_filename(policy_version, model)
    path = directory / name
    if path.is_file():
        try:
            evidence = load_provider_evidence(path)
        except InvalidProviderEvidenceError:
            return _Finding(reason=SelectionReason.INVALID_EVIDENCE, evidence_file=name)
        # The name matched, so the contents name this version and model (the encoding is
        # one-to-one and the loader checks name against contents).
        if evidence.provider != provider:
            return _Finding(reason=SelectionReason.PROVIDER_MISMATCH, evidence_file=name)
        return _Finding(reason=SelectionReason.EVIDENCE_CURRENT, evidence_file=name)
    try:
        names = sorted(
            entry.name
            for entry in directory.iterdir()
            if entry.name.startswith(f"{PROVIDER_EVIDENCE_PREFIX}.")
            and entry.name.endswith(".json")
        )
    except OSError:
        names = []
    if any(n.startswith(_version_prefix(policy_version)) for n in names):
        return _Finding(reason=SelectionReason.OTHER_MODEL, evidence_file=None)
    if names:
        return _Finding(reason=SelectionReason.STALE_VERSION, evidence_file=None)
    return _Finding(reason=SelectionReason.NO_EVIDENCE, evidence_file=None)


_EXPLANATIONS: dict[SelectionReason, str] = {
    SelectionReason.NO_MODEL: "no model is configured for formation",
    SelectionReason.NO_EVIDENCE: "the evidence directory holds no provider formation evidence",
    SelectionReason.STALE_VERSION: (
        "the evidence directory only holds provider evidence for other policy versions"
    ),
    SelectionReason.OTHER_MODEL: "the provider evidence for this version names other models",
    SelectionReason.INVALID_EVIDENCE: "the provider evidence file fails validation",
    SelectionReason.PROVIDER_MISMATCH: "the provider evidence names another provider",
}


def select_extractor(
    mode: SelectionMode,
    *,
    model: Model | None,
    evidence_dir: Path,
    provider_policy_version: str = PROVIDER_FORMATION_POLICY,
) -> ExtractorSelection:
    """Choose the formation extractor for a composition.

    Args:
        mode: ``auto``, ``required`` or ``off``.
        model: The model provider formation would use (``None`` when none is configured).
        evidence_dir: The directory holding bundled evidence (see :func:`default_evidence_dir`).
        provider_policy_version: The current provider policy version (the constant; tests
            move it to show a version bump invalidating evidence).

    Returns:
        The extractor and the content-free audit of the choice.

    Raises:
        ProviderEvidenceRequiredError: ``required`` mode without matching, valid evidence.
    """
    deterministic = DeterministicExtractor()
    if mode is SelectionMode.OFF:
        return ExtractorSelection(
            extractor=deterministic,
            audit=SelectionAudit(
                mode=mode,
                selected="deterministic",
                policy_version=deterministic.policy_version,
                provider_policy_version=provider_policy_version,
                reason=SelectionReason.MODE_OFF,
            ),
        )
    if model is None:
        finding = _Finding(reason=SelectionReason.NO_MODEL, evidence_file=None)
    else:
        finding = _inspect(
            evidence_dir,
            policy_version=provider_policy_version,
            provider=model.provider,
            model=model.model_name,
        )
    if finding.reason is SelectionReason.EVIDENCE_CURRENT and model is not None:
        provider = ProviderExtractor(model=model)
        return ExtractorSelection(
            extractor=provider,
            audit=SelectionAudit(
                mode=mode,
                selected="provider",
                policy_version=provider_policy_version,
                provider_policy_version=provider_policy_version,
                reason=finding.reason,
                evidence_file=finding.evidence_file,
            ),
        )
    audit = SelectionAudit(
        mode=mode,
        selected="deterministic",
        policy_version=deterministic.policy_version,
        provider_policy_version=provider_policy_version,
        reason=finding.reason,
        evidence_file=finding.evidence_file,
    )
    if mode is SelectionMode.REQUIRED:
        if model is not None:
            wanted = provider_evidence_filename(provider_policy_version, model.model_name)
            named = f"--model {shlex.quote(model.model_name)}"
        else:
            wanted = f"{_version_prefix(provider_policy_version)}<model>.json"
            named = "--model <the model name>"
        raise ProviderEvidenceRequiredError(
            audit,
            f"provider formation is required but {_EXPLANATIONS[finding.reason]} "
            f"({finding.reason.value}); publish {wanted} with `agent eval memory-formation "
            f"--provider openai-compatible {named} --base-url <its server> --output "
            f"{shlex.quote(str(evidence_dir))}` (nox -s evidence)",
            fallback=(
                f", or start with {SELECTION_MODE_ENV}=auto to form memories with the "
                "deterministic extractor instead"
            ),
        )
    if model is not None:
        wanted = provider_evidence_filename(provider_policy_version, model.model_name)
        why = (
            f"formation model {model.model_name!r} was given but not selected: "
            f"{_EXPLANATIONS[finding.reason]} ({finding.reason.value}); forming with the "
            f"deterministic extractor (publish {wanted} with `agent eval memory-formation` "
            "to select it)"
        )
        _log.warning("%s", why)
        audit = dataclasses.replace(audit, not_selected=why)
    return ExtractorSelection(extractor=deterministic, audit=audit)


__all__ = [
    "EVIDENCE_DIR_ENV",
    "MIN_NEGATIVE_CASES",
    "MIN_POSITIVE_CASES",
    "PROVIDER_EVIDENCE_PREFIX",
    "PROVIDER_EVIDENCE_SCHEMA_VERSION",
    "SELECTION_MODE_ENV",
    "ExtractorSelection",
    "InvalidProviderEvidenceError",
    "ProviderEvidenceRequiredError",
    "ProviderFormationEvidence",
    "SelectedExtractor",
    "SelectionAudit",
    "SelectionMode",
    "SelectionReason",
    "default_evidence_dir",
    "evidence_failures",
    "load_provider_evidence",
    "minimum_fully_supported",
    "parse_selection_mode",
    "provider_evidence_filename",
    "select_extractor",
    "selection_mode_from_env",
]
