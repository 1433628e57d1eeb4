"""Regenerate the report tests' fixed results (run from the repository root, by hand).

::

    uv run python tests/memory_bench/report/regenerate_fixtures.py

``deterministic-result.json`` is the deterministic arm's stdout document for the checked-in
corpus, compared against the checked-in baseline with four counts moved so that every list
the report highlights is non-empty: a category's recall raised (a regression of the run), the
aggregate noise raised (an improvement), an attribution count moved (a shift) and a neutral
count changed (a change). ``external-locomo.json`` is the metrics file of the synthetic LoCoMo
fixture (no dataset text); its provenance record names the checkout it was regenerated from
and when, so regenerating moves those rows of the snapshot too. The snapshot test pins the HTML
rendered from them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memory_bench.baseline import Baseline, compare_to_baseline
from memory_bench.corpus import load_corpus
from memory_bench.driver import run_deterministic_benchmark
from memory_bench.metrics import display_ratios
from memory_cli.app import main as cli_main

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent


def _perturbed_baseline() -> Baseline:
    data: dict[str, Any] = json.loads(
        (ROOT / "corpus" / "memory-benchmark.baseline.json").read_text(encoding="utf-8")
    )
    metrics = data["metrics"]
    metrics["by_category"][0]["counts"]["needed_recalled"] += 1
    metrics["retrieval"]["noise_total"] += 2
    metrics["retrieval"]["recalled_both"] += 1
    metrics["retrieval"]["returned_snapshot"] += 3
    return Baseline.model_validate(data)


def deterministic_document() -> dict[str, Any]:
    """The arm's document with the comparison against the perturbed baseline."""
    corpus, digest = load_corpus(ROOT / "corpus" / "memory-benchmark.v1.json")
    run = run_deterministic_benchmark(corpus, digest)
    comparison = compare_to_baseline(_perturbed_baseline(), run)
    return {
        "arm": "deterministic",
        "passed": comparison.no_regression,
        "result": run.model_dump(mode="json"),
        "ratios": display_ratios(run.metrics),
        "structural_zero_failures": list(run.metrics.structural_zero_failures()),
        "baseline": {
            "path": "corpus/memory-benchmark.baseline.json",
            "no_regression": comparison.no_regression,
            "current": comparison.current,
            "comparison": comparison.model_dump(mode="json"),
        },
        "written_baseline": None,
        "refused_baseline": None,
    }


def main() -> None:
    (HERE / "fixtures" / "deterministic-result.json").write_text(
        json.dumps(deterministic_document(), indent=2) + "\n", encoding="utf-8"
    )
    target = HERE / "fixtures" / "external-locomo.json"
    target.unlink(missing_ok=True)
    fixture = ROOT / "tests" / "memory_bench_external" / "fixtures" / "synthetic_locomo.json"
    status = cli_main(
        [
            "eval",
            "memory-benchmark",
            "--external",
            "locomo",
            "--path",
            str(fixture),
            "--output",
            str(target),
        ]
    )
    if status != 0:
        raise SystemExit(status)


if __name__ == "__main__":
    main()
