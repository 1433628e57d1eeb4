"""Builders for live-arm evidence tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memory_bench.live.evidence import ArmAnswer, LiveProbeRow, derive_counts


def arm(correct: bool, *, abstained: bool = False, cost: float = 0.01, **kw: Any) -> ArmAnswer:
    return ArmAnswer(
        answer="I do not have that information." if abstained else "Portland",
        correct=correct,
        abstained=abstained,
        leaked_protected=kw.get("leaked", False),
        run_status="completed",
        cost_usd=cost,
    )


def row(i: int, *, kind: str = "alternatives", with_ok: bool, without_ok: bool) -> LiveProbeRow:
    abstain = kind == "abstain"
    return LiveProbeRow(
        scenario_id="mb-x-001",
        probe_id=f"p{i:02d}",
        category="abstention" if abstain else "single_hop",
        answer_kind=kind,
        recoverable=not abstain,
        with_memory_policy_failures=0,
        without_memory_policy_failures=0,
        with_memory=arm(with_ok, abstained=abstain and with_ok),
        without_memory=arm(without_ok, abstained=abstain and without_ok),
    )


@pytest.fixture
def passing_document() -> dict[str, Any]:
    """Ten answerable probes (9 right with memory, 2 without) and five abstentions (all right)."""
    rows = [row(i, with_ok=i != 0, without_ok=i < 2) for i in range(10)]
    rows += [row(10 + i, kind="abstain", with_ok=True, without_ok=True) for i in range(5)]
    counts = derive_counts(
        rows, incomplete_runs=0, retried_runs=0, ceiling_hits=0, failure_classes={}
    )
    return {
        "benchmark_version": "memory-benchmark.v1",
        "corpus_digest": "a" * 64,
        "build_ref": "0123abc",
        "provider": "openai-compatible",
        "model": "gpt-4o-mini",
        "policy_profile": "benchmark",
        "compiled_policy_version": "policy@deadbeef",
        "formation_policy_version": "formation@5",
        "retrieval_policy_version": "retrieval@1",
        "run_providers": ["openai-compatible"],
        "run_models": ["gpt-4o-mini"],
        "run_compiled_policy_versions": ["policy@deadbeef"],
        "evaluated_at": datetime(2026, 11, 30, tzinfo=UTC).isoformat(),
        "cost_ceiling_usd": 4.0,
        "per_run_ceiling_usd": 0.05,
        "total_cost_usd": 0.30,
        "counts": counts.model_dump(),
        "rows": [r.model_dump() for r in rows],
    }
