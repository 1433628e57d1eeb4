"""``OpenAICompatibleModel``: the chat-completions wire format over httpx.

Works with any server speaking ``POST {base_url}/chat/completions`` (OpenAI, vLLM, Ollama,
llama.cpp server, LiteLLM). Configuration comes from arguments or the environment:

* ``MEMORY_MODEL_BASE_URL`` (else ``OPENAI_BASE_URL``, else ``https://api.openai.com/v1``)
* ``MEMORY_MODEL`` (else ``OPENAI_MODEL``)
* ``MEMORY_MODEL_API_KEY`` (else ``OPENAI_API_KEY``; optional for local servers)
* ``MEMORY_MODEL_STREAM=1``: stream replies (server-sent events)
* ``MEMORY_MODEL_TEXT_TOOL_CALLS=1``: read tool calls written as JSON text (see below)
* ``MEMORY_MODEL_STRUCTURED_OUTPUT``: ``auto`` (default), ``json_schema``, ``json_object``, ``off``

Failures are typed: connection failures, 429 and 5xx raise ``TransientModelError`` after
``max_retries`` retries, waiting before each what the server's ``Retry-After`` asks (seconds
or an HTTP date, capped at ``MAX_RETRY_AFTER_SECONDS``) or else a full-jitter exponential
backoff (uniform in ``[0, min(8, 0.5 * 2**attempt)]``), each retry logged as a warning; a
read timeout raises it at once, since the server may still be generating the request and
re-sending it would queue a second generation behind the first.
Other HTTP errors and malformed replies raise ``PermanentModelError``. Both keep the HTTP
status and body. Timeouts are two: ``connect_timeout_seconds`` to reach the server and
``timeout_seconds`` for each read. Without streaming a read lasts the whole generation; with
``stream=True`` it is the gap between two chunks, so a long generation stays alive while the
server keeps producing tokens.

Replies say how they ended: ``finish_reason`` (``truncated`` when the reply was cut at
``max_tokens``; a truncated reply's tool calls are dropped, their arguments are incomplete).
Cost comes from the ``PriceCatalog`` under the configured model name, which is also the name
every reply records; when the server reports another (llama-server reports its alias) the
reply keeps it as ``served_model`` and a warning is logged once. A reply is ``cost_known=False``
when the catalog does not price the configured model or the server reported no usage (its
tokens are then estimated, never taken as zero); ``price_known`` tells the first case before
any call, which ``bootstrap.build`` uses to refuse the model under a finite run cost limit.

``complete_structured`` asks for a JSON reply: a JSON-schema ``response_format`` where the
server supports one, JSON mode otherwise. Under ``auto`` a 400 or 422 answering the schema form
moves the client to JSON mode (and a further one to no response format), resends, and keeps the
mode it found (``structured_output_mode``).

``text_tool_calls=True`` (never the default) makes a reply without native tool calls whose whole
content is a JSON tool call naming an offered tool a tool call, for servers that cannot emit
native ones (:func:`~memory_core.runtime.openai_wire.text_tool_calls`).

Setting ``MEMORY_MODEL_LOOPBACK_ONLY=1`` (the test suite does) makes any request to a host other
than 127.0.0.1/localhost/::1 an error, so no test can reach the internet.
"""

from __future__ import annotations

import email.utils
import json
import logging
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, get_args
from urllib.parse import urlparse

from memory_core.base.model import (
    FinishReason,
    Message,
    ModelResponse,
    PermanentModelError,
    ReplyTimeoutError,
    ResponseFormat,
    ToolCall,
    ToolSpec,
    TransientModelError,
    Usage,
)
from memory_core.errors import UsageError
from memory_core.runtime.openai_wire import (
    StreamAccumulator,
    StructuredOutput,
    WireReply,
    decode_arguments,
    parse_completion,
    text_tool_calls,
    wire_message,
    wire_response_format,
    wire_tool,
    wire_tool_name,
)
from memory_core.runtime.pricing import PriceCatalog
from memory_core.tokenizer import estimate_tokens

if TYPE_CHECKING:
    import httpx  # imported where a model is built: the CLI starts without it

DEFAULT_BASE_URL = "https://api.openai.com/v1"
LOOPBACK_ONLY_ENV = "MEMORY_MODEL_LOOPBACK_ONLY"
STREAM_ENV = "MEMORY_MODEL_STREAM"
TEXT_TOOL_CALLS_ENV = "MEMORY_MODEL_TEXT_TOOL_CALLS"
STRUCTURED_OUTPUT_ENV = "MEMORY_MODEL_STRUCTURED_OUTPUT"
DEFAULT_CONNECT_TIMEOUT_SECONDS = 10.0
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
_BODY_LIMIT = 2000
MAX_RETRY_AFTER_SECONDS = 60.0
"""The longest ``Retry-After`` wait honoured (a longer ask waits this long)."""
_STRUCTURED_MODES = ("auto", *get_args(StructuredOutput))
_FALLBACK: dict[StructuredOutput, StructuredOutput] = {
    "json_schema": "json_object",
    "json_object": "off",
}
_log = logging.getLogger(__name__)


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


def _flag(value: bool | None, name: str) -> bool:
    if value is not None:
        return value
    raw = os.environ.get(name, "").strip()
    if raw not in ("", "0", "1"):
        raise UsageError(f"{name} must be 0 or 1, got {raw!r}")
    return raw == "1"


class OpenAICompatibleModel:
    """A ``Model`` (and ``StructuredOutputModel``) speaking the chat-completions protocol."""

    def __init__(
        self,
        *,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_seconds: float = 60.0,
        connect_timeout_seconds: float = DEFAULT_CONNECT_TIMEOUT_SECONDS,
        max_retries: int = 2,
        temperature: float | None = 0.0,
        max_output_tokens: int | None = None,
        prices: PriceCatalog | None = None,
        stream: bool | None = None,
        text_tool_calls: bool | None = None,
        structured_output: str | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        """Configure the client (nothing is sent until the first call).

        Args:
            model: Model name sent, priced and recorded (default: ``MEMORY_MODEL``).
            base_url: Chat-completions base URL (default: ``MEMORY_MODEL_BASE_URL``).
            api_key: Bearer key (default: ``MEMORY_MODEL_API_KEY``; none for local servers).
            timeout_seconds: Longest wait for one read (with streaming, between two chunks).
            connect_timeout_seconds: Longest wait to connect.
            max_retries: Retries of a transient failure other than a read timeout.
            temperature: Sampling temperature (``None`` sends none).
            max_output_tokens: ``max_tokens`` of every request (``None`` sends none).
            prices: The price catalog (default: the shipped one with the operator's over it).
            stream: Stream replies (default: ``MEMORY_MODEL_STREAM=1``).
            text_tool_calls: Read tool calls written as JSON text (default:
                ``MEMORY_MODEL_TEXT_TOOL_CALLS=1``; off unless asked for).
            structured_output: ``auto``, ``json_schema``, ``json_object`` or ``off`` (default:
                ``MEMORY_MODEL_STRUCTURED_OUTPUT``, else ``auto``).
            transport: An httpx transport (tests).
            sleep: Backoff sleep (tests).
            rng: The backoff jitter's random source (tests pass a seeded one).
            now: Wall clock in epoch seconds, to read an HTTP-date ``Retry-After`` (tests).

        Raises:
            UsageError: A setting is out of range or a non-loopback host is named while
                ``MEMORY_MODEL_LOOPBACK_ONLY=1``.
        """
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
        for label, seconds in (
            ("timeout_seconds", timeout_seconds),
            ("connect_timeout_seconds", connect_timeout_seconds),
        ):
            if not seconds > 0:
                raise UsageError(f"{label} must be > 0, got {seconds}")
        if max_retries < 0:
            raise UsageError(f"max_retries must be >= 0, got {max_retries}")
        if max_output_tokens is not None and max_output_tokens < 1:
            raise UsageError(f"max_output_tokens must be >= 1, got {max_output_tokens}")
        mode = (structured_output or _env(STRUCTURED_OUTPUT_ENV) or "auto").strip().lower()
        if mode not in _STRUCTURED_MODES:
            raise UsageError(
                f"structured_output ({STRUCTURED_OUTPUT_ENV}) must be one of "
                f"{', '.join(_STRUCTURED_MODES)}, got {mode!r}"
            )
        self._auto_structured = mode == "auto"
        self._structured: StructuredOutput = "json_schema" if mode == "auto" else mode  # type: ignore[assignment]
        self._stream = _flag(stream, STREAM_ENV)
        self._text_tool_calls = _flag(text_tool_calls, TEXT_TOOL_CALLS_ENV)
        key = api_key or _env("MEMORY_MODEL_API_KEY", "OPENAI_API_KEY")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        import httpx

        self._timeout = httpx.Timeout(timeout_seconds, connect=connect_timeout_seconds)
        self._client = httpx.Client(
            base_url=self._base_url, headers=headers, timeout=self._timeout, transport=transport
        )
        self._max_retries = max_retries
        self._temperature = temperature
        self._max_output_tokens = max_output_tokens
        self._prices = prices if prices is not None else PriceCatalog.load()
        self._sleep = sleep
        self._rng = rng if rng is not None else random.Random()
        self._now = now
        self._warned_served: set[str] = set()

    @property
    def provider(self) -> str:
        """``openai-compatible``."""
        return "openai-compatible"

    @property
    def model_name(self) -> str:
        """The model identifier sent with every request, priced, and recorded on replies."""
        return self._model

    @property
    def prices(self) -> PriceCatalog:
        """The price catalog this model's costs come from."""
        return self._prices

    @property
    def price_known(self) -> bool:
        """True when the price catalog knows the configured model (a zero price counts)."""
        return self._prices.price(self._model) is not None

    @property
    def timeout(self) -> httpx.Timeout:
        """The connect and read timeouts every request uses."""
        return self._timeout

    @property
    def structured_output_mode(self) -> StructuredOutput:
        """How ``complete_structured`` currently sends its format (``auto`` may have moved it)."""
        return self._structured

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ModelResponse:
        """Send one chat-completions request and parse the reply."""
        body = self._body(messages)
        if tools:
            body["tools"] = [wire_tool(t) for t in tools]
        return self._send(body, tools)

    def complete_structured(
        self, messages: Sequence[Message], response_format: ResponseFormat
    ) -> ModelResponse:
        """Ask for a JSON reply shaped by ``response_format`` (see the module docstring)."""
        while True:
            body = self._body(messages)
            wire = wire_response_format(response_format, self._structured)
            if wire is not None:
                body["response_format"] = wire
            try:
                return self._send(body, ())
            except PermanentModelError as exc:
                fallback = _FALLBACK.get(self._structured)
                if not (self._auto_structured and fallback and exc.status in (400, 422)):
                    raise
                _log.warning(
                    "model server refused response_format %s (HTTP %s); using %s",
                    self._structured,
                    exc.status,
                    fallback,
                )
                self._structured = fallback

    def _body(self, messages: Sequence[Message]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self._model,
            "messages": [wire_message(m) for m in messages],
        }
        if self._temperature is not None:
            body["temperature"] = self._temperature
        if self._max_output_tokens is not None:
            body["max_tokens"] = self._max_output_tokens
        if self._stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        return body

    def _send(self, body: Mapping[str, Any], tools: Sequence[ToolSpec]) -> ModelResponse:
        attempt = 0
        while True:
            try:
                wire = self._once(body)
                break
            except ReplyTimeoutError:
                raise
            except TransientModelError as exc:
                if attempt >= self._max_retries:
                    raise
                delay = self._delay(attempt, exc.retry_after)
                _log.warning(
                    "model %s: transient failure (%s, status %s); retry %d/%d in %.2fs",
                    self._model,
                    type(exc).__name__,
                    exc.status,
                    attempt + 1,
                    self._max_retries,
                    delay,
                )
                self._sleep(delay)
                attempt += 1
        return self._response(wire, body, tools)

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before retry ``attempt + 1``: the server's ask, else full jitter."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), MAX_RETRY_AFTER_SECONDS)
        return self._rng.uniform(0.0, min(8.0, 0.5 * 2**attempt))

    def _once(self, body: Mapping[str, Any]) -> WireReply:
        import httpx

        try:
            if self._stream:
                return self._streamed(body)
            response = self._client.post("/chat/completions", json=body)
        except httpx.ReadTimeout as exc:
            raise ReplyTimeoutError(
                f"model request timed out waiting for the reply: {exc!r}"
            ) from exc
        except httpx.TimeoutException as exc:
            raise TransientModelError(f"model request timed out: {exc!r}") from exc
        except httpx.TransportError as exc:
            raise TransientModelError(f"model request failed: {exc!r}") from exc
        _raise_for_status(response, self._now)
        try:
            return parse_completion(response.json())
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise PermanentModelError(
                f"malformed chat-completions reply: {exc}",
                status=response.status_code,
                body=response.text[:_BODY_LIMIT],
            ) from exc

    def _streamed(self, body: Mapping[str, Any]) -> WireReply:
        with self._client.stream("POST", "/chat/completions", json=body) as response:
            if response.status_code >= 400:
                response.read()
                _raise_for_status(response, self._now)
            folded = StreamAccumulator()
            try:
                for line in response.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    data = line[len("data:") :].strip()
                    if data == "[DONE]":
                        break
                    folded.feed(json.loads(data))
                return folded.result()
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise PermanentModelError(
                    f"malformed chat-completions stream: {exc}", status=response.status_code
                ) from exc

    def _response(
        self, wire: WireReply, body: Mapping[str, Any], tools: Sequence[ToolSpec]
    ) -> ModelResponse:
        names = {wire_tool_name(t.name): t.name for t in tools}
        truncated = wire.finish_reason is FinishReason.LENGTH
        try:
            # A reply cut at max_tokens has incomplete tool-call arguments: none is kept.
            calls = (
                ()
                if truncated
                else tuple(
                    ToolCall(
                        id=c.id,
                        name=names.get(c.name, c.name),
                        arguments=decode_arguments(c.arguments),
                    )
                    for c in wire.calls
                )
            )
        except (ValueError, TypeError) as exc:
            raise PermanentModelError(
                f"malformed chat-completions reply: {exc}", status=200
            ) from exc
        text = wire.content
        if self._text_tool_calls and not calls and not truncated:
            written = text_tool_calls(text, tools)
            if written:
                calls, text = written, None
        if wire.usage is not None:
            usage = Usage(
                input_tokens=int(wire.usage.get("prompt_tokens") or 0),
                output_tokens=int(wire.usage.get("completion_tokens") or 0),
            )
        else:
            usage = _estimated_usage(body, wire)
        served = wire.served_model
        if served and served != self._model and served not in self._warned_served:
            self._warned_served.add(served)
            _log.warning(
                "model server reports model %r for configured model %r; pricing and records use %r",
                served,
                self._model,
                self._model,
            )
        return ModelResponse(
            text=text,
            tool_calls=calls,
            usage=usage,
            cost_usd=self._prices.cost(self._model, usage),
            cost_known=self.price_known and wire.usage is not None,
            model=self._model,
            provider=self.provider,
            finish_reason=wire.finish_reason,
            usage_reported=wire.usage is not None,
            served_model=served,
        )


def retry_after_seconds(value: str | None, now: float) -> float | None:
    """A ``Retry-After`` header's wait in seconds (delta-seconds or an HTTP date), or None."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return max(float(text), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(when.timestamp() - now, 0.0)


def _raise_for_status(response: httpx.Response, now: Callable[[], float]) -> None:
    status = response.status_code
    if status < 400:
        return
    body = response.text[:_BODY_LIMIT]
    if status == 429 or status >= 500:
        raise TransientModelError(
            f"model server answered {status}",
            status=status,
            body=body,
            retry_after=retry_after_seconds(response.headers.get("retry-after"), now()),
        )
    if status >= 400:
        raise PermanentModelError(f"model server answered {status}", status=status, body=body)


def _estimated_usage(body: Mapping[str, Any], wire: WireReply) -> Usage:
    """Tokens of a reply whose server reported none, by the core's estimator (never zero for a
    non-empty exchange; the reply is then ``cost_known=False``)."""
    sent = sum(estimate_tokens(str(m.get("content") or "")) for m in body["messages"])
    received = estimate_tokens(wire.content or "") + sum(
        estimate_tokens(f"{c.name} {c.arguments or ''}") for c in wire.calls
    )
    return Usage(input_tokens=sent, output_tokens=received)


__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_CONNECT_TIMEOUT_SECONDS",
    "LOOPBACK_ONLY_ENV",
    "MAX_RETRY_AFTER_SECONDS",
    "STREAM_ENV",
    "STRUCTURED_OUTPUT_ENV",
    "TEXT_TOOL_CALLS_ENV",
    "OpenAICompatibleModel",
    "wire_tool_name",
]
