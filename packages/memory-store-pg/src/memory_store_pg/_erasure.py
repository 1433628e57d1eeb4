"""The PostgreSQL tier's erasure port: short-id lookup, erasure and redaction.

Deletes are real ``DELETE``s and redactions real ``UPDATE``s of the stored row (the text is
gone from the table, not hidden by a flag). Each method is one statement per table under the
principal's lock, and joins the caller's unit of work when one is open. Semantics match the
in-memory tier (``memory_core.stores._erasure``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from memory_core.domain import Belief, JsonValue, Principal, RecallTrace
from memory_core.stores._erasure import check_hex_prefix
from memory_store_pg._database import Database
from memory_store_pg._queries import owned_by, update_values
from memory_store_pg._rows import to_record, trace_values
from memory_store_pg._schema import (
    BELIEF_COLUMNS,
    events,
    formation_watermarks,
    memories,
    rejections,
    sessions,
    traces,
)

_PRINCIPAL_TABLES: tuple[sa.Table, ...] = (
    events,
    sessions,
    memories,
    traces,
    formation_watermarks,
    rejections,
)
"""Every table holding a principal's records (``erase_principal`` empties each)."""


class PostgresErasure:
    """Erasure over the tables of one PostgreSQL tier."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def match_id_prefix(self, principal: Principal, hex_prefix: str, limit: int) -> list[Belief]:
        """The principal's beliefs whose dash-less id starts with ``hex_prefix``, by id."""
        check_hex_prefix(hex_prefix, limit)
        statement = (
            sa.select(*BELIEF_COLUMNS)
            .where(
                owned_by(memories, principal),
                sa.func.replace(memories.c.id, "-", "").startswith(hex_prefix, autoescape=True),
            )
            .order_by(memories.c.id)
            .limit(limit)
        )
        with self._db.connect(principal, write=False) as connection:
            rows = connection.execute(statement).mappings().all()
        return [to_record(Belief, row) for row in rows]

    def erase_beliefs(self, principal: Principal, belief_ids: Sequence[str]) -> int:
        """``DELETE`` the principal's beliefs with these ids (and drop the records the belief
        reader holds, so no erased text stays in this process)."""
        erased = self._delete(principal, memories, memories.c.id, belief_ids)
        self._db.beliefs.forget()
        return erased

    def erase_rejections(self, principal: Principal, belief_ids: Sequence[str]) -> int:
        """``DELETE`` the principal's rejections of these belief ids."""
        return self._delete(principal, rejections, rejections.c.belief_id, belief_ids)

    def _delete(
        self, principal: Principal, table: sa.Table, column: sa.Column[Any], ids: Sequence[str]
    ) -> int:
        wanted = sorted(set(ids))
        if not wanted:
            return 0
        statement = sa.delete(table).where(owned_by(table, principal), column.in_(wanted))
        with self._db.connect(principal, write=True) as connection:
            return int(connection.execute(statement).rowcount)

    def redact_events(
        self, principal: Principal, event_ids: Sequence[str], payload: dict[str, JsonValue]
    ) -> int:
        """``UPDATE`` the payload of the principal's events with these ids."""
        wanted = sorted(set(event_ids))
        if not wanted:
            return 0
        statement = (
            sa.update(events)
            .where(owned_by(events, principal), events.c.event_id.in_(wanted))
            .values(update_values(events, {"payload": dict(payload)}))
        )
        with self._db.connect(principal, write=True) as connection:
            return int(connection.execute(statement).rowcount)

    def redact_traces(self, principal: Principal, belief_ids: Sequence[str]) -> int:
        """Rewrite the principal's traces that hold a copy of one of these beliefs."""
        wanted = set(belief_ids)
        if not wanted:
            return 0
        beliefs_text = sa.cast(traces.c.beliefs, sa.Text)
        locked = (
            sa.select(traces)
            .where(
                owned_by(traces, principal),
                sa.or_(*(beliefs_text.contains(i, autoescape=True) for i in sorted(wanted))),
            )
            .order_by(traces.c.trace_id)
            .with_for_update()
        )
        changed = 0
        with self._db.connect(principal, write=True) as connection:
            for row in connection.execute(locked).mappings().all():
                trace = to_record(RecallTrace, row)
                kept = tuple(b for b in trace.beliefs if b.id not in wanted)
                if len(kept) == len(trace.beliefs):
                    continue
                values = trace_values(trace.model_copy(update={"beliefs": kept}))
                connection.execute(
                    sa.update(traces)
                    .where(owned_by(traces, principal), traces.c.trace_id == trace.trace_id)
                    .values(update_values(traces, {"beliefs": values["beliefs"]}))
                )
                changed += 1
        return changed

    def erase_principal(self, principal: Principal) -> dict[str, int]:
        """``DELETE`` every row of the principal from every table, in one transaction (and
        drop the records the belief reader holds)."""
        counts: dict[str, int] = {}
        with self._db.connect(principal, write=True) as connection:
            for table in _PRINCIPAL_TABLES:
                result = connection.execute(sa.delete(table).where(owned_by(table, principal)))
                counts[table.name] = int(result.rowcount)
        self._db.beliefs.forget()
        return counts


__all__ = ["PostgresErasure"]
