"""What a report page holds: provenance, sections, tables and charts, as plain values.

The page builders (:mod:`._deterministic`, :mod:`._live`, and the external adapters' own
builder) turn a result model into a :class:`Page`; :mod:`._render` lays the charts out as
inline SVG and renders the page with one Jinja2 template. Nothing here computes a metric: every
number a chart or table shows is handed in by a builder, which derives it from the result's
counts.

Charts carry both the value a bar is drawn at (``value``, a ratio or a count) and the text
printed beside it (``label``), so a reader and a test see the same figure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from memory_core.provenance import Provenance

Tone = Literal["plain", "good", "bad", "warn", "muted"]
"""How a verdict, a row or a list is highlighted (a CSS class of the template)."""

Scale = Literal["ratio", "count"]
"""A chart's value axis: ratios from 0 to 1, or counts from 0 to the largest value."""


def ratio_label(value: float | None) -> str:
    """A ratio as the report prints it: three decimals, or ``-`` when undefined."""
    return "-" if value is None else f"{value:.3f}"


def fraction_label(numerator: int, denominator: int) -> str:
    """``numerator / denominator`` as the report prints it, rounded once from the exact ratio
    (never from :func:`ratio_of`'s four places, which would round twice: 152/205 is 0.741)."""
    return "-" if denominator == 0 else f"{numerator / denominator:.3f}"


def ratio_of(numerator: int, denominator: int) -> float | None:
    """``numerator / denominator`` rounded to four places, ``None`` for a zero denominator.

    Four places is what a bar's ``data-value`` attribute carries (what a test reads back).
    """
    return None if denominator == 0 else round(numerator / denominator, 4)


@dataclass(frozen=True, kw_only=True)
class Series:
    """One kind of bar in a chart (one colour in its legend).

    Attributes:
        key: Machine name, written to every bar's ``data-series`` (e.g. ``noise_ratio``).
        name: Legend text.
        colour: Fill colour (``#rrggbb``).
    """

    key: str
    name: str
    colour: str


@dataclass(frozen=True, kw_only=True)
class Bar:
    """One bar: a group (a category, a distance, a ``k``), a series, and its figure.

    Attributes:
        group: The group's machine key, written to ``data-group``.
        series: The :attr:`Series.key` it belongs to.
        value: The length it is drawn at; ``None`` draws no bar and prints ``-``.
        label: The text printed beside the bar (e.g. ``0.750``).
        detail: The counts behind it, shown as the bar's tooltip (e.g. ``6/8``).
    """

    group: str
    series: str
    value: float | None
    label: str
    detail: str = ""


def ratio_bar(group: str, series: Series, numerator: int, denominator: int) -> Bar:
    """A ratio's bar: drawn at :func:`ratio_of`, printed by :func:`fraction_label`, n/d detail."""
    return Bar(
        group=group,
        series=series.key,
        value=ratio_of(numerator, denominator),
        label=fraction_label(numerator, denominator),
        detail=f"{numerator}/{denominator}",
    )


def count_bar(group: str, series: Series, count: int) -> Bar:
    """A count's bar, printed as the whole number."""
    return Bar(group=group, series=series.key, value=float(count), label=str(count))


@dataclass(frozen=True, kw_only=True)
class BarChart:
    """Horizontal bars, one row per group and one bar per series within it.

    ``stacked`` charts draw a group's series end to end (a partition, e.g. where recall
    happened) instead of one under another.
    """

    key: str
    title: str
    caption: str
    scale: Scale
    groups: tuple[tuple[str, str], ...]
    """``(machine key, display label)`` per group, in display order."""
    series: tuple[Series, ...]
    bars: tuple[Bar, ...]
    stacked: bool = False


@dataclass(frozen=True, kw_only=True)
class Table:
    """A plain table; ``tones`` highlights whole rows (``plain`` when shorter than ``rows``)."""

    key: str
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    tones: tuple[Tone, ...] = ()
    caption: str = ""

    def tone(self, index: int) -> Tone:
        """The highlight of row ``index``."""
        return self.tones[index] if index < len(self.tones) else "plain"


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """A one-line highlighted statement (the baseline verdict, a live outcome)."""

    text: str
    tone: Tone


@dataclass(frozen=True, kw_only=True)
class Section:
    """A headed part of the page: verdicts first, then charts, then tables, then notes."""

    key: str
    title: str
    verdicts: tuple[Verdict, ...] = ()
    charts: tuple[BarChart, ...] = ()
    tables: tuple[Table, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Page:
    """A whole report: a title, a summary line, the provenance rows and the sections."""

    title: str
    summary: str
    provenance: tuple[tuple[str, str], ...]
    sections: tuple[Section, ...] = field(default_factory=tuple)


__all__ = [
    "Bar",
    "BarChart",
    "Page",
    "Scale",
    "Section",
    "Series",
    "Table",
    "Tone",
    "Verdict",
    "ratio_label",
    "ratio_of",
]


def provenance_rows(provenance: Provenance) -> tuple[tuple[str, str], ...]:
    """The provenance table rows every page shows for the record its artifact embeds."""
    packages = ", ".join(f"{name} {version}" for name, version in provenance.packages.items())
    policies = provenance.policies
    return (
        ("commit", provenance.commit or "none (not a git checkout)"),
        ("dirty", "yes" if provenance.dirty else "no"),
        ("packages", packages or "not recorded"),
        ("formation policy", policies.formation),
        ("provider formation policy", policies.provider_formation),
        ("retrieval policy", policies.retrieval),
        ("recorded at", provenance.recorded_at.isoformat()),
    )
