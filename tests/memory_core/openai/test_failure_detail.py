"""Retry-After, jittered backoff, and a failed call's status and body excerpt on the Run.

Against the loopback chat-completions server; no test sleeps (the sleeper, clock and jitter
source are injected).
"""

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime
from email.utils import format_datetime

import pytest
from _support.chat_server import ChatServer, Reply, reply_error, reply_text

from memory_core import Principal
from memory_core.base.model import Message, TransientModelError
from memory_core.bootstrap import build
from memory_core.runtime import RunStatus
from memory_core.runtime.failure import BODY_EXCERPT_CHARS, body_excerpt
from memory_core.runtime.openai_compat import MAX_RETRY_AFTER_SECONDS, OpenAICompatibleModel
from memory_core.runtime.pricing import ModelPrice, PriceCatalog

PRICES = PriceCatalog({"test-model": ModelPrice(input=1.0, output=2.0)})
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
KEY = "sk-proj-" + "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56"


def _model(server: ChatServer, slept: list[float], **kwargs: object) -> OpenAICompatibleModel:
    options: dict[str, object] = {
        "model": "test-model",
        "base_url": server.base_url,
        "prices": PRICES,
        "sleep": slept.append,
        "now": NOW.timestamp,
    }
    options.update(kwargs)
    return OpenAICompatibleModel(**options)  # type: ignore[arg-type]


def _busy(status: int, retry_after: str | None) -> Reply:
    headers = (("Retry-After", retry_after),) if retry_after is not None else ()
    return Reply(status=status, body={"error": {"message": "busy"}}, headers=headers)


def test_retry_after_seconds_is_waited_before_the_retry(chat_server: ChatServer) -> None:
    chat_server.enqueue(_busy(429, "3"), reply_text("ok"))
    slept: list[float] = []
    reply = _model(chat_server, slept).complete([Message(role="user", content="x")])
    assert reply.text == "ok"
    assert slept == [3.0]


def test_retry_after_as_an_http_date_is_read_against_the_clock(chat_server: ChatServer) -> None:
    later = format_datetime(NOW.replace(second=7), usegmt=True)
    chat_server.enqueue(_busy(503, later), reply_text("ok"))
    slept: list[float] = []
    _model(chat_server, slept).complete([Message(role="user", content="x")])
    assert slept == [7.0]


def test_a_huge_retry_after_is_capped(chat_server: ChatServer) -> None:
    chat_server.enqueue(_busy(429, "86400"), reply_text("ok"))
    slept: list[float] = []
    _model(chat_server, slept).complete([Message(role="user", content="x")])
    assert slept == [MAX_RETRY_AFTER_SECONDS]


def test_without_retry_after_the_backoff_is_full_jitter(chat_server: ChatServer) -> None:
    chat_server.enqueue(_busy(503, None), _busy(503, None), _busy(503, None))
    slept: list[float] = []
    with pytest.raises(TransientModelError) as caught:
        _model(chat_server, slept, rng=random.Random(7)).complete(
            [Message(role="user", content="x")]
        )
    assert caught.value.status == 503
    expected = random.Random(7)
    assert slept == [expected.uniform(0.0, 0.5), expected.uniform(0.0, 1.0)]
    assert 0.0 <= slept[0] <= 0.5 and 0.0 <= slept[1] <= 1.0
    assert slept[0] != 0.5 or slept[1] != 1.0  # not the fixed exponential ladder


def test_a_body_excerpt_is_bounded_and_masks_secrets() -> None:
    body = f'{{"error": "Incorrect API key provided: {KEY}. Check it."}}' + "x" * 5000
    excerpt = body_excerpt(body)
    assert len(excerpt) <= BODY_EXCERPT_CHARS
    assert KEY not in excerpt and KEY[8:20] not in excerpt
    assert excerpt.startswith('{"error": "Incorrect API key provided: [redacted:')


def test_a_401_puts_status_and_a_secret_free_excerpt_on_the_run_its_event_and_a_log(
    chat_server: ChatServer, caplog: pytest.LogCaptureFixture
) -> None:
    chat_server.enqueue(reply_error(401, f"Incorrect API key provided: {KEY}. " + "y" * 600))
    app = build(
        principal=Principal("acme", "alice"),
        model=_model(chat_server, []),
        fixed_clock_at=NOW,
        sequential_ids=True,
    )
    session = app.sessions.create()
    with caplog.at_level(logging.WARNING):
        run = app.runs.submit("Hello there.", session.id)
    assert run.status is RunStatus.PERMANENT_MODEL_ERROR
    assert run.error_class == "PermanentModelError"
    assert run.error_status == 401
    assert run.error_body is not None and len(run.error_body) <= BODY_EXCERPT_CHARS
    assert "Incorrect API key provided" in run.error_body and KEY[8:20] not in run.error_body
    completed = [
        e
        for e in app.storage.events.read_session(app.principal, session.id)
        if e.event_type == "run.completed"
    ]
    assert completed[0].payload["error_status"] == 401
    assert completed[0].payload["error_body"] == run.error_body
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("status=401" in line and run.run_id in line for line in lines)
    assert not any(KEY[8:20] in line for line in lines)


def test_a_completed_run_carries_no_failure_fields(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text("Hi."))
    app = build(
        principal=Principal("acme", "bob"), model=_model(chat_server, []), fixed_clock_at=NOW
    )
    run = app.runs.submit("Hello.", app.sessions.create().id)
    assert run.status is RunStatus.COMPLETED
    assert run.error_status is None and run.error_body is None
