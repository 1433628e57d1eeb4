"""An OpenTelemetry SDK provider with an in-memory reader, and its points read back flat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from memory_core.telemetry import Telemetry


@dataclass(frozen=True)
class Point:
    """One exported data point: the instrument's name, unit, attributes and value."""

    name: str
    unit: str
    attributes: dict[str, Any]
    value: float


class MetricsCapture:
    """A :class:`Telemetry` recording into an SDK provider whose reader keeps every point."""

    def __init__(self) -> None:
        self.reader = InMemoryMetricReader()
        self.provider = MeterProvider(metric_readers=[self.reader])
        self.recorder = Telemetry(self.provider)

    def points(self) -> list[Point]:
        """Every data point collected so far (a histogram's point carries its sum)."""
        data = self.reader.get_metrics_data()
        found: list[Point] = []
        if data is None:
            return found
        for resource in data.resource_metrics:
            for scope in resource.scope_metrics:
                for metric in scope.metrics:
                    for point in metric.data.data_points:
                        value = getattr(point, "value", None)
                        if value is None:
                            value = point.sum  # type: ignore[union-attr]
                        found.append(
                            Point(
                                metric.name,
                                metric.unit or "",
                                dict(point.attributes or {}),
                                float(value),
                            )
                        )
        return found

    def value(self, name: str, **attributes: Any) -> float:
        """The one point of ``name`` whose attributes include ``attributes``."""
        matches = [
            p
            for p in self.points()
            if p.name == name and all(p.attributes.get(k) == v for k, v in attributes.items())
        ]
        assert len(matches) == 1, (name, attributes, matches)
        return matches[0].value

    def close(self) -> None:
        self.provider.shutdown()
