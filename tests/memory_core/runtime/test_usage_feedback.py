"""gate.memory.usage_feedback end to end: a run's final message credits what it cites."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from memory_core import BeliefStatus, RunStatus
from memory_core.base.model import Message, ModelResponse, PermanentModelError, ToolSpec
from memory_core.bootstrap import Composition, build
from memory_core.domain import Principal
from memory_core.formation import GovernedMemoryService

OWNER = Principal("tests", "owner")

GATE = pytest.mark.gate("gate.memory.usage_feedback")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class CitingModel:
    """Answers by citing every recalled line that mentions ``keyword`` (in rendered form)."""

    provider = "scripted"
    model_name = "citing"

    def __init__(self, keyword: str) -> None:
        self._keyword = keyword

    def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ModelResponse:
        lines = [line for m in messages for line in m.content.splitlines()]
        cited = sorted(
            {
                match.group(0)
                for line in lines
                if self._keyword in line
                for match in re.finditer(r"\[m:[0-9a-f]{8}\]", line)
            }
        )
        return ModelResponse(text=f"From memory: {' '.join(cited) or 'nothing'}.")


def _app(keyword: str = "Seattle") -> Composition:
    app = build(principal=OWNER, model=CitingModel(keyword), fixed_clock_at=T0, sequential_ids=True)
    seed = app.sessions.create()
    app.sessions.record_user_message(seed.id, "I live in Seattle. I prefer tea.")
    app.sessions.close(seed.id)
    return app


def _by_statement(app: Composition) -> dict[str, float]:
    return {
        b.statement: b.utility for b in app.memory.list_memories(frozenset({BeliefStatus.ACTIVE}))
    }


@GATE
def test_a_completed_run_credits_the_beliefs_its_final_message_cites() -> None:
    app = _app()
    before = {b.id: b for b in app.memory.list_memories()}
    session = app.sessions.create()
    run = app.runs.submit("Where do I live, and what do I drink?", session.id)
    assert run.status is RunStatus.COMPLETED
    assert run.usage_feedback is not None
    assert run.usage_feedback.citations == 1
    assert run.usage_feedback.ambiguous == 0
    utilities = _by_statement(app)
    assert utilities["User lives in Seattle."] == pytest.approx(0.1)
    assert utilities["User prefers tea."] == pytest.approx(-0.02)
    for belief in app.memory.list_memories():
        assert belief.confidence == before[belief.id].confidence  # never moves
        assert belief.last_evidence_at == before[belief.id].last_evidence_at
    trace = app.memory.get_recall_trace(run.trace_ids[0])
    cited = [t for t in trace.beliefs if t.id in trace.cited]
    assert [t.statement for t in cited] == ["User lives in Seattle."]


@GATE
def test_usage_feedback_fails_inside_its_own_boundary() -> None:
    app = _app()

    def broken(self: GovernedMemoryService, **_: object) -> None:
        raise RuntimeError("usage bug")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(GovernedMemoryService, "record_usage", broken)
        session = app.sessions.create()
        run = app.runs.submit("Where do I live?", session.id)
    assert run.status is RunStatus.COMPLETED
    assert run.usage_feedback is None
    failed = [
        e
        for e in app.events.read_session(app.principal, session.id)
        if e.event_type == "run.hook_failed"
    ]
    assert [e.payload for e in failed] == [
        {"hook": "usage_feedback", "error_class": "RuntimeError"}
    ]
    assert set(_by_statement(app).values()) == {0.0}


class FailingModel(CitingModel):
    def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ModelResponse:
        raise PermanentModelError("no such model")


@GATE
def test_a_run_without_a_final_message_records_no_usage() -> None:
    app = _app()
    failing = build(
        principal=OWNER, model=FailingModel("Seattle"), storage=app.storage, fixed_clock_at=T0
    )
    session = failing.sessions.create()
    run = failing.runs.submit("Where do I live?", session.id)
    assert run.status is RunStatus.PERMANENT_MODEL_ERROR
    assert run.usage_feedback is None
    events = app.events.read_session(app.principal, session.id)
    assert "memory.cited" not in {e.event_type for e in events}
    assert set(_by_statement(app).values()) == {0.0}
