"""Working state: the facts an agent established in a session, each with its provenance.

A ``Fact`` is one of the agent's own conclusions in the session ("The user's flight is on
Friday."), carrying ``source_event_ids``: the events it rests on. The working state is stored
as ``working_state.updated`` events (the whole state each time, so the last one is current);
formation's established-facts pass reads the last update in its window and admits only facts
whose every source is a trusted user event of the owning principal. The runtime records facts
as given (``memory_core.runtime.working_state.WorkingStateService``); it is formation, not
this module, that decides what may become a belief. These value types live in the base layer
so that both read them without formation importing the runtime.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memory_core.domain import JsonValue
from memory_core.errors import UsageError


@dataclass(frozen=True, kw_only=True)
class Fact:
    """A fact the agent established, with the ids of the events it rests on."""

    statement: str
    source_event_ids: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.statement.strip():
            raise UsageError("a working-state fact needs a non-empty statement")


@dataclass(frozen=True, kw_only=True)
class WorkingState:
    """The established facts of one session, in the order they were established."""

    session_id: str
    facts: tuple[Fact, ...] = ()

    def with_fact(self, statement: str, source_event_ids: Sequence[str]) -> WorkingState:
        """Return the state with the fact added; restating a fact unions its provenance."""
        statement = statement.strip()
        sources = tuple(dict.fromkeys(source_event_ids))
        facts = list(self.facts)
        for index, fact in enumerate(facts):
            if fact.statement == statement:
                merged = tuple(dict.fromkeys((*fact.source_event_ids, *sources)))
                facts[index] = Fact(statement=statement, source_event_ids=merged)
                break
        else:
            facts.append(Fact(statement=statement, source_event_ids=sources))
        return WorkingState(session_id=self.session_id, facts=tuple(facts))

    def to_payload(self) -> dict[str, JsonValue]:
        """The ``working_state.updated`` event payload."""
        return {
            "facts": [
                {"statement": f.statement, "source_event_ids": list(f.source_event_ids)}
                for f in self.facts
            ]
        }

    @classmethod
    def from_payload(cls, session_id: str, payload: Mapping[str, JsonValue]) -> WorkingState:
        """Rebuild a state from a ``working_state.updated`` payload."""
        raw = payload.get("facts", [])
        if not isinstance(raw, list):
            raise UsageError("a working_state.updated payload needs a 'facts' list")
        return cls(session_id=session_id, facts=tuple(_fact(item, n) for n, item in enumerate(raw)))


def _fact(item: JsonValue, index: int) -> Fact:
    """One ``facts[index]`` entry: a mapping with a string ``statement`` and, optionally, a
    list of string ``source_event_ids``."""
    where = f"working_state.updated facts[{index}]"
    if not isinstance(item, dict):
        raise UsageError(f"{where} must be an object with 'statement' and 'source_event_ids'")
    statement = item.get("statement")
    if not isinstance(statement, str):
        raise UsageError(f"{where}.statement must be a string")
    sources = item.get("source_event_ids", [])
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        raise UsageError(f"{where}.source_event_ids must be a list of event id strings")
    return Fact(statement=statement, source_event_ids=tuple(str(s) for s in sources))


__all__ = ["Fact", "WorkingState"]
