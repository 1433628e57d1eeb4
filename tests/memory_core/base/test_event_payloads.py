"""Every event memory-core writes fits its type's payload model, field for field."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from memory_core import Event, Principal, Trust, UsageError
from memory_core.base.events import (
    PAYLOAD_MODELS,
    EventType,
    MemoryRecalled,
    RunCompleted,
    SessionClosed,
)
from memory_core.base.model import ToolCall
from memory_core.bootstrap import Composition, build
from memory_core.runtime import FakeModelScript, Run, ScriptedTurn

OWNER = Principal("tests", "owner")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = 86_400


def _failing_hook(run: Run) -> None:
    raise RuntimeError("a completion hook that fails")


def _busy_app() -> Composition:
    """A composition that has formed, superseded, conflicted, rejected, forgotten, decayed and
    retired, run with a tool call, a citation and a failing hook, and recorded working state."""
    script = FakeModelScript(
        turns=[
            ScriptedTurn(
                tool_calls=(
                    ToolCall(
                        id="c1",
                        name="memory.remember",
                        arguments={"statement": "User drinks green tea every morning."},
                    ),
                )
            ),
            ScriptedTurn(text="Noted."),
        ]
    )
    app = build(
        principal=OWNER,
        script=script,
        fixed_clock_at=T0,
        sequential_ids=True,
        completion_hooks=[_failing_hook],
    )
    first = app.sessions.create()
    said = app.sessions.record_user_message(first.id, "I live in Oslo. I prefer green tea.")
    app.sessions.establish_fact(first.id, "The user is in Oslo this week.", [said.event_id])
    app.sessions.close(first.id)
    app.advance(DAY)
    for text in ("I live in Bergen. I prefer green tea.", "I live in Tromso."):
        session = app.sessions.create()  # a later value supersedes; one as old conflicts
        app.sessions.record_user_message(session.id, text)
        app.sessions.close(session.id)
    run = app.sessions.create()
    app.runs.submit("I drink green tea every morning.", run.id)
    app.sessions.close(run.id)
    beliefs = app.memory.list_memories()
    app.memory.reject(next(b for b in beliefs if "Tromso" in b.statement).id)
    app.memory.forget(next(b for b in beliefs if "Oslo" in b.statement).id)
    worker = app.maintenance_factory()
    for _ in range(40):  # an affirmed belief decays a step a sweep, then retires
        app.advance(31 * DAY)
        worker.run_once()
    return app


def _all_events(app: Composition) -> list[Event]:
    return app.storage.events.page(OWNER, limit=10_000)


def test_every_event_type_has_one_payload_model() -> None:
    assert set(PAYLOAD_MODELS) == set(EventType)
    assert all(model.event_type is kind for kind, model in PAYLOAD_MODELS.items())


def test_every_written_payload_fits_its_model_with_no_field_left_over() -> None:
    events = _all_events(_busy_app())
    seen = set()
    for event in events:
        if event.payload == {"redacted": True, "reason": "forgotten"}:
            continue  # a forgotten belief's source event: its payload is the redaction marker
        kind = EventType(event.event_type)
        read = event.payload_as(PAYLOAD_MODELS[kind])
        assert read.model_extra == {}, (kind, read.model_extra)
        assert read.model_dump(exclude_unset=True, mode="json") == event.payload
        seen.add(kind)
    assert seen == set(EventType)  # the scenario reaches every type


def test_payload_as_reads_typed_fields_and_refuses_another_types_model() -> None:
    events = _all_events(_busy_app())
    completed = next(e for e in events if e.event_type == EventType.RUN_COMPLETED)
    run = completed.payload_as(RunCompleted)
    assert (run.status, run.steps, run.usage.output_tokens > 0) == ("completed", 2, True)
    closed = next(e for e in events if e.event_type == EventType.SESSION_CLOSED)
    assert closed.payload_as(SessionClosed).consolidated is True
    with pytest.raises(UsageError, match=r"'run.completed' event; MemoryRecalled is the payload"):
        completed.payload_as(MemoryRecalled)


def test_a_payload_missing_a_field_names_it() -> None:
    event = Event(
        event_id="e1",
        tenant_id="tests",
        principal_id="owner",
        event_type=EventType.MEMORY_RECALLED,
        actor="runtime",
        trust=Trust.SYSTEM,
        payload={"moment": "in_turn", "turn_id": None},
        created_at=T0,
    )
    with pytest.raises(ValidationError, match="trace_id"):
        event.payload_as(MemoryRecalled)
