"""A real mid-session flow for the recall delta and correction-line gates (14 and 15).

Session one tells the agent two things and closes, so the second session's frozen snapshot holds
"User lives in Portland." and "User prefers concise answers.". In the second session the first
turn asks the agent to remember a move to Seattle and a seating preference: the scripted model
calls ``memory.remember`` for the seating preference (at the model's AFFIRMED authority), and the
application relays the user's own words about the move through ``app.memory.remember`` (USER
authority, so it supersedes the Portland belief: a model-written statement could only conflict
with what the user said). Both form past the snapshot watermark; later turns of the same
session see what changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memory_core import Belief, BeliefStatus, Composition, Event, Principal, Session, Storage, build
from memory_core.base.model import Message, ToolCall
from memory_core.runtime.run import Run
from memory_core.runtime.scripted import FakeModelScript, ScriptedModel, ScriptedTurn
from memory_core.runtime.tools import REMEMBER_TOOL

ALICE = Principal("acme", "alice")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HOUR = 3600

REMEMBER_PROMPT = "Remember that I live in Seattle now and that I prefer window seats."


def remember_turn(*statements: str) -> ScriptedTurn:
    """A model turn that calls ``memory.remember`` once per statement."""
    return ScriptedTurn(
        tool_calls=tuple(
            ToolCall(id=f"call-{n}", name=REMEMBER_TOOL, arguments={"statement": text})
            for n, text in enumerate(statements)
        )
    )


def compose(
    storage: Storage, turns: Sequence[ScriptedTurn] | None = None, **overlays: Any
) -> Composition:
    """A composition over ``storage``; by default its model remembers the move, then answers."""
    if turns is None:
        turns = [
            remember_turn("I prefer window seats."),
            ScriptedTurn(text="Noted."),
            ScriptedTurn(text="OK."),
        ]
    return build(
        storage=storage,
        principal=ALICE,
        script=FakeModelScript(turns=turns, on_exhausted="repeat_last"),
        fixed_clock_at=T0,
        sequential_ids=True,
        enabled_tools=[REMEMBER_TOOL],
        **overlays,
    )


@dataclass(frozen=True, kw_only=True)
class MidSession:
    """The second session after its remembering turn."""

    app: Composition
    session: Session
    head_at_open: int
    remembered: Run
    portland: Belief
    seattle: Belief
    window_seats: Belief


def open_second_session(app: Composition) -> Session:
    """Form the first session's beliefs and open the session whose snapshot freezes them."""
    first = app.sessions.create(metadata={})
    app.sessions.record_user_message(first.id, "I live in Portland. I prefer concise answers.")
    app.sessions.close(first.id)
    app.advance(HOUR)
    return app.sessions.create(metadata={})


def remember_mid_session(app: Composition) -> MidSession:
    """Open the second session and run the turn that supersedes Portland mid-session."""
    session = open_second_session(app)
    head_at_open = app.storage.memories.head_position(ALICE)
    remembered = app.runs.submit(REMEMBER_PROMPT, session.id)
    app.memory.remember(  # the user's own words, relayed by the application: USER authority
        "I live in Seattle now.", session_id=session.id, source_event_id=remembered.turn_id
    )
    by_statement = {b.statement: b for b in app.memory.list_memories()}
    return MidSession(
        app=app,
        session=session,
        head_at_open=head_at_open,
        remembered=remembered,
        portland=by_statement["User lives in Portland."],
        seattle=by_statement["User lives in Seattle."],
        window_seats=by_statement["User prefers window seats."],
    )


def run_events(app: Composition, run: Run) -> list[Event]:
    """Every event ``run`` wrote, in order."""
    return [e for e in app.events.read_session(ALICE, run.session_id) if e.run_id == run.run_id]


def recalled(app: Composition, run: Run, moment: str) -> list[str]:
    """Trace ids of the run's ``memory.recalled`` events of one moment."""
    return [
        str(e.payload["trace_id"])
        for e in run_events(app, run)
        if e.event_type == "memory.recalled" and e.payload["moment"] == moment
    ]


def planned(app: Composition, run: Run) -> dict[str, Any]:
    """The payload of the run's ``context.planned`` event."""
    (event,) = [e for e in run_events(app, run) if e.event_type == "context.planned"]
    return dict(event.payload)


def calls_of(app: Composition, run: Run) -> list[tuple[Message, ...]]:
    """The messages of each model call ``run`` made (the scripted model records them)."""
    model = app.model
    assert isinstance(model, ScriptedModel)
    calls = [call.messages for call in model.calls]
    return calls[len(calls) - run.steps :]


def session_digests(app: Composition, runs: Sequence[Run]) -> set[str]:
    """Every prefix digest the runs recorded, on the run and on each model call."""
    digests = {r.prefix_digest for r in runs if r.prefix_digest is not None}
    for run in runs:
        for event in run_events(app, run):
            if event.event_type in ("model.called", "context.planned"):
                digests.add(str(event.payload["prefix_digest"]))
    return digests


def retire(app: Composition, belief: Belief) -> Belief:
    """Retire a belief the way the decay sweep does: status RETIRED, valid_to now."""
    current = app.storage.memories.get(ALICE, belief.id)
    assert current is not None
    now = app.clock.now()
    return app.storage.memories.update(
        current.model_copy(
            update={"status": BeliefStatus.RETIRED, "valid_to": now, "updated_at": now}
        )
    )


__all__ = [
    "ALICE",
    "HOUR",
    "REMEMBER_PROMPT",
    "T0",
    "MidSession",
    "calls_of",
    "compose",
    "open_second_session",
    "planned",
    "recalled",
    "remember_mid_session",
    "remember_turn",
    "retire",
    "run_events",
    "session_digests",
]
