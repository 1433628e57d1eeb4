"""A minimal agent runtime: just enough agent to exercise memory honestly.

* ``ScriptedModel`` (tests, the deterministic benchmark) and ``OpenAICompatibleModel`` (any
  chat-completions server), behind the ``Model`` port of :mod:`memory_core.base.model`;
* ``ContextBuilder`` over the context plan (``plan.yaml``): a cached prefix whose digest is
  stable for a session, a body that yields recall before it trims the fixed parts (never);
* ``RunService.submit(prompt, session_id) -> Run`` within ``RunLimits``, ending in a final
  message or a typed ``RunStatus``;
* ``PolicyProfile``: the named runtime policy whose compiled version every run records;
* ``WorkingStateService``: records the facts the agent established
  (:mod:`memory_core.base.working_state`), with their source events;
* the ``memory.remember`` and ``memory.recall_episodes`` tools.

``OpenAICompatibleModel`` is loaded on first use, so importing the runtime (and formation,
which the runtime imports) does not load httpx.
"""

from typing import TYPE_CHECKING, Any

from memory_core.runtime.context import (
    BuiltContext,
    ContextBuilder,
    ContextOverflowError,
    ContextPlan,
    load_context_plan,
    prefix_digest,
)
from memory_core.runtime.policy_profile import (
    SHIPPED_POLICY_PROFILES,
    ModelPolicy,
    PolicyProfile,
    RunLimits,
    load_policy_profile,
)
from memory_core.runtime.pricing import PriceCatalog
from memory_core.runtime.run import CompletionHook, Recaller, Run, RunService, RunStatus
from memory_core.runtime.scripted import (
    FakeModelScript,
    ScriptedCall,
    ScriptedModel,
    ScriptedTurn,
)
from memory_core.runtime.tools import (
    KNOWN_TOOLS,
    RECALL_EPISODES_TOOL,
    REMEMBER_TOOL,
    ToolContext,
    ToolExecutor,
    ToolResult,
)
from memory_core.runtime.working_state import WorkingStateService

if TYPE_CHECKING:
    from memory_core.runtime.openai_compat import OpenAICompatibleModel


def __getattr__(name: str) -> Any:
    """``OpenAICompatibleModel``, imported (with httpx) the first time it is asked for."""
    if name == "OpenAICompatibleModel":
        from memory_core.runtime.openai_compat import OpenAICompatibleModel

        return OpenAICompatibleModel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "KNOWN_TOOLS",
    "RECALL_EPISODES_TOOL",
    "REMEMBER_TOOL",
    "SHIPPED_POLICY_PROFILES",
    "BuiltContext",
    "CompletionHook",
    "ContextBuilder",
    "ContextOverflowError",
    "ContextPlan",
    "FakeModelScript",
    "ModelPolicy",
    "OpenAICompatibleModel",
    "PolicyProfile",
    "PriceCatalog",
    "Recaller",
    "Run",
    "RunLimits",
    "RunService",
    "RunStatus",
    "ScriptedCall",
    "ScriptedModel",
    "ScriptedTurn",
    "ToolContext",
    "ToolExecutor",
    "ToolResult",
    "WorkingStateService",
    "load_context_plan",
    "load_policy_profile",
    "prefix_digest",
]
