"""Render a :class:`Page` to one self-contained HTML file, and write it once, atomically.

Jinja2 renders the page: its autoescaping is on for every value (a dataset's category name or
a model's identifier is text, never markup), and the one template keeps the markup in one place
instead of in string concatenation. The page needs no script and loads nothing: styles are
inline, charts are inline SVG, and a Content-Security-Policy forbids every fetch.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jinja2

from memory_bench.artifacts import prepare_output, write_new_text
from memory_bench.html_report._layout import ChartLayout, layout_chart
from memory_bench.html_report._page import Page, Section

_TEMPLATE = "report.html.j2"


@dataclass(frozen=True, kw_only=True)
class _PlacedSection:
    """A section with its charts laid out (what the template iterates)."""

    key: str
    title: str
    verdicts: tuple[object, ...]
    layouts: tuple[ChartLayout, ...]
    tables: tuple[object, ...]
    notes: tuple[str, ...]


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("memory_bench.html_report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _place(section: Section) -> _PlacedSection:
    return _PlacedSection(
        key=section.key,
        title=section.title,
        verdicts=section.verdicts,
        layouts=tuple(layout_chart(chart) for chart in section.charts),
        tables=section.tables,
        notes=section.notes,
    )


def render_page(page: Page) -> str:
    """The HTML text of ``page``: a function of the page alone (no clock, no path)."""
    template = _environment().get_template(_TEMPLATE)
    placed = {
        "title": page.title,
        "summary": page.summary,
        "provenance": page.provenance,
        "sections": [_place(section) for section in page.sections],
    }
    return template.render(page=placed)


def prepare_report(path: Path) -> Path:
    """Refuse an existing ``path`` or an unwritable directory before any work is spent."""
    return prepare_output(Path(path))


def write_report(page: Page, path: Path) -> Path:
    """Render ``page`` and write it to ``path`` atomically; an existing file is refused.

    Raises:
        ArtifactExistsError: ``path`` exists (or appeared while writing).
        ArtifactWriteError: The directory cannot be created or written.
    """
    write_new_text(Path(path), render_page(page))
    return Path(path)


__all__ = ["prepare_report", "render_page", "write_report"]
