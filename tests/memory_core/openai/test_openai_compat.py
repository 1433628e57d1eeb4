"""OpenAICompatibleModel against a real chat-completions server on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest
from _support.chat_server import (
    ChatServer,
    Reply,
    reply_error,
    reply_stall,
    reply_text,
    reply_tool_call,
)

from memory_core.base.model import (
    Message,
    PermanentModelError,
    ToolCall,
    ToolSpec,
    TransientModelError,
    Usage,
)
from memory_core.errors import ConfigurationError, UsageError
from memory_core.runtime.openai_compat import OpenAICompatibleModel
from memory_core.runtime.pricing import ModelPrice, PriceCatalog

PRICES = PriceCatalog({"test-model": ModelPrice(input=1.0, output=2.0)})


def _model(server: ChatServer, **kwargs: object) -> OpenAICompatibleModel:
    options: dict[str, object] = {
        "model": "test-model",
        "base_url": server.base_url,
        "prices": PRICES,
        "sleep": lambda _s: None,
    }
    options.update(kwargs)
    return OpenAICompatibleModel(**options)  # type: ignore[arg-type]


def test_text_reply_usage_and_cost(chat_server: ChatServer) -> None:
    chat_server.enqueue(
        reply_text("Portland.", prompt_tokens=1000, completion_tokens=500, model="test-model")
    )
    reply = _model(chat_server).complete([Message(role="user", content="Where do I live?")])
    assert reply.text == "Portland."
    assert reply.usage == Usage(input_tokens=1000, output_tokens=500)
    assert reply.cost_usd == pytest.approx((1000 * 1.0 + 500 * 2.0) / 1_000_000)
    assert reply.provider == "openai-compatible"
    sent = chat_server.requests[0]
    assert sent["model"] == "test-model"
    assert sent["messages"] == [{"role": "user", "content": "Where do I live?"}]


def test_tool_names_round_trip_through_the_wire_form(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_tool_call("memory__remember", {"statement": "I like tea."}))
    tool = ToolSpec(name="memory.remember", description="keep a statement")
    reply = _model(chat_server).complete([Message(role="user", content="hi")], [tool])
    assert reply.text is None
    assert reply.tool_calls == (
        ToolCall(id="call_1", name="memory.remember", arguments={"statement": "I like tea."}),
    )
    assert chat_server.requests[0]["tools"][0]["function"]["name"] == "memory__remember"


def test_assistant_tool_calls_are_sent_back_in_wire_form(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text("done"))
    call = ToolCall(id="c1", name="memory.recall_episodes", arguments={"query": "tea"})
    _model(chat_server).complete(
        [
            Message(role="user", content="hi"),
            Message(role="assistant", content="", tool_calls=(call,)),
            Message(role="tool", content="[]", tool_call_id="c1"),
        ]
    )
    wire = chat_server.requests[0]["messages"]
    assert wire[1]["tool_calls"][0]["function"]["name"] == "memory__recall_episodes"
    assert wire[2] == {"role": "tool", "content": "[]", "tool_call_id": "c1"}


@pytest.mark.parametrize("status", [429, 500, 503])
def test_transient_status_is_retried_then_succeeds(chat_server: ChatServer, status: int) -> None:
    chat_server.enqueue(reply_error(status), reply_text("ok"))
    assert _model(chat_server).complete([Message(role="user", content="x")]).text == "ok"
    assert len(chat_server.requests) == 2


def test_transient_failure_keeps_status_and_body_after_retries(chat_server: ChatServer) -> None:
    chat_server.enqueue(*(reply_error(429, "slow down") for _ in range(3)))
    with pytest.raises(TransientModelError) as caught:
        _model(chat_server, max_retries=2).complete([Message(role="user", content="x")])
    assert caught.value.status == 429
    assert "slow down" in caught.value.body
    assert len(chat_server.requests) == 3


def test_timeout_is_transient(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_stall(1.0))
    with pytest.raises(TransientModelError, match="timed out"):
        _model(chat_server, timeout_seconds=0.2, max_retries=0).complete(
            [Message(role="user", content="x")]
        )


@pytest.mark.parametrize("status", [400, 401, 404])
def test_client_errors_are_permanent_and_not_retried(chat_server: ChatServer, status: int) -> None:
    chat_server.enqueue(reply_error(status, "bad request"))
    with pytest.raises(PermanentModelError) as caught:
        _model(chat_server).complete([Message(role="user", content="x")])
    assert caught.value.status == status
    assert "bad request" in caught.value.body
    assert len(chat_server.requests) == 1


@pytest.mark.parametrize(
    "raw",
    ["not json", '{"choices": []}', '{"choices": [{"message": {"content": 3}}]}'],
)
def test_malformed_reply_is_permanent(chat_server: ChatServer, raw: str) -> None:
    chat_server.enqueue(Reply(raw=raw))
    with pytest.raises(PermanentModelError, match="malformed"):
        _model(chat_server).complete([Message(role="user", content="x")])


def test_unknown_model_costs_zero(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text("ok", model="mystery"))
    reply = _model(chat_server, model="mystery").complete([Message(role="user", content="x")])
    assert reply.cost_usd == 0.0


def test_loopback_guard_refuses_remote_hosts() -> None:
    with pytest.raises(UsageError, match=r"127\.0\.0\.1"):
        OpenAICompatibleModel(model="m", base_url="https://api.example.com/v1")


def test_missing_model_name_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMORY_MODEL", raising=False)
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    with pytest.raises(UsageError, match="MEMORY_MODEL"):
        OpenAICompatibleModel(base_url="http://127.0.0.1:1/v1")


def test_price_catalog_override_file(tmp_path: Path) -> None:
    override = tmp_path / "prices.yaml"
    override.write_text(
        "models:\n  gpt-4o-mini: {input: 1.0, output: 1.0}\n  new: {input: 3, output: 4}\n"
    )
    catalog = PriceCatalog.load(override)
    assert catalog.price("gpt-4o-mini") == ModelPrice(input=1.0, output=1.0)
    assert catalog.cost("new", Usage(input_tokens=1_000_000, output_tokens=0)) == 3.0
    assert PriceCatalog.load().price("gpt-4o-mini") == ModelPrice(input=0.15, output=0.60)


@pytest.mark.parametrize(
    ("text", "field"),
    [("models:\n  m: {input: -1, output: 1}\n", "models.m.input"), ("oops: 1\n", "models")],
)
def test_bad_price_catalog_names_the_field(tmp_path: Path, text: str, field: str) -> None:
    override = tmp_path / "prices.yaml"
    override.write_text(text)
    with pytest.raises(ConfigurationError, match=field):
        PriceCatalog.load(override)


def test_max_output_tokens_caps_the_reply_on_the_wire(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text("ok"), reply_text("ok"))
    _model(chat_server, max_output_tokens=256).complete([Message(role="user", content="x")])
    _model(chat_server).complete([Message(role="user", content="x")])
    assert chat_server.requests[0]["max_tokens"] == 256
    assert "max_tokens" not in chat_server.requests[1]
