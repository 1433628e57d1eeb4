"""The report as a person sees it: each fixed result's page loaded in headless Chromium.

The browser is driven over the DevTools protocol on a local pipe (``_support.chromium``; no
port, no network). A page must load with no console error or warning, no uncaught exception,
no error log entry (a Content-Security-Policy violation or a failed load lands there) and no
request but its own file; every bar the browser lays out must carry the figure derived from
the result's counts and be drawn at that length; and a screenshot is taken. Without Chromium
these tests skip locally and fail under CI=true.

``REPORT_SCREENSHOT=PATH`` also writes the deterministic page's screenshot to PATH: that is
how ``docs/benchmark-report.png`` (shown in the README) is produced.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _support.chromium import Browser, chromium_binary
from _support.report_figures import (
    DETERMINISTIC,
    DETERMINISTIC_STACKED,
    EXTERNAL,
    EXTERNAL_STACKED,
    ChartKey,
    assert_bars_match,
    expected_deterministic,
    expected_external,
    expected_live,
    live_result,
)

from memory_bench.html_report import (
    deterministic_document_page,
    live_page,
    read_document,
    render_page,
    validate_field,
)
from memory_bench_external import ExternalMetrics
from memory_bench_external.html_report import external_page

ROOT = Path(__file__).resolve().parents[3]
README_PNG = ROOT / "docs" / "benchmark-report.png"
SCREENSHOT_ENV = "REPORT_SCREENSHOT"
WIDTH = 820
"""CSS pixels the page is laid out in (and the screenshot's width)."""
README_HEIGHT = 2420
"""The README's screenshot stops here: through "where recall happened" (and under 300 KB)."""

_BARS_JS = """JSON.stringify([...document.querySelectorAll('svg[data-chart] g.bar')].map(g => {
  const svg = g.closest('svg');
  const text = g.querySelector('text.value');
  return [svg.dataset.chart, g.dataset.group, g.dataset.series, g.dataset.value,
          text ? text.textContent.trim() : '',
          g.querySelector('rect').getBBox().width,
          Number(svg.dataset.plotWidth), Number(svg.dataset.plotMax)];
}))"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with Browser(chromium_binary()) as running:
        yield running


def _deterministic() -> tuple[str, dict[ChartKey, Any], frozenset[str]]:
    page = deterministic_document_page(read_document(DETERMINISTIC), DETERMINISTIC)
    expected = expected_deterministic(json.loads(DETERMINISTIC.read_text(encoding="utf-8")))
    return render_page(page), expected, DETERMINISTIC_STACKED


def _external() -> tuple[str, dict[ChartKey, Any], frozenset[str]]:
    metrics = validate_field(ExternalMetrics, read_document(EXTERNAL), EXTERNAL, "")
    expected = expected_external(json.loads(EXTERNAL.read_text(encoding="utf-8")))
    return render_page(external_page(metrics)), expected, EXTERNAL_STACKED


def _live() -> tuple[str, dict[ChartKey, Any], frozenset[str]]:
    result = live_result()
    return render_page(live_page(result)), expected_live(result), frozenset()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize(
    ("name", "render"),
    [("deterministic", _deterministic), ("external", _external), ("live", _live)],
)
def test_page_loads_cleanly_and_draws_the_results_numbers(
    browser: Browser,
    tmp_path: Path,
    name: str,
    render: Callable[[], tuple[str, dict[ChartKey, Any], frozenset[str]]],
) -> None:
    html, expected, stacked = render()
    page = tmp_path / f"{name}.html"
    page.write_text(html, encoding="utf-8")

    session, load = browser.load(page, width=WIDTH)

    assert load.errors() == []
    assert load.requests == [page.resolve().as_uri()]
    rows = json.loads(browser.evaluate(session, _BARS_JS))
    drawn = {(c, g, s): (value, text) for c, g, s, value, text, *_ in rows}
    assert len(drawn) == len(rows), "a bar is drawn twice"
    assert_bars_match(drawn, expected, stacked=stacked)
    for chart, group, series, value, _, width, plot_width, plot_max in rows:
        length = 0.0 if value == "" else float(value) / plot_max * plot_width
        assert width == pytest.approx(length, abs=0.05), (chart, group, series)

    png = browser.screenshot(session)
    width, height = _png_size(png)
    assert width == WIDTH
    assert height > 600
    (tmp_path / f"{name}.png").write_bytes(png)
    target = os.environ.get(SCREENSHOT_ENV)
    if target and name == "deterministic":
        Path(target).write_bytes(browser.screenshot(session, max_height=README_HEIGHT))


def test_the_check_sees_console_errors_and_blocked_loads(browser: Browser, tmp_path: Path) -> None:
    # The same page with a script and a CDN image: the policy blocks both, and says so.
    html, _, _ = _deterministic()
    hostile = tmp_path / "hostile.html"
    hostile.write_text(
        html.replace(
            "</body>",
            '<script>document.title = "ran"</script>'
            '<img src="https://cdn.example.invalid/chart.png"></body>',
        ),
        encoding="utf-8",
    )
    session, load = browser.load(hostile)
    errors = load.errors()
    assert any("Content Security Policy" in e and "script" in e for e in errors), errors
    assert any("cdn.example.invalid" in e for e in errors), errors
    assert browser.evaluate(session, "document.title") != "ran"

    # Without a policy, console.error and an uncaught exception are both seen.
    plain = tmp_path / "plain.html"
    plain.write_text(
        "<!DOCTYPE html><title>t</title><script>console.error('boom')</script>"
        "<script>throw new Error('bang')</script>",
        encoding="utf-8",
    )
    _, load = browser.load(plain)
    assert [e["type"] for e in load.console] == ["error"]
    assert len(load.exceptions) == 1


def test_readme_shows_a_rendered_report() -> None:
    data = README_PNG.read_bytes()
    width, height = _png_size(data)
    assert (width, height) == (WIDTH, README_HEIGHT)
    assert len(data) < 300_000
    assert "docs/benchmark-report.png" in (ROOT / "README.md").read_text(encoding="utf-8")
