"""An unknown cost is never free: a reply without usage through the run's accounting, and a
truncated reply as the run's typed outcome, on the 127.0.0.1 chat server."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _support.chat_server import ChatServer, reply_text, reply_tool_call

from memory_core.bootstrap import Composition, build
from memory_core.domain import Principal
from memory_core.runtime.openai_compat import OpenAICompatibleModel
from memory_core.runtime.policy_profile import RunLimits, load_policy_profile
from memory_core.runtime.pricing import ModelPrice, PriceCatalog
from memory_core.runtime.run import RunStatus

OWNER = Principal("tests", "owner")

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
PRICES = PriceCatalog({"local": ModelPrice(input=1.0, output=1.0)})


def _app(server: ChatServer, *, max_cost_usd: float) -> Composition:
    model = OpenAICompatibleModel(
        model="local", base_url=server.base_url, prices=PRICES, max_retries=0
    )
    profile = load_policy_profile("no-tools").with_overrides(
        limits=RunLimits(max_steps=4, max_tokens=10**6, max_cost_usd=max_cost_usd),
        enabled_tools=("memory.recall_episodes",),
    )
    return build(
        principal=OWNER, model=model, policy_profile=profile, fixed_clock_at=T0, sequential_ids=True
    )


def test_a_run_whose_reply_reported_no_usage_has_an_unknown_cost(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text("Hello.", usage=False, model="local"))
    app = _app(chat_server, max_cost_usd=float("inf"))
    run = app.runs.submit("hello", app.sessions.create().id)
    assert run.status is RunStatus.COMPLETED
    assert run.cost_known is False
    assert run.usage.input_tokens > 0  # estimated, never zero
    called = list(app.storage.events.read_session(run.principal, run.session_id))
    model_called = [e.payload for e in called if e.event_type == "model.called"]
    assert model_called[0]["cost_known"] is False
    app.close()


def test_no_call_follows_an_unknown_cost_under_a_finite_limit(chat_server: ChatServer) -> None:
    unmetered = reply_tool_call("memory__recall_episodes", {"query": "tea"}, model="local")
    del unmetered.body["usage"]
    chat_server.enqueue(unmetered, reply_text("never sent", model="local"))
    app = _app(chat_server, max_cost_usd=0.05)
    run = app.runs.submit("what tea do I like?", app.sessions.create().id)
    assert (run.status, run.error_class) == (RunStatus.BUDGET_EXHAUSTED, "CostUnknown")
    assert run.cost_known is False
    assert len(chat_server.requests) == 1
    app.close()


def test_a_priced_run_with_usage_keeps_a_known_cost(chat_server: ChatServer) -> None:
    chat_server.enqueue(
        reply_tool_call("memory__recall_episodes", {"query": "tea"}, model="local"),
        reply_text("Green tea.", model="local"),
    )
    app = _app(chat_server, max_cost_usd=0.05)
    run = app.runs.submit("what tea do I like?", app.sessions.create().id)
    assert (run.status, run.cost_known, run.steps) == (RunStatus.COMPLETED, True, 2)
    assert run.cost_usd == pytest.approx(2 * (100 + 10) / 1_000_000)
    app.close()


def test_a_reply_cut_at_max_tokens_ends_the_run_typed_and_billed(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text("User lives in Port", finish_reason="length", model="local"))
    app = _app(chat_server, max_cost_usd=0.05)
    run = app.runs.submit("where do I live?", app.sessions.create().id)
    assert (run.status, run.error_class) == (RunStatus.PERMANENT_MODEL_ERROR, "TruncatedReply")
    assert run.final_message is None
    assert run.cost_usd == pytest.approx(110 / 1_000_000)
    app.close()
