"""Shared helpers of the runtime tests: a composition under a fixed clock and sequential ids."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from memory_core import Principal
from memory_core.bootstrap import Composition, build
from memory_core.domain import Event
from memory_core.runtime.scripted import FakeModelScript, ScriptedTurn

RUNTIME_T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

Compose = Callable[..., Composition]


@pytest.fixture
def compose() -> Compose:
    """Build a composition whose model plays ``turns`` (``on_exhausted`` default repeat_last)."""

    def _compose(
        turns: Sequence[ScriptedTurn] = (ScriptedTurn(text="OK."),),
        *,
        on_exhausted: str = "repeat_last",
        **kwargs: Any,
    ) -> Composition:
        script = FakeModelScript(turns=list(turns), on_exhausted=on_exhausted)  # type: ignore[arg-type]
        kwargs.setdefault("fixed_clock_at", RUNTIME_T0)
        kwargs.setdefault("sequential_ids", True)
        kwargs.setdefault("principal", Principal("tests", "runtime"))
        return build(script=script, **kwargs)

    return _compose


RunEvents = Callable[[Composition, str], list[Event]]


@pytest.fixture
def run_events() -> RunEvents:
    """A function returning every event a run wrote, in order."""

    def _run_events(app: Composition, run_id: str) -> list[Event]:
        return [e for e in app.events.page(app.principal, limit=10_000) if e.run_id == run_id]

    return _run_events
