"""The specification's tracked metrics through the OpenTelemetry metrics API, or nothing.

``opentelemetry-api`` is an optional extra (``memory-core[telemetry]``). Without it every
recording call is a no-op; with it, values go to the global ``MeterProvider``, which is itself a
no-op until the operator installs an SDK and an exporter (e.g. ``opentelemetry-sdk`` with a
periodic OTLP reader, or ``opentelemetry-instrument``). A caller may pass its own provider
(tests pass one with an in-memory reader).

Every instrument is declared once in :data:`INSTRUMENTS` (the README lists the same names),
with the attribute keys it accepts. An attribute value must be an identifier-shaped string
(letters, digits and ``_ . : @ + -``, at most 96 characters: a category, an arm, a policy
version, a hex digest), an integer or a boolean, so no belief statement (it has spaces), no
local path (it has slashes) and no free text can reach a metric; anything else raises
:class:`TelemetryAttributeError` before it is recorded.

Errors::

    MemoryCoreError, ValueError (see memory_core.errors)
    └── TelemetryAttributeError   an undeclared instrument or attribute key, or an attribute
                                  value that is not identifier-shaped
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, Protocol, assert_never

from memory_core.errors import MemoryCoreError

if TYPE_CHECKING:
    from opentelemetry.metrics import MeterProvider

METER_NAME: Final = "memory"
"""The instrumentation scope every instrument is created in."""

InstrumentKind = Literal["counter", "gauge", "histogram"]

AttributeValue = str | int | bool


@dataclass(frozen=True, kw_only=True)
class InstrumentSpec:
    """One tracked metric: its name, kind, unit, meaning and the attribute keys it takes."""

    name: str
    kind: InstrumentKind
    unit: str
    description: str
    attributes: tuple[str, ...]


_RUN = ("memory.arm", "memory.benchmark_version", "memory.corpus_digest")
_EXTERNAL = (
    "memory.arm",
    "memory.dataset",
    "memory.license",
    "memory.sample",
    "memory.file_sha256",
    "memory.retriever",
    "memory.k",
)

INSTRUMENTS: Final[tuple[InstrumentSpec, ...]] = (
    InstrumentSpec(
        name="memory.benchmark.runs",
        kind="counter",
        unit="{run}",
        description="Benchmark runs, by arm, the corpus digest (or dataset) read, and outcome",
        attributes=(*_RUN, "memory.outcome", "memory.dataset"),
    ),
    InstrumentSpec(
        name="memory.benchmark.duration",
        kind="histogram",
        unit="s",
        description="Wall time of one benchmark run",
        attributes=("memory.arm", "memory.dataset"),
    ),
    InstrumentSpec(
        name="memory.benchmark.formation.precision",
        kind="gauge",
        unit="1",
        description="Formation precision: supported / formed",
        attributes=_RUN,
    ),
    InstrumentSpec(
        name="memory.benchmark.formation.recall",
        kind="gauge",
        unit="1",
        description="Formation recall: supported / expected",
        attributes=_RUN,
    ),
    InstrumentSpec(
        name="memory.benchmark.formation.fabricated",
        kind="gauge",
        unit="{belief}",
        description="Live beliefs matching no label",
        attributes=_RUN,
    ),
    InstrumentSpec(
        name="memory.benchmark.formation.stale_live",
        kind="gauge",
        unit="{belief}",
        description="Live beliefs matching only a superseded label",
        attributes=_RUN,
    ),
    InstrumentSpec(
        name="memory.benchmark.formation.unformed",
        kind="gauge",
        unit="{label}",
        description="Needed labels that never formed (the extractor's headroom)",
        attributes=_RUN,
    ),
    InstrumentSpec(
        name="memory.benchmark.recall.end_to_end",
        kind="gauge",
        unit="1",
        description="End-to-end recall: needed recalled / needed, per category and 'all'",
        attributes=(*_RUN, "memory.category"),
    ),
    InstrumentSpec(
        name="memory.benchmark.recall.given_formed",
        kind="gauge",
        unit="1",
        description="Retrieval recall given formed: needed recalled / needed formed",
        attributes=(*_RUN, "memory.category"),
    ),
    InstrumentSpec(
        name="memory.benchmark.noise.ratio",
        kind="gauge",
        unit="1",
        description="Returned beliefs matching no needed label / returned",
        attributes=(*_RUN, "memory.category"),
    ),
    InstrumentSpec(
        name="memory.benchmark.recall.attributed",
        kind="gauge",
        unit="{label}",
        description="Recalled needed labels by moment: snapshot_only, in_turn_only, both",
        attributes=(*_RUN, "memory.category", "memory.moment"),
    ),
    InstrumentSpec(
        name="memory.benchmark.dropped_for_budget",
        kind="gauge",
        unit="{belief}",
        description="Recalled beliefs dropped for the context budget",
        attributes=_RUN,
    ),
    InstrumentSpec(
        name="memory.benchmark.live.lift",
        kind="gauge",
        unit="{probe}",
        description="Live arm: probes correct with memory minus without",
        attributes=(*_RUN, "memory.outcome"),
    ),
    InstrumentSpec(
        name="memory.benchmark.live.recoverable_correct",
        kind="gauge",
        unit="1",
        description="Live arm: recoverable probes answered correctly / recoverable probes",
        attributes=(*_RUN, "memory.outcome"),
    ),
    InstrumentSpec(
        name="memory.benchmark.live.abstention_correct",
        kind="gauge",
        unit="1",
        description="Live arm: abstention probes abstained with memory / abstention probes",
        attributes=(*_RUN, "memory.outcome"),
    ),
    InstrumentSpec(
        name="memory.benchmark.live.cost",
        kind="gauge",
        unit="USD",
        description="Live arm: the run's total model cost",
        attributes=(*_RUN, "memory.outcome"),
    ),
    InstrumentSpec(
        name="memory.benchmark.external.recall_at_k",
        kind="gauge",
        unit="1",
        description="External datasets: evidence-provenance recall@k per retriever",
        attributes=_EXTERNAL,
    ),
    InstrumentSpec(
        name="memory.benchmark.external.words_at_k",
        kind="gauge",
        unit="{word}",
        description="External datasets: words of the first k items per probe, per retriever",
        attributes=_EXTERNAL,
    ),
)
"""Every tracked metric (the README's table lists exactly these names)."""

INSTRUMENTS_BY_NAME: Final = {spec.name: spec for spec in INSTRUMENTS}

_SAFE_VALUE = re.compile(r"[A-Za-z0-9_.:@+\-]{1,96}")


class TelemetryAttributeError(MemoryCoreError, ValueError):
    """An undeclared instrument or attribute key, or a value that is not identifier-shaped."""


def check_attributes(name: str, attributes: dict[str, AttributeValue]) -> None:
    """Refuse what must not reach a metric: an undeclared name or key, or free text.

    Raises:
        TelemetryAttributeError: ``name`` is not in :data:`INSTRUMENTS`, a key is not one
            the instrument declares, or a value is neither an int, a bool nor an
            identifier-shaped string.
    """
    spec = INSTRUMENTS_BY_NAME.get(name)
    if spec is None:
        raise TelemetryAttributeError(f"{name!r} is not a declared instrument")
    for key, value in attributes.items():
        if key not in spec.attributes:
            raise TelemetryAttributeError(f"{name}: attribute {key!r} is not declared")
        if isinstance(value, bool | int):
            continue
        if not isinstance(value, str) or not _SAFE_VALUE.fullmatch(value):
            raise TelemetryAttributeError(
                f"{name}: attribute {key} must be an identifier-shaped string, an int or a "
                f"bool (no statement, no path); got {type(value).__name__} of "
                f"{len(str(value))} characters"
            )


def _global_provider() -> MeterProvider | None:
    try:
        from opentelemetry import metrics
    except ImportError:
        return None
    return metrics.get_meter_provider()


class _Instrument(Protocol):
    """What every synchronous instrument offers: one call taking a value and attributes."""

    def __call__(self, value: float | int, attributes: dict[str, AttributeValue], /) -> None: ...


class Telemetry:
    """Records the tracked metrics into one ``MeterProvider`` (or nowhere, when ``None``)."""

    def __init__(self, provider: MeterProvider | None) -> None:
        self._provider = provider
        self._instruments: dict[str, _Instrument] = {}

    @property
    def enabled(self) -> bool:
        """False when OpenTelemetry is not installed (every call is then a no-op)."""
        return self._provider is not None

    def _instrument(self, provider: MeterProvider, spec: InstrumentSpec) -> _Instrument:
        found = self._instruments.get(spec.name)
        if found is not None:
            return found
        meter = provider.get_meter(METER_NAME)
        unit, description = spec.unit, spec.description
        made: _Instrument
        if spec.kind == "counter":
            made = meter.create_counter(spec.name, unit=unit, description=description).add
        elif spec.kind == "gauge":
            made = meter.create_gauge(spec.name, unit=unit, description=description).set
        elif spec.kind == "histogram":
            made = meter.create_histogram(spec.name, unit=unit, description=description).record
        else:
            assert_never(spec.kind)
        self._instruments[spec.name] = made
        return made

    def record(
        self, name: str, value: float | int | None, attributes: dict[str, AttributeValue]
    ) -> None:
        """Add (counter), set (gauge) or record (histogram) ``value`` under ``attributes``.

        A ``None`` value (a ratio with a zero denominator) records nothing; the attributes
        are checked either way.

        Raises:
            TelemetryAttributeError: See :func:`check_attributes`.
        """
        check_attributes(name, attributes)
        if self._provider is None or value is None:
            return
        self._instrument(self._provider, INSTRUMENTS_BY_NAME[name])(value, attributes)


def telemetry(provider: MeterProvider | None = None) -> Telemetry:
    """The recorder for ``provider``, else for the global provider, else a no-op one."""
    return Telemetry(provider if provider is not None else _global_provider())


__all__ = [
    "INSTRUMENTS",
    "INSTRUMENTS_BY_NAME",
    "METER_NAME",
    "InstrumentSpec",
    "Telemetry",
    "TelemetryAttributeError",
    "check_attributes",
    "telemetry",
]
