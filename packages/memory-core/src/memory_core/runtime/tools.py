"""The two memory tools a model may call, and the executor that runs them.

``memory.remember``
    Keep a statement the user asked to keep. It goes through the same governed formation path
    as a session close (``GovernedMemoryService.remember``): hazards are refused, rejections
    re-applied, duplicates reinforce. The source is the user event of the current turn. The
    model writes the statement, so it is stored only when a user turn of the session entails
    it with the same polarity (``formation.grounding``: a question, hypothetical, reported
    speech or negation never grounds its positive), and at the model's authority
    (``AFFIRMED``), never the user's; the result says ``ungrounded`` otherwise.

``memory.recall_episodes``
    Search the principal's past sessions' messages for a few words. The search reads bounded
    pages of the principal's event log (``EventLog.page``) newest first, with a cursor on the
    event sequence, and matches whole lexemes with the shared tokenizer. It stops at a short
    page, once it holds the caller's limit of matches, or after ``EPISODE_MAX_PAGES`` pages,
    whichever comes first, so the most recent sessions are always searched. Every message
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

from memory_core.base.events import EventType
from memory_core.base.model import ToolCall, ToolSpec
from memory_core.domain import Event, Principal, Trust
from memory_core.errors import UsageError
from memory_core.formation.hazards import screen_turn
from memory_core.ids import short_id
from memory_core.ports import EventLog
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
EPISODE_MAX_PAGES = 64
"""The most pages one episode search reads."""
EPISODE_DEFAULT_LIMIT = 5
"""Matches returned when the model does not ask for a limit."""
EPISODE_MAX_LIMIT = 20
"""The most matches one episode search returns."""
EPISODE_TEXT_CHARS = 400
"""A returned message is cut to this many characters."""
MAX_STATEMENT_CHARS = 500
"""The longest statement ``memory.remember`` accepts."""

_EPISODE_EVENT_TYPES = (EventType.USER_MESSAGE_CREATED, EventType.ASSISTANT_MESSAGE_CREATED)

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
        trust: Trust = Trust.USER,
    ) -> ConsolidationResult:
        """Form ``statement`` through governed formation and report what changed; ``trust``
        is how the statement arrived (``MEMORY``: a model's tool argument, formed AFFIRMED).

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
                trust=Trust.MEMORY,  # a model wrote it: AFFIRMED, never USER authority
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

    Reads pages newest first, from the newest event backwards; the cursor is the smallest
    sequence of the previous page. It stops at a short page (the oldest event was read), once
    ``limit`` messages matched, or after ``max_pages`` pages, whichever comes first. Each
    message is screened for hazards first (``screen_turn``): the terms are matched against,
    and the result carries, only the sentences the screen keeps (joined by a space); a message
    with no sentence left is skipped, and so is every message of ``exclude_session_id``.

    Returns:
        The matches (event id, session id, role, timestamp, text), newest first; the pages
        read; and whether older messages may remain that the search did not reach.
    """
    found: list[dict[str, Any]] = []
    cursor: int | None = None
    pages = 0
    more = False
    while pages < max_pages and len(found) < limit:
        page = events.page(
            principal,
            before_sequence=cursor,
            limit=page_size,
            event_types=_EPISODE_EVENT_TYPES,
            descending=True,
        )
        pages += 1
        more = len(page) == page_size
        for position, event in enumerate(page):
            match = _episode_match(event, terms, exclude_session_id)
            if match is None:
                continue
            found.append(match)
            if len(found) >= limit:
                more = more or position < len(page) - 1
                break
        if len(page) < page_size:
            break
        cursor = page[-1].sequence
    return found, pages, more


def _episode_match(
    event: Event, terms: frozenset[str], exclude_session_id: str | None
) -> dict[str, Any] | None:
    """The episode ``event`` yields for ``terms`` after the hazard screen, or ``None``."""
    if event.session_id is None or event.session_id == exclude_session_id:
        return None
    raw = event.payload.get("text")
    if not isinstance(raw, str):
        return None
    text = " ".join(screen_turn(raw).sentences)
    if not text or not terms & lexemes(text):
        return None
    return {
        "event_id": event.event_id,
        "session_id": event.session_id,
        "role": "user" if event.event_type.startswith("user.") else "assistant",
        "at": event.created_at.isoformat(),
        "text": text[:EPISODE_TEXT_CHARS],
    }
