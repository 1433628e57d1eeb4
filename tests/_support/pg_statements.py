"""Capture the SQL a storage call sends, inside a unit of work that is then rolled back."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from memory_store_pg import PostgresStorage


class _Rollback(Exception):
    pass


def captured_statements(
    storage: PostgresStorage,
    call: Callable[[], object],
    *,
    keep: Callable[[str], bool] = lambda statement: "pg_advisory_xact_lock" not in statement,
) -> list[tuple[str, Any]]:
    """The ``(statement, parameters)`` pairs ``call`` sends that ``keep`` accepts (advisory
    locks aside by default), in order; nothing ``call`` wrote is committed."""
    captured: list[tuple[str, Any]] = []

    def listen(_c: Any, _cur: Any, statement: str, parameters: Any, _ctx: Any, _many: Any) -> None:
        if keep(statement):
            captured.append((statement, parameters))

    sa.event.listen(storage.engine, "before_cursor_execute", listen)
    try:
        with contextlib.suppress(_Rollback), storage.unit_of_work():
            call()
            raise _Rollback
    finally:
        sa.event.remove(storage.engine, "before_cursor_execute", listen)
    return captured
