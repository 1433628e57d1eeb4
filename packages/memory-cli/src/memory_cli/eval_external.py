"""``agent eval memory-benchmark --external``: a public dataset through the deterministic arm.

::

    agent eval memory-benchmark --external longmemeval|locomo|halumem --path FILE
        --output PATH [--sample N --seed S] [--principal-speaker a|b] [--split dev|test|all]

Reads the operator's local copy of LongMemEval, LoCoMo or HaluMem, runs the selected instances
through real formation and retrieval beside the BM25 raw-turn baseline, and writes a metrics
file to ``--output``: dataset, license, sample, seed, the sha256 of the file, both arms'
evidence-provenance recall@k beside the words returned at each k, noise and tokens per probe,
the evidence tally and the caveats. The file holds no statement, no secret and no local path.
``--split dev|test|all`` (LoCoMo) runs the fixed partition by ``sample_id`` (default ``all``).

``--report PATH.html`` also writes the run as one HTML page (formed memory against raw-turn BM25
at every k with the words each returned). ``--output`` is required and an existing path (of
either file) is refused before any work; a malformed file
ends with a typed error naming the file, record and field (exit 2) and nothing is written; the
write is atomic. A progress bar shows checking, ingestion and probing on a terminal (stderr);
the JSON result is printed on stdout. An external run records no baseline.

:func:`add_external_arguments` adds the options to the ``memory-benchmark`` parser and
:func:`run_if_external` is the handler's dispatch; the benchmark packages are imported lazily.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from memory_core.errors import UsageError

if TYPE_CHECKING:  # rich's console, progress and tables load when a run starts, not at start-up
    from rich.console import Console
    from rich.progress import TaskID
    from rich.table import Table

    from memory_bench_external import DatasetSource, ExternalInstance, ExternalMetrics

EXIT_PASS = 0

DATASETS: tuple[str, ...] = ("longmemeval", "locomo", "halumem")
"""The datasets ``--external`` accepts."""

DATASET_HELP = (
    "What each dataset needs. "
    "longmemeval (MIT): --path to longmemeval_oracle.json, longmemeval_s_cleaned.json or "
    "longmemeval_m_cleaned.json, a JSON list of 500 questions; the user is the principal and "
    "single-session-assistant questions are reported separately (zero by design). "
    "locomo (CC BY-NC 4.0): --path to locomo10.json, a JSON list of 10 conversations; "
    "--principal-speaker a|b (default a) picks whose turns form memory, and only questions "
    "whose evidence lies in that speaker's turns are scored; --split dev|test|all (default all) "
    "runs the fixed partition by sample_id (dev: conv-26, 30, 41, 42, 43, the conversations "
    "to tune on; test: conv-44, 47, 48, 49, 50, for the operator's figure only). "
    "halumem (CC BY-NC-ND 4.0): --path to HaluMem-Medium.jsonl or HaluMem-Long.jsonl, JSON "
    "Lines with one user per line; memory points are also scored end to end as labeled "
    "beliefs. "
    "Every dataset needs --output PATH (a new file: the metrics, which name the dataset, "
    "license, sample, seed and the file's sha256 and hold no dataset text and no local path). "
    "The data stays on this machine. --sample N --seed S runs a reproducible subset."
)

EXTERNAL_ONLY: tuple[tuple[str, str], ...] = (
    ("path", "--path"),
    ("sample", "--sample"),
    ("seed", "--seed"),
    ("principal_speaker", "--principal-speaker"),
    ("split", "--split"),
)
"""Options only an external run reads (refused without --external rather than ignored)."""

REFUSED_WITH_EXTERNAL: tuple[tuple[str, str], ...] = (
    ("corpus", "--corpus"),
    ("baseline", "--baseline"),
    ("write_baseline", "--write-baseline"),
    ("dirty_reason", "--dirty-reason"),
    ("build_ref", "--build-ref"),
    ("model", "--model"),
    ("base_url", "--base-url"),
    ("policy_profile", "--policy-profile"),
    ("model_policy", "--model-policy"),
    ("prices", "--prices"),
    ("timeout", "--timeout"),
    ("max_retries", "--max-retries"),
)
"""Options of the corpus arms that an external run refuses rather than ignores."""


def add_external_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``--external`` option group to the ``memory-benchmark`` parser."""
    group = parser.add_argument_group("external datasets", DATASET_HELP)
    group.add_argument(
        "--external",
        choices=DATASETS,
        default=None,
        help="run a public dataset from a local file instead of the corpus (needs --path and "
        "--output)",
    )
    group.add_argument(
        "--path",
        type=Path,
        default=None,
        metavar="FILE",
        help="the local copy of the dataset file (read only; never copied)",
    )
    group.add_argument(
        "--sample",
        type=int,
        default=None,
        metavar="N",
        help="run N instances chosen reproducibly by --seed (default: every instance)",
    )
    group.add_argument(
        "--seed", type=int, default=None, metavar="S", help="sampling seed (default 0)"
    )
    group.add_argument(
        "--principal-speaker",
        choices=("a", "b"),
        default=None,
        help="LoCoMo only: speaker_a or speaker_b is the principal (default a)",
    )
    group.add_argument(
        "--split",
        choices=("dev", "test", "all"),
        default=None,
        help="LoCoMo only: the fixed partition by sample_id to run (default all); a "
        "conversation in neither list runs only under all",
    )


def run_if_external(args: argparse.Namespace) -> int | None:
    """Run the external arm when ``--external`` was given, else return ``None``.

    Raises:
        UsageError: External options without ``--external``, or an invalid external run.
    """
    if getattr(args, "external", None) is None:
        given = [flag for name, flag in EXTERNAL_ONLY if getattr(args, name, None) is not None]
        if given:
            raise UsageError(
                f"{', '.join(given)} apply only to an external dataset run; pass "
                "--external longmemeval|locomo|halumem with --path FILE and --output PATH"
            )
        return None
    return run_external_command(args)


def _check(args: argparse.Namespace) -> Path:
    if getattr(args, "deterministic_only", None) is False:
        raise UsageError(
            "the live arm does not run external datasets in this build; omit "
            "--no-deterministic-only (an external run is the deterministic arm)"
        )
    refused = [
        flag for name, flag in REFUSED_WITH_EXTERNAL if getattr(args, name, None) is not None
    ]
    if refused:
        raise UsageError(
            f"{', '.join(refused)} are refused with --external: an external run reads the "
            "dataset file, records no baseline and writes only its metrics file"
        )
    if args.path is None:
        raise UsageError(f"--path FILE is required with --external {args.external}")
    if args.output is None:
        raise UsageError(
            "--output PATH is required with --external: the metrics file the run writes "
            "(an existing file is refused, never overwritten)"
        )
    if args.seed is not None and args.sample is None:
        raise UsageError("--seed selects the sample; pass --sample N with it")
    if args.principal_speaker is not None and args.external != "locomo":
        raise UsageError("--principal-speaker applies to --external locomo only")
    if args.split is not None and args.external != "locomo":
        raise UsageError("--split applies to --external locomo only (its dev/test partition)")
    output: Path = args.output
    return output


def _open(args: argparse.Namespace) -> DatasetSource:
    from memory_bench_external import open_halumem, open_locomo, open_longmemeval

    seed = 0 if args.seed is None else args.seed
    if args.external == "longmemeval":
        return open_longmemeval(args.path, sample=args.sample, seed=seed)
    if args.external == "locomo":
        return open_locomo(
            args.path,
            sample=args.sample,
            seed=seed,
            principal_speaker=args.principal_speaker or "a",
            split=args.split or "all",
        )
    return open_halumem(args.path, sample=args.sample, seed=seed)


class _ProgressBar:
    """Checking, ingestion and probing as three rich tasks on stderr (a terminal only)."""

    def __init__(self, console: Console, records: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        )
        self._checking: TaskID = self._progress.add_task("checking records", total=records)
        self._sessions: TaskID = self._progress.add_task("ingesting sessions", total=0)
        self._probes: TaskID = self._progress.add_task("answering probes", total=0)
        self._session_total = 0
        self._probe_total = 0

    def __enter__(self) -> _ProgressBar:
        self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._progress.stop()

    def checked(self, instance: ExternalInstance) -> None:
        self._session_total += len(instance.sessions)
        self._probe_total += sum(1 for probe in instance.probes if probe.scored)
        self._progress.update(self._sessions, total=self._session_total)
        self._progress.update(self._probes, total=self._probe_total)
        self._progress.advance(self._checking)

    def started(self, instance: ExternalInstance) -> None:
        del instance

    def session_formed(self) -> None:
        self._progress.advance(self._sessions)

    def probe_answered(self) -> None:
        self._progress.advance(self._probes)


def _summary(metrics: ExternalMetrics) -> Table:
    from rich.table import Table

    split = f", split {metrics.split.name}" if metrics.split is not None else ""
    table = Table(
        title=f"{metrics.dataset} ({metrics.license}){split}, {metrics.sample_size} of "
        f"{metrics.population} instances, {metrics.probes.run} probes run",
        title_justify="left",
    )
    table.add_column("arm")
    for k in metrics.ks:
        table.add_column(f"recall@{k}", justify="right")
    table.add_column("noise", justify="right")
    table.add_column("tokens/probe", justify="right")

    def cell(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    for name, arm in (("memory", metrics.memory), ("raw turns (bm25)", metrics.raw_turn_bm25)):
        table.add_row(
            name,
            *(cell(arm.recall_at_k.recall[str(k)]) for k in metrics.ks),
            cell(arm.noise_ratio),
            "-" if arm.tokens_per_probe is None else f"{arm.tokens_per_probe:.1f}",
        )
    return table


def _words(metrics: ExternalMetrics) -> Table:
    """The words each arm returned at every k (mean per probe counted by recall@k)."""
    from rich.table import Table

    table = Table(title="words returned per probe (the cost of recall@k)", title_justify="left")
    table.add_column("arm")
    for k in metrics.ks:
        table.add_column(f"words@{k}", justify="right")
    for name, arm in (("memory", metrics.memory), ("raw turns (bm25)", metrics.raw_turn_bm25)):
        per_probe = arm.words_at_k.per_probe
        table.add_row(
            name,
            *("-" if per_probe[str(k)] is None else f"{per_probe[str(k)]:.1f}" for k in metrics.ks),
        )
    return table


def _forming(metrics: ExternalMetrics) -> str:
    """How many of the principal's turns formed a belief (cited as a source by any belief)."""
    formation = metrics.formation
    share = formation.forming_share()
    percent = "-" if share is None else f"{share:.1%}"
    return (
        f"principal turns forming a belief: {formation.forming_turns:,} of "
        f"{formation.principal_turns:,} ({percent})"
    )


def run_external_command(args: argparse.Namespace) -> int:
    """Run ``--external`` and write its metrics file; return the exit status.

    Raises:
        UsageError: Invalid options, an existing or unwritable ``--output`` (refused before
            the dataset is read), or a malformed dataset file (``DatasetError``, naming file,
            record and field).
    """
    output = _check(args)
    from memory_bench.artifacts import prepare_output, write_new_text
    from memory_bench.source_tree import read_source_tree
    from memory_bench_external import ExternalMetrics, run_external
    from memory_cli.report import prepare_report_path, write_run_report

    prepare_output(output)
    report_path = prepare_report_path(args)
    from rich.console import Console

    console = Console(stderr=True, highlight=False, soft_wrap=True)
    started = time.monotonic()
    source = _open(args)
    if console.is_terminal:
        with _ProgressBar(console, len(source.selected)) as bar:
            run = run_external(source, progress=bar)
    else:
        run = run_external(source)
    metrics = ExternalMetrics.from_run(
        run, source=read_source_tree(), recorded_at=datetime.now(UTC)
    )
    from memory_bench_external.telemetry import record_external_metrics

    record_external_metrics(metrics, wall_seconds=time.monotonic() - started)
    write_new_text(output, metrics.to_json())
    document: dict[str, Any] = {
        "arm": "external",
        "passed": True,
        "written": str(output),
        "metrics": metrics.model_dump(mode="json"),
    }
    print(json.dumps(document, indent=2))
    console.print(_summary(metrics))
    console.print(_words(metrics))
    console.print(_forming(metrics), markup=False)
    console.print(f"metrics written to {output}", markup=False)
    if report_path is not None:
        from memory_bench_external.html_report import external_page

        write_run_report(external_page(metrics), report_path, console)
    return EXIT_PASS


__all__ = [
    "DATASETS",
    "DATASET_HELP",
    "add_external_arguments",
    "run_external_command",
    "run_if_external",
]
