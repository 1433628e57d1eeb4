"""A composition built through the public API over one storage tier, one principal per use.

Formation goes the whole way: a session is opened, its turns recorded, the session closed
(consolidating it), then a later session recalls. What "rendered" means below is everything
the model could see: the recall blocks for a few queries and the later session's snapshot.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from memory_core import Composition, Principal, Storage, Trust, build
from memory_core.formation import ConsolidationResult

_PRINCIPALS = itertools.count(1)
_IDS = re.compile(
    r"\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b|\[m:[0-9a-f]{8}\]|\b[0-9a-f]{64}\b"
)
"""Random ids, cited short ids and digests: hex that can spell a short numeric secret by chance."""


@dataclass
class Outcome:
    """What a session's turns left behind."""

    result: ConsolidationResult
    statements: list[str]
    rendered: str
    memory_payloads: str

    def leaks(self, fragment: str) -> bool:
        """True when ``fragment`` (case-insensitive) is in a belief, a rendering or an event."""
        needle = fragment.casefold()
        return any(
            needle in _IDS.sub(" ", text).casefold()
            for text in (*self.statements, self.rendered, self.memory_payloads)
        )


def compose(storage: Storage) -> Composition:
    """A composition over ``storage`` for a principal no other use of it shares."""
    return build(storage=storage, principal=Principal("tenant-hazards", f"p{next(_PRINCIPALS)}"))


def live_turns(app: Composition, turns: Sequence[str], queries: Sequence[str] = ()) -> Outcome:
    """Record ``turns`` in one session, close it, and render recall in a later session."""
    session = app.sessions.create()
    for text in turns:
        app.sessions.record_user_message(session.id, text)
    closure = app.sessions.close(session.id)
    result = closure.consolidation
    assert result is not None
    later = app.sessions.create()
    words = [w.strip(".,!?:;\"'") for t in turns for w in t.split()]
    rendered = [app.sessions.snapshot_block(later.id)]
    for query in (*queries, " ".join(words)[:400], *words[:6]):
        if query.strip():
            rendered.append(app.memory.recall(query, session_id=later.id).block)
    beliefs = app.memory.list_memories()
    payloads = [
        json.dumps(e.payload)
        for e in app.storage.events.page(app.principal, limit=10_000)
        if e.trust is not Trust.USER
    ]
    return Outcome(
        result=result,
        statements=[f"{b.subject} {b.statement}" for b in beliefs],
        rendered="\n".join(rendered),
        memory_payloads="\n".join(payloads),
    )
