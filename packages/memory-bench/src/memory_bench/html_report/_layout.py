"""Geometry of a bar chart: where each bar, label, tick and legend entry goes in the SVG.

The template draws what :func:`layout_chart` places and computes nothing itself. Bars are
horizontal so long group labels (category names, dataset categories) read without rotation.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory_bench.html_report._page import BarChart, Series

WIDTH = 740
"""The SVG's width in user units (it scales down with the page)."""

_LABEL_COLUMN = 170
_PLOT = 450
_BAR = 14
_BAR_GAP = 3
_STACK_BAR = 20
_GROUP_GAP = 12
_LEGEND = 26
_AXIS = 24
_INSIDE_MIN = 26


@dataclass(frozen=True, kw_only=True)
class PlacedBar:
    """A bar's rectangle, its data attributes and its printed label's position."""

    x: float
    y: float
    width: float
    height: float
    colour: str
    group: str
    series: str
    value: str
    """The drawn value as written to ``data-value`` (empty for an undefined value)."""
    label: str
    label_x: float
    label_y: float
    label_inside: bool
    detail: str


@dataclass(frozen=True, kw_only=True)
class PlacedText:
    """A text anchored at ``(x, y)``."""

    x: float
    y: float
    text: str


@dataclass(frozen=True, kw_only=True)
class LegendEntry:
    """One series' swatch and name."""

    x: float
    series: Series


@dataclass(frozen=True, kw_only=True)
class ChartLayout:
    """Everything the template draws for one chart."""

    chart: BarChart
    width: int
    height: float
    plot_x: float
    plot_width: float
    maximum: float
    """The value a bar the whole plot width long stands for."""
    plot_top: float
    plot_bottom: float
    bars: tuple[PlacedBar, ...]
    group_labels: tuple[PlacedText, ...]
    totals: tuple[PlacedText, ...]
    """Stacked charts only: each group's parts and sum printed after its stack."""
    ticks: tuple[PlacedText, ...]
    legend: tuple[LegendEntry, ...]


def data_value(value: float | None) -> str:
    """A drawn value as written to ``data-value``: an integer as is, else four decimals."""
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.4f}"


def _maximum(chart: BarChart) -> float:
    if chart.scale == "ratio":
        return 1.0
    if chart.stacked:
        totals: dict[str, float] = {}
        for bar in chart.bars:
            totals[bar.group] = totals.get(bar.group, 0.0) + (bar.value or 0.0)
        top = max(totals.values(), default=0.0)
    else:
        top = max((bar.value or 0.0 for bar in chart.bars), default=0.0)
    return top if top > 0 else 1.0


def _tick_text(chart: BarChart, value: float) -> str:
    if chart.scale == "ratio":
        return f"{value:.2f}"
    return f"{value:.4g}"


def _legend(chart: BarChart) -> tuple[LegendEntry, ...]:
    entries = []
    x = float(_LABEL_COLUMN)
    for series in chart.series:
        entries.append(LegendEntry(x=x, series=series))
        x += 28 + 7 * len(series.name)
    return tuple(entries)


def layout_chart(chart: BarChart) -> ChartLayout:
    """Place every bar, label, tick and legend entry of ``chart``."""
    top = _maximum(chart)
    plot = _PLOT - 90 if chart.stacked else _PLOT
    colours = {series.key: series.colour for series in chart.series}
    order = {series.key: index for index, series in enumerate(chart.series)}
    by_group: dict[str, list[int]] = {}
    for index, bar in enumerate(chart.bars):
        by_group.setdefault(bar.group, []).append(index)
    y = float(_LEGEND + 6)
    plot_top = y
    bars: list[PlacedBar] = []
    labels: list[PlacedText] = []
    totals: list[PlacedText] = []
    for key, display in chart.groups:
        members = sorted(by_group.get(key, []), key=lambda i: order[chart.bars[i].series])
        rows = 1 if chart.stacked else max(len(members), 1)
        row_height = _STACK_BAR if chart.stacked else _BAR
        block = rows * row_height + (rows - 1) * (0 if chart.stacked else _BAR_GAP)
        labels.append(PlacedText(x=_LABEL_COLUMN - 8, y=y + block / 2 + 4, text=display))
        x = float(_LABEL_COLUMN)
        for row, index in enumerate(members):
            bar = chart.bars[index]
            length = 0.0 if bar.value is None else plot * max(bar.value, 0.0) / top
            bar_y = y if chart.stacked else y + row * (_BAR + _BAR_GAP)
            bar_x = x if chart.stacked else float(_LABEL_COLUMN)
            inside = chart.stacked and length >= _INSIDE_MIN
            bars.append(
                PlacedBar(
                    x=round(bar_x, 2),
                    y=round(bar_y, 2),
                    width=round(length, 2),
                    height=row_height,
                    colour=colours[bar.series],
                    group=bar.group,
                    series=bar.series,
                    value=data_value(bar.value),
                    label=bar.label,
                    label_x=round(bar_x + length / 2 if inside else bar_x + length + 5, 2),
                    label_y=round(bar_y + row_height / 2 + 4, 2),
                    label_inside=inside,
                    detail=bar.detail,
                )
            )
            if chart.stacked:
                x += length
        if chart.stacked:
            parts = [chart.bars[index] for index in members]
            total = sum(bar.value or 0.0 for bar in parts)
            totals.append(
                PlacedText(
                    x=round(x + 6, 2),
                    y=round(y + row_height / 2 + 4, 2),
                    text=" + ".join(bar.label for bar in parts) + f" = {data_value(total)}",
                )
            )
        y += block + _GROUP_GAP
    plot_bottom = y - _GROUP_GAP + 4
    ticks = tuple(
        PlacedText(
            x=round(_LABEL_COLUMN + plot * fraction, 2),
            y=plot_bottom + 16,
            text=_tick_text(chart, top * fraction),
        )
        for fraction in (0.0, 0.25, 0.5, 0.75, 1.0)
    )
    return ChartLayout(
        chart=chart,
        width=WIDTH,
        height=plot_bottom + _AXIS,
        plot_x=_LABEL_COLUMN,
        plot_width=plot,
        maximum=top,
        plot_top=plot_top,
        plot_bottom=plot_bottom,
        bars=tuple(bars),
        group_labels=tuple(labels),
        totals=tuple(totals),
        ticks=ticks,
        legend=_legend(chart),
    )


__all__ = ["WIDTH", "ChartLayout", "LegendEntry", "PlacedBar", "PlacedText", "layout_chart"]
