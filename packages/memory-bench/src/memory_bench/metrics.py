"""Result models of the deterministic arm: integer counts only, ratios derived for display.

Every number a run stores is an integer, so two runs of one commit compare exactly and a
baseline never carries a float that could round differently. The ratios the spec names
(formation precision and recall, end-to-end recall, retrieval recall given formed, noise
ratio) are methods computed from the counts and are never serialised into a baseline.

Shapes::

    ProbeMetrics        one row per probe: ProbeCounts + distance bins + formed/recalled labels
    ScenarioMetrics     one row per scenario: FormationCounts
    CategoryMetrics     ProbeCounts summed over one category's probes
    DeterministicMetrics  the aggregate: FormationCounts and ProbeCounts summed over the corpus,
                          max distinct prefixes per probe, distance bins, per-category sums
    DeterministicRun    what one run produced: provenance, aggregate, scenario and probe rows

No model carries a belief statement, a secret or a trace identifier; labels are corpus
identifiers, not statements.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from memory_bench.corpus import PROBE_CATEGORIES, ProbeCategory

CATEGORY_ORDER: Final[tuple[ProbeCategory, ...]] = PROBE_CATEGORIES
"""The fixed order categories are reported in (the corpus's own order)."""

BENCHMARK_VERSION: Final = "memory-benchmark@1"
"""Version of the deterministic arm's procedure and metric definitions; a change is drift."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def ratio(numerator: int, denominator: int) -> float | None:
    """``numerator / denominator`` for display, or ``None`` when the denominator is zero."""
    return None if denominator == 0 else numerator / denominator


_Counts = TypeVar("_Counts", bound="_Summable")


class _Summable(_Model):
    """A model whose fields are all non-negative integers that add up field by field."""

    @classmethod
    def total(cls: type[_Counts], items: Iterable[_Counts]) -> _Counts:
        """The field-by-field sum of ``items`` (all zeros for no items)."""
        sums: Counter[str] = Counter(dict.fromkeys(cls.model_fields, 0))
        for item in items:
            for name in cls.model_fields:
                sums[name] += getattr(item, name)
        return cls(**{name: sums[name] for name in cls.model_fields})


class FormationCounts(_Summable):
    """Formation counts of one scenario (or summed over scenarios).

    ``expected`` labels are the current ones (not superseded by a later label); ``supported``
    of them have a matching live belief; ``formed`` counts live beliefs; ``stale_live`` counts
    live beliefs matching a superseded label; ``fabricated = formed - supported - stale_live``;
    ``policy_failures`` counts beliefs of any status containing a protected fragment;
    ``dropped_for_ceiling`` sums the proposals the consolidations dropped over the automatic
    candidate ceiling.
    """

    expected: int = Field(ge=0)
    supported: int = Field(ge=0)
    formed: int = Field(ge=0)
    stale_live: int = Field(ge=0)
    fabricated: int
    policy_failures: int = Field(ge=0)
    dropped_for_ceiling: int = Field(ge=0)

    def precision(self) -> float | None:
        """Formation precision: ``supported / formed``."""
        return ratio(self.supported, self.formed)

    def recall(self) -> float | None:
        """Formation recall: ``supported / expected``."""
        return ratio(self.supported, self.expected)


class ProbeCounts(_Summable):
    """Retrieval counts of one probe (or summed over probes).

    Recall counts returned items only: ``needed_recalled`` are needed labels matched by a
    belief the snapshot trace or an in-turn trace returned, partitioned by the moment that
    found them (``recalled_snapshot_only + recalled_in_turn_only + recalled_both``).
    ``returned_*`` count distinct belief ids per moment and as a union; ``noise_*`` count the
    returned beliefs matching no needed label. ``runs_completed`` is 1 for a probe whose run
    completed. The forbidden-statement buckets count forbidden statements rendered in any trace
    of the probe, by its category; ``protected_rendered`` counts traced beliefs containing a
    protected fragment of the scenario.
    """

    needed_total: int = Field(ge=0)
    needed_formed: int = Field(ge=0)
    needed_recalled: int = Field(ge=0)
    recalled_snapshot_only: int = Field(ge=0)
    recalled_in_turn_only: int = Field(ge=0)
    recalled_both: int = Field(ge=0)
    returned_snapshot: int = Field(ge=0)
    returned_in_turn: int = Field(ge=0)
    returned_total: int = Field(ge=0)
    noise_snapshot: int = Field(ge=0)
    noise_in_turn: int = Field(ge=0)
    noise_total: int = Field(ge=0)
    dropped_for_budget: int = Field(ge=0)
    blocked_rendered: int = Field(ge=0)
    distinct_prefixes: int = Field(ge=0)
    runs_completed: int = Field(ge=0)
    currency_violations: int = Field(ge=0)
    currency_unformed: int = Field(ge=0)
    abstention_leaks: int = Field(ge=0)
    false_transfers: int = Field(ge=0)
    other_forbidden_rendered: int = Field(ge=0)
    protected_rendered: int = Field(ge=0)

    def end_to_end_recall(self) -> float | None:
        """The product yardstick: ``needed_recalled / needed_total``."""
        return ratio(self.needed_recalled, self.needed_total)

    def recall_given_formed(self) -> float | None:
        """The retrieval yardstick: ``needed_recalled / needed_formed``."""
        return ratio(self.needed_recalled, self.needed_formed)

    def noise_ratio(self) -> float | None:
        """``noise_total / returned_total``."""
        return ratio(self.noise_total, self.returned_total)


class DistanceBin(_Model):
    """Needed labels stated ``distance`` sessions back (the last session is distance one).

    ``needed`` is the bin's population, a function of the corpus alone; ``formed`` and
    ``recalled`` count the population's labels with a live match and with a recalled match.
    """

    distance: int = Field(ge=1)
    needed: int = Field(ge=0)
    formed: int = Field(ge=0)
    recalled: int = Field(ge=0)


def merge_distance_bins(groups: Iterable[Sequence[DistanceBin]]) -> tuple[DistanceBin, ...]:
    """Sum distance bins by distance, sorted by distance."""
    needed: Counter[int] = Counter()
    formed: Counter[int] = Counter()
    recalled: Counter[int] = Counter()
    seen: set[int] = set()
    for bins in groups:
        for item in bins:
            seen.add(item.distance)
            needed[item.distance] += item.needed
            formed[item.distance] += item.formed
            recalled[item.distance] += item.recalled
    return tuple(
        DistanceBin(distance=d, needed=needed[d], formed=formed[d], recalled=recalled[d])
        for d in sorted(seen)
    )


class ProbeMetrics(_Model):
    """One probe's row: its counts, its distance bins and which needed labels formed/recalled."""

    scenario_id: str
    probe_id: str
    category: ProbeCategory
    counts: ProbeCounts
    by_distance: tuple[DistanceBin, ...]
    formed_labels: tuple[str, ...]
    recalled_labels: tuple[str, ...]

    @property
    def key(self) -> str:
        """``<scenario id>/<probe id>``: the row's identity across runs."""
        return f"{self.scenario_id}/{self.probe_id}"


class ScenarioMetrics(_Model):
    """One scenario's formation row."""

    scenario_id: str
    formation: FormationCounts


class CategoryMetrics(_Model):
    """Probe counts summed over one category."""

    category: ProbeCategory
    probes: int = Field(ge=0)
    counts: ProbeCounts


class DeterministicMetrics(_Model):
    """The aggregate of one run: sums of the scenario and probe integers.

    ``max_distinct_prefixes_per_probe`` is the largest ``distinct_prefixes`` of any probe (the
    reproducibility gate requires at most one); ``by_category`` lists the categories present in
    the corpus in the fixed category order.
    """

    scenarios: int = Field(ge=0)
    probes: int = Field(ge=0)
    formation: FormationCounts
    retrieval: ProbeCounts
    max_distinct_prefixes_per_probe: int = Field(ge=0)
    by_distance: tuple[DistanceBin, ...]
    by_category: tuple[CategoryMetrics, ...]

    @classmethod
    def aggregate(
        cls, scenarios: Sequence[ScenarioMetrics], probes: Sequence[ProbeMetrics]
    ) -> DeterministicMetrics:
        """Sum scenario and probe rows into the aggregate."""
        by_category = []
        for category in CATEGORY_ORDER:
            rows = [row for row in probes if row.category == category]
            if rows:
                by_category.append(
                    CategoryMetrics(
                        category=category,
                        probes=len(rows),
                        counts=ProbeCounts.total(row.counts for row in rows),
                    )
                )
        return cls(
            scenarios=len(scenarios),
            probes=len(probes),
            formation=FormationCounts.total(row.formation for row in scenarios),
            retrieval=ProbeCounts.total(row.counts for row in probes),
            max_distinct_prefixes_per_probe=max(
                (row.counts.distinct_prefixes for row in probes), default=0
            ),
            by_distance=merge_distance_bins(row.by_distance for row in probes),
            by_category=tuple(by_category),
        )

    def structural_zero_failures(self) -> tuple[str, ...]:
        """Names of the structural-zero counts that are not zero (empty when they all hold).

        The structural zeros must hold before a baseline is recorded: no protected fragment in
        any belief or trace, no currency violation, no false transfer, no abstention leak.
        """
        values = {
            "policy_failures": self.formation.policy_failures,
            "protected_rendered": self.retrieval.protected_rendered,
            "currency_violations": self.retrieval.currency_violations,
            "false_transfers": self.retrieval.false_transfers,
            "abstention_leaks": self.retrieval.abstention_leaks,
        }
        return tuple(f"{name}={value}" for name, value in values.items() if value != 0)


def display_ratios(metrics: DeterministicMetrics) -> dict[str, dict[str, float | None]]:
    """The spec's ratios derived from ``metrics`` for display (never stored in a baseline).

    Keys are ``aggregate`` and each category present; each maps ratio names to values (``None``
    where the denominator is zero). Formation precision and recall are aggregate-only.
    """

    def pair(counts: ProbeCounts) -> dict[str, float | None]:
        return {
            "end_to_end_recall": counts.end_to_end_recall(),
            "retrieval_recall_given_formed": counts.recall_given_formed(),
            "noise_ratio": counts.noise_ratio(),
        }

    result: dict[str, dict[str, float | None]] = {
        "aggregate": {
            "formation_precision": metrics.formation.precision(),
            "formation_recall": metrics.formation.recall(),
            **pair(metrics.retrieval),
        }
    }
    for row in metrics.by_category:
        result[row.category] = pair(row.counts)
    return result


class DeterministicRun(_Model):
    """Everything one deterministic run produced, with its provenance.

    ``storage`` names the storage tier the arm ran on; it is provenance, not part of what a
    baseline compares, so the PostgreSQL lane can be compared against the in-memory baseline.
    """

    benchmark_version: str
    corpus_digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    formation_policy: str
    provider_formation_policy: str
    retrieval_policy: str
    extractor: str
    storage: str
    metrics: DeterministicMetrics
    scenarios: tuple[ScenarioMetrics, ...]
    probes: tuple[ProbeMetrics, ...]

    def failing_structural_probes(self) -> tuple[ProbeMetrics, ...]:
        """Probes with a protected rendering, currency violation, false transfer or leak."""
        return tuple(
            row
            for row in self.probes
            if row.counts.protected_rendered
            or row.counts.currency_violations
            or row.counts.false_transfers
            or row.counts.abstention_leaks
        )


__all__ = [
    "BENCHMARK_VERSION",
    "CATEGORY_ORDER",
    "CategoryMetrics",
    "DeterministicMetrics",
    "DeterministicRun",
    "DistanceBin",
    "FormationCounts",
    "ProbeCounts",
    "ProbeMetrics",
    "ScenarioMetrics",
    "display_ratios",
    "merge_distance_bins",
    "ratio",
]
