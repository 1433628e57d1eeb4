"""The client defects a real llama-server run exposed (issue 22), each on the 127.0.0.1 server.

Truncation at ``max_tokens``, a reply without usage, one timeout for the whole generation with
a retry re-sending it, no streaming, the price looked up under one name while another is
recorded, and tool calls written as JSON text.
"""

from __future__ import annotations

import json
import logging
import time

import pytest
from _support.chat_server import ChatServer, reply_stall, reply_text, reply_tool_call

from memory_core.base.model import (
    FinishReason,
    Message,
    ReplyTimeoutError,
    ToolCall,
    ToolSpec,
    TransientModelError,
    Usage,
)
from memory_core.runtime.openai_compat import OpenAICompatibleModel
from memory_core.runtime.pricing import ModelPrice, PriceCatalog

PRICES = PriceCatalog({"test-model": ModelPrice(input=1.0, output=2.0)})
ASK = [Message(role="user", content="Where do I live?")]
RECALL = ToolSpec(name="memory.recall_episodes", description="search past sessions")


def _model(server: ChatServer, **kwargs: object) -> OpenAICompatibleModel:
    options: dict[str, object] = {
        "model": "test-model",
        "base_url": server.base_url,
        "prices": PRICES,
        "sleep": lambda _s: None,
    }
    options.update(kwargs)
    return OpenAICompatibleModel(**options)  # type: ignore[arg-type]


# --- finish_reason ---------------------------------------------------------------------------


@pytest.mark.parametrize("stream", [False, True])
def test_a_reply_cut_at_max_tokens_is_typed_truncated(
    chat_server: ChatServer, stream: bool
) -> None:
    chat_server.enqueue(reply_text('{"candidates": [{"belief', finish_reason="length"))
    reply = _model(chat_server, stream=stream).complete(ASK)
    assert reply.finish_reason is FinishReason.LENGTH
    assert reply.truncated
    chat_server.enqueue(reply_text("Portland."))
    whole = _model(chat_server, stream=stream).complete(ASK)
    assert (whole.finish_reason, whole.truncated) == (FinishReason.STOP, False)


def test_a_truncated_tool_call_is_not_taken_as_a_call(chat_server: ChatServer) -> None:
    cut = reply_tool_call("memory__recall_episodes", {"query": "tea"})
    cut.body["choices"][0]["finish_reason"] = "length"
    cut.body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = '{"que'
    chat_server.enqueue(cut)
    reply = _model(chat_server).complete(ASK, [RECALL])
    assert reply.truncated
    assert reply.tool_calls == ()


# --- usage -----------------------------------------------------------------------------------


@pytest.mark.parametrize("stream", [False, True])
def test_a_reply_without_usage_has_an_unknown_cost_never_zero_tokens(
    chat_server: ChatServer, stream: bool
) -> None:
    chat_server.enqueue(reply_text("You live in Portland.", usage=False, model="test-model"))
    reply = _model(chat_server, stream=stream).complete(ASK)
    assert reply.usage_reported is False
    assert reply.cost_known is False
    assert reply.usage.input_tokens > 0 and reply.usage.output_tokens > 0  # estimated


def test_a_streamed_reply_asks_for_and_reads_usage(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text("Portland.", prompt_tokens=40, completion_tokens=3))
    reply = _model(chat_server, stream=True).complete(ASK)
    assert chat_server.requests[0]["stream"] is True
    assert chat_server.requests[0]["stream_options"] == {"include_usage": True}
    assert (reply.text, reply.usage, reply.cost_known) == (
        "Portland.",
        Usage(input_tokens=40, output_tokens=3),
        True,
    )


# --- timeouts and streaming ------------------------------------------------------------------


def test_connect_and_read_timeouts_are_separate() -> None:
    model = OpenAICompatibleModel(
        model="m",
        base_url="http://127.0.0.1:9/v1",
        timeout_seconds=300.0,
        connect_timeout_seconds=3.0,
        prices=PRICES,
    )
    assert (model.timeout.connect, model.timeout.read) == (3.0, 300.0)
    model.close()


def test_a_read_timeout_is_not_re_sent(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_stall(1.0), reply_stall(1.0), reply_stall(1.0))
    with pytest.raises(ReplyTimeoutError, match="timed out"):
        _model(chat_server, timeout_seconds=0.2, max_retries=2).complete(ASK)
    assert len(chat_server.requests) == 1  # the server may still be generating the first one


def test_a_refused_connection_is_retried() -> None:
    slept: list[float] = []
    model = OpenAICompatibleModel(
        model="m", base_url="http://127.0.0.1:9/v1", prices=PRICES, sleep=slept.append
    )
    with pytest.raises(TransientModelError) as caught:
        model.complete(ASK)
    assert not isinstance(caught.value, ReplyTimeoutError)
    assert len(slept) == 2  # nothing was generated, so re-sending is free


def test_streaming_keeps_a_long_generation_alive(chat_server: ChatServer) -> None:
    words = " ".join(f"w{n}" for n in range(8))
    slow = reply_text(words, model="test-model", chunk_delay_seconds=0.1)
    chat_server.enqueue(slow)
    with pytest.raises(ReplyTimeoutError):  # the whole reply takes ~1 s to arrive
        _model(chat_server, timeout_seconds=0.4, max_retries=0).complete(ASK)
    chat_server.enqueue(slow)
    started = time.monotonic()
    reply = _model(chat_server, timeout_seconds=0.4, stream=True).complete(ASK)
    assert time.monotonic() - started > 0.4  # longer than one read timeout, still alive
    assert reply.text == words


def test_a_streamed_tool_call_is_reassembled(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_tool_call("memory__recall_episodes", {"query": "green tea"}))
    reply = _model(chat_server, stream=True).complete(ASK, [RECALL])
    assert reply.tool_calls == (
        ToolCall(id="call_1", name="memory.recall_episodes", arguments={"query": "green tea"}),
    )
    assert reply.text is None
    assert reply.finish_reason is FinishReason.TOOL_CALLS


def test_streaming_by_configuration(
    chat_server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_MODEL_STREAM", "1")
    chat_server.enqueue(reply_text("ok"))
    assert _model(chat_server).complete(ASK).text == "ok"
    assert chat_server.requests[0]["stream"] is True


# --- one model name --------------------------------------------------------------------------


def test_the_configured_name_is_priced_and_recorded_and_another_served_name_warns(
    chat_server: ChatServer, caplog: pytest.LogCaptureFixture
) -> None:
    prices = PriceCatalog(
        {"test-model": ModelPrice(input=1.0, output=2.0), "alias": ModelPrice(input=50, output=50)}
    )
    chat_server.enqueue(
        reply_text("a", prompt_tokens=1000, completion_tokens=500, model="alias"),
        reply_text("b", prompt_tokens=1000, completion_tokens=500, model="alias"),
    )
    model = _model(chat_server, prices=prices)
    with caplog.at_level(logging.WARNING, logger="memory_core.runtime.openai_compat"):
        first = model.complete(ASK)
        second = model.complete(ASK)
    assert (first.model, first.served_model) == ("test-model", "alias")
    assert first.cost_usd == pytest.approx((1000 * 1.0 + 500 * 2.0) / 1_000_000)
    assert second.model == "test-model"
    warnings = [r.getMessage() for r in caplog.records if "alias" in r.getMessage()]
    assert len(warnings) == 1  # once per served name, not per call
    assert "test-model" in warnings[0]


# --- tool calls written as text --------------------------------------------------------------

WRITTEN = json.dumps({"name": "memory__recall_episodes", "arguments": {"query": "tea"}})


@pytest.mark.parametrize(
    "content",
    [
        WRITTEN,
        f"```json\n{WRITTEN}\n```",
        f"<tool_call>\n{WRITTEN}\n</tool_call>",
        json.dumps({"name": "memory.recall_episodes", "parameters": {"query": "tea"}}),
    ],
)
def test_opt_in_text_tool_calls_are_read_as_calls(chat_server: ChatServer, content: str) -> None:
    chat_server.enqueue(reply_text(content))
    reply = _model(chat_server, text_tool_calls=True).complete(ASK, [RECALL])
    assert reply.text is None
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("memory.recall_episodes", {"query": "tea"})
    ]


def test_text_tool_calls_are_off_by_default(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text(WRITTEN))
    reply = _model(chat_server).complete(ASK, [RECALL])
    assert (reply.text, reply.tool_calls) == (WRITTEN, ())


@pytest.mark.parametrize(
    "content",
    [
        json.dumps({"name": "shell.exec", "arguments": {"cmd": "ls"}}),  # not an offered tool
        f"I would call {WRITTEN} here.",  # prose around it: an answer
        json.dumps({"name": "memory__recall_episodes", "arguments": {}, "extra": 1}),
        '{"name": "memory__recall_episodes", "arguments": "{not json"}',
    ],
)
def test_text_that_is_not_exactly_a_call_stays_the_answer(
    chat_server: ChatServer, content: str
) -> None:
    chat_server.enqueue(reply_text(content))
    reply = _model(chat_server, text_tool_calls=True).complete(ASK, [RECALL])
    assert (reply.text, reply.tool_calls) == (content, ())


def test_text_tool_calls_need_offered_tools(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text(WRITTEN))
    reply = _model(chat_server, text_tool_calls=True).complete(ASK)
    assert reply.text == WRITTEN
