"""``ScriptedModel``: a ``Model`` that replays a fixed script and never touches a network.

The deterministic benchmark and the test suite run every agent turn through it::

    script = FakeModelScript(turns=[ScriptedTurn(text="Noted.")], on_exhausted="repeat_last")
    model = ScriptedModel(script)

Each ``complete`` call consumes the next ``ScriptedTurn``. When the script runs out,
``on_exhausted="repeat_last"`` keeps answering with the last turn and ``"error"`` raises
``ScriptExhaustedError``. A turn may carry tool calls, explicit usage and cost, or a scripted
failure (``error``) so runs can be driven into every terminal status. Usage a turn leaves
unset is estimated with the shared deterministic estimator, so token budgets behave the same
under the scripted model as under a real one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from memory_core.base.model import (
    Message,
    ModelError,
    ModelResponse,
    ScriptExhaustedError,
    ToolCall,
    ToolSpec,
    Usage,
)
from memory_core.errors import UsageError
from memory_core.tokenizer import estimate_tokens

SCRIPTED_PROVIDER = "scripted"
"""Provider name a ``ScriptedModel`` reports on runs and evidence."""

OnExhausted = Literal["repeat_last", "error"]


@dataclass(frozen=True, kw_only=True)
class ScriptedTurn:
    """One scripted model reply.

    Attributes:
        text: The reply text (``None`` for a turn that only calls tools).
        tool_calls: Tool calls the model requests on this turn.
        usage: Token usage to report; ``None`` estimates it from the messages and the reply.
        cost_usd: Cost to report for this call.
        error: A model error to raise instead of replying (drives failure paths in tests).
    """

    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage | None = None
    cost_usd: float = 0.0
    error: ModelError | None = None

    def __post_init__(self) -> None:
        if self.cost_usd < 0:
            raise UsageError(f"ScriptedTurn.cost_usd must be >= 0, got {self.cost_usd}")
        if self.error is None and self.text is None and not self.tool_calls:
            raise UsageError(
                "a ScriptedTurn needs text, tool_calls or an error; "
                "pass e.g. ScriptedTurn(text='OK.')"
            )


@dataclass(frozen=True, kw_only=True)
class FakeModelScript:
    """An ordered list of scripted turns and what to do once they are used up."""

    turns: Sequence[ScriptedTurn]
    on_exhausted: OnExhausted = "repeat_last"

    def __post_init__(self) -> None:
        if not self.turns:
            raise UsageError("a FakeModelScript needs at least one ScriptedTurn")
        if self.on_exhausted not in ("repeat_last", "error"):
            raise UsageError(
                f"on_exhausted must be 'repeat_last' or 'error', got {self.on_exhausted!r}"
            )
        object.__setattr__(self, "turns", tuple(self.turns))


@dataclass(frozen=True, kw_only=True)
class ScriptedCall:
    """What a ``ScriptedModel`` was asked: the messages and the tools offered, in call order."""

    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...]


class ScriptedModel:
    """A ``Model`` that answers from a ``FakeModelScript``; it records every call it receives."""

    def __init__(self, script: FakeModelScript, *, model_name: str = "scripted-model") -> None:
        self._script = script
        self._model_name = model_name
        self._next = 0
        self._calls: list[ScriptedCall] = []

    @property
    def provider(self) -> str:
        """Always ``"scripted"``."""
        return SCRIPTED_PROVIDER

    @property
    def model_name(self) -> str:
        """The name given at construction (``"scripted-model"`` by default)."""
        return self._model_name

    @property
    def calls(self) -> tuple[ScriptedCall, ...]:
        """Every call received so far, oldest first."""
        return tuple(self._calls)

    def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ModelResponse:
        """Return the next scripted reply (or raise its scripted error).

        Raises:
            ScriptExhaustedError: the script is used up and ``on_exhausted`` is ``"error"``.
            ModelError: the turn scripts a failure.
        """
        self._calls.append(ScriptedCall(messages=tuple(messages), tools=tuple(tools)))
        turns = self._script.turns
        if self._next < len(turns):
            turn = turns[self._next]
            self._next += 1
        elif self._script.on_exhausted == "repeat_last":
            turn = turns[-1]
        else:
            raise ScriptExhaustedError(
                f"the scripted model's {len(turns)} turn(s) are used up; add turns or build "
                "the script with on_exhausted='repeat_last'"
            )
        if turn.error is not None:
            raise turn.error
        usage = turn.usage or Usage(
            input_tokens=sum(estimate_tokens(m.content) for m in messages),
            output_tokens=estimate_tokens(turn.text or ""),
        )
        return ModelResponse(
            text=turn.text,
            tool_calls=turn.tool_calls,
            usage=usage,
            cost_usd=turn.cost_usd,
            model=self._model_name,
            provider=SCRIPTED_PROVIDER,
        )
