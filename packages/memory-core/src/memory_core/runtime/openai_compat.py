"""``OpenAICompatibleModel``: the chat-completions wire format over httpx.

Works with any server speaking ``POST {base_url}/chat/completions`` (OpenAI, vLLM, Ollama,
llama.cpp server, LiteLLM). Configuration comes from arguments or the environment:

* ``MEMORY_MODEL_BASE_URL`` (else ``OPENAI_BASE_URL``, else ``https://api.openai.com/v1``)
* ``MEMORY_MODEL`` (else ``OPENAI_MODEL``)
* ``MEMORY_MODEL_API_KEY`` (else ``OPENAI_API_KEY``; optional for local servers)

Failures are typed: timeouts, connection errors, 429 and 5xx raise ``TransientModelError`` (after
``max_retries`` retries); other HTTP errors and malformed replies raise ``PermanentModelError``.
Both keep the HTTP status and body. Cost comes from the ``PriceCatalog`` (the reported
model's price, else the configured model's); a reply of a model the catalog does not know has
``cost_known=False``, and ``price_known`` says so before any call, which ``bootstrap.build``
uses to refuse the model under a finite run cost limit.

Setting ``MEMORY_MODEL_LOOPBACK_ONLY=1`` (the test suite does) makes any request to a host other
than 127.0.0.1/localhost/::1 an error, so no test can reach the internet.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import urlparse

import httpx

from memory_core.errors import UsageError
from memory_core.runtime.model import (
    Message,
    ModelResponse,
    PermanentModelError,
    ToolCall,
    ToolSpec,
    TransientModelError,
    Usage,
)
from memory_core.runtime.pricing import PriceCatalog

DEFAULT_BASE_URL = "https://api.openai.com/v1"
LOOPBACK_ONLY_ENV = "MEMORY_MODEL_LOOPBACK_ONLY"
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
_BODY_LIMIT = 2000


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


class OpenAICompatibleModel:
    """A ``Model`` speaking the chat-completions protocol."""

    def __init__(
        self,
        *,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_seconds: float = 60.0,
        max_retries: int = 2,
        temperature: float | None = 0.0,
        max_output_tokens: int | None = None,
        prices: PriceCatalog | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        name = model or _env("MEMORY_MODEL", "OPENAI_MODEL")
        if not name:
            raise UsageError("no model named: pass model=... or set MEMORY_MODEL")
        self._model = name
        self._base_url = (
            base_url or _env("MEMORY_MODEL_BASE_URL", "OPENAI_BASE_URL") or DEFAULT_BASE_URL
        ).rstrip("/")
        host = urlparse(self._base_url).hostname or ""
        if os.environ.get(LOOPBACK_ONLY_ENV) == "1" and host not in _LOOPBACK:
            raise UsageError(
                f"{LOOPBACK_ONLY_ENV}=1 forbids model requests to {host!r}; use a 127.0.0.1 server"
            )
        key = api_key or _env("MEMORY_MODEL_API_KEY", "OPENAI_API_KEY")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client = httpx.Client(
            base_url=self._base_url, headers=headers, timeout=timeout_seconds, transport=transport
        )
        if max_retries < 0:
            raise UsageError(f"max_retries must be >= 0, got {max_retries}")
        self._max_retries = max_retries
        self._temperature = temperature
        if max_output_tokens is not None and max_output_tokens < 1:
            raise UsageError(f"max_output_tokens must be >= 1, got {max_output_tokens}")
        self._max_output_tokens = max_output_tokens
        self._prices = prices if prices is not None else PriceCatalog.load()
        self._sleep = sleep

    @property
    def provider(self) -> str:
        """``openai-compatible``."""
        return "openai-compatible"

    @property
    def model_name(self) -> str:
        """The model identifier sent with every request."""
        return self._model

    @property
    def prices(self) -> PriceCatalog:
        """The price catalog this model's costs come from."""
        return self._prices

    @property
    def price_known(self) -> bool:
        """True when the price catalog knows the configured model (a zero price counts)."""
        return self._prices.price(self._model) is not None

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ModelResponse:
        """Send one chat-completions request and parse the reply."""
        body: dict[str, Any] = {
            "model": self._model,
            "messages": [_wire_message(m) for m in messages],
        }
        if self._temperature is not None:
            body["temperature"] = self._temperature
        if self._max_output_tokens is not None:
            body["max_tokens"] = self._max_output_tokens
        names = {wire_tool_name(t.name): t.name for t in tools}
        if tools:
            body["tools"] = [_wire_tool(t) for t in tools]
        attempt = 0
        while True:
            try:
                return self._once(body, names)
            except TransientModelError:
                if attempt >= self._max_retries:
                    raise
                self._sleep(min(8.0, 0.5 * 2**attempt))
                attempt += 1

    def _once(self, body: Mapping[str, Any], names: Mapping[str, str]) -> ModelResponse:
        try:
            response = self._client.post("/chat/completions", json=body)
        except httpx.TimeoutException as exc:
            raise TransientModelError(f"model request timed out: {exc!r}") from exc
        except httpx.TransportError as exc:
            raise TransientModelError(f"model request failed: {exc!r}") from exc
        text = response.text[:_BODY_LIMIT]
        status = response.status_code
        if status == 429 or status >= 500:
            raise TransientModelError(f"model server answered {status}", status=status, body=text)
        if status >= 400:
            raise PermanentModelError(f"model server answered {status}", status=status, body=text)
        try:
            return self._parse(response.json(), names)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise PermanentModelError(
                f"malformed chat-completions reply: {exc}", status=status, body=text
            ) from exc

    def _parse(self, data: Any, names: Mapping[str, str]) -> ModelResponse:
        choice = data["choices"][0]
        message = choice["message"]
        content = message.get("content")
        if content is not None and not isinstance(content, str):
            raise TypeError("message.content is not a string")
        calls = tuple(
            ToolCall(
                id=str(call["id"]),
                name=names.get(str(call["function"]["name"]), str(call["function"]["name"])),
                arguments=_arguments(call["function"].get("arguments")),
            )
            for call in message.get("tool_calls") or ()
        )
        raw_usage = data.get("usage") or {}
        usage = Usage(
            input_tokens=int(raw_usage.get("prompt_tokens", 0)),
            output_tokens=int(raw_usage.get("completion_tokens", 0)),
        )
        model = str(data.get("model") or self._model)
        cost = self._prices.cost(model, usage) or self._prices.cost(self._model, usage)
        known = self._prices.price(model) is not None or self.price_known
        return ModelResponse(
            text=content,
            tool_calls=calls,
            usage=usage,
            cost_usd=cost,
            cost_known=known,
            model=model,
            provider=self.provider,
        )


def wire_tool_name(name: str) -> str:
    """Wire form of a tool name (``[A-Za-z0-9_-]``): dots become ``__``."""
    return name.replace(".", "__")


def _arguments(raw: Any) -> dict[str, Any]:
    if raw is None or raw == "":
        return {}
    value = json.loads(raw) if isinstance(raw, str) else raw
    if not isinstance(value, dict):
        raise TypeError("tool call arguments are not a JSON object")
    return value


def _wire_message(message: Message) -> dict[str, Any]:
    wire: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_call_id is not None:
        wire["tool_call_id"] = message.tool_call_id
    if message.tool_calls:
        wire["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {
                    "name": wire_tool_name(call.name),
                    "arguments": json.dumps(dict(call.arguments)),
                },
            }
            for call in message.tool_calls
        ]
    return wire


def _wire_tool(tool: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": wire_tool_name(tool.name),
            "description": tool.description,
            "parameters": dict(tool.parameters) or {"type": "object", "properties": {}},
        },
    }
