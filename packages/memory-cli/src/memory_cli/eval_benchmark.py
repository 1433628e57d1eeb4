"""``agent eval memory-benchmark``: the deterministic arm against the checked-in baseline, and
the live arm that publishes evidence.

::

    agent eval memory-benchmark --deterministic-only
        [--corpus PATH] [--baseline PATH] [--write-baseline PATH] [--build-ref REF]
    agent eval memory-benchmark --no-deterministic-only --output PATH --build-ref SHA
        [--model-policy P] [--policy-profile P] [--model M] [--base-url URL]
        [--prices PATH] [--timeout S] [--max-retries N] [--corpus PATH]
    agent eval memory-benchmark --external longmemeval|locomo|halumem --path FILE --output PATH
        [--sample N --seed S] [--principal-speaker a|b]        (see memory_cli.eval_external)

Runs the corpus (the checked-in ``corpus/memory-benchmark.v1.json`` by default) through the
deterministic arm, prints the result document as JSON on stdout and a rich summary on stderr,
and compares the run against a baseline: ``--baseline PATH``, or for the checked-in corpus the
checked-in ``corpus/memory-benchmark.baseline.json``. A ``--corpus`` run without ``--baseline``
reports metrics only.

``--write-baseline PATH`` records the run as a new baseline
(:func:`memory_bench.baseline.record_baseline`). An existing path is refused before anything
runs (re-recording is an explicit delete, then a write), ``--baseline`` with it is a usage error
(a recording is never compared against, or excused by, an older baseline), and a run whose
structural zeros do not hold (a protected fragment formed or rendered, a currency violation, a
false transfer, an abstention leak) is not recorded.

The live arm (``--no-deterministic-only``) runs only when ``RUN_LIVE_MODEL_TESTS=1`` (otherwise it
prints a skip document and exits 0 without building a model). It asks every probe with and
without memory through an OpenAI-compatible chat-completions model (``--model`` or
``MEMORY_MODEL``, ``--base-url`` or ``MEMORY_MODEL_BASE_URL``, key from ``MEMORY_MODEL_API_KEY``,
prices from the shipped catalog with ``--prices`` or ``MEMORY_MODEL_PRICES`` over it), under
the USD 4.00 pre-admission ceiling, and writes the evidence to ``--output`` only when every pass
condition holds. A model whose worst-case run (every step a full context window in and the full
output reservation out, at its catalog price) could cost more than the USD 0.05 per-run ceiling
is refused (exit 2) before any request. The first run is admitted only on valid provider
formation evidence (gate 20) for the current provider policy and the model, looked up in
``MEMORY_EVIDENCE_DIR`` or the nearest ``evidence/`` directory; without it the command exits 1
having sent and written nothing. An existing or unwritable ``--output`` is refused before
anything is spent. ``--policy-profile`` names the runtime policy (a shipped name or a YAML file;
default: the deterministic arm's probe policy) and ``--model-policy`` a YAML file replacing its
``model`` section (e.g. ``max_output_tokens: 512`` for a small local context window). The result
document is printed on stdout; the one-line summary, one line per incomplete run and each
failed condition on stderr.

Exit status: 0 on a pass or a clean live skip, 1 on drift, a regression, a refused recording or
a live failure, 2 on a usage error (including an ``--output``, which the deterministic arm
refuses: it publishes no evidence). The benchmark package is imported lazily, inside the handler.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from memory_cli.eval_external import add_external_arguments, run_if_external
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


LIVE_ONLY_OPTIONS: tuple[tuple[str, str], ...] = (
    ("model", "--model"),
    ("base_url", "--base-url"),
    ("model_policy", "--model-policy"),
    ("policy_profile", "--policy-profile"),
    ("prices", "--prices"),
    ("timeout", "--timeout"),
    ("max_retries", "--max-retries"),
)
"""Options only the live arm reads (refused with --deterministic-only rather than ignored)."""

DETERMINISTIC_ONLY_OPTIONS: tuple[tuple[str, str], ...] = (
    ("baseline", "--baseline"),
    ("write_baseline", "--write-baseline"),
)
"""Options only the deterministic arm reads (refused with --no-deterministic-only)."""


def _run(args: argparse.Namespace) -> int:
    external = run_if_external(args)
    if external is not None:
        return external
    if args.deterministic_only is None:
        raise UsageError(
            "name the arm: --deterministic-only (the CI arm, compared with the baseline) or "
            "--no-deterministic-only (the live arm; needs --output, --build-ref and "
            "RUN_LIVE_MODEL_TESTS=1)"
        )
    if not args.deterministic_only:
        return _run_live(args)
    given = [flag for name, flag in LIVE_ONLY_OPTIONS if getattr(args, name) is not None]
    if given:
        raise UsageError(
            f"{', '.join(given)} configure the live arm's model and are refused with "
            "--deterministic-only; pass --no-deterministic-only to run the live arm"
        )
    if args.output is not None:
        raise UsageError(
            "--output is refused for the deterministic arm: it publishes no evidence file; "
            "its result is printed on stdout and its fixed point is --write-baseline"
        )

    from memory_bench.artifacts import ArtifactExistsError, prepare_output
    from memory_bench.baseline import (
        BaselineExistsError,
        BaselineRefusedError,
        compare_to_baseline,
        load_baseline,
        record_baseline,
    )
    from memory_bench.corpus import load_corpus
    from memory_bench.driver import run_deterministic_benchmark
    from memory_bench.metrics import display_ratios
    from memory_bench.report import render_report
    from memory_bench.shipped import BASELINE, CORPUS_V1, corpus_file

    default_corpus = args.corpus is None
    # the checkout's corpus/ file, else the copy installed with memory-bench
    corpus_path: Path = corpus_file(CORPUS_V1) if default_corpus else args.corpus
    if default_corpus and not corpus_path.is_file():
        raise UsageError(
            f"the checked-in corpus {corpus_path} is not here; run from the repository root "
            "or pass --corpus PATH"
        )
    write_path: Path | None = args.write_baseline
    if write_path is not None and args.baseline is not None:
        raise UsageError(
            "--write-baseline records a new baseline and --baseline compares against an old "
            "one; pass one of them (re-recording is an explicit removal of the old file, then "
            "--write-baseline alone)"
        )
    if write_path is not None:
        try:
            prepare_output(write_path)
        except ArtifactExistsError as exc:
            raise BaselineExistsError(
                write_path,
                "a baseline already exists here and is never overwritten; re-recording is an "
                "explicit removal (git rm or rm) followed by a fresh --write-baseline",
            ) from exc
    baseline_path: Path | None = args.baseline
    if baseline_path is None and default_corpus and write_path is None:
        baseline_path = corpus_file(BASELINE)  # DEFAULT_BASELINE, or the installed copy
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
        try:
            written = str(
                record_baseline(
                    run,
                    write_path,
                    build_ref=args.build_ref or resolve_build_ref(),
                    recorded_at=datetime.now(UTC),
                )
            )
        except BaselineRefusedError as exc:
            refused = str(exc)
            exit_status = EXIT_FAIL

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
        console.print(
            f"baseline recorded at {written}", markup=False, highlight=False, soft_wrap=True
        )
    if refused is not None:
        console.print(
            Text.assemble(("baseline NOT recorded:", "red"), " ", refused),
            highlight=False,
            soft_wrap=True,
        )
    return exit_status


def _run_live(args: argparse.Namespace) -> int:
    given = [flag for name, flag in DETERMINISTIC_ONLY_OPTIONS if getattr(args, name) is not None]
    if given:
        raise UsageError(
            f"{', '.join(given)} belong to the deterministic arm; the live arm publishes "
            "evidence with --output instead"
        )
    if args.output is None:
        raise UsageError(
            "--output PATH is required for the live arm: the evidence file it publishes "
            "(an existing file is refused, never overwritten)"
        )
    if not args.build_ref:
        raise UsageError(
            "--build-ref SHA is required for the live arm: the commit the evidence names"
        )

    from memory_bench.corpus import load_corpus
    from memory_bench.live.arm import (
        LiveBenchmarkResult,
        live_policy_profile,
        live_skip_reason,
        load_model_policy,
        run_live_benchmark,
    )
    from memory_core.runtime.model import Model
    from memory_core.runtime.openai_compat import OpenAICompatibleModel
    from memory_core.runtime.pricing import PriceCatalog

    console = Console(stderr=True, highlight=False, soft_wrap=True)
    reason = live_skip_reason()
    if reason is not None:
        skipped = LiveBenchmarkResult(outcome="skipped", skip_reason=reason)
        print(skipped.model_dump_json(indent=2))
        console.print(skipped.summary_line(), markup=False)
        return EXIT_PASS

    from memory_bench.shipped import CORPUS_V1, corpus_file

    corpus_path: Path = corpus_file(CORPUS_V1) if args.corpus is None else args.corpus
    if args.corpus is None and not corpus_path.is_file():
        raise UsageError(
            f"the checked-in corpus {corpus_path} is not here; run from the repository root "
            "or pass --corpus PATH"
        )
    model_policy = load_model_policy(args.model_policy) if args.model_policy else None
    profile = live_policy_profile(args.policy_profile, model_policy=model_policy)
    corpus, digest = load_corpus(corpus_path)
    timeout = 60.0 if args.timeout is None else args.timeout

    def model_factory() -> Model:
        return OpenAICompatibleModel(
            model=args.model,
            base_url=args.base_url,
            timeout_seconds=timeout,
            max_retries=2 if args.max_retries is None else args.max_retries,
            prices=PriceCatalog.load(args.prices),
            # The per-run cost bound assumes the reply is capped on the wire.
            max_output_tokens=profile.model.max_output_tokens,
        )

    result = run_live_benchmark(
        corpus,
        digest,
        output=args.output,
        build_ref=args.build_ref,
        model_factory=model_factory,
        policy_profile=profile,
    )
    print(result.model_dump_json(indent=2))
    for line in result.diagnostics():
        console.print(line, markup=False)
    return EXIT_PASS if result.passed else EXIT_FAIL


def register(groups: dict[str, Any]) -> None:
    """Add ``agent eval memory-benchmark``."""
    parser = groups["eval"].add_parser(
        "memory-benchmark",
        help="run the memory benchmark: the deterministic arm, or the live arm",
        description=(
            "Drive the benchmark corpus through real formation and retrieval under a fixed "
            "clock and compare the integer metrics with the checked-in baseline exactly "
            "(--deterministic-only), or ask every probe with and without memory through a "
            "real model and publish evidence when every pass condition holds "
            "(--no-deterministic-only, only with RUN_LIVE_MODEL_TESTS=1). Exit 0 on a pass or "
            "a clean live skip, 1 on drift, a regression or a live failure, 2 on a usage error."
        ),
    )
    parser.add_argument(
        "--deterministic-only",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=(
            "run the deterministic arm (CI); --no-deterministic-only runs the live arm "
            "(a real model, a USD 4.00 ceiling); one of the two is required"
        ),
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
        help=(
            "build reference recorded in a written baseline (default: git rev-parse HEAD); "
            "required for the live arm, whose evidence names it"
        ),
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help=(
            "evidence path of the live arm (required there; an existing file is refused "
            "before anything is spent); refused with --deterministic-only"
        ),
    )
    live = parser.add_argument_group(
        "live arm", "options of --no-deterministic-only (refused with --deterministic-only)"
    )
    live.add_argument("--model", default=None, help="model identifier (default: MEMORY_MODEL)")
    live.add_argument(
        "--base-url",
        default=None,
        help=(
            "chat-completions base URL, e.g. http://127.0.0.1:11434/v1 for Ollama "
            "(default: MEMORY_MODEL_BASE_URL, else OpenAI)"
        ),
    )
    live.add_argument(
        "--policy-profile",
        default=None,
        metavar="P",
        help=(
            "runtime policy profile of every run: a shipped name or a YAML file (default: the "
            "deterministic arm's probe policy, no tools, USD 0.05 per run)"
        ),
    )
    live.add_argument(
        "--model-policy",
        type=Path,
        default=None,
        metavar="P",
        help="YAML file replacing the profile's model section (e.g. max_output_tokens: 512)",
    )
    live.add_argument(
        "--prices",
        type=Path,
        default=None,
        metavar="PATH",
        help=(
            "price catalog YAML merged over the shipped one (default: MEMORY_MODEL_PRICES); "
            "a model priced at zero aborts the arm"
        ),
    )
    live.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="seconds per model request (default 60)",
    )
    live.add_argument(
        "--max-retries",
        type=int,
        default=None,
        help=(
            "adapter retries of a transient failure (429, 5xx, timeout) within one call "
            "(default 2); a run still failing is asked once more by the harness"
        ),
    )
    add_external_arguments(parser)
    parser.set_defaults(handler=_run)


__all__ = ["DEFAULT_BASELINE", "register", "resolve_build_ref"]
