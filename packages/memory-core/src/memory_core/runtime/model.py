"""The ``Model`` port: what the runtime needs from a language model, and its typed errors.

Errors::

    ModelError                 base (a MemoryCoreError)
    ├── TransientModelError    worth retrying: timeouts, 429, 5xx, connection resets
    ├── PermanentModelError    not worth retrying: 4xx other than 429, malformed replies
    └── ScriptExhaustedError   a scripted model ran out of turns with on_exhausted="error"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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


@dataclass(frozen=True, kw_only=True)
class ModelResponse:
    """A model's reply: final text and/or tool calls, with usage and cost.

    ``cost_known`` is false when the price catalog does not know the model, so ``cost_usd``
    (then ``0.0``) says nothing about what the call cost; a free model (``ScriptedModel``, a
    local model priced at zero) has a known cost of zero.
    """

    text: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    cost_known: bool = True
    model: str = ""
    provider: str = ""


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


class ModelError(MemoryCoreError):
    """A model call failed."""


class TransientModelError(ModelError):
    """A failure worth retrying (timeout, rate limit, server error)."""

    def __init__(self, message: str, *, status: int | None = None, body: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.body = body


class PermanentModelError(ModelError):
    """A failure not worth retrying (bad request, auth, malformed reply)."""

    def __init__(self, message: str, *, status: int | None = None, body: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.body = body


class ScriptExhaustedError(ModelError):
    """A scripted model with ``on_exhausted="error"`` has no turn left."""
