"""Which commits wait for the WAL flush: a trace outside a unit does not, everything else does.

A deferred constraint trigger, added to the test's schema only, records the value of
``synchronous_commit`` when the writing transaction commits (deferred triggers run inside the
commit, with the transaction's settings still in effect), so each test reads the setting a
commit really had rather than the SQL that asked for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from memory_core import Belief, Principal, RecallTrace
from memory_core.errors import DuplicateIdError
from memory_core.testing import plugin
from memory_store_pg import PostgresStorage, temporary_storage

pytestmark = pytest.mark.postgres

make_trace = plugin.make_trace  # the shipped contract suite's trace builder

ALICE = Principal("tenant-1", "alice")

_WATCH = """
CREATE TABLE commit_settings (written text NOT NULL, synchronous_commit text NOT NULL);
CREATE FUNCTION note_commit_setting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO commit_settings VALUES (TG_TABLE_NAME, current_setting('synchronous_commit'));
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER note_trace_commit AFTER INSERT ON recall_traces
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION note_commit_setting();
CREATE CONSTRAINT TRIGGER note_belief_commit AFTER INSERT ON memories
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION note_commit_setting();
"""


@pytest.fixture
def watched(postgres_url: str) -> Iterator[PostgresStorage]:
    """A tier with one pooled connection (every call reuses it) whose commits are noted."""
    with temporary_storage(postgres_url, pool_size=1, max_overflow=0) as storage:
        with storage.engine.begin() as connection:
            connection.exec_driver_sql(_WATCH)
        yield storage


def _noted(storage: PostgresStorage) -> list[tuple[str, str]]:
    with storage.engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT written, synchronous_commit FROM commit_settings"
        ).all()
    return [(str(written), str(setting)) for written, setting in rows]


def test_a_trace_commits_asynchronously_and_a_belief_on_the_same_connection_durably(
    watched: PostgresStorage,
    make_trace: Callable[..., RecallTrace],
    make_belief: Callable[..., Belief],
) -> None:
    watched.traces.record(make_trace(ALICE))
    watched.memories.put(make_belief(ALICE))  # the one pooled connection, reused
    with watched.memories.pinned():  # as a recall records its trace
        watched.traces.record(make_trace(ALICE))
    watched.memories.put(make_belief(ALICE))
    assert _noted(watched) == [
        ("recall_traces", "off"),
        ("memories", "on"),
        ("recall_traces", "off"),
        ("memories", "on"),
    ]


def test_a_trace_recorded_in_a_unit_of_work_commits_with_the_unit_durably(
    watched: PostgresStorage,
    make_trace: Callable[..., RecallTrace],
    make_belief: Callable[..., Belief],
) -> None:
    with watched.unit_of_work():
        watched.memories.put(make_belief(ALICE))
        watched.traces.record(make_trace(ALICE))
    assert _noted(watched) == [("memories", "on"), ("recall_traces", "on")]


def test_a_known_trace_id_is_still_a_conflict(
    watched: PostgresStorage, make_trace: Callable[..., RecallTrace]
) -> None:
    trace = make_trace(ALICE)
    watched.traces.record(trace)
    with pytest.raises(DuplicateIdError):
        watched.traces.record(trace)
    assert watched.traces.get(ALICE, trace.trace_id) == trace
    assert _noted(watched) == [("recall_traces", "off")]
