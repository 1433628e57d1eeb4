"""Recording on every tier: one unit of work, idempotent retries, the input gate, closed sessions.

Fault injection: a record's two steps are the session update (``touch``) and the event append;
a fault between them, or right after both inside the unit, leaves nothing behind, and a retry
with the same idempotency key stores the message once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from memory_core import (
    ConflictError,
    Event,
    FakeModelScript,
    MessageTextError,
    NotFoundError,
    ScriptedTurn,
    SessionClosedError,
    SessionService,
    Storage,
    StorageUnavailableError,
    UsageError,
)
from memory_core.base.events import EventWriter
from memory_core.bootstrap import Composition, build
from memory_core.domain import Principal
from memory_core.text_gate import MAX_MESSAGE_BYTES

OWNER = Principal("tests", "owner")

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class _Fault(RuntimeError):
    """The injected failure."""


def _user_messages(app: Composition, session_id: str) -> list[Event]:
    return [
        e
        for e in app.events.read_session(app.principal, session_id)
        if e.event_type == "user.message.created"
    ]


def test_a_fault_between_the_session_update_and_the_append_leaves_nothing(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    app.advance(30)
    calls: list[str] = []
    touch = storage.sessions.touch

    def touch_then_record(*args: Any, **kwargs: Any) -> Any:
        calls.append("touch")
        return touch(*args, **kwargs)

    def failing_append(event: Event) -> Event:
        calls.append("append")
        raise _Fault("the event log failed after the session was updated")

    monkeypatch.setattr(storage.sessions, "touch", touch_then_record)
    monkeypatch.setattr(storage.events, "append", failing_append)
    with pytest.raises(_Fault):
        app.sessions.record_user_message(session.id, "I live in Oslo.", idempotency_key="m-1")
    assert calls == ["touch", "append"]  # the fault really fell between the two steps
    monkeypatch.undo()
    assert _user_messages(app, session.id) == []
    assert app.sessions.get(session.id).last_activity_at == T0  # the update was undone

    retried = app.sessions.record_user_message(session.id, "I live in Oslo.", idempotency_key="m-1")
    assert app.sessions.get(session.id).last_activity_at == app.clock.now()
    again = app.sessions.record_user_message(session.id, "I live in Oslo.", idempotency_key="m-1")
    assert again == retried
    assert [e.event_id for e in _user_messages(app, session.id)] == [retried.event_id]
    assert retried.payload == {"text": "I live in Oslo.", "idempotency_key": "m-1"}


def test_a_fault_after_both_steps_inside_the_unit_leaves_nothing(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    append = storage.events.append

    def append_then_fail(event: Event) -> Event:
        append(event)  # stored inside the unit ...
        raise _Fault("the reply was lost after the append")  # ... then the unit fails

    monkeypatch.setattr(storage.events, "append", append_then_fail)
    with pytest.raises(_Fault):
        app.sessions.record_user_message(session.id, "I work at Acme.", idempotency_key="m-2")
    monkeypatch.undo()
    assert _user_messages(app, session.id) == []
    stored = app.sessions.record_user_message(session.id, "I work at Acme.", idempotency_key="m-2")
    assert [e.event_id for e in _user_messages(app, session.id)] == [stored.event_id]
    closure = app.sessions.close(session.id)
    assert closure.consolidation is not None and closure.consolidation.committed == 1


def test_an_unavailable_store_mid_record_leaves_nothing(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()

    def unavailable(event: Event) -> Event:
        raise StorageUnavailableError("the server went away")

    monkeypatch.setattr(storage.events, "append", unavailable)
    with pytest.raises(StorageUnavailableError):
        app.sessions.record_assistant_message(session.id, "Hello!")
    monkeypatch.undo()
    assert app.events.read_session(app.principal, session.id)[-1].event_type == "session.opened"


def test_an_idempotency_key_reused_for_another_message_is_a_conflict(storage: Storage) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    first = app.sessions.record_user_message(session.id, "I live in Oslo.", idempotency_key="k")
    with pytest.raises(ConflictError, match="different message"):
        app.sessions.record_user_message(session.id, "I live in Rome.", idempotency_key="k")
    with pytest.raises(ConflictError, match="different message"):
        app.sessions.record_assistant_message(session.id, "I live in Oslo.", idempotency_key="k")
    other = app.sessions.create()
    elsewhere = app.sessions.record_user_message(other.id, "I live in Oslo.", idempotency_key="k")
    assert elsewhere.event_id != first.event_id  # keys are scoped to one session
    for bad in ("", "x" * 201, "a\x00b"):
        with pytest.raises(UsageError, match="idempotency_key"):
            app.sessions.record_user_message(session.id, "hello", idempotency_key=bad)
    assert [e.event_id for e in _user_messages(app, session.id)] == [first.event_id]


def test_a_retry_after_the_close_returns_what_the_first_attempt_stored(storage: Storage) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    stored = app.sessions.record_user_message(session.id, "I live in Oslo.", idempotency_key="k")
    app.sessions.close(session.id)
    assert app.sessions.record_user_message(session.id, "I live in Oslo.", idempotency_key="k") == (
        stored
    )
    with pytest.raises(SessionClosedError):
        app.sessions.record_user_message(session.id, "I live in Oslo.", idempotency_key="new")
    assert not app.sessions.get(session.id).is_open


def test_a_closed_session_refuses_every_write_and_stays_closed(storage: Storage) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    said = app.sessions.record_user_message(session.id, "Please remember that I live in Oslo.")
    closed = app.sessions.close(session.id).session
    app.advance(60)
    writes: list[Callable[[], object]] = [
        lambda: app.sessions.record_user_message(session.id, "I live in Rome."),
        lambda: app.sessions.record_assistant_message(session.id, "Noted."),
        lambda: app.sessions.establish_fact(session.id, "The user lives in Oslo.", [said.event_id]),
        lambda: app.memory.remember(
            "User lives in Oslo.", session_id=session.id, source_event_id=said.event_id
        ),
    ]
    for write in writes:
        with pytest.raises(SessionClosedError, match=f"session {session.id} is closed"):
            write()
    assert app.sessions.get(session.id) == closed
    assert app.events.read_session(app.principal, session.id)[-1].event_type == "session.closed"
    with pytest.raises(NotFoundError):
        app.sessions.record_user_message("no-such-session", "hello")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("I live in Oslo\x00. I work at Acme.", "nul"),
        ("I live in Oslo\ud800.", "surrogate"),
        ("\ud83d\ude00 pair left unjoined", "surrogate"),
        ("\u200b", "empty"),
        (" \u200b\u2060\ufeff\n\t", "empty"),
        ("", "empty"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
        ("é" * (MAX_MESSAGE_BYTES // 2 + 1), "too_large"),  # bytes, not characters
    ],
)
def test_the_input_gate_refuses_identically_on_every_tier(
    storage: Storage, text: str, problem: str
) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    for record in (app.sessions.record_user_message, app.sessions.record_assistant_message):
        with pytest.raises(MessageTextError) as refused:
            record(session.id, text)
        assert refused.value.problem == problem
        assert str(refused.value).startswith("text ")
    assert app.events.read_session(app.principal, session.id)[-1].event_type == "session.opened"
    assert app.sessions.get(session.id).last_activity_at == T0


def test_the_gate_accepts_text_up_to_the_bound_and_keeps_it_verbatim(storage: Storage) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create()
    exact = "a" * (MAX_MESSAGE_BYTES - 3) + "€"  # 3 bytes: exactly the bound
    assert len(exact.encode()) == MAX_MESSAGE_BYTES
    assert app.sessions.record_user_message(session.id, exact).payload["text"] == exact
    joined = "I\u200bprefer tea 😀 \u202eok"
    stored = app.sessions.record_user_message(session.id, joined)
    assert app.storage.events.get(app.principal, stored.event_id) == stored
    assert stored.payload["text"] == joined


def test_build_configures_the_bound_for_records_and_prompts(storage: Storage) -> None:
    app = build(
        principal=OWNER,
        storage=storage,
        fixed_clock_at=T0,
        sequential_ids=True,
        max_message_bytes=1024 * 1024,
        script=FakeModelScript(turns=[ScriptedTurn(text="ok")]),
    )
    assert app.sessions.max_message_bytes == 1024 * 1024
    session = app.sessions.create()
    big = "I live in Oslo. " * 8192  # 128 KiB: over the default, within this bound
    assert app.sessions.record_assistant_message(session.id, big).payload["text"] == big
    prompt = "hi " * 30_000  # 90 KB: past the default bound, through this one
    run = app.runs.submit(prompt, session.id)
    assert run.status.value == "context_overflow"  # recorded, then too big for the window
    assert _user_messages(app, session.id)[-1].payload["text"] == prompt
    with pytest.raises(MessageTextError, match="over the 1048576-byte bound"):
        app.runs.submit("x" * (1024 * 1024 + 1), session.id)


def test_the_size_bound_is_configurable() -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    small = SessionService(
        storage=app.storage,
        clock=app.clock,
        ids=app.ids,
        writer=EventWriter(events=app.storage.events, clock=app.clock, ids=app.ids),
        recaller=app.memory.retriever,
        consolidator=app.memory.service,
        profiles=app.profiles,
        snapshot_budget=app.plan.snapshot,
        principal=app.principal,
        max_message_bytes=16,
    )
    assert small.max_message_bytes == 16
    session = small.create()
    small.record_user_message(session.id, "x" * 16)
    with pytest.raises(MessageTextError, match="over the 16-byte bound"):
        small.record_user_message(session.id, "x" * 17)
    with pytest.raises(UsageError, match="max_message_bytes"):
        SessionService(
            storage=app.storage,
            clock=app.clock,
            ids=app.ids,
            writer=EventWriter(events=app.storage.events, clock=app.clock, ids=app.ids),
            recaller=app.memory.retriever,
            consolidator=app.memory.service,
            profiles=app.profiles,
            snapshot_budget=app.plan.snapshot,
            principal=app.principal,
            max_message_bytes=0,
        )


def test_a_run_prompt_passes_the_same_gate_before_anything_is_written(storage: Storage) -> None:
    app = build(
        principal=OWNER,
        storage=storage,
        fixed_clock_at=T0,
        sequential_ids=True,
        script=FakeModelScript(turns=[ScriptedTurn(text="x")]),
    )
    session = app.sessions.create()
    with pytest.raises(MessageTextError, match="prompt contains a NUL") as refused:
        app.runs.submit("hi\x00", session.id)
    assert refused.value.problem == "nul"
    assert app.events.read_session(app.principal, session.id)[-1].event_type == "session.opened"
