"""Read a saved result file and tell which benchmark document it is.

A saved result is what a benchmark command printed or wrote: the deterministic arm's stdout
document (``"arm": "deterministic"``), the live arm's result document (``"arm": "live"``),
published live evidence, or an external run's metrics file or stdout document. The external
metrics are validated by ``memory_bench_external`` (which depends on this package); this module
validates the rest.

Errors::

    UsageError (memory_core.errors)
    └── ReportInputError   the file is missing, not JSON, not a benchmark result, or a field
                           does not fit its schema (the message names the file and field)
"""

from __future__ import annotations

import json
from pathlib import Path, PurePath
from typing import Literal, TypeVar

from pydantic import BaseModel, ValidationError

from memory_bench.baseline import BaselineComparison
from memory_bench.errors import BenchError
from memory_bench.html_report._deterministic import deterministic_page
from memory_bench.html_report._live import live_evidence_page, live_page
from memory_bench.html_report._page import Page
from memory_bench.live.arm import LiveBenchmarkResult
from memory_bench.live.evidence import MemoryBenchmarkEvidence, upgrade_evidence_document
from memory_bench.metrics import DeterministicRun
from memory_core.errors import UsageError

DocumentKind = Literal["deterministic", "live", "live-evidence", "external"]
"""The result documents ``agent report`` renders."""

EXTERNAL_METRICS_KIND = "memory-benchmark-external-metrics"
"""The ``kind`` field of an external metrics file."""

_ACCEPTED = (
    "pass the JSON a benchmark run printed or wrote: `agent eval memory-benchmark "
    "--deterministic-only > result.json`, a live result or evidence file, or an external "
    "run's --output metrics file"
)


class ReportInputError(BenchError, UsageError):
    """A saved result cannot be rendered; the message names the file, the field and what to do.

    Attributes:
        path: The file.
        field: The dotted field at fault (``None`` for the file as a whole).
    """

    def __init__(self, path: Path, field: str | None, problem: str) -> None:
        where = f"{path}" if field is None else f"{path}: field {field}"
        super().__init__(f"{where}: {problem}; {_ACCEPTED}")
        self.path = path
        self.field = field


def read_document(path: Path) -> dict[str, object]:
    """The JSON object in ``path``.

    Raises:
        ReportInputError: The file is missing or unreadable, is not JSON, or is not an object.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ReportInputError(path, None, "no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportInputError(path, None, f"cannot be read ({exc})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReportInputError(
            path, None, f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from exc
    if not isinstance(data, dict):
        raise ReportInputError(path, None, f"a JSON {type(data).__name__}, not an object")
    return data


def classify(document: dict[str, object], path: Path) -> DocumentKind:
    """Which benchmark document ``document`` is.

    Raises:
        ReportInputError: It is none of them (the ``arm`` or ``kind`` field is missing or
            unknown).
    """
    if document.get("kind") == EXTERNAL_METRICS_KIND:
        return "external"
    arm = document.get("arm")
    if arm == "external":
        return "external"
    if arm == "deterministic":
        return "deterministic"
    if arm == "live":
        return "live"
    # schema 3 evidence carries a provenance record; schema 2 carried evaluated_at
    stamped = "provenance" in document or "evaluated_at" in document
    if stamped and "counts" in document and "rows" in document:
        return "live-evidence"
    if arm is None:
        raise ReportInputError(path, "arm", "missing (not a benchmark result document)")
    raise ReportInputError(path, "arm", f"unknown arm {arm!r}")


_Model = TypeVar("_Model", bound=BaseModel)


def validate_field(model: type[_Model], data: object, path: Path, at: str) -> _Model:
    """``data`` validated as ``model``; a mismatch names ``at`` plus the first failing field.

    Raises:
        ReportInputError: ``data`` does not fit ``model``.
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        location = ".".join(str(part) for part in (at, *error["loc"]) if part != "")
        raise ReportInputError(path, location or None, str(error["msg"]).lower()) from exc


def _member(document: dict[str, object], name: str, path: Path) -> object:
    if name not in document:
        raise ReportInputError(path, name, "missing")
    return document[name]


def deterministic_document_page(document: dict[str, object], path: Path) -> Page:
    """The page of a deterministic arm's stdout document.

    Raises:
        ReportInputError: A field is missing or does not fit its schema.
    """
    run = validate_field(DeterministicRun, _member(document, "result", path), path, "result")
    baseline = document.get("baseline")
    comparison: BaselineComparison | None = None
    baseline_name: str | None = None
    if baseline is not None:
        if not isinstance(baseline, dict):
            raise ReportInputError(path, "baseline", "not an object or null")
        comparison = validate_field(
            BaselineComparison,
            _member(baseline, "comparison", path),
            path,
            "baseline.comparison",
        )
        name = baseline.get("path")
        baseline_name = PurePath(name).name if isinstance(name, str) and name else None
    zeros = document.get("structural_zero_failures", [])
    if not isinstance(zeros, list) or not all(isinstance(item, str) for item in zeros):
        raise ReportInputError(path, "structural_zero_failures", "not a list of strings")
    return deterministic_page(
        run, comparison, baseline_name=baseline_name, structural_zero_failures=tuple(zeros)
    )


def live_document_page(document: dict[str, object], path: Path) -> Page:
    """The page of a live result document or of published live evidence.

    Raises:
        ReportInputError: A field is missing or does not fit its schema.
    """
    if classify(document, path) == "live-evidence":
        evidence = upgrade_evidence_document(document)
        return live_evidence_page(validate_field(MemoryBenchmarkEvidence, evidence, path, ""))
    fields = {key: value for key, value in document.items() if key != "passed"}
    return live_page(validate_field(LiveBenchmarkResult, fields, path, ""))


__all__ = [
    "EXTERNAL_METRICS_KIND",
    "DocumentKind",
    "ReportInputError",
    "classify",
    "deterministic_document_page",
    "live_document_page",
    "read_document",
    "validate_field",
]
