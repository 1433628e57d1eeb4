"""``agent eval memory-benchmark``: the deterministic arm against the checked-in baseline, and
the live arm that publishes evidence.

::

    agent eval memory-benchmark --deterministic-only
        [--corpus PATH] [--baseline PATH] [--write-baseline PATH [--dirty-reason TEXT]]
        [--report PATH.html]
    agent eval memory-benchmark --no-deterministic-only --output PATH [--build-ref SHA]
        [--model-policy P] [--policy-profile P] [--model M] [--base-url URL]
        [--prices PATH] [--timeout S] [--max-retries N] [--corpus PATH]
    agent eval memory-benchmark --no-deterministic-only --limit-scenarios N [--build-ref SHA]
        [the live options]                 (a smoke run: never publishes evidence)
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
false transfer, an abstention leak) is not recorded. So is a run from a dirty tree: when a
tracked file of the working directory's git checkout differs from ``HEAD`` (the baseline path
itself excepted, so ``git rm`` then ``--write-baseline`` is clean), or the directory is no git
checkout, the recording is refused before anything runs unless ``--dirty-reason TEXT`` says
why; the reason is recorded in the baseline beside its provenance record (``commit`` and
``dirty: true``, read from git; :mod:`memory_bench.provenance`).

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
anything is spent. The evidence's provenance record names the commit and dirty flag git
reports for the working directory; ``--build-ref SHA`` (optional) refuses the run unless it
is that commit (or a prefix of at least seven digits). ``--policy-profile`` names the runtime
policy (a shipped name or a YAML file; default: the deterministic arm's probe policy) and
``--model-policy`` a YAML file replacing its ``model`` section (e.g. ``max_output_tokens: 512``
for a small local context window). The result document is printed on stdout; the one-line
summary, one line per incomplete run and each failed condition on stderr, after one progress
line per probe arm as the run goes.
``--limit-scenarios N`` makes it a smoke run over the first N scenarios that never publishes
evidence (``outcome: smoke``; ``--output`` is refused); it exits 0 when every probe arm it
asked was answered, 1 otherwise.

``--report PATH.html`` (every arm, external runs included) also writes the run as one
self-contained HTML page (:mod:`memory_bench.html_report`; ``agent report`` renders a saved
result the same way); the path is refused before anything runs when it exists.

Exit status: 0 on a pass or a clean live skip, 1 on drift, a regression, a refused recording or
a live failure, 2 on a usage error (including an ``--output``, which the deterministic arm
refuses: it publishes no evidence). The benchmark package is imported lazily, inside the handler.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from memory_cli.eval_external import add_external_arguments, run_if_external
from memory_cli.report import prepare_report_path, write_run_report
from memory_core.errors import UsageError

EXIT_PASS = 0
EXIT_FAIL = 1


LIVE_ONLY_OPTIONS: tuple[tuple[str, str], ...] = (
    ("model", "--model"),
    ("base_url", "--base-url"),
    ("model_policy", "--model-policy"),
    ("policy_profile", "--policy-profile"),
    ("prices", "--prices"),
    ("timeout", "--timeout"),
    ("max_retries", "--max-retries"),
    ("limit_scenarios", "--limit-scenarios"),
    ("build_ref", "--build-ref"),
)
"""Options only the live arm reads (refused with --deterministic-only rather than ignored)."""

DETERMINISTIC_ONLY_OPTIONS: tuple[tuple[str, str], ...] = (
    ("baseline", "--baseline"),
    ("write_baseline", "--write-baseline"),
    ("dirty_reason", "--dirty-reason"),
)
"""Options only the deterministic arm reads (refused with --no-deterministic-only)."""


def _run(args: argparse.Namespace) -> int:
    external = run_if_external(args)
    if external is not None:
        return external
    if args.deterministic_only is None:
        raise UsageError(
            "name the arm: --deterministic-only (the CI arm, compared with the baseline) or "
            "--no-deterministic-only (the live arm; needs --output and "
            "RUN_LIVE_MODEL_TESTS=1)"
        )
    if not args.deterministic_only:
        return _run_live(args)
    given = [flag for name, flag in LIVE_ONLY_OPTIONS if getattr(args, name) is not None]
    if given:
        raise UsageError(
            f"{', '.join(given)} configure the live arm and are refused with "
            "--deterministic-only (a written baseline names the commit git reports); pass "
            "--no-deterministic-only to run the live arm"
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
        check_source_tree,
        compare_to_baseline,
        load_baseline,
        record_baseline,
    )
    from memory_bench.corpus import load_corpus
    from memory_bench.driver import run_deterministic_benchmark
    from memory_bench.metrics import display_ratios
    from memory_bench.report import render_report
    from memory_bench.shipped import BASELINE, CORPUS_V1, corpus_file
    from memory_bench.source_tree import SourceTree, read_source_tree

    if args.dirty_reason is not None and args.write_baseline is None:
        raise UsageError(
            "--dirty-reason explains a --write-baseline recorded from a dirty tree; pass it "
            "with --write-baseline PATH"
        )
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
    source: SourceTree | None = None
    if write_path is not None:
        try:
            prepare_output(write_path)
        except ArtifactExistsError as exc:
            raise BaselineExistsError(
                write_path,
                "a baseline already exists here and is never overwritten; re-recording is an "
                "explicit removal (git rm or rm) followed by a fresh --write-baseline",
            ) from exc
        # Refused before the run, and checked again by record_baseline.
        source = read_source_tree(ignore=(write_path,))
        check_source_tree(write_path, source, args.dirty_reason)
    report_path = prepare_report_path(args)
    baseline_path: Path | None = args.baseline
    if baseline_path is None and default_corpus and write_path is None:
        baseline_path = corpus_file(BASELINE)  # corpus/ in the checkout, or the installed copy
    baseline = load_baseline(baseline_path) if baseline_path is not None else None

    from memory_bench.telemetry import record_deterministic_run

    started = time.monotonic()
    corpus, digest = load_corpus(corpus_path)
    run = run_deterministic_benchmark(corpus, digest)
    record_deterministic_run(run, wall_seconds=time.monotonic() - started)
    comparison = compare_to_baseline(baseline, run) if baseline is not None else None

    exit_status = EXIT_PASS
    if comparison is not None and not comparison.no_regression:
        exit_status = EXIT_FAIL
    zero_failures = list(run.metrics.structural_zero_failures())
    written: str | None = None
    refused: str | None = None
    if write_path is not None and source is not None:
        try:
            written = str(
                record_baseline(
                    run,
                    write_path,
                    source=source,
                    recorded_at=datetime.now(UTC),
                    dirty_reason=args.dirty_reason,
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
        excuse = "" if args.dirty_reason is None else f" from a dirty tree ({args.dirty_reason})"
        console.print(
            f"baseline recorded at {written}{excuse}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    if refused is not None:
        console.print(
            Text.assemble(("baseline NOT recorded:", "red"), " ", refused),
            highlight=False,
            soft_wrap=True,
        )
    if report_path is not None:
        from memory_bench.html_report import deterministic_page

        page = deterministic_page(
            run,
            comparison,
            baseline_name=None if baseline_path is None else baseline_path.name,
            structural_zero_failures=tuple(zero_failures),
        )
        write_run_report(page, report_path, console)
    return exit_status


def _run_live(args: argparse.Namespace) -> int:
    given = [flag for name, flag in DETERMINISTIC_ONLY_OPTIONS if getattr(args, name) is not None]
    if given:
        raise UsageError(
            f"{', '.join(given)} belong to the deterministic arm; the live arm publishes "
            "evidence with --output instead"
        )
    smoke = args.limit_scenarios is not None
    if smoke and args.output is not None:
        raise UsageError(
            "--limit-scenarios runs a smoke test that never publishes evidence; drop --output"
        )
    if args.output is None and not smoke:
        raise UsageError(
            "--output PATH is required for the live arm: the evidence file it publishes "
            "(an existing file is refused, never overwritten)"
        )

    from memory_bench.corpus import load_corpus
    from memory_bench.html_report import live_page
    from memory_bench.live.arm import (
        LiveBenchmarkResult,
        live_policy_profile,
        live_skip_reason,
        load_model_policy,
        run_live_benchmark,
    )
    from memory_core.base.model import Model
    from memory_core.runtime.openai_compat import OpenAICompatibleModel
    from memory_core.runtime.pricing import PriceCatalog

    report_path = prepare_report_path(args)
    console = Console(stderr=True, highlight=False, soft_wrap=True)
    reason = live_skip_reason()
    if reason is not None:
        skipped = LiveBenchmarkResult(outcome="skipped", skip_reason=reason)
        print(skipped.model_dump_json(indent=2))
        console.print(skipped.summary_line(), markup=False)
        write_run_report(live_page(skipped), report_path, console)
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

    from memory_bench.telemetry import record_live_result

    started = time.monotonic()
    result = run_live_benchmark(
        corpus,
        digest,
        output=args.output,
        build_ref=args.build_ref,
        model_factory=model_factory,
        policy_profile=profile,
        limit_scenarios=args.limit_scenarios,
        progress=lambda line: console.print(line, markup=False),
    )
    record_live_result(result, wall_seconds=time.monotonic() - started)
    print(result.model_dump_json(indent=2))
    for line in result.diagnostics():
        console.print(line, markup=False)
    write_run_report(live_page(result), report_path, console)
    if result.outcome == "smoke":
        finished = result.stopped_by is None and not result.incomplete
        return EXIT_PASS if finished else EXIT_FAIL
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
        "--dirty-reason",
        default=None,
        metavar="TEXT",
        help=(
            "with --write-baseline: record from a checkout whose tracked files differ from "
            "HEAD (refused otherwise), and record TEXT as the reason"
        ),
    )
    parser.add_argument(
        "--build-ref",
        default=None,
        help=(
            "live arm only: the commit under test; refused unless it is (a prefix of) the "
            "checkout's HEAD, which the evidence's provenance records"
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
        help="seconds to wait for a reply (per read; default 60); a read timeout is not re-sent",
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
    live.add_argument(
        "--limit-scenarios",
        type=int,
        default=None,
        metavar="N",
        help=(
            "smoke run: only the first N scenarios, every check a full run makes, progress "
            "on stderr; NEVER publishes evidence (--output is refused); exit 0 when every "
            "probe arm was answered"
        ),
    )
    parser.add_argument(
        "--report",
        type=Path,
        default=None,
        metavar="PATH.html",
        help=(
            "also write the run as one self-contained HTML page with its charts, provenance "
            "and baseline comparison (any arm; an existing file is refused before the run)"
        ),
    )
    add_external_arguments(parser)
    parser.set_defaults(handler=_run)


__all__ = ["register"]
