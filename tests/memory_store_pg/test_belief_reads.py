"""Belief reads: rows sent in binary format hold the values their text form holds, and the
shared reader gives a row read again its record, a changed row a new one, erasure nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from memory_core import Belief, BeliefStatus, BeliefType, Polarity, Principal
from memory_core.domain import RecallQuery
from memory_store_pg import PostgresStorage, temporary_storage
from memory_store_pg._engine import BINARY_RESULTS
from memory_store_pg._queries import search_sql

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 3, 2, 9, 0, 0, 123456, tzinfo=UTC)


def _zone_url(postgres_url: str, zone: str) -> str:
    url = make_url(postgres_url).update_query_dict({"options": f"-c TimeZone={zone}"})
    return url.render_as_string(hide_password=False)


def _rows(storage: PostgresStorage, query: RecallQuery, *, binary: bool) -> list[tuple[Any, ...]]:
    search = search_sql(query)
    assert search is not None
    sql, params = search
    with storage.engine.connect() as connection:
        result = connection.exec_driver_sql(sql, params, execution_options={BINARY_RESULTS: binary})
        return [tuple(row) for row in result.all()]


@pytest.mark.parametrize("zone", ["Etc/UTC", "America/New_York"])
def test_binary_rows_hold_the_values_of_text_rows(
    postgres_url: str, make_belief: Callable[..., Belief], alice: Principal, zone: str
) -> None:
    beliefs = [
        make_belief(alice, valid_from=T0, last_evidence_at=T0, created_at=T0, updated_at=T0),
        make_belief(
            alice,
            belief_type=BeliefType.RELATIONSHIP,
            subject="manager",
            statement="Dana is the user's manager.",
            polarity=Polarity.RETRACT,
            status=BeliefStatus.PROVISIONAL,
            confidence=0.123456789012345,
            utility=-0.5,
            evidence_count=3,
            source_event_ids=("e-1", "e-2"),
            source_session_id="s-1",
            valid_to=T0 + timedelta(days=400),
            last_used_at=T0 + timedelta(hours=2),
            conflicts_with=("b-other",),
            needs_review=True,
        ),
    ]
    with temporary_storage(_zone_url(postgres_url, zone)) as storage:
        stored = [storage.memories.put(belief) for belief in beliefs]
        query = RecallQuery(principal=alice, scopes=("user",), limit=10)
        text, binary = _rows(storage, query, binary=False), _rows(storage, query, binary=True)
        read = storage.memories.search(query)
    assert len(text) == 2
    assert binary == text
    assert [[type(value) for value in row] for row in binary] == [
        [type(value) for value in row] for row in text
    ]
    instants = [
        (a.tzinfo, b.tzinfo)
        for r, s in zip(text, binary, strict=True)
        for a, b in zip(r, s, strict=True)
        if isinstance(a, datetime)
    ]
    assert all(a == b for a, b in instants)
    assert read == sorted(stored, key=lambda b: -b.store_position)
    assert all(b.created_at.tzinfo is UTC for b in read)


def test_the_option_asks_for_binary_rows(pg: PostgresStorage) -> None:
    # psycopg has no loader for tsvector: its text form comes back as str, its binary as bytes
    sql = "SELECT 'word'::tsvector"
    with pg.engine.connect() as connection:
        text = connection.exec_driver_sql(sql).scalar_one()
        binary = connection.exec_driver_sql(
            sql, execution_options={BINARY_RESULTS: True}
        ).scalar_one()
    assert isinstance(text, str)
    assert isinstance(binary, bytes)


def test_a_row_read_again_is_its_record_and_a_changed_row_a_new_one(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    stored = pg.memories.put(make_belief(alice))
    first = pg.memories.get(alice, stored.id)
    assert first is not None and first == stored
    assert pg.memories.get(alice, stored.id) is first
    pg.memories.update_in_place(stored.model_copy(update={"statement": "User lives in Lisbon."}))
    changed = pg.memories.get(alice, stored.id)
    assert changed is not None and changed is not first
    assert changed.statement == "User lives in Lisbon."
    assert first.statement == "User lives in Portland."


def test_erasure_leaves_no_record_held(
    pg: PostgresStorage, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    stored = pg.memories.put(make_belief(alice))
    assert pg.memories.get(alice, stored.id) is not None
    pg.erasure.erase_beliefs(alice, [stored.id])
    assert len(pg._db.beliefs) == 0
    assert pg.memories.get(alice, stored.id) is None
    other = pg.memories.put(make_belief(alice))
    assert pg.memories.get(alice, other.id) is not None
    pg.erasure.erase_principal(alice)
    assert len(pg._db.beliefs) == 0
