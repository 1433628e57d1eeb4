"""The ``Model`` port: what the runtime needs from a language model, and its typed errors.

Errors::

    ModelError                 base (a MemoryCoreError)
    ├── TransientModelError    worth retrying: timeouts, 429, 5xx, connection resets
    │   └── ReplyTimeoutError  the server took the request but no reply came in time
    ├── PermanentModelError    not worth retrying: 4xx other than 429, malformed replies
    └── ScriptExhaustedError   a scripted model ran out of turns with on_exhausted="error"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, Protocol, runtime_checkable

from memory_core.errors import MemoryCoreError

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True, kw_only=True)
class Message:
    """One chat message sent to a model."""

    role: Role
    content: str
    tool_call_id: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ToolSpec:
    """A tool the model may call: name, description and a JSON-schema for its arguments."""

    name: str
    description: str
    parameters: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class ToolCall:
    """A tool call requested by the model."""

    id: str
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Usage:
    """Token usage of one model call."""

    input_tokens: int = 0
    output_tokens: int = 0


class FinishReason(StrEnum):
    """Why the model stopped generating (the chat-completions ``finish_reason``)."""

    STOP = "stop"
    """The model ended its reply."""
    TOOL_CALLS = "tool_calls"
    """The model asked for tool calls."""
    LENGTH = "length"
    """The reply was cut at the output-token limit: it is incomplete (truncated)."""
    CONTENT_FILTER = "content_filter"
    """The provider withheld (part of) the reply."""
    OTHER = "other"
    """A reason this port does not know, or none reported."""


@dataclass(frozen=True, kw_only=True)
class ModelResponse:
    """A model's reply: final text and/or tool calls, with usage and cost.

    ``cost_known`` is false when the price catalog does not know the model or the server
    reported no token usage: ``cost_usd`` is then at best an estimate (``usage`` estimated
    from the text when ``usage_reported`` is false, ``0.0`` when there is no price) and must
    never be taken as what the call cost. A free model (``ScriptedModel``, a local model
    priced at zero) has a known cost of zero. ``truncated`` replies were cut at the
    output-token limit and are incomplete. ``model`` is the configured model name (the one
    priced and recorded); ``served_model`` is what the server said it ran, when it said.
    """

    text: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    cost_known: bool = True
    model: str = ""
    provider: str = ""
    finish_reason: FinishReason = FinishReason.STOP
    usage_reported: bool = True
    served_model: str = ""

    @property
    def truncated(self) -> bool:
        """True when the reply was cut at the output-token limit (``finish_reason`` length)."""
        return self.finish_reason is FinishReason.LENGTH


@dataclass(frozen=True, kw_only=True)
class ResponseFormat:
    """A request for a JSON reply: ``schema`` (a JSON schema) named ``name``.

    A :class:`StructuredOutputModel` sends it as a JSON-schema response format where the server
    supports one, as JSON mode otherwise; the caller still validates the reply.
    """

    name: str
    schema: Mapping[str, Any]


class Model(Protocol):
    """A language model the runtime can call."""

    @property
    def provider(self) -> str:
        """Provider name recorded on runs and evidence (``scripted``, ``openai-compatible``)."""
        ...

    @property
    def model_name(self) -> str:
        """Model identifier recorded on runs and evidence."""
        ...

    def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ModelResponse:
        """Return the model's reply to ``messages``; raise a ``ModelError`` subclass on failure."""
        ...


@runtime_checkable
class PricedModel(Protocol):
    """A model that can tell, before any call, whether its replies' cost will be known.

    ``bootstrap.build`` refuses a ``PricedModel`` whose price is unknown when the run policy
    has a finite ``max_cost_usd`` (the limit could not be enforced). ``OpenAICompatibleModel``
    is one; a model without ``price_known`` is taken at its word that its costs are known.
    """

    @property
    def price_known(self) -> bool:
        """True when the price catalog knows this model (a zero price counts as known)."""
        ...


@runtime_checkable
class StructuredOutputModel(Protocol):
    """A model that can be asked for a JSON reply (``OpenAICompatibleModel`` is one)."""

    def complete_structured(
        self, messages: Sequence[Message], response_format: ResponseFormat
    ) -> ModelResponse:
        """Like ``Model.complete`` without tools, constraining the reply to ``response_format``
        as far as the server allows."""
        ...


class ModelError(MemoryCoreError):
    """A model call failed."""


class TransientModelError(ModelError):
    """A failure worth retrying (timeout, rate limit, server error); ``retry_after`` is the
    wait in seconds the server asked for (its ``Retry-After``), if any."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        body: str = "",
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.body = body
        self.retry_after = retry_after


class ReplyTimeoutError(TransientModelError):
    """The server accepted the request but the reply (or, streaming, its next chunk) did not
    arrive within the read timeout. Transient, but a client does not re-send it at once: the
    server may still be generating it, and a second request would queue behind the first."""


class PermanentModelError(ModelError):
    """A failure not worth retrying (bad request, auth, malformed reply)."""

    def __init__(self, message: str, *, status: int | None = None, body: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.body = body


class ScriptExhaustedError(ModelError):
    """A scripted model with ``on_exhausted="error"`` has no turn left."""
