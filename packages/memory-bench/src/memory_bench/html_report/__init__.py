"""One self-contained HTML page per benchmark run: inline SVG charts, no script, no fetch.

Reports are data; rendering is separate. A builder turns a result into a :class:`Page`
(:func:`deterministic_page`, :func:`live_page`, :func:`live_evidence_page`; the external
adapters' ``external_page`` lives in ``memory_bench_external``), :func:`render_page` renders it
with one Jinja2 template, and :func:`write_report` writes it once, atomically, refusing an
existing path. :func:`read_document` and :func:`classify` read a saved result for
``agent report``; a malformed one raises :class:`ReportInputError` naming the file and field.

Every bar in a chart carries ``data-group``, ``data-series`` and ``data-value`` attributes and
prints its figure beside it, so what a reader sees and what a test reads back are one number.
"""

from memory_bench.html_report._deterministic import deterministic_page
from memory_bench.html_report._documents import (
    DocumentKind,
    ReportInputError,
    classify,
    deterministic_document_page,
    live_document_page,
    read_document,
    validate_field,
)
from memory_bench.html_report._live import live_evidence_page, live_page
from memory_bench.html_report._page import (
    Bar,
    BarChart,
    Page,
    Section,
    Series,
    Table,
    Verdict,
    count_bar,
    fraction_label,
    provenance_rows,
    ratio_bar,
    ratio_label,
    ratio_of,
)
from memory_bench.html_report._render import prepare_report, render_page, write_report

__all__ = [
    "Bar",
    "BarChart",
    "DocumentKind",
    "Page",
    "ReportInputError",
    "Section",
    "Series",
    "Table",
    "Verdict",
    "classify",
    "count_bar",
    "deterministic_document_page",
    "deterministic_page",
    "fraction_label",
    "live_document_page",
    "live_evidence_page",
    "live_page",
    "prepare_report",
    "provenance_rows",
    "ratio_bar",
    "ratio_label",
    "ratio_of",
    "read_document",
    "render_page",
    "validate_field",
    "write_report",
]
