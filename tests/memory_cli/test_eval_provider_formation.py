"""``agent eval memory-formation --provider openai-compatible`` against a 127.0.0.1 server:
the request carries ``max_tokens``, ``--prices`` prices the model, and an unpriced model's
cost is reported unknown, never zero (issue 22)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import ChatServer, Reply, reply_text

from memory_cli.app import main

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "corpus" / "memory-formation.v2.json"


def _nothing(_payload: dict[str, Any]) -> Reply:
    return reply_text(json.dumps({"candidates": []}), model="alias-from-server")


@pytest.fixture
def server() -> Any:
    with ChatServer(responder=_nothing) as running:
        yield running


def _run(server: ChatServer, *extra: str) -> list[str]:
    return [
        "eval",
        "memory-formation",
        "--cases",
        str(CASES),
        "--provider",
        "openai-compatible",
        "--model",
        "local-model",
        "--base-url",
        server.base_url,
        "--max-retries",
        "0",
        *extra,
    ]


def test_max_tokens_and_prices_reach_the_run(
    server: ChatServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text("models:\n  local-model: {input: 1.0, output: 1.0}\n", encoding="utf-8")
    assert main(_run(server, "--prices", str(prices), "--max-tokens", "512")) == 1  # no support
    run = json.loads(capsys.readouterr().out)
    assert server.requests and all(r["max_tokens"] == 512 for r in server.requests)
    assert all(r["model"] == "local-model" for r in server.requests)
    assert run["model"] == "local-model"  # not the name the server reports
    counters = run["counters"]
    assert counters["cost_known"] is True
    expected = (counters["input_tokens"] + counters["output_tokens"]) / 1_000_000
    assert counters["cost_usd"] == pytest.approx(expected) and expected > 0


def test_max_tokens_has_a_default_and_an_unpriced_cost_is_unknown(
    server: ChatServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMORY_MODEL_PRICES", raising=False)
    assert main(_run(server)) == 1
    captured = capsys.readouterr()
    assert all(r["max_tokens"] == 1024 for r in server.requests)
    assert json.loads(captured.out)["counters"]["cost_known"] is False
    assert "USD unknown" in captured.err


def test_streaming_is_an_option(server: ChatServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_run(server, "--stream")) == 1
    capsys.readouterr()
    assert all(r["stream"] is True for r in server.requests)


def test_a_non_positive_max_tokens_is_a_usage_error(
    server: ChatServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_run(server, "--max-tokens", "0")) == 2
    assert server.requests == []
