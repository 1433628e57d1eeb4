"""No log record of ours holds a statement, a message's text or a secret (every tier).

Every adversarial fixture (the issue examples' secrets and injections) goes through record,
close, recall, the remember tool and a run while every record at DEBUG and above is captured;
no record of a ``memory_*`` logger may contain a turn, a sentence of one or a fragment.
"""

from __future__ import annotations

import logging

import pytest
from _support.hazard_examples import INJECTION_EXAMPLES, SECRET_EXAMPLES

from memory_core import Principal, Storage, build
from memory_core.base.model import ToolCall
from memory_core.formation._text import sentence_spans
from memory_core.runtime import REMEMBER_TOOL, RunStatus, ScriptedTurn
from memory_core.runtime.scripted import FakeModelScript

TURNS: list[list[str]] = [turns for turns, _ in SECRET_EXAMPLES.values()] + list(
    INJECTION_EXAMPLES.values()
)
FRAGMENTS = [f for _, fragments in SECRET_EXAMPLES.values() for f in fragments]


def _forbidden() -> list[str]:
    texts = {t for turns in TURNS for t in turns}
    texts |= {t[s.start : s.end] for t in texts for s in sentence_spans(t)}
    return sorted({t for t in (*texts, *FRAGMENTS) if len(t) >= 6}, key=len)


def _ours(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.split(".")[0].startswith("memory_")]


def test_no_log_record_holds_a_turn_a_statement_or_a_secret(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    remembers = [
        ScriptedTurn(
            tool_calls=(
                ToolCall(id=f"c{i}", name=REMEMBER_TOOL, arguments={"statement": turns[0]}),
            )
        )
        for i, turns in enumerate(TURNS)
    ]
    app = build(
        storage=storage,
        principal=Principal("acme", "logs"),
        script=FakeModelScript(
            turns=[step for r in remembers for step in (r, ScriptedTurn(text="Noted."))]
        ),
    )
    with caplog.at_level(logging.DEBUG):
        for turns in TURNS:
            session = app.sessions.create()
            for text in turns:
                app.sessions.record_user_message(session.id, text)
            app.sessions.close(session.id)
            app.memory.recall(turns[0])
        chat = app.sessions.create()
        for turns in TURNS:
            run = app.runs.submit(turns[-1], chat.id)
            assert run.status is RunStatus.COMPLETED
        app.sessions.close(chat.id)
    records = _ours(caplog)
    names = {r.name for r in records}
    for lifecycle in (
        "memory_core.recording",
        "memory_core.formation.service",
        "memory_core.retrieval.retriever",
        "memory_core.runtime.run",
    ):
        assert lifecycle in names, lifecycle
    forbidden = _forbidden()
    for record in records:
        rendered = " ".join((record.getMessage(), record.exc_text or "", repr(record.args)))
        for text in forbidden:
            assert text not in rendered, (record.name, text)
