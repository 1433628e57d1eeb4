"""``agent eval memory-benchmark``: the deterministic arm against the checked-in baseline.

::

    agent eval memory-benchmark --deterministic-only
        [--corpus PATH] [--baseline PATH] [--write-baseline PATH] [--build-ref REF]

Runs the corpus (the checked-in ``corpus/memory-benchmark.v1.json`` by default) through the
deterministic arm, prints the result document as JSON on stdout and a rich summary on stderr,
and compares the run against a baseline: ``--baseline PATH``, or for the checked-in corpus the
checked-in ``corpus/memory-benchmark.baseline.json``. A ``--corpus`` run without ``--baseline``
reports metrics only.

``--write-baseline PATH`` records the run as a new baseline. An existing path is refused before
anything runs (re-recording is an explicit delete, then a write), and a run whose structural
zeros do not hold (a protected fragment formed or rendered, a currency violation, a false
transfer, an abstention leak) is not recorded.

Exit status: 0 on a pass, 1 on drift, a regression or a refused recording, 2 on a usage error
(including an ``--output``, which the deterministic arm refuses: it publishes no evidence).
The benchmark package is imported lazily, inside the handler.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console

from memory_core.errors import UsageError

DEFAULT_BASELINE = Path("corpus") / "memory-benchmark.baseline.json"
"""The checked-in baseline, relative to the repository root (the working directory)."""

EXIT_PASS = 0
EXIT_FAIL = 1


def resolve_build_ref(cwd: Path | None = None) -> str:
    """``git rev-parse HEAD`` of the working tree (``+dirty`` when tracked files changed), or
    ``unknown`` outside a git checkout."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}+dirty" if status else head or "unknown"


def _run(args: argparse.Namespace) -> int:
    if not args.deterministic_only:
        raise UsageError(
            "only the deterministic arm is available in this build; pass --deterministic-only"
        )
    if args.output is not None:
        raise UsageError(
            "--output is refused for the deterministic arm: it publishes no evidence file; "
            "its result is printed on stdout and its fixed point is --write-baseline"
        )

    from memory_bench.baseline import (
        Baseline,
        BaselineExistsError,
        compare_to_baseline,
        load_baseline,
        write_baseline,
    )
    from memory_bench.corpus import CORPUS_V1_RELATIVE_PATH, load_corpus
    from memory_bench.driver import run_deterministic_benchmark
    from memory_bench.metrics import display_ratios
    from memory_bench.report import render_report

    default_corpus = args.corpus is None
    corpus_path: Path = CORPUS_V1_RELATIVE_PATH if default_corpus else args.corpus
    if default_corpus and not corpus_path.is_file():
        raise UsageError(
            f"the checked-in corpus {corpus_path} is not here; run from the repository root "
            "or pass --corpus PATH"
        )
    write_path: Path | None = args.write_baseline
    if write_path is not None and write_path.exists():
        raise BaselineExistsError(
            write_path,
            "a baseline already exists here and is never overwritten; re-recording is an "
            "explicit removal (git rm or rm) followed by a fresh --write-baseline",
        )
    baseline_path: Path | None = args.baseline
    if baseline_path is None and default_corpus and write_path is None:
        baseline_path = DEFAULT_BASELINE
    baseline = load_baseline(baseline_path) if baseline_path is not None else None

    corpus, digest = load_corpus(corpus_path)
    run = run_deterministic_benchmark(corpus, digest)
    comparison = compare_to_baseline(baseline, run) if baseline is not None else None

    exit_status = EXIT_PASS
    if comparison is not None and not comparison.no_regression:
        exit_status = EXIT_FAIL
    zero_failures = list(run.metrics.structural_zero_failures())
    written: str | None = None
    refused: str | None = None
    if write_path is not None:
        if zero_failures:
            refused = (
                "the structural zeros do not hold (" + ", ".join(zero_failures) + "); "
                "fix formation or retrieval before recording a baseline"
            )
            exit_status = EXIT_FAIL
        else:
            build_ref = args.build_ref or resolve_build_ref()
            recorded = Baseline.from_run(run, build_ref=build_ref, recorded_at=datetime.now(UTC))
            written = str(write_baseline(recorded, write_path))

    document: dict[str, Any] = {
        "arm": "deterministic",
        "passed": exit_status == EXIT_PASS,
        "result": run.model_dump(mode="json"),
        "ratios": display_ratios(run.metrics),
        "structural_zero_failures": zero_failures,
        "baseline": None
        if comparison is None
        else {
            "path": str(baseline_path),
            "no_regression": comparison.no_regression,
            "current": comparison.current,
            "comparison": comparison.model_dump(mode="json"),
        },
        "written_baseline": written,
        "refused_baseline": refused,
    }
    print(json.dumps(document, indent=2))
    console = Console(stderr=True)
    console.print(render_report(run, comparison))
    if written is not None:
        console.print(f"baseline recorded at {written}")
    if refused is not None:
        console.print(f"[red]baseline NOT recorded:[/red] {refused}", highlight=False)
    return exit_status


def register(groups: dict[str, Any]) -> None:
    """Add ``agent eval memory-benchmark``."""
    parser = groups["eval"].add_parser(
        "memory-benchmark",
        help="run the memory benchmark's deterministic arm against the baseline",
        description=(
            "Drive the benchmark corpus through real formation and retrieval under a fixed "
            "clock and compare the integer metrics with the checked-in baseline exactly. "
            "Exit 0 on a pass, 1 on drift or a regression, 2 on a usage error."
        ),
    )
    parser.add_argument(
        "--deterministic-only",
        action="store_true",
        help="run the deterministic arm only (required: the only arm in this build)",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="a corpus file in the benchmark schema (default: corpus/memory-benchmark.v1.json)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help=(
            "baseline to compare against (default for the checked-in corpus: "
            "corpus/memory-benchmark.baseline.json; none for --corpus)"
        ),
    )
    parser.add_argument(
        "--write-baseline",
        type=Path,
        default=None,
        metavar="PATH",
        help="record this run as a new baseline at PATH (an existing file is refused)",
    )
    parser.add_argument(
        "--build-ref",
        default=None,
        help="build reference recorded in a written baseline (default: git rev-parse HEAD)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help="evidence path of the live arm; refused with --deterministic-only",
    )
    parser.set_defaults(handler=_run)


__all__ = ["DEFAULT_BASELINE", "register", "resolve_build_ref"]
