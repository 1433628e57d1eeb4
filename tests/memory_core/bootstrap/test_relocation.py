"""The spec's first worked scenario end to end, and byte-identical reproduction of a build."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from memory_core import Principal
from memory_core.bootstrap import Composition, build
from memory_core.domain import RecallTrace, scope_for_project
from memory_core.runtime import FakeModelScript, Run, RunStatus, ScriptedModel, ScriptedTurn

EVAL_PRINCIPAL = Principal("bench", "eval-user")
PROBE_ACK_TEXT = "Understood."


def _drive(scenario: dict[str, Any], *, through_close: bool = False) -> tuple[Composition, Run]:
    """The deterministic driver loop of the spec, for the scenario's sessions and first probe."""
    app = build(
        storage="memory",
        script=FakeModelScript(
            turns=[ScriptedTurn(text=PROBE_ACK_TEXT)], on_exhausted="repeat_last"
        ),
        principal=EVAL_PRINCIPAL,
        fixed_clock_at=datetime.fromisoformat(scenario["start_at"]),
        sequential_ids=True,
    )
    for spec in scenario["sessions"]:
        app.advance(spec.get("advance_seconds", 0))
        project = spec.get("project_scope")
        view = app.sessions.create(
            principal=EVAL_PRINCIPAL, agent="general", metadata={"project_scope": project}
        )
        for turn in spec["turns"]:
            app.advance(turn.get("advance_seconds", 0))
            app.sessions.record_user_message(view.id, turn["text"], principal=EVAL_PRINCIPAL)
        if through_close:
            app.sessions.close(view.id, principal=EVAL_PRINCIPAL)
        else:
            app.memory.run("session_close", scope_for_project(project), view.id)
    app.maintenance_factory().run_once()
    probe = scenario["probes"][0]
    app.advance(probe.get("advance_seconds", 0))
    view = app.sessions.create(
        principal=EVAL_PRINCIPAL,
        agent="general",
        metadata={"project_scope": probe.get("project_scope")},
    )
    run = app.runs.submit(probe["question"], view.id)
    return app, run


def _run_traces(app: Composition, run: Run) -> tuple[RecallTrace, list[RecallTrace]]:
    events = [e for e in app.events.page(EVAL_PRINCIPAL, limit=10_000) if e.run_id == run.run_id]
    planned = next(e for e in events if e.event_type == "context.planned")
    snapshot = app.memory.get_recall_trace(planned.payload["snapshot_id"])
    in_turn = [
        app.memory.get_recall_trace(e.payload["trace_id"])
        for e in events
        if e.event_type == "memory.recalled"
    ]
    return snapshot, in_turn


def test_relocation_probe_recalls_portland_and_never_seattle(relocation: dict[str, Any]) -> None:
    for through_close in (False, True):
        app, run = _drive(relocation, through_close=through_close)
        assert run.status is RunStatus.COMPLETED
        assert run.final_message == PROBE_ACK_TEXT

        live = [b.statement for b in app.memory.list_memories() if b.is_live]
        assert any("Portland" in s for s in live)
        assert not any("Seattle" in s for s in live)

        snapshot, in_turn = _run_traces(app, run)
        assert snapshot.moment == "snapshot"
        assert snapshot.run_id is None
        assert len(in_turn) == 1
        assert in_turn[0].moment == "in_turn"
        assert in_turn[0].turn_id == run.turn_id
        for trace in (snapshot, in_turn[0]):
            statements = [b.statement for b in trace.beliefs]
            assert any("Portland" in s for s in statements), (trace.moment, statements)
            assert not any("Seattle" in s for s in statements), (trace.moment, statements)
        block = app.sessions.snapshot_block(run.session_id)
        assert "Portland" in block
        assert "Seattle" not in block


def _fingerprint(app: Composition) -> str:
    """Every event, every full trace (operator-tier latencies included) and every block."""
    events = app.events.page(EVAL_PRINCIPAL, limit=100_000)
    trace_ids = [e.payload["trace_id"] for e in events if e.event_type == "memory.recalled"]
    traces = [app.memory.get_recall_trace(t).model_dump(mode="json") for t in trace_ids]
    assert any(trace["arm_latencies_ms"] for trace in traces)  # latencies are compared too
    blocks = [e.payload["snapshot_block"] for e in events if e.event_type == "session.opened"]
    document = {
        "events": [e.model_dump(mode="json") for e in events],
        "traces": traces,
        "blocks": blocks,
        "beliefs": [b.model_dump(mode="json") for b in app.memory.list_memories()],
    }
    return json.dumps(document, sort_keys=True, ensure_ascii=False)


def test_two_builds_with_the_same_inputs_are_byte_identical(relocation: dict[str, Any]) -> None:
    first_app, first_run = _drive(relocation)
    second_app, second_run = _drive(relocation)
    assert first_run == second_run
    first, second = _fingerprint(first_app), _fingerprint(second_app)
    assert first == second
    assert "User lives in Portland" in first
    model_messages = []
    for app in (first_app, second_app):
        assert isinstance(app.model, ScriptedModel)
        model_messages.append([[m.content for m in c.messages] for c in app.model.calls])
    assert model_messages[0] == model_messages[1]
