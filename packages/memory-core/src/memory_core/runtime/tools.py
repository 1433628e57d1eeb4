"""The two memory tools a model may call, and the executor that runs them.

``memory.remember``
    Keep a statement the user asked to keep. It goes through the same governed formation path
    as a session close (``GovernedMemoryService.remember``): hazards are refused, rejections
    re-applied, duplicates reinforce. The source is the user event of the current turn.

``memory.recall_episodes``
    Search the principal's past sessions' messages for a few words. The search reads bounded
    pages of the principal's event log (``EventLog.page``) with a cursor on the event sequence
    and matches whole lexemes with the shared tokenizer. For now it reads one page
    (``EPISODE_MAX_PAGES``); paging past it arrives with the lifecycle work. Every message
    goes through formation's hazard screen (``formation.hazards.screen_turn``) before it is
    matched or returned: only the sentences the screen keeps reach the model, and a message
    with none left (a secret-only sentence, an injection turn) is skipped. The event log keeps
    messages verbatim, so without the screen this tool would bring back into the model's
    context the very secrets formation refused to keep.

A tool the policy did not enable, an unknown tool, or bad arguments produce an error result the
model sees (``ok=False``); they do not end the run. Results are canonical JSON so a run under
the fixed clock and sequential ids is byte-reproducible.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from memory_core.domain import Principal
from memory_core.errors import UsageError
from memory_core.formation.hazards import screen_turn
from memory_core.ids import short_id
from memory_core.ports import EventLog
from memory_core.runtime.model import ToolCall, ToolSpec
from memory_core.tokenizer import lexemes, query_terms

if TYPE_CHECKING:  # formation imports the runtime's model port; only the type is needed here
    from memory_core.formation.service import ConsolidationResult

REMEMBER_TOOL = "memory.remember"
"""Name of the tool that keeps a statement through governed formation."""
RECALL_EPISODES_TOOL = "memory.recall_episodes"
"""Name of the tool that searches the principal's past session messages."""
KNOWN_TOOLS: frozenset[str] = frozenset({REMEMBER_TOOL, RECALL_EPISODES_TOOL})
"""Every tool the runtime can execute."""

EPISODE_PAGE_SIZE = 200
"""Events read per page of episode search."""
EPISODE_MAX_PAGES = 1
"""Pages one episode search reads (one bounded page until the lifecycle work adds paging)."""
EPISODE_DEFAULT_LIMIT = 5
"""Matches returned when the model does not ask for a limit."""
EPISODE_MAX_LIMIT = 20
"""The most matches one episode search returns."""
EPISODE_TEXT_CHARS = 400
"""A returned message is cut to this many characters."""
MAX_STATEMENT_CHARS = 500
"""The longest statement ``memory.remember`` accepts."""

_EPISODE_EVENT_TYPES = ("user.message.created", "assistant.message.created")

TOOL_SPECS: Mapping[str, ToolSpec] = {
    REMEMBER_TOOL: ToolSpec(
        name=REMEMBER_TOOL,
        description=(
            "Keep a fact or preference the user explicitly asked you to remember. "
            "State it as the user said it, in one sentence."
        ),
        parameters={
            "type": "object",
            "properties": {
                "statement": {
                    "type": "string",
                    "description": "What to remember, e.g. 'I prefer window seats.'",
                    "maxLength": MAX_STATEMENT_CHARS,
                }
            },
            "required": ["statement"],
            "additionalProperties": False,
        },
    ),
    RECALL_EPISODES_TOOL: ToolSpec(
        name=RECALL_EPISODES_TOOL,
        description=(
            "Search the user's earlier conversations for messages containing some words. "
            "Use it when the user refers to something said in a past session."
        ),
        parameters={
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words to look for."},
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": EPISODE_MAX_LIMIT,
                    "default": EPISODE_DEFAULT_LIMIT,
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    ),
}
"""The specs offered to the model, by tool name."""


class Rememberer(Protocol):
    """The governed write path the remember tool calls (``GovernedMemoryService``)."""

    def remember(
        self,
        statement: str,
        *,
        session_id: str,
        source_event_id: str,
        principal: Principal | None = None,
    ) -> ConsolidationResult:
        """Form ``statement`` through governed formation and report what changed.

        Raises:
            UsageError: the source is not a user message of the principal's session.
        """
        ...


@dataclass(frozen=True, kw_only=True)
class ToolContext:
    """Who is calling and on behalf of which turn."""

    principal: Principal
    session_id: str
    run_id: str
    source_event_id: str


@dataclass(frozen=True, kw_only=True)
class ToolResult:
    """One tool call's result: the content the model sees and whether it succeeded."""

    call_id: str
    tool: str
    ok: bool
    content: str


def _canonical(value: Mapping[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class ToolExecutor:
    """Runs the enabled memory tools for one composition."""

    def __init__(
        self,
        *,
        events: EventLog,
        rememberer: Rememberer | None,
        enabled_tools: Sequence[str],
    ) -> None:
        self._events = events
        self._rememberer = rememberer
        self._enabled = tuple(sorted(set(enabled_tools) & KNOWN_TOOLS))

    @property
    def enabled_tools(self) -> tuple[str, ...]:
        """Names of the enabled tools, sorted."""
        return self._enabled

    def specs(self) -> tuple[ToolSpec, ...]:
        """Specs of the enabled tools, in name order."""
        return tuple(TOOL_SPECS[name] for name in self._enabled)

    def execute(self, call: ToolCall, context: ToolContext) -> ToolResult:
        """Run one tool call and return its result (errors become ``ok=False`` results)."""
        if call.name not in KNOWN_TOOLS:
            return self._error(call, f"unknown tool {call.name!r}; available: {self._enabled}")
        if call.name not in self._enabled:
            return self._error(call, f"tool {call.name!r} is not enabled for this run")
        if call.name == REMEMBER_TOOL:
            return self._remember(call, context)
        return self._recall_episodes(call, context)

    def _error(self, call: ToolCall, message: str) -> ToolResult:
        return ToolResult(
            call_id=call.id, tool=call.name, ok=False, content=_canonical({"error": message})
        )

    def _remember(self, call: ToolCall, context: ToolContext) -> ToolResult:
        statement = call.arguments.get("statement")
        if not isinstance(statement, str) or not statement.strip():
            return self._error(call, "memory.remember needs a non-empty string 'statement'")
        if len(statement) > MAX_STATEMENT_CHARS:
            return self._error(
                call, f"statement is longer than {MAX_STATEMENT_CHARS} characters; shorten it"
            )
        if self._rememberer is None:
            return self._error(call, "memory.remember has no memory service in this composition")
        try:
            outcome = self._rememberer.remember(
                statement.strip(),
                session_id=context.session_id,
                source_event_id=context.source_event_id,
                principal=context.principal,
            )
        except UsageError as exc:
            return self._error(call, str(exc))
        content = {
            "committed": outcome.committed,
            "reinforced": outcome.reinforced,
            "superseded": outcome.superseded,
            "conflicted": outcome.conflicted,
            "rejected": outcome.rejected,
            "ungrounded": outcome.ungrounded,
            "refused_hazard": outcome.refused_hazard,
            "memory_ids": [f"m:{short_id(b)}" for b in outcome.belief_ids],
        }
        return ToolResult(call_id=call.id, tool=call.name, ok=True, content=_canonical(content))

    def _recall_episodes(self, call: ToolCall, context: ToolContext) -> ToolResult:
        query = call.arguments.get("query")
        if not isinstance(query, str):
            return self._error(call, "memory.recall_episodes needs a string 'query'")
        limit = call.arguments.get("limit", EPISODE_DEFAULT_LIMIT)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            return self._error(call, "limit must be a positive integer")
        limit = min(limit, EPISODE_MAX_LIMIT)
        terms = frozenset(query_terms(query))
        if not terms:
            return self._error(call, "the query has no searchable words; name a few keywords")
        episodes, pages, more = search_episodes(
            self._events,
            context.principal,
            terms,
            exclude_session_id=context.session_id,
            limit=limit,
        )
        content = {"episodes": episodes, "pages_read": pages, "more_unread": more}
        return ToolResult(call_id=call.id, tool=call.name, ok=True, content=_canonical(content))


def search_episodes(
    events: EventLog,
    principal: Principal,
    terms: frozenset[str],
    *,
    exclude_session_id: str | None,
    limit: int,
    page_size: int = EPISODE_PAGE_SIZE,
    max_pages: int = EPISODE_MAX_PAGES,
) -> tuple[list[dict[str, Any]], int, bool]:
    """Search the principal's past messages for ``terms`` over bounded pages of the event log.

    Reads pages with a cursor on the event sequence and stops at a short page or at
    ``max_pages``. Each message is screened for hazards first (``screen_turn``): the terms are
    matched against, and the result carries, only the sentences the screen keeps (joined by a
    space); a message with no sentence left is skipped. Matches are ranked by how many
    distinct terms they contain, then newest first, and cut to ``limit``.

    Returns:
        The matches (event id, session id, role, timestamp, text), the pages read, and whether
        the log may hold unread events past the last page.
    """
    scored: list[tuple[int, int, dict[str, Any]]] = []
    cursor = 0
    pages = 0
    more = False
    while pages < max_pages:
        page = events.page(
            principal, after_sequence=cursor, limit=page_size, event_types=_EPISODE_EVENT_TYPES
        )
        pages += 1
        for event in page:
            if event.session_id is None or event.session_id == exclude_session_id:
                continue
            raw = event.payload.get("text")
            if not isinstance(raw, str):
                continue
            text = " ".join(screen_turn(raw).sentences)
            if not text:
                continue
            hits = len(terms & lexemes(text))
            if hits == 0:
                continue
            scored.append(
                (
                    hits,
                    event.sequence,
                    {
                        "event_id": event.event_id,
                        "session_id": event.session_id,
                        "role": "user" if event.event_type.startswith("user.") else "assistant",
                        "at": event.created_at.isoformat(),
                        "text": text[:EPISODE_TEXT_CHARS],
                    },
                )
            )
        if len(page) < page_size:
            more = False
            break
        cursor = page[-1].sequence
        more = True
    scored.sort(key=lambda item: (-item[0], -item[1]))
    return [item[2] for item in scored[:limit]], pages, more
