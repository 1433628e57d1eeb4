"""ScriptedModel: replays its script, repeats or fails when exhausted, estimates usage."""

from __future__ import annotations

import pytest

from memory_core.base.model import (
    Message,
    PermanentModelError,
    ScriptExhaustedError,
    ToolCall,
    Usage,
)
from memory_core.errors import UsageError
from memory_core.runtime.scripted import FakeModelScript, ScriptedModel, ScriptedTurn

HELLO = (Message(role="user", content="hello there"),)


def test_turns_are_replayed_in_order_then_the_last_repeats() -> None:
    model = ScriptedModel(
        FakeModelScript(turns=[ScriptedTurn(text="one"), ScriptedTurn(text="two")])
    )
    texts = [model.complete(HELLO).text for _ in range(4)]
    assert texts == ["one", "two", "two", "two"]
    assert model.provider == "scripted"
    assert len(model.calls) == 4
    assert model.calls[0].messages == HELLO


def test_on_exhausted_error_raises_a_typed_error() -> None:
    model = ScriptedModel(FakeModelScript(turns=[ScriptedTurn(text="only")], on_exhausted="error"))
    assert model.complete(HELLO).text == "only"
    with pytest.raises(ScriptExhaustedError, match="used up"):
        model.complete(HELLO)


def test_usage_is_estimated_unless_scripted() -> None:
    estimated = ScriptedModel(FakeModelScript(turns=[ScriptedTurn(text="12345678")]))
    reply = estimated.complete(HELLO)
    assert reply.usage == Usage(input_tokens=3, output_tokens=2)  # 11 chars -> 3, 8 -> 2
    fixed = ScriptedModel(
        FakeModelScript(
            turns=[
                ScriptedTurn(text="x", usage=Usage(input_tokens=7, output_tokens=1), cost_usd=0.5)
            ]
        )
    )
    reply = fixed.complete(HELLO)
    assert (reply.usage.input_tokens, reply.cost_usd) == (7, 0.5)


def test_tool_calls_and_scripted_errors_are_returned_and_raised() -> None:
    call = ToolCall(id="c1", name="memory.remember", arguments={"statement": "I like tea."})
    model = ScriptedModel(
        FakeModelScript(
            turns=[
                ScriptedTurn(tool_calls=(call,)),
                ScriptedTurn(error=PermanentModelError("bad request", status=400)),
            ]
        )
    )
    assert model.complete(HELLO).tool_calls == (call,)
    with pytest.raises(PermanentModelError, match="bad request"):
        model.complete(HELLO)


def test_invalid_scripts_are_refused() -> None:
    with pytest.raises(UsageError, match="at least one"):
        FakeModelScript(turns=[])
    with pytest.raises(UsageError, match="on_exhausted"):
        FakeModelScript(turns=[ScriptedTurn(text="x")], on_exhausted="loop")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="needs text"):
        ScriptedTurn()
    with pytest.raises(UsageError, match="cost_usd"):
        ScriptedTurn(text="x", cost_usd=-1)
