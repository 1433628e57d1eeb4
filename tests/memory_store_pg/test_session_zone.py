"""Connections name a UTC session zone ``UTC``, and leave any other zone alone.

psycopg reads ``timestamptz`` in the session's zone: ``datetime.UTC`` for ``UTC``, a
``ZoneInfo`` for any other name, even ``Etc/UTC`` (the usual server default), which the read
path then converts value by value. ``create_engine`` renames a UTC alias to ``UTC`` on
connect; a real other zone is kept, and records still come back in UTC.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from memory_core import Belief, Principal
from memory_store_pg import temporary_storage
from memory_store_pg._engine import UTC_ZONE_ALIASES, create_engine

pytestmark = pytest.mark.postgres


def _zone_url(postgres_url: str, zone: str) -> str:
    url = make_url(postgres_url).set(drivername="postgresql+psycopg")
    url = url.update_query_dict({"options": f"-c TimeZone={zone}"})
    return url.render_as_string(hide_password=False)


def _session(url: str) -> tuple[str, object]:
    engine = create_engine(make_url(url), poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            zone = connection.exec_driver_sql("SHOW TimeZone").scalar_one()
            instant = connection.exec_driver_sql("SELECT now()").scalar_one()
    finally:
        engine.dispose()
    return str(zone), instant.tzinfo


@pytest.mark.parametrize("alias", ["Etc/UTC", "Zulu", "UCT"])
def test_a_utc_alias_is_named_utc_and_read_as_datetime_utc(postgres_url: str, alias: str) -> None:
    assert alias in UTC_ZONE_ALIASES
    zone, tzinfo = _session(_zone_url(postgres_url, alias))
    assert zone == "UTC"
    assert tzinfo is UTC


def test_another_zone_is_kept_and_records_still_come_back_in_utc(
    postgres_url: str, make_belief: Callable[..., Belief], alice: Principal
) -> None:
    url = _zone_url(postgres_url, "America/New_York")
    zone, tzinfo = _session(url)
    assert zone == "America/New_York"
    assert tzinfo is not UTC
    with temporary_storage(url) as storage:
        stored = storage.memories.put(make_belief(alice))
        read = storage.memories.get(alice, stored.id)
    assert read == stored
    assert read is not None and read.created_at.tzinfo is UTC
