"""The HTML report: the charts' numbers equal the result's counts, the page is self-contained
and escaped, a snapshot pins its HTML, and the file is written once, atomically."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from _support.report_figures import (
    DETERMINISTIC,
    EXTERNAL,
    assert_bars_match,
    assert_deterministic_bars,
    assert_external_bars,
    drawn_bars,
    expected_live,
    live_result,
)

from memory_bench.artifacts import ArtifactExistsError
from memory_bench.html_report import (
    ReportInputError,
    classify,
    deterministic_document_page,
    live_page,
    read_document,
    render_page,
    validate_field,
    write_report,
)
from memory_bench_external import ExternalMetrics
from memory_bench_external.html_report import external_page

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
UPDATE_ENV = "REPORT_SNAPSHOT_UPDATE"
"""Set to 1 to re-record the HTML snapshots (then review the diff)."""


def _page_of(path: Path) -> object:
    document = read_document(path)
    assert classify(document, path) == "deterministic"
    return deterministic_document_page(document, path)


def deterministic_html() -> str:
    return render_page(deterministic_document_page(read_document(DETERMINISTIC), DETERMINISTIC))


def external_html() -> str:
    metrics = validate_field(ExternalMetrics, read_document(EXTERNAL), EXTERNAL, "")
    return render_page(external_page(metrics))


def live_html() -> str:
    return render_page(live_page(live_result()))


def test_deterministic_charts_show_the_counts(deterministic_document: dict[str, Any]) -> None:
    assert_deterministic_bars(deterministic_html(), deterministic_document)


def test_external_charts_show_both_arms_at_every_k(external_document: dict[str, Any]) -> None:
    assert external_document["ks"] == [1, 5, 10]
    assert_external_bars(external_html(), external_document)


def test_live_chart_shows_correct_answers_with_and_without_memory() -> None:
    result = live_result()
    assert_bars_match(drawn_bars(live_html()), expected_live(result))


def test_stacked_totals_add_up(deterministic_document: dict[str, Any]) -> None:
    html = deterministic_html()
    counts = deterministic_document["result"]["metrics"]["retrieval"]
    parts = [
        counts[f] for f in ("recalled_snapshot_only", "recalled_in_turn_only", "recalled_both")
    ]
    assert f"{parts[0]} + {parts[1]} + {parts[2]} = {counts['needed_recalled']}" in html


def test_baseline_lists_are_highlighted(deterministic_document: dict[str, Any]) -> None:
    html = deterministic_html()
    comparison = deterministic_document["baseline"]["comparison"]
    assert "Baseline: REGRESSION" in html
    for name, tone in (
        ("regressions", "bad"),
        ("improvements", "good"),
        ("shifts", "warn"),
        ("changes", "muted"),
    ):
        (difference,) = comparison[name]
        table = re.search(
            rf'<table class="data" data-table="baseline-{name}">(.*?)</table>', html, re.S
        )
        assert table is not None, name
        row = (
            f'<tr class="tone-{tone}"><td>{difference["key"]}</td>'
            f'<td class="num">{difference["baseline"]}</td>'
            f'<td class="num">{difference["current"]}</td></tr>'
        )
        assert row in table.group(1)


@pytest.mark.parametrize("render", [deterministic_html, external_html, live_html])
def test_page_is_self_contained(render: Any) -> None:
    html = render()
    assert "<script" not in html
    assert "<link" not in html
    assert not re.search(r"\ssrc=", html)
    urls = set(re.findall(r"https?://[^\s\"'<>]+", html))
    assert urls <= {"http://www.w3.org/2000/svg"}
    assert "default-src 'none'" in html


def test_no_local_path_in_a_page() -> None:
    # The live fixture names its provider evidence by an absolute path: only the name shows.
    html = live_html()
    assert "/home/someone" not in html
    assert "provider-formation.x.json" in html
    assert str(Path.cwd()) not in deterministic_html() + external_html()


def test_text_is_escaped(external_document: dict[str, Any]) -> None:
    hostile = "<img src=x onerror=alert(1)>"
    data = dict(external_document)
    memory = dict(data["memory"])
    memory["by_category"] = {**memory["by_category"], hostile: memory["by_category"]["temporal"]}
    data["memory"] = memory
    html = render_page(external_page(ExternalMetrics.model_validate(data)))
    assert hostile not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_rendering_is_a_function_of_the_result() -> None:
    assert deterministic_html() == deterministic_html()


@pytest.mark.parametrize(
    ("name", "render"),
    [
        ("deterministic", deterministic_html),
        ("external-locomo", external_html),
        ("live", live_html),
    ],
)
def test_html_snapshot(name: str, render: Any) -> None:
    snapshot = SNAPSHOTS / f"{name}.html"
    html = render()
    if os.environ.get(UPDATE_ENV) == "1":
        snapshot.write_text(html, encoding="utf-8")
    assert snapshot.is_file(), f"no snapshot {snapshot}; record it with {UPDATE_ENV}=1"
    assert html == snapshot.read_text(encoding="utf-8"), (
        f"the rendered HTML differs from {snapshot.name}; if the change is intended, "
        f"re-record with {UPDATE_ENV}=1 and review the diff"
    )


def test_write_refuses_an_existing_file(tmp_path: Path) -> None:
    page = deterministic_document_page(read_document(DETERMINISTIC), DETERMINISTIC)
    target = tmp_path / "report.html"
    target.write_text("keep me", encoding="utf-8")
    with pytest.raises(ArtifactExistsError):
        write_report(page, target)
    assert target.read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_write_is_whole_and_leaves_no_temporary(tmp_path: Path) -> None:
    page = deterministic_document_page(read_document(DETERMINISTIC), DETERMINISTIC)
    target = tmp_path / "nested" / "report.html"
    write_report(page, target)
    assert target.read_text(encoding="utf-8") == render_page(page)
    assert [p.name for p in target.parent.iterdir()] == ["report.html"]


@pytest.mark.parametrize(
    ("content", "field", "problem"),
    [
        ("not json", None, "not JSON"),
        ("[1, 2]", None, "a JSON list, not an object"),
        ('{"x": 1}', "arm", "missing"),
        ('{"arm": "sideways"}', "arm", "unknown arm 'sideways'"),
        ('{"arm": "deterministic"}', "result", "missing"),
        (
            '{"arm": "deterministic", "result": {"benchmark_version": 3}}',
            "result.benchmark_version",
            "valid string",
        ),
    ],
)
def test_malformed_result_names_file_and_field(
    tmp_path: Path, content: str, field: str | None, problem: str
) -> None:
    path = tmp_path / "result.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ReportInputError) as caught:
        _page_of(path)
    assert caught.value.field == field
    assert str(path) in str(caught.value)
    assert problem in str(caught.value)


def test_a_field_deep_in_the_comparison_is_named(
    tmp_path: Path, deterministic_document: dict[str, Any]
) -> None:
    deterministic_document["baseline"]["comparison"]["shifts"][0]["key"] = 7
    path = tmp_path / "result.json"
    path.write_text(json.dumps(deterministic_document), encoding="utf-8")
    with pytest.raises(ReportInputError) as caught:
        deterministic_document_page(read_document(path), path)
    assert caught.value.field == "baseline.comparison.shifts.0.key"


def test_missing_result_file(tmp_path: Path) -> None:
    with pytest.raises(ReportInputError, match="no such file"):
        read_document(tmp_path / "absent.json")
