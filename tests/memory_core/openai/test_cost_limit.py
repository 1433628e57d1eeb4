"""The run cost limit cannot be silently ignored: an unpriced model is refused at build()."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import ChatServer, reply_text

from memory_core import Principal
from memory_core.base.model import Message, PricedModel
from memory_core.bootstrap import build
from memory_core.errors import ConfigurationError
from memory_core.runtime.openai_compat import OpenAICompatibleModel
from memory_core.runtime.policy_profile import RunLimits
from memory_core.runtime.pricing import PRICES_ENV, ModelPrice, PriceCatalog
from memory_core.runtime.run import RunStatus
from memory_core.runtime.scripted import FakeModelScript, ScriptedModel, ScriptedTurn

OWNER = Principal("tests", "owner")
"""The principal the compositions of this module belong to."""

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
EXPENSIVE: dict[str, Any] = {"prompt_tokens": 900_000, "completion_tokens": 900_000}


def _model(server: ChatServer, prices: PriceCatalog) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(
        model="my-finetune", base_url=server.base_url, prices=prices, sleep=lambda _s: None
    )


def test_replies_say_whether_their_cost_is_known(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text("ok", model="my-finetune"), reply_text("ok", model="other"))
    unpriced = _model(chat_server, PriceCatalog({}))
    assert isinstance(unpriced, PricedModel)
    assert unpriced.price_known is False
    reply = unpriced.complete([Message(role="user", content="x")])
    assert (reply.cost_usd, reply.cost_known) == (0.0, False)
    priced = _model(chat_server, PriceCatalog({"my-finetune": ModelPrice(input=0, output=0)}))
    assert priced.price_known is True  # a free local model is priced, at zero
    # the server reports another model: the configured model's price still applies
    assert priced.complete([Message(role="user", content="x")]).cost_known is True
    scripted = ScriptedModel(FakeModelScript(turns=[ScriptedTurn(text="ok")]))
    assert scripted.complete([Message(role="user", content="x")]).cost_known is True


def test_build_refuses_an_unpriced_model_under_a_finite_cost_limit(
    chat_server: ChatServer,
) -> None:
    model = _model(chat_server, PriceCatalog({}))
    with pytest.raises(ConfigurationError, match=PRICES_ENV) as caught:
        build(principal=OWNER, model=model, limits=RunLimits(max_cost_usd=0.01, max_tokens=10**9))
    assert "my-finetune" in str(caught.value)
    with pytest.raises(ConfigurationError, match="max_cost_usd"):
        build(principal=OWNER, model=model)  # the shipped default profile's limit is finite too
    assert chat_server.requests == []  # refused before anything was spent


def test_an_unlimited_cost_limit_accepts_an_unpriced_model(chat_server: ChatServer) -> None:
    chat_server.enqueue(reply_text("ok", model="my-finetune", **EXPENSIVE))
    app = build(
        principal=OWNER,
        model=_model(chat_server, PriceCatalog({})),
        limits=RunLimits(max_cost_usd=float("inf"), max_tokens=10**9),
        fixed_clock_at=T0,
        sequential_ids=True,
    )
    run = app.runs.submit("hello", app.sessions.create().id)
    assert (run.status, run.cost_usd) == (RunStatus.COMPLETED, 0.0)


def test_a_price_file_from_the_environment_makes_the_limit_enforceable(
    chat_server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text("models:\n  my-finetune: {input: 1.0, output: 1.0}\n", encoding="utf-8")
    monkeypatch.setenv(PRICES_ENV, str(prices))
    chat_server.enqueue(reply_text("ok", model="my-finetune", **EXPENSIVE))
    model = OpenAICompatibleModel(model="my-finetune", base_url=chat_server.base_url)
    app = build(
        principal=OWNER,
        model=model,
        limits=RunLimits(max_cost_usd=0.01, max_tokens=10**9),
        fixed_clock_at=T0,
        sequential_ids=True,
    )
    run = app.runs.submit("hello", app.sessions.create().id)
    assert run.status is RunStatus.BUDGET_EXHAUSTED
    assert run.cost_usd == pytest.approx(1.8)
