"""The context plan and the builder that assembles what the model sees on each call.

Layout of every model call of a session::

    prefix   system message: system instructions + the session's frozen snapshot block
             (its sha256 is the prefix digest, identical on every call of the session)
    body     history            earlier messages of the session        droppable, oldest first
             correction lines   snapshot members that no longer hold   fixed, never yielded
             recall blocks      base in-turn recall, then the delta    droppable, last first
             user turn          the current prompt                     fixed, never yielded
             exchange           this run's tool calls and results      fixed, never yielded

The budget is ``context_window_tokens - reserved_output_tokens``. When the whole does not fit,
the builder yields in a fixed order: history older than the protected tail, then recall blocks
(last block first), then the protected tail. If the prefix and the fixed body alone do not fit,
it raises ``ContextOverflowError`` (terminal status ``context_overflow``); it never trims the
prefix, a correction line or the user turn.

Correction lines (``memory_core.retrieval.lifecycle``) arrive as one memory message, headed
``Memory (<policy>, corrections):``; they are part of the fixed body, so a long conversation
can never squeeze a correction out, and correction lines that alone overflow the window are
the same ``ContextOverflowError``. The prefix is never rewritten: what changed since the
snapshot reaches the model only through the body.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field

from memory_core._config import load_with_overlay
from memory_core.base.model import Message, ToolSpec
from memory_core.errors import RunError, UsageError
from memory_core.profiles import Budget
from memory_core.tokenizer import estimate_tokens

CONTEXT_OVERFLOW = "context_overflow"
"""The terminal status of a run whose fixed context does not fit the window."""


class ContextOverflowError(RunError):
    """The prefix plus the fixed body exceed the token budget; nothing droppable is left."""

    def __init__(self, *, needed_tokens: int, budget_tokens: int) -> None:
        super().__init__(
            CONTEXT_OVERFLOW,
            f"the system prefix, correction lines, user turn and tool exchange need "
            f"{needed_tokens} tokens but the budget is {budget_tokens}; shorten the prompt or "
            "raise context_window_tokens in the context plan",
        )
        self.needed_tokens = needed_tokens
        self.budget_tokens = budget_tokens


class ContextPlan(BaseModel):
    """The interactive context plan (``memory_core/runtime/plan.yaml``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    system_instructions: str = Field(min_length=1)
    context_window_tokens: int = Field(ge=256)
    message_overhead_tokens: int = Field(default=4, ge=0)
    protected_history_messages: int = Field(default=4, ge=0)
    snapshot: Budget


def load_context_plan(overlay: Path | str | Mapping[str, Any] | None = None) -> ContextPlan:
    """Load the shipped ``plan.yaml``, with an overlay (a YAML path or a mapping) merged over.

    Raises:
        ConfigurationError: the overlay is missing or malformed, or a key is unknown.
    """
    text = resources.files("memory_core.runtime").joinpath("plan.yaml").read_text(encoding="utf-8")
    return load_with_overlay(
        ContextPlan,
        yaml.safe_load(text),
        overlay,
        shipped_source="memory_core/runtime/plan.yaml",
        what="context plan",
    )


def prefix_digest(prefix: str) -> str:
    """The sha256 hex digest of the prefix text."""
    return hashlib.sha256(prefix.encode("utf-8")).hexdigest()


@dataclass(frozen=True, kw_only=True)
class BuiltContext:
    """The messages of one model call and how the budget was spent."""

    messages: tuple[Message, ...]
    prefix: str
    prefix_digest: str
    budget_tokens: int
    total_tokens: int
    fixed_tokens: int
    history_kept: int
    history_dropped: int
    recall_blocks_kept: int
    recall_blocks_dropped: int


class ContextBuilder:
    """Assembles the prefix and body of each model call within the token budget."""

    def __init__(self, plan: ContextPlan, *, reserved_output_tokens: int) -> None:
        budget = plan.context_window_tokens - reserved_output_tokens
        if budget < 1:
            raise UsageError(
                f"the context window ({plan.context_window_tokens} tokens) leaves no room after "
                f"reserving {reserved_output_tokens} output tokens; lower max_output_tokens in "
                "the policy profile or raise context_window_tokens in the context plan"
            )
        self._plan = plan
        self._budget = budget

    @property
    def budget_tokens(self) -> int:
        """Tokens a prompt may use: the window minus the reserved output."""
        return self._budget

    def prefix(self, snapshot_block: str) -> str:
        """The cached prefix: system instructions, then the frozen snapshot block if any."""
        instructions = self._plan.system_instructions.strip()
        block = snapshot_block.strip()
        return f"{instructions}\n\n{block}" if block else instructions

    def message_tokens(self, message: Message) -> int:
        """Estimated tokens of one message, tool calls included."""
        tokens = estimate_tokens(message.content) + self._plan.message_overhead_tokens
        for call in message.tool_calls:
            arguments = json.dumps(dict(call.arguments), sort_keys=True, ensure_ascii=False)
            tokens += estimate_tokens(call.name) + estimate_tokens(arguments)
        return tokens

    def tools_tokens(self, tools: Sequence[ToolSpec]) -> int:
        """Estimated tokens of the tool specs sent with each call."""
        total = 0
        for spec in tools:
            schema = json.dumps(dict(spec.parameters), sort_keys=True, ensure_ascii=False)
            total += estimate_tokens(f"{spec.name} {spec.description} {schema}")
        return total

    def build(
        self,
        *,
        snapshot_block: str,
        user_turn: str,
        history: Sequence[Message] = (),
        corrections: Sequence[str] = (),
        recall_blocks: Sequence[str] = (),
        exchange: Sequence[Message] = (),
        tools: Sequence[ToolSpec] = (),
    ) -> BuiltContext:
        """Assemble one call's messages, yielding droppable parts until they fit.

        Raises:
            ContextOverflowError: the prefix and the fixed body alone exceed the budget.
        """
        prefix = self.prefix(snapshot_block)
        system = Message(role="system", content=prefix)
        correction = (
            Message(role="user", content="\n".join(line.strip() for line in corrections))
            if corrections
            else None
        )
        turn = Message(role="user", content=user_turn)
        fixed = self.message_tokens(system) + self.message_tokens(turn) + self.tools_tokens(tools)
        if correction is not None:
            fixed += self.message_tokens(correction)
        fixed += sum(self.message_tokens(m) for m in exchange)
        if fixed > self._budget:
            raise ContextOverflowError(needed_tokens=fixed, budget_tokens=self._budget)

        recall = [Message(role="user", content=b) for b in recall_blocks if b.strip()]
        history_costs = [self.message_tokens(m) for m in history]
        recall_costs = [self.message_tokens(m) for m in recall]
        total = fixed + sum(history_costs) + sum(recall_costs)
        first_history = 0
        recall_kept = len(recall)
        protected_start = max(0, len(history) - self._plan.protected_history_messages)
        while total > self._budget and first_history < protected_start:
            total -= history_costs[first_history]
            first_history += 1
        while total > self._budget and recall_kept > 0:
            recall_kept -= 1
            total -= recall_costs[recall_kept]
        while total > self._budget and first_history < len(history):
            total -= history_costs[first_history]
            first_history += 1

        messages: list[Message] = [system, *history[first_history:]]
        if correction is not None:
            messages.append(correction)
        messages.extend(recall[:recall_kept])
        messages.append(turn)
        messages.extend(exchange)
        return BuiltContext(
            messages=tuple(messages),
            prefix=prefix,
            prefix_digest=prefix_digest(prefix),
            budget_tokens=self._budget,
            total_tokens=total,
            fixed_tokens=fixed,
            history_kept=len(history) - first_history,
            history_dropped=first_history,
            recall_blocks_kept=recall_kept,
            recall_blocks_dropped=len(recall) - recall_kept,
        )
