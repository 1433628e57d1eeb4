"""The registry is complete and every implemented gate is carried by at least one test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from memory_bench.gates import GATES

ROOT = Path(__file__).resolve().parents[2]

SPEC_GATES = [
    "bench_corpus_shape",
    "bench_reproducible",
    "bench_no_regression",
    "bench_baseline_current",
    "bench_protected_never_rendered",
    "bench_supersession_current",
    "bench_evidence_publish",
    "bench_cost_ceiling",
    "bench_external_adapters",
    "profiles_wired",
    "trace_retention",
    "decay_lifecycle",
    "usage_feedback",
    "recall_delta",
    "correction_lines",
    "established_facts_form",
    "conflict_surfaced",
    "authority_recency",
    "rederive_opt_in",
    "provider_positive_coverage_v2",
]


def test_every_spec_gate_is_registered_once() -> None:
    ids = [g.id for g in GATES]
    assert len(ids) == len(set(ids))
    for name in SPEC_GATES:
        assert f"gate.memory.{name}" in ids
    assert len(ids) == len(SPEC_GATES) + 5


def test_every_implemented_gate_has_a_test() -> None:
    collected = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "--list-gates",
            "-p",
            "no:cacheprovider",
            "tests",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert collected.returncode == 0, collected.stdout[-2000:] + collected.stderr[-2000:]
    carried = {
        line.split()[1] for line in collected.stdout.splitlines() if line.startswith("GATE ")
    }
    missing = [g.id for g in GATES if g.implemented and g.id not in carried]
    assert not missing, f"implemented gates without a test: {missing}"
