"""RunService: the event trail, the typed terminal statuses, the tools, hooks, prefix stability."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from memory_core import Principal
from memory_core.base.model import PermanentModelError, ToolCall, TransientModelError
from memory_core.bootstrap import Composition
from memory_core.domain import Event
from memory_core.errors import NotFoundError, UsageError
from memory_core.runtime import (
    RECALL_EPISODES_TOOL,
    REMEMBER_TOOL,
    Run,
    RunLimits,
    RunStatus,
    ScriptedModel,
    ScriptedTurn,
)

OWNER = Principal("tests", "owner")
"""The principal the compositions of this module belong to."""

Compose = Callable[..., Composition]
RunEvents = Callable[[Composition, str], list[Event]]


def _model(app: Composition) -> ScriptedModel:
    assert isinstance(app.model, ScriptedModel)
    return app.model


def _remember(statement: str, call_id: str = "c1") -> ScriptedTurn:
    return ScriptedTurn(
        tool_calls=(ToolCall(id=call_id, name=REMEMBER_TOOL, arguments={"statement": statement}),)
    )


def _episodes(query: str, call_id: str = "c2") -> ScriptedTurn:
    return ScriptedTurn(
        tool_calls=(ToolCall(id=call_id, name=RECALL_EPISODES_TOOL, arguments={"query": query}),)
    )


def _seed(app: Composition, *texts: str, project: str | None = None) -> None:
    """One closed session whose user messages formed beliefs."""
    session = app.sessions.create(
        principal=app.principal, agent="general", metadata={"project_scope": project}
    )
    for text in texts:
        app.sessions.record_user_message(session.id, text)
    app.sessions.close(session.id)


def test_a_completed_run_writes_the_full_event_trail(
    compose: Compose, run_events: RunEvents
) -> None:
    app = compose([ScriptedTurn(text="Hello back.")])
    _seed(app, "I live in Seattle.")
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    run = app.runs.submit("Where do I live?", session.id)

    assert run.status is RunStatus.COMPLETED
    assert run.final_message == "Hello back."
    assert run.steps == 1
    assert run.policy_version == app.policy_profile.compiled_version
    events = run_events(app, run.run_id)
    assert [e.event_type for e in events] == [
        "run.started",
        "user.message.created",
        "memory.recalled",
        "context.planned",
        "model.called",
        "assistant.message.created",
        "run.completed",
        "memory.cited",  # usage feedback, after completion
    ]
    by_type = {e.event_type: e for e in events}
    assert by_type["user.message.created"].event_id == run.turn_id
    assert by_type["user.message.created"].trust.value == "user"
    assert by_type["context.planned"].payload["snapshot_id"] == session.snapshot_id
    assert by_type["context.planned"].payload["prefix_digest"] == run.prefix_digest
    recalled = by_type["memory.recalled"].payload
    assert recalled["moment"] == "in_turn"
    assert recalled["turn_id"] == run.turn_id
    trace = app.memory.get_recall_trace(recalled["trace_id"])
    assert (trace.run_id, trace.turn_id, trace.moment) == (run.run_id, run.turn_id, "in_turn")
    assert [b.statement for b in trace.beliefs] == ["User lives in Seattle."]
    called = by_type["model.called"].payload
    assert called["prefix_digest"] == run.prefix_digest
    assert called["usage"]["input_tokens"] == run.usage.input_tokens
    completed = by_type["run.completed"].payload
    assert completed["status"] == "completed"
    assert completed["policy_version"] == app.policy_profile.compiled_version
    assert by_type["assistant.message.created"].payload == {"text": "Hello back."}


def test_the_model_sees_prefix_history_recall_block_and_turn(compose: Compose) -> None:
    app = compose([ScriptedTurn(text="First answer."), ScriptedTurn(text="Second answer.")])
    _seed(app, "I live in Seattle.", "I prefer concise answers.")
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    app.runs.submit("Hi there.", session.id)
    app.runs.submit("Where do I live?", session.id)

    messages = _model(app).calls[1].messages
    snapshot = app.sessions.snapshot_block(session.id)
    assert "User prefers concise answers." in snapshot
    assert messages[0].role == "system"
    assert messages[0].content.endswith(snapshot)
    assert [(m.role, m.content) for m in messages[1:3]] == [
        ("user", "Hi there."),
        ("assistant", "First answer."),
    ]
    assert messages[3].content.startswith("Memory (retrieval@2, in_turn):")
    assert "User lives in Seattle." in messages[3].content
    assert (messages[4].role, messages[4].content) == ("user", "Where do I live?")


def test_in_turn_recall_reads_the_session_project_scope(compose: Compose) -> None:
    app = compose()
    _seed(app, "We decided to deploy on Fridays.", project="veetbot")
    inside = app.sessions.create(
        principal=app.principal, agent="general", metadata={"project_scope": "veetbot"}
    )
    outside = app.sessions.create(
        principal=app.principal, agent="general", metadata={"project_scope": "orbit-app"}
    )
    seen = {}
    for session in (inside, outside):
        run = app.runs.submit("When do we deploy?", session.id)
        trace = app.memory.get_recall_trace(run.trace_ids[0])
        seen[session.metadata.project_scope] = [b.scope for b in trace.beliefs]
    assert seen["veetbot"] == ["project:veetbot"]
    assert seen["orbit-app"] == []


@pytest.mark.parametrize(
    ("turns", "kwargs", "prompt", "status", "steps", "error_class"),
    [
        (
            [ScriptedTurn(text="x")],
            {"limits": RunLimits(max_tokens=10)},
            "hi",
            "budget_exhausted",
            0,
            None,
        ),
        ([ScriptedTurn(text="x", cost_usd=0.2)], {}, "hi", "budget_exhausted", 1, None),
        ([_episodes("cabin")], {"limits": RunLimits(max_steps=3)}, "hi", "step_exhausted", 3, None),
        (
            [ScriptedTurn(text="x")],
            # within the 64 KiB message bound, over a small window
            {"context_plan_overlay": {"context_window_tokens": 4096}},
            "word " * 10_000,
            "context_overflow",
            0,
            "ContextOverflowError",
        ),
        (
            [ScriptedTurn(error=PermanentModelError("bad request", status=400))],
            {},
            "hi",
            "permanent_model_error",
            0,
            "PermanentModelError",
        ),
        (
            [ScriptedTurn(error=TransientModelError("timeout"))],
            {},
            "hi",
            "failed",
            0,
            "TransientModelError",
        ),
    ],
)
def test_limits_and_failures_end_in_typed_terminal_statuses(
    compose: Compose,
    run_events: RunEvents,
    turns: list[ScriptedTurn],
    kwargs: dict[str, Any],
    prompt: str,
    status: str,
    steps: int,
    error_class: str | None,
) -> None:
    app = compose(turns, **kwargs)
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    run = app.runs.submit(prompt, session.id)
    assert (run.status.value, run.steps, run.error_class) == (status, steps, error_class)
    assert run.final_message is None
    events = run_events(app, run.run_id)
    types = [e.event_type for e in events]
    assert types[-1] == "run.completed"
    assert "assistant.message.created" not in types
    assert types.count("model.called") == steps
    assert events[-1].payload["status"] == status
    assert events[-1].payload["error_class"] == error_class


def test_an_exhausted_script_fails_the_run(compose: Compose) -> None:
    app = compose([ScriptedTurn(text="once")], on_exhausted="error")
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    assert app.runs.submit("one", session.id).status is RunStatus.COMPLETED
    second = app.runs.submit("two", session.id)
    assert (second.status, second.error_class) == (RunStatus.FAILED, "ScriptExhaustedError")


def test_remember_forms_through_the_governed_path_from_the_user_turn(
    compose: Compose, run_events: RunEvents
) -> None:
    app = compose([_remember("I prefer window seats."), ScriptedTurn(text="Noted.")])
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    run = app.runs.submit("Please remember that I prefer window seats.", session.id)
    assert run.status is RunStatus.COMPLETED
    assert run.steps == 2
    formed = [b for b in app.memory.list_memories() if "window seats" in b.statement]
    assert len(formed) == 1
    assert formed[0].source_event_ids == (run.turn_id,)
    tool_event = next(e for e in run_events(app, run.run_id) if e.event_type == "tool.called")
    assert tool_event.payload == {"step": 1, "tool": REMEMBER_TOOL, "call_id": "c1", "ok": True}
    tool_message = _model(app).calls[1].messages[-1]
    assert tool_message.role == "tool"
    assert tool_message.tool_call_id == "c1"
    reported = json.loads(tool_message.content)
    assert reported["committed"] == 1
    assert reported["memory_ids"] == [f"m:{formed[0].short_id}"]


def test_remember_refuses_a_secret_and_no_event_carries_it(compose: Compose) -> None:
    secret = "api_key=sk-live-51HqZZZZ8dfa7"
    app = compose([_remember(f"My deploy token is {secret}"), ScriptedTurn(text="No.")])
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    run = app.runs.submit("Store my token please.", session.id)
    assert run.status is RunStatus.COMPLETED
    reported = json.loads(_model(app).calls[1].messages[-1].content)
    assert (reported["committed"], reported["refused_hazard"]) == (0, 1)
    assert app.memory.list_memories() == []
    for event in app.events.page(app.principal, limit=10_000):
        assert secret not in json.dumps(event.payload)


def test_recall_episodes_searches_past_sessions(compose: Compose) -> None:
    app = compose([_episodes("Tahoe cabin"), ScriptedTurn(text="Found it.")])
    past = app.sessions.create(principal=app.principal, agent="general", metadata={})
    app.sessions.record_user_message(past.id, "We booked the Tahoe cabin for July.")
    app.sessions.close(past.id)
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    run = app.runs.submit("What did we book?", session.id)
    assert run.status is RunStatus.COMPLETED
    result = json.loads(_model(app).calls[1].messages[-1].content)
    assert [e["text"] for e in result["episodes"]] == ["We booked the Tahoe cabin for July."]


def test_disabled_tools_are_not_offered_and_calls_to_them_are_refused(
    compose: Compose, run_events: RunEvents
) -> None:
    app = compose([_remember("I like tea."), ScriptedTurn(text="OK.")], enabled_tools=[])
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    run = app.runs.submit("Remember I like tea.", session.id)
    assert _model(app).calls[0].tools == ()
    tool_event = next(e for e in run_events(app, run.run_id) if e.event_type == "tool.called")
    assert tool_event.payload["ok"] is False
    assert app.memory.list_memories() == []


def test_completion_hooks_run_after_completion_in_their_own_error_boundary(
    compose: Compose, run_events: RunEvents
) -> None:
    seen: list[Run] = []

    def broken(run: Run) -> None:
        raise RuntimeError("hook bug")

    app = compose(completion_hooks=[broken, seen.append])
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    run = app.runs.submit("hi", session.id)
    assert seen == [run]
    events = run_events(app, run.run_id)
    assert events[-1].event_type == "run.hook_failed"
    assert events[-1].payload["error_class"] == "RuntimeError"
    assert events[-2].event_type == "run.completed"


def test_submit_refuses_closed_unknown_sessions_and_missing_models(compose: Compose) -> None:
    app = compose()
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    app.sessions.close(session.id)
    with pytest.raises(UsageError, match="closed"):
        app.runs.submit("hi", session.id)
    with pytest.raises(NotFoundError, match="does not exist"):
        app.runs.submit("hi", "no-such-session")
    with pytest.raises(UsageError, match="empty"):
        app.runs.submit("  ", session.id)
    from memory_core.bootstrap import build

    modelless = build(principal=OWNER)
    open_session = modelless.sessions.create()
    with pytest.raises(UsageError, match="no model"):
        modelless.runs.submit("hi", open_session.id)


@pytest.mark.gate("gate.memory.prefix_stable")
def test_prefix_digest_is_identical_across_every_model_call_of_a_session(
    compose: Compose, run_events: RunEvents
) -> None:
    turns = [
        _remember("I prefer aisle seats.", "c1"),
        _episodes("Seattle", "c2"),
        ScriptedTurn(text="Done."),
        ScriptedTurn(text="Portland, as far as I know."),
        _remember("I have a dog named Rex.", "c3"),
        ScriptedTurn(text="Noted."),
    ]
    app = compose(turns)
    _seed(app, "I live in Seattle.", "I prefer concise answers.")
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    runs = [
        app.runs.submit("Remember that I prefer aisle seats.", session.id),
        app.runs.submit("Where do I live?", session.id),
    ]
    # formation between turns changes the store; the prefix must not move
    app.sessions.record_user_message(session.id, "I live in Portland now.")
    app.memory.run("manual", "general", session.id)
    runs.append(app.runs.submit("Remember I have a dog named Rex.", session.id))
    assert [r.status for r in runs] == [RunStatus.COMPLETED] * 3
    assert [r.steps for r in runs] == [3, 1, 2]

    digests = {r.prefix_digest for r in runs}
    for run in runs:
        for event in run_events(app, run.run_id):
            if event.event_type in ("model.called", "context.planned"):
                digests.add(event.payload["prefix_digest"])
    sent = {
        hashlib.sha256(call.messages[0].content.encode()).hexdigest() for call in _model(app).calls
    }
    assert len(_model(app).calls) == 6
    assert len(digests) == 1
    assert sent == digests
    assert "User lives in Seattle." in _model(app).calls[-1].messages[0].content

    # a new session freezes a new snapshot, which does move the prefix
    fresh = app.sessions.create(principal=app.principal, agent="general", metadata={})
    later = app.runs.submit("Where do I live?", fresh.id)
    assert later.prefix_digest not in digests


def test_failures_log_the_exception_type_never_its_message(
    compose: Compose, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "password=hunter2"

    def broken_hook(run: Run) -> None:
        raise RuntimeError(f"hook saw {secret}")

    def broken_remember(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError(f"store rejected {secret}")

    app = compose([_remember("I like tea.")], completion_hooks=[broken_hook])
    monkeypatch.setattr(app.memory.service, "remember", broken_remember)
    session = app.sessions.create(principal=app.principal, agent="general", metadata={})
    with caplog.at_level("WARNING", logger="memory_core.runtime.run"):
        run = app.runs.submit("Remember I like tea.", session.id)
    assert (run.status, run.error_class) == (RunStatus.FAILED, "RuntimeError")
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 2  # the tool's failure, then the hook's
    assert all("RuntimeError" in w and secret not in w for w in warnings)
