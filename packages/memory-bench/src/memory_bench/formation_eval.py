"""Formation evaluation: score what formation commits from single user turns against labels.

The case file (``corpus/memory-formation.v2.json``) holds labeled **positive** cases (a user
message and the beliefs it should form) and **negative** cases (secrets, injections, questions,
requests, hypotheticals, third-party statements, assistant turns) that must form nothing. It is
loaded with its sha256, which travels with the report.

Each case runs through the real ``GovernedMemoryService`` in a composition of its own, built by
the evaluation harness (:func:`memory_bench.harness.build_eval_composition`, through
``bootstrap.build``: in-memory storage, a fixed clock, sequential ids): a session is opened,
the case's message is recorded as the user's (or the assistant's) one second later, and the
session is consolidated one second after that. The figures are a function of the case file and
the code.

Matching (shared with the benchmark corpus, whose ``LabeledBelief`` subclasses
:class:`ExpectedBelief`): a formed belief matches an expected one when the belief types are
equal and both its subject and its statement equal one of the acceptable alternatives after
:func:`memory_core.text.label_key` (case-folded, whitespace collapsed, trailing punctuation
and ellipsis stripped).
Expected and formed beliefs pair one to one, first match first.

Figures: ``precision`` = matched / formed over all cases (0.0 when nothing formed),
``recall`` = matched / expected over positive cases, ``fabricated`` = formed beliefs whose
normalized statement or subject contains a case's normalized forbidden statement, and
``negative_formed`` = beliefs formed from negative cases at all.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from rich.table import Table

from memory_bench.errors import BenchError
from memory_bench.harness import build_eval_composition
from memory_core import BeliefType, Principal, UsageError
from memory_core.domain import scope_for_project
from memory_core.formation import Extractor
from memory_core.profiles import MemoryProfiles, load_profiles
from memory_core.text import label_key

CASE_FILE_NAME = "memory-formation.v2.json"
"""The checked-in case file, under ``corpus/``."""

_PROJECT = r"^[a-z][a-z0-9-]{1,63}$"
_CASE_START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
_EVAL_PRINCIPAL = Principal("formation-eval", "user")
_AGENT = "formation-eval"


def text_matches(text: str, acceptable: Sequence[str]) -> bool:
    """True when ``text`` equals one of ``acceptable`` after :func:`~memory_core.text.label_key`."""
    wanted = label_key(text)
    return any(label_key(option) == wanted for option in acceptable)


def triple_matches(
    expected: ExpectedBelief, belief_type: BeliefType | str, subject: str, statement: str
) -> bool:
    """True when a (belief type, subject, statement) triple satisfies an expected belief."""
    kind = belief_type.value if isinstance(belief_type, BeliefType) else belief_type
    return (
        kind == expected.belief_type.value
        and text_matches(subject, expected.subjects)
        and text_matches(statement, expected.statements)
    )


def contains_forbidden(text: str, forbidden: Sequence[str]) -> bool:
    """True when the normalized ``text`` contains any normalized forbidden statement."""
    haystack = label_key(text)
    return any(label_key(f) and label_key(f) in haystack for f in forbidden)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ExpectedBelief(_Model):
    """A belief a message should form: its type and the acceptable subjects and statements."""

    belief_type: BeliefType
    subjects: list[str] = Field(min_length=1)
    statements: list[str] = Field(min_length=1)

    def matches(self, belief_type: BeliefType | str, subject: str, statement: str) -> bool:
        """True when the triple satisfies this expectation (see :func:`triple_matches`)."""
        return triple_matches(self, belief_type, subject, statement)


class PositiveCase(_Model):
    """A user message and everything it should form."""

    id: str = Field(pattern=r"^fp-\d{3}$")
    text: str = Field(min_length=1)
    project_scope: str | None = Field(default=None, pattern=_PROJECT)
    expected: list[ExpectedBelief] = Field(min_length=1)
    forbidden_statements: list[str] = []


NegativeCategory = Literal[
    "secret",
    "injection",
    "question",
    "request",
    "hypothetical",
    "third_party",
    "assistant_turn",
    "negation",
]


class NegativeCase(_Model):
    """A message that must form nothing, and the statements that would betray a failure."""

    id: str = Field(pattern=r"^fn-\d{3}$")
    category: NegativeCategory
    role: Literal["user", "assistant"] = "user"
    text: str = Field(min_length=1)
    project_scope: str | None = Field(default=None, pattern=_PROJECT)
    forbidden_statements: list[str] = Field(min_length=1)


class FormationCaseFile(_Model):
    """The case file document."""

    schema_version: Literal[2]
    description: str = Field(min_length=1)
    positive: list[PositiveCase] = Field(min_length=21)
    negative: list[NegativeCase] = Field(min_length=15)

    @model_validator(mode="after")
    def _unique_ids(self) -> FormationCaseFile:
        ids = [c.id for c in self.positive] + [c.id for c in self.negative]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"case ids must be unique; repeated: {', '.join(duplicates)}")
        return self


class FormationCaseFileError(BenchError, UsageError):
    """The case file is missing, not JSON, or violates the schema; the message names the
    file and the field."""


@dataclass(frozen=True, kw_only=True)
class LoadedCases:
    """A parsed case file with its path and the sha256 of its bytes."""

    path: Path
    sha256: str
    cases: FormationCaseFile


def default_case_path(start: Path | None = None) -> Path:
    """Find ``corpus/memory-formation.v2.json`` above ``start`` (the working directory) or
    above this module, else the copy installed with memory-bench; raise a
    ``FormationCaseFileError`` naming ``--cases`` otherwise."""
    roots = [start or Path.cwd(), Path(__file__).resolve()]
    for root in roots:
        for folder in (root, *root.parents):
            candidate = folder / "corpus" / CASE_FILE_NAME
            if candidate.is_file():
                return candidate
    from memory_bench.shipped import shipped_file

    installed = shipped_file(CASE_FILE_NAME)  # the copy installed with memory-bench
    if installed is not None:
        return installed
    raise FormationCaseFileError(
        f"corpus/{CASE_FILE_NAME} was not found above {roots[0]}; pass --cases PATH"
    )


def load_formation_cases(path: Path | str) -> LoadedCases:
    """Load and validate a case file, returning it with the sha256 of its bytes.

    Raises:
        FormationCaseFileError: The file is missing, is not JSON, or violates the schema.
    """
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise FormationCaseFileError(f"{file}: cannot read the case file ({exc})") from exc
    try:
        document = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise FormationCaseFileError(f"{file}: not valid JSON ({exc})") from exc
    try:
        cases = FormationCaseFile.model_validate(document)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<document>'}: {err['msg']}"
            for err in exc.errors()[:5]
        )
        more = f" (and {exc.error_count() - 5} more)" if exc.error_count() > 5 else ""
        raise FormationCaseFileError(f"{file}: invalid case file: {problems}{more}") from exc
    return LoadedCases(path=file, sha256=hashlib.sha256(raw).hexdigest(), cases=cases)


class FormedBelief(_Model):
    """A belief the case's message formed."""

    belief_type: BeliefType
    subject: str
    statement: str


class CaseRow(_Model):
    """One case's outcome."""

    id: str
    kind: Literal["positive", "negative"]
    category: str | None
    expected: int
    formed: list[FormedBelief]
    matched: int
    missed: list[str]
    unexpected: list[FormedBelief]
    fabricated: int
    refused_hazard: int


class FormationReport(_Model):
    """The evaluation's figures and per-case rows; serialises to the command's JSON."""

    case_file: str
    sha256: str
    policy_version: str
    positive_cases: int
    negative_cases: int
    expected_total: int
    formed_total: int
    true_positives: int
    false_positives: int
    false_negatives: int
    precision: float
    recall: float
    fabricated: int
    negative_formed: int
    cases: list[CaseRow]


@dataclass(frozen=True, kw_only=True)
class _Outcome:
    formed: list[FormedBelief]
    refused_hazard: int
    policy_version: str


def _run_case(
    text: str,
    *,
    role: str,
    project_scope: str | None,
    profiles: MemoryProfiles,
    extractor: Extractor | None = None,
) -> _Outcome:
    composition = build_eval_composition(
        _CASE_START,
        principal=_EVAL_PRINCIPAL,
        id_namespace="formation-eval",
        profiles=profiles,
        extractor=extractor,
    )
    try:
        view = composition.sessions.create(
            principal=_EVAL_PRINCIPAL, agent=_AGENT, metadata={"project_scope": project_scope}
        )
        composition.advance(1)
        if text.strip():
            # A blank message cannot be recorded (and forms nothing): the case runs empty.
            record = (
                composition.sessions.record_user_message
                if role == "user"
                else composition.sessions.record_assistant_message
            )
            record(view.id, text, principal=_EVAL_PRINCIPAL)
        composition.advance(1)
        result = composition.memory.run(
            "manual", scope_for_project(project_scope), view.id, principal=_EVAL_PRINCIPAL
        )
        formed = [
            FormedBelief(belief_type=b.belief_type, subject=b.subject, statement=b.statement)
            for b in composition.memory.list_memories(principal=_EVAL_PRINCIPAL)
        ]
    finally:
        composition.close()
    return _Outcome(
        formed=formed, refused_hazard=result.refused_hazard, policy_version=result.policy_version
    )


def _pair(
    expected: Sequence[ExpectedBelief], formed: Sequence[FormedBelief]
) -> tuple[int, list[str], list[FormedBelief]]:
    used: set[int] = set()
    missed: list[str] = []
    for want in expected:
        for index, belief in enumerate(formed):
            if index not in used and want.matches(
                belief.belief_type, belief.subject, belief.statement
            ):
                used.add(index)
                break
        else:
            missed.append(want.statements[0])
    unexpected = [b for i, b in enumerate(formed) if i not in used]
    return len(used), missed, unexpected


def _fabricated(formed: Sequence[FormedBelief], forbidden: Sequence[str]) -> int:
    return sum(
        1
        for b in formed
        if contains_forbidden(b.statement, forbidden) or contains_forbidden(b.subject, forbidden)
    )


def evaluate_formation(
    loaded: LoadedCases,
    *,
    profiles: MemoryProfiles | None = None,
    extractor: Extractor | None = None,
) -> FormationReport:
    """Run every case through formation and score it.

    Args:
        loaded: The case file.
        profiles: Memory profiles (the shipped defaults when omitted).
        extractor: The extractor every case's service uses (one instance shared across cases,
            so its counters cover the whole run); the deterministic one when omitted.
    """
    profile = profiles or load_profiles()
    rows: list[CaseRow] = []
    policy_version = ""
    for positive in loaded.cases.positive:
        outcome = _run_case(
            positive.text,
            role="user",
            project_scope=positive.project_scope,
            profiles=profile,
            extractor=extractor,
        )
        policy_version = outcome.policy_version
        matched, missed, unexpected = _pair(positive.expected, outcome.formed)
        rows.append(
            CaseRow(
                id=positive.id,
                kind="positive",
                category=None,
                expected=len(positive.expected),
                formed=outcome.formed,
                matched=matched,
                missed=missed,
                unexpected=unexpected,
                fabricated=_fabricated(outcome.formed, positive.forbidden_statements),
                refused_hazard=outcome.refused_hazard,
            )
        )
    for negative in loaded.cases.negative:
        outcome = _run_case(
            negative.text,
            role=negative.role,
            project_scope=negative.project_scope,
            profiles=profile,
            extractor=extractor,
        )
        policy_version = outcome.policy_version
        rows.append(
            CaseRow(
                id=negative.id,
                kind="negative",
                category=negative.category,
                expected=0,
                formed=outcome.formed,
                matched=0,
                missed=[],
                unexpected=outcome.formed,
                fabricated=_fabricated(outcome.formed, negative.forbidden_statements),
                refused_hazard=outcome.refused_hazard,
            )
        )
    expected_total = sum(r.expected for r in rows)
    formed_total = sum(len(r.formed) for r in rows)
    true_positives = sum(r.matched for r in rows)
    return FormationReport(
        case_file=str(loaded.path),
        sha256=loaded.sha256,
        policy_version=policy_version,
        positive_cases=len(loaded.cases.positive),
        negative_cases=len(loaded.cases.negative),
        expected_total=expected_total,
        formed_total=formed_total,
        true_positives=true_positives,
        false_positives=formed_total - true_positives,
        false_negatives=expected_total - true_positives,
        precision=true_positives / formed_total if formed_total else 0.0,
        recall=true_positives / expected_total if expected_total else 0.0,
        fabricated=sum(r.fabricated for r in rows),
        negative_formed=sum(len(r.formed) for r in rows if r.kind == "negative"),
        cases=rows,
    )


def render_summary(report: FormationReport) -> Table:
    """A rich table of the figures and of every case that did not come out clean."""
    table = Table(
        title=(
            f"Formation evaluation ({report.policy_version}) - precision "
            f"{report.precision:.3f}, recall {report.recall:.3f}, fabricated {report.fabricated}"
        ),
        caption=f"{report.case_file} sha256 {report.sha256[:12]}",
    )
    for column in ("case", "kind", "expected", "formed", "matched", "fabricated", "notes"):
        table.add_column(column)
    for row in report.cases:
        notes = [f"missed: {m}" for m in row.missed]
        notes += [
            f"extra: {b.belief_type.value} / {b.subject}: {b.statement}" for b in row.unexpected
        ]
        if row.refused_hazard:
            notes.append(f"refused {row.refused_hazard}")
        table.add_row(
            row.id,
            row.kind if row.category is None else f"{row.kind} ({row.category})",
            str(row.expected),
            str(len(row.formed)),
            str(row.matched),
            str(row.fabricated),
            "\n".join(notes),
        )
    table.add_section()
    table.add_row(
        "total",
        f"{report.positive_cases}+{report.negative_cases}",
        str(report.expected_total),
        str(report.formed_total),
        str(report.true_positives),
        str(report.fabricated),
        f"negative cases formed {report.negative_formed}",
    )
    return table


__all__ = [
    "CASE_FILE_NAME",
    "CaseRow",
    "ExpectedBelief",
    "FormationCaseFile",
    "FormationCaseFileError",
    "FormationReport",
    "FormedBelief",
    "LoadedCases",
    "NegativeCase",
    "PositiveCase",
    "contains_forbidden",
    "default_case_path",
    "evaluate_formation",
    "load_formation_cases",
    "render_summary",
    "text_matches",
    "triple_matches",
]
