"""``agent report RESULT.json -o PATH.html``, and the ``--report PATH.html`` of the benchmark.

::

    agent report RESULT.json -o PATH.html

Renders a saved result (the deterministic arm's stdout document, a live result or evidence
file, an external run's metrics file or stdout document) as one self-contained HTML page
(:mod:`memory_bench.html_report`): inline SVG charts, no script, nothing fetched. An existing
``-o`` path is refused before the result is read and the page is written atomically; a missing
or malformed result ends with a typed error naming the file and field (exit 2) and writes
nothing.

:func:`prepare_report_path` and :func:`write_run_report` are what ``agent eval
memory-benchmark --report`` calls: the path is checked before the run, the page written after.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from memory_core.errors import UsageError

if TYPE_CHECKING:
    from memory_bench.html_report import Page

EXIT_PASS = 0


def prepare_report_path(args: argparse.Namespace) -> Path | None:
    """Check ``--report`` before any work: a new ``.html`` path distinct from the other outputs.

    Raises:
        UsageError: The path is not ``.html``, is another output of the same command, exists,
            or cannot be written.
    """
    path: Path | None = getattr(args, "report", None)
    if path is None:
        return None
    if path.suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"--report {path}: name an .html file (the report is one HTML page)")
    for flag, name in (("--output", "output"), ("--write-baseline", "write_baseline")):
        other = getattr(args, name, None)
        if other is not None and Path(other).resolve() == path.resolve():
            raise UsageError(f"--report and {flag} name the same file {path}; give two paths")
    from memory_bench.html_report import prepare_report

    return prepare_report(path)


def write_run_report(page: Page, path: Path | None, console: Console) -> None:
    """Write ``page`` to ``path`` (when given) and say so on ``console``."""
    if path is None:
        return
    from memory_bench.html_report import write_report

    write_report(page, path)
    console.print(f"report written to {path}", markup=False, highlight=False, soft_wrap=True)


def page_for_result(path: Path) -> Page:
    """The report page of the saved result in ``path``.

    Raises:
        ReportInputError: The file is missing, not JSON, not a benchmark result, or a field
            does not fit its schema.
    """
    from memory_bench.html_report import (
        classify,
        deterministic_document_page,
        live_document_page,
        read_document,
        validate_field,
    )

    document = read_document(path)
    kind = classify(document, path)
    if kind == "deterministic":
        return deterministic_document_page(document, path)
    if kind in ("live", "live-evidence"):
        return live_document_page(document, path)
    from memory_bench_external import ExternalMetrics
    from memory_bench_external.html_report import external_page

    if document.get("arm") == "external":
        metrics = validate_field(ExternalMetrics, document.get("metrics"), path, "metrics")
    else:
        metrics = validate_field(ExternalMetrics, document, path, "")
    return external_page(metrics)


def _run(args: argparse.Namespace) -> int:
    output = prepare_report_path(args)
    assert output is not None  # -o is required by the parser
    page = page_for_result(args.result)
    write_run_report(page, output, Console(stderr=True))
    return EXIT_PASS


def register(groups: dict[str, Any]) -> None:
    """Add ``agent report``."""
    parser = groups[""].add_parser(
        "report",
        help="render a saved benchmark result as one self-contained HTML page",
        description=(
            "Render a saved benchmark result (the deterministic arm's JSON, a live result or "
            "evidence file, or an external run's metrics) as one HTML file with inline SVG "
            "charts: recall and noise per category, recall by session distance, where recall "
            "happened, the baseline comparison, formed memory against raw-turn BM25, and the "
            "run's provenance. Exit 0 on success, 2 on a usage error or a malformed result."
        ),
    )
    parser.add_argument("result", type=Path, metavar="RESULT.json", help="the saved result")
    parser.add_argument(
        "-o",
        "--output",
        dest="report",
        type=Path,
        required=True,
        metavar="PATH.html",
        help="the HTML file to write (an existing file is refused, never overwritten)",
    )
    parser.set_defaults(handler=_run)


__all__ = ["page_for_result", "prepare_report_path", "register", "write_run_report"]
