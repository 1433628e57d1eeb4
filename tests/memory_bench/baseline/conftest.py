"""Builders of hand-made runs for the baseline tests: counts are set directly, nothing runs."""

from __future__ import annotations

from typing import Any

import pytest

from memory_bench.metrics import (
    BENCHMARK_VERSION,
    DeterministicMetrics,
    DeterministicRun,
    DistanceBin,
    FormationCounts,
    ProbeCounts,
    ProbeMetrics,
    ScenarioMetrics,
)

DIGEST = "a" * 64

ZERO_PROBE: dict[str, int] = dict.fromkeys(ProbeCounts.model_fields, 0)
ZERO_FORMATION: dict[str, int] = dict.fromkeys(FormationCounts.model_fields, 0)


def probe_row(
    scenario_id: str,
    probe_id: str,
    category: str,
    *,
    bins: tuple[tuple[int, int, int, int], ...] = (),
    formed: tuple[str, ...] = (),
    recalled: tuple[str, ...] = (),
    **counts: int,
) -> ProbeMetrics:
    """A probe row with every count zero unless given; bins are (distance, needed, formed, rec)."""
    return ProbeMetrics(
        scenario_id=scenario_id,
        probe_id=probe_id,
        category=category,
        counts=ProbeCounts(**{**ZERO_PROBE, **counts}),
        by_distance=tuple(
            DistanceBin(distance=d, needed=n, formed=f, recalled=r) for d, n, f, r in bins
        ),
        formed_labels=formed,
        recalled_labels=recalled,
    )


def scenario_row(scenario_id: str, **counts: int) -> ScenarioMetrics:
    """A scenario row with every formation count zero unless given."""
    return ScenarioMetrics(
        scenario_id=scenario_id, formation=FormationCounts(**{**ZERO_FORMATION, **counts})
    )


def make_run(
    scenarios: list[ScenarioMetrics], probes: list[ProbeMetrics], **provenance: Any
) -> DeterministicRun:
    """A run over the rows, aggregated the way the driver aggregates."""
    fields: dict[str, Any] = {
        "benchmark_version": BENCHMARK_VERSION,
        "corpus_digest": DIGEST,
        "formation_policy": "formation@5",
        "provider_formation_policy": "formation@6",
        "retrieval_policy": "retrieval@1",
        "extractor": "DeterministicExtractor",
        "storage": "memory",
    }
    fields.update(provenance)
    return DeterministicRun(
        **fields,
        metrics=DeterministicMetrics.aggregate(scenarios, probes),
        scenarios=tuple(scenarios),
        probes=tuple(probes),
    )


def standard_rows() -> tuple[list[ScenarioMetrics], list[ProbeMetrics]]:
    """Two scenarios, three probes: one recalled by the snapshot, one in-turn, one abstention."""
    scenarios = [
        scenario_row("mb-one-001", expected=3, supported=2, formed=3, fabricated=1),
        scenario_row("mb-two-001", expected=2, supported=2, formed=2),
    ]
    probes = [
        probe_row(
            "mb-one-001",
            "p01",
            "single_hop",
            bins=((1, 1, 1, 1),),
            formed=("home",),
            recalled=("home",),
            needed_total=1,
            needed_formed=1,
            needed_recalled=1,
            recalled_snapshot_only=1,
            returned_snapshot=3,
            returned_total=3,
            noise_snapshot=2,
            noise_total=2,
            distinct_prefixes=1,
            runs_completed=1,
        ),
        probe_row(
            "mb-one-001",
            "p02",
            "multi_hop",
            bins=((1, 1, 1, 1), (2, 1, 1, 0)),
            formed=("job", "wife"),
            recalled=("wife",),
            needed_total=2,
            needed_formed=2,
            needed_recalled=1,
            recalled_in_turn_only=1,
            returned_in_turn=2,
            returned_total=2,
            noise_in_turn=1,
            noise_total=1,
            distinct_prefixes=1,
            runs_completed=1,
        ),
        probe_row(
            "mb-two-001",
            "p01",
            "abstention",
            distinct_prefixes=1,
            runs_completed=1,
        ),
    ]
    return scenarios, probes


class Builders:
    """The builders above, handed to tests through the ``build`` fixture."""

    probe_row = staticmethod(probe_row)
    scenario_row = staticmethod(scenario_row)
    make_run = staticmethod(make_run)
    standard_rows = staticmethod(standard_rows)


@pytest.fixture
def build() -> type[Builders]:
    """Row and run builders."""
    return Builders


@pytest.fixture
def standard_run() -> DeterministicRun:
    """The standard three-probe run."""
    scenarios, probes = standard_rows()
    return make_run(scenarios, probes)
