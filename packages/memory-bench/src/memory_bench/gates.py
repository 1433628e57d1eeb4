"""The gate registry: every hard gate of the specification plus the foundational ones.

A gate is proven by tests carrying ``@pytest.mark.gate("<id>")``. The test suite fails when a
gate recorded as implemented has no test carrying its marker, or when none of its tests passed;
``nox -s gates`` prints the table with each gate's status.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

GateKind = Literal["structural", "property", "case"]


@dataclass(frozen=True, kw_only=True)
class Gate:
    """One registered gate."""

    id: str
    kind: GateKind
    milestone: str
    title: str
    implemented: bool


def _spec(number: int, name: str, kind: GateKind, title: str, implemented: bool) -> Gate:
    return Gate(
        id=f"gate.memory.{name}",
        kind=kind,
        milestone=f"M16 #{number}",
        title=title,
        implemented=implemented,
    )


GATES: tuple[Gate, ...] = (
    Gate(
        id="gate.memory.scope_isolation",
        kind="property",
        milestone="foundation",
        title="never cross a principal or project scope",
        implemented=True,
    ),
    Gate(
        id="gate.memory.never_fabricate",
        kind="property",
        milestone="foundation",
        title="every belief traces to a trusted user event of its principal",
        implemented=True,
    ),
    Gate(
        id="gate.memory.rejection_durable",
        kind="property",
        milestone="foundation",
        title="never resurrect a rejection",
        implemented=True,
    ),
    Gate(
        id="gate.memory.token_ceiling",
        kind="property",
        milestone="foundation",
        title="never render above the token ceiling",
        implemented=True,
    ),
    Gate(
        id="gate.memory.prefix_stable",
        kind="case",
        milestone="foundation",
        title="the cached prefix is stable within a session",
        implemented=True,
    ),
    _spec(1, "bench_corpus_shape", "structural", "the corpus is shaped as declared", True),
    _spec(2, "bench_reproducible", "property", "the deterministic arm is reproducible", True),
    _spec(3, "bench_no_regression", "case", "the benchmark does not regress", True),
    _spec(4, "bench_baseline_current", "case", "the baseline is current", True),
    _spec(
        5,
        "bench_protected_never_rendered",
        "case",
        "protected content never forms and never renders",
        True,
    ),
    _spec(
        6,
        "bench_supersession_current",
        "case",
        "a formed update never renders what it superseded",
        True,
    ),
    _spec(
        7,
        "bench_evidence_publish",
        "case",
        "live evidence exists only when every pass condition held",
        True,
    ),
    _spec(8, "bench_cost_ceiling", "case", "the live arm stops before its ceiling", True),
    _spec(
        9,
        "bench_external_adapters",
        "structural",
        "external adapters map their datasets without vendoring them",
        True,
    ),
    _spec(
        10, "profiles_wired", "structural", "memory profiles are loaded and mirror defaults", True
    ),
    _spec(11, "trace_retention", "case", "operator trace fields expire on schedule", True),
    _spec(12, "decay_lifecycle", "case", "unused provisional beliefs decay and retire", True),
    _spec(13, "usage_feedback", "case", "citing resists decay, never raises confidence", True),
    _spec(14, "recall_delta", "case", "the recall delta surfaces beliefs formed later", True),
    _spec(
        15, "correction_lines", "case", "correction lines never yield, never move the prefix", True
    ),
    _spec(16, "established_facts_form", "case", "established facts form as affirmed", True),
    _spec(17, "conflict_surfaced", "case", "a lower-authority contradiction is conflicted", True),
    _spec(18, "authority_recency", "property", "the resolver orders authority then recency", True),
    _spec(19, "rederive_opt_in", "case", "re-derivation is opt-in and replays rejections", True),
    _spec(
        20,
        "provider_positive_coverage_v2",
        "case",
        "provider formation supports the 80% floor of the case file's positive cases",
        True,
    ),
)

GATES_BY_ID: dict[str, Gate] = {gate.id: gate for gate in GATES}
