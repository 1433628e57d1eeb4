"""memory_core.telemetry: declared instruments only, identifier-shaped attributes only, a
no-op without OpenTelemetry, and the README's list equal to the declared names."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from _support.metrics_reader import MetricsCapture
from hypothesis import given
from hypothesis import strategies as st

from memory_core.telemetry import (
    INSTRUMENTS,
    TelemetryAttributeError,
    check_attributes,
    telemetry,
)

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def capture() -> Iterator[MetricsCapture]:
    found = MetricsCapture()
    yield found
    found.close()


@pytest.mark.parametrize(
    "value",
    [
        "User lives in Seattle.",
        "/home/alice/data/locomo10.json",
        "data/locomo10.json",
        "C:\\data\\x.json",
        "sk-live abc",
        "",
        "x" * 97,
        1.5,
    ],
)
def test_free_text_paths_and_floats_are_refused(value: object) -> None:
    with pytest.raises(TelemetryAttributeError) as caught:
        check_attributes("memory.benchmark.runs", {"memory.arm": value})  # type: ignore[dict-item]
    assert str(value) not in str(caught.value) or value == ""


@given(
    st.text(max_size=20),
    st.sampled_from([" ", "/", "\\", "\n", "'", "<"]),
    st.text(max_size=20),
)
def test_no_text_with_a_space_slash_or_markup_passes(head: str, mark: str, tail: str) -> None:
    with pytest.raises(TelemetryAttributeError):
        check_attributes("memory.benchmark.runs", {"memory.arm": head + mark + tail})


def test_identifiers_pass() -> None:
    check_attributes(
        "memory.benchmark.recall.attributed",
        {
            "memory.arm": "deterministic",
            "memory.benchmark_version": "memory-benchmark@1",
            "memory.corpus_digest": "ab" * 32,
            "memory.category": "single_hop",
            "memory.moment": "in_turn_only",
        },
    )


def test_undeclared_names_and_keys_are_refused() -> None:
    with pytest.raises(TelemetryAttributeError, match="not a declared instrument"):
        check_attributes("memory.benchmark.secret_sauce", {})
    with pytest.raises(TelemetryAttributeError, match="not declared"):
        check_attributes("memory.benchmark.runs", {"memory.question": "x"})


def test_values_reach_an_in_memory_exporter(capture: MetricsCapture) -> None:
    capture.recorder.record("memory.benchmark.runs", 1, {"memory.arm": "deterministic"})
    capture.recorder.record("memory.benchmark.runs", 1, {"memory.arm": "deterministic"})
    capture.recorder.record("memory.benchmark.noise.ratio", 0.25, {"memory.category": "all"})
    capture.recorder.record("memory.benchmark.noise.ratio", None, {"memory.category": "x"})
    capture.recorder.record("memory.benchmark.duration", 2.5, {"memory.arm": "live"})
    assert capture.value("memory.benchmark.runs", **{"memory.arm": "deterministic"}) == 2
    assert capture.value("memory.benchmark.noise.ratio", **{"memory.category": "all"}) == 0.25
    assert capture.value("memory.benchmark.duration") == 2.5
    assert {p.unit for p in capture.points() if p.name == "memory.benchmark.duration"} == {"s"}
    assert not [p for p in capture.points() if p.attributes.get("memory.category") == "x"]


def test_without_opentelemetry_every_call_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry", None)
    recorder = telemetry()
    assert recorder.enabled is False
    recorder.record("memory.benchmark.runs", 1, {"memory.arm": "deterministic"})
    with pytest.raises(TelemetryAttributeError):  # still checked: a bug is a bug either way
        recorder.record("memory.benchmark.runs", 1, {"memory.arm": "a statement."})


def test_readme_lists_exactly_the_declared_instruments() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Tracked metrics (OpenTelemetry)", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `(memory\.[a-z_.]+)` \| (\w+) \| `([^`]+)` \|", section, re.M)
    assert [(n, k, u) for n, k, u in listed] == [(s.name, s.kind, s.unit) for s in INSTRUMENTS]
