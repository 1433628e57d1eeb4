"""The corpus schema: frozen pydantic models that forbid unknown fields.

Field-level constraints (identifier patterns, list lengths, answer arity) live on the models, so a
document that breaks one never parses. The rules that relate fields to each other (categories,
references, coverage) live in :mod:`memory_bench.corpus._rules` and are applied by the loader.

The corpus-wide minimum of twelve scenarios is one of those coverage rules rather than a list
length on :class:`MemoryBenchmarkCorpus`, so a single inline scenario (the driver's own test, an
external-dataset sample) can still be built in process; the loader applies it to every file.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal, Self, assert_never, get_args

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator, model_validator

from memory_bench.formation_eval import ExpectedBelief

SCENARIO_ID_PATTERN = r"^mb-[a-z0-9]+(?:-[a-z0-9]+)*-\d{3}$"
"""A scenario identifier: ``mb-`` then kebab-case words then a three-digit serial."""
SESSION_ID_PATTERN = r"^s\d{2}$"
"""A session identifier within a scenario: ``s01`` .. ``s99``."""
PROBE_ID_PATTERN = r"^p\d{2}$"
"""A probe identifier within a scenario: ``p01`` .. ``p99``."""
LABEL_PATTERN = r"^[a-z][a-z0-9_]*$"
"""A belief label within a scenario: snake_case."""
PROJECT_SCOPE_PATTERN = r"^[a-z][a-z0-9-]{1,63}$"
"""A project scope name (the part after ``project:`` in a belief scope)."""

SessionId = Annotated[str, Field(pattern=SESSION_ID_PATTERN)]
Label = Annotated[str, Field(pattern=LABEL_PATTERN)]
ProjectScope = Annotated[str, Field(pattern=PROJECT_SCOPE_PATTERN)]
NonEmptyText = Annotated[str, Field(min_length=1)]
AdvanceSeconds = Annotated[int, Field(ge=0)]


class _CorpusModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


ProbeCategory = Literal[
    "single_hop",
    "multi_hop",
    "temporal",
    "update",
    "correction",
    "preference",
    "transfer",
    "abstention",
]
"""The eight probe categories; each carries one validated rule."""

PROBE_CATEGORIES: tuple[ProbeCategory, ...] = get_args(ProbeCategory)
"""Every category, in the order results report them."""

AnswerKind = Literal["exact", "alternatives", "all_of", "abstain"]
"""How a probe's gold answer is matched."""


class BenchmarkTurn(_CorpusModel):
    """One user message; the clock advances ``advance_seconds`` before it is appended."""

    text: NonEmptyText
    advance_seconds: AdvanceSeconds = 0


class BenchmarkSession(_CorpusModel):
    """One conversation, consolidated at its scope when its last turn has been appended.

    ``project_scope`` ``None`` is the general scope. The clock advances ``advance_seconds``
    before the session opens.
    """

    id: SessionId
    project_scope: ProjectScope | None = None
    advance_seconds: AdvanceSeconds = 0
    turns: list[BenchmarkTurn] = Field(min_length=1)


class LabeledBelief(ExpectedBelief):
    """A belief the scenario's sessions state, named so probes can ask for it.

    It is the formation evaluation's :class:`ExpectedBelief` (belief type, acceptable subjects,
    acceptable statements) plus the label probes refer to, the session that states it, and the
    label it supersedes, if any.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: Label
    session: SessionId
    supersedes: Label | None = None


class ProbeAnswer(_CorpusModel):
    """The gold answer: ``values`` is empty for abstain, one value for exact, at least one for
    alternatives and at least two for all_of."""

    kind: AnswerKind
    values: list[NonEmptyText] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check_arity(self) -> Self:
        count = len(self.values)
        kind = self.kind
        if kind == "abstain":
            ok, wanted = count == 0, "no values"
        elif kind == "exact":
            ok, wanted = count == 1, "exactly one value"
        elif kind == "alternatives":
            ok, wanted = count >= 1, "at least one value"
        elif kind == "all_of":
            ok, wanted = count >= 2, "at least two values"
        else:
            assert_never(kind)
        if not ok:
            raise ValueError(f"an {kind!r} answer takes {wanted}, got {count}")
        return self


class EvidenceRef(_CorpusModel):
    """Where in the scenario a probe's answer was stated (used by the external datasets).

    The evidence-provenance metric matches it against the events the driver appended:
    ``session`` names a scenario session; ``turn`` is the 0-based index of a turn in it, or
    ``None`` when the dataset only knows the session (matching then falls back to every turn
    of that session); ``dataset_ref`` is the dataset's own identifier for the evidence (a
    LoCoMo dialogue id, a LongMemEval session id) and is carried for reporting only.
    """

    session: SessionId
    turn: Annotated[int, Field(ge=0)] | None = None
    dataset_ref: NonEmptyText | None = None


class BenchmarkProbe(_CorpusModel):
    """A question asked in a fresh session after every scenario session has been consolidated.

    The clock advances ``advance_seconds`` before the probe, cumulatively across the scenario's
    probes in order. ``needed`` names the labels a good recall returns; ``forbidden_statements``
    are statements (or fragments) that must not be rendered while answering it.
    """

    id: Annotated[str, Field(pattern=PROBE_ID_PATTERN)]
    category: ProbeCategory
    question: NonEmptyText
    project_scope: ProjectScope | None = None
    advance_seconds: AdvanceSeconds = 0
    needed: list[Label]
    answer: ProbeAnswer
    forbidden_statements: list[NonEmptyText] = Field(default_factory=list)
    evidence: list[EvidenceRef] = Field(default_factory=list)


class BenchmarkScenario(_CorpusModel):
    """One principal's multi-session history and the probes asked against it.

    ``start_at`` is the fixed clock's starting instant (timezone-aware, normalized to UTC).
    ``protected_statements`` are fragments (secrets, injected claims) that must never form and
    never render.
    """

    id: Annotated[str, Field(pattern=SCENARIO_ID_PATTERN)]
    title: NonEmptyText
    start_at: AwareDatetime
    sessions: list[BenchmarkSession] = Field(min_length=2)
    beliefs: list[LabeledBelief]
    protected_statements: list[NonEmptyText] = Field(default_factory=list)
    probes: list[BenchmarkProbe] = Field(min_length=1, max_length=6)

    @field_validator("start_at")
    @classmethod
    def _to_utc(cls, value: datetime) -> datetime:
        return value.astimezone(UTC)


class MemoryBenchmarkCorpus(_CorpusModel):
    """The benchmark corpus document (``schema_version`` 1).

    ``probe_instruction`` is appended to the question by the live arm only; ``abstain_phrase``
    is the one exact reply that counts as abstaining.
    """

    schema_version: Literal[1]
    probe_instruction: NonEmptyText
    abstain_phrase: str
    scenarios: list[BenchmarkScenario]
