"""Each index is justified by the query that uses it: ``EXPLAIN`` of the adapter's own SQL.

The statements are captured as the adapters send them (a listener on the engine, inside a unit
of work that is rolled back), then explained in a transaction with ``enable_seqscan = off`` so
the planner's index choice is observable on a small table. The data spans several principals
and statuses so that an index can only serve a query through the predicates it was built for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from _support.pg_statements import captured_statements

from memory_core import BeliefStatus, BeliefType, Principal
from memory_core.domain import LIVE_STATUSES, RecallQuery
from memory_store_pg import PostgresStorage, temporary_storage
from memory_store_pg._schema import (
    event_sequence_seq,
    events,
    memories,
    rejections,
    sessions,
    store_position_seq,
    traces,
)

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
PRINCIPALS = [Principal("tenant-1", f"p{n}") for n in range(5)]
P1 = PRINCIPALS[1]
STATUSES = sorted(BeliefStatus)
WORDS = [f"w{n}" for n in range(400)]


def _seed(storage: PostgresStorage) -> None:
    beliefs: list[dict[str, Any]] = []
    for principal in PRINCIPALS:
        for n in range(3000):
            statement = " ".join(WORDS[(n * k) % len(WORDS)] for k in (1, 7, 13, 29))
            beliefs.append(
                {
                    "tenant_id": principal.tenant_id,
                    "principal_id": principal.principal_id,
                    "id": f"{principal.principal_id}-belief-{n}",
                    "belief_type": "fact",
                    "subject": f"subject {n % 60}",
                    "subject_key": f"subject {n % 60}",
                    "statement": statement + (" zebra" if n % 1000 == 0 else ""),
                    "polarity": "assert",
                    "scope": "user" if n % 2 else "general",
                    "status": STATUSES[n % len(STATUSES)].value,
                    "authority": "USER",
                    "confidence": 0.5,
                    "utility": 0.0,
                    "evidence_count": 1,
                    "source_event_ids": ["e"],
                    "valid_from": T0,
                    "last_evidence_at": T0 + timedelta(minutes=n),
                    "created_at": T0,
                    "updated_at": T0,
                    "conflicts_with": [],
                    "needs_review": False,
                    "consolidation_policy_version": "formation@5",
                }
            )
    event_rows: list[dict[str, Any]] = [
        {
            "tenant_id": p.tenant_id,
            "principal_id": p.principal_id,
            "event_id": f"{p.principal_id}-e{n}",
            "session_id": f"s{n % 100}",
            "event_type": "user.message.created" if n % 2 else "assistant.message.created",
            "actor": "user",
            "trust": "user",
            "payload": {},
            "created_at": T0,
        }
        for p in PRINCIPALS
        for n in range(2000)
    ]
    session_rows: list[dict[str, Any]] = [
        {
            "tenant_id": p.tenant_id,
            "principal_id": p.principal_id,
            "id": f"{p.principal_id}-s{n}",
            "agent": "assistant",
            "metadata": {},
            "snapshot_watermark": 0,
            "opened_at": T0,
            "last_activity_at": T0 + timedelta(minutes=n),
            "closed_at": None if n % 10 == 0 else T0 + timedelta(minutes=n + 1),
        }
        for p in PRINCIPALS
        for n in range(1000)
    ]
    trace_rows: list[dict[str, Any]] = [
        {
            "tenant_id": p.tenant_id,
            "principal_id": p.principal_id,
            "trace_id": f"{p.principal_id}-t{n}",
            "moment": "in_turn",
            "policy_version": "retrieval@1",
            "created_at": T0,
            "returned": [],
            "beliefs": [],
            "cited": [],
            "blocked": [],
            "candidate_total": 0,
            "returned_count": 0,
            "dropped_count": 0,
            "rendered_tokens": 0,
            "operator_expires_at": T0 + timedelta(days=n % 300),
            "operator_expired": n % 300 < 30,
        }
        for p in PRINCIPALS
        for n in range(1000)
    ]
    rejection_rows: list[dict[str, Any]] = [
        {
            "tenant_id": p.tenant_id,
            "principal_id": p.principal_id,
            "belief_id": f"{p.principal_id}-r{n}",
            "belief_type": "fact",
            "subject": "s",
            "statement": "x",
            "polarity": "assert",
            "rejected_at": T0 + timedelta(minutes=n),
        }
        for p in PRINCIPALS
        for n in range(1000)
    ]
    with storage.engine.begin() as connection:
        connection.execute(
            sa.insert(memories).values(store_position=store_position_seq.next_value()), beliefs
        )
        connection.execute(
            sa.insert(events).values(sequence=event_sequence_seq.next_value()), event_rows
        )
        connection.execute(sa.insert(sessions), session_rows)
        connection.execute(sa.insert(traces), trace_rows)
        connection.execute(sa.insert(rejections), rejection_rows)
    with storage.engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE")


@pytest.fixture(scope="module")
def seeded(postgres_url: str) -> Iterator[PostgresStorage]:
    with temporary_storage(postgres_url) as storage:
        _seed(storage)
        yield storage


def _index_names(plan: Any) -> set[str]:
    if isinstance(plan, dict):
        own = {str(plan["Index Name"])} if "Index Name" in plan else set()
        return own.union(*(_index_names(value) for value in plan.values()))
    if isinstance(plan, list):
        return set().union(*(_index_names(item) for item in plan))
    return set()


def _indexes_used(storage: PostgresStorage, call: Callable[[], object]) -> set[str]:
    (statement, parameters), *_ = captured_statements(storage, call)
    with storage.engine.begin() as connection:
        connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
        plan = connection.exec_driver_sql(
            "EXPLAIN (FORMAT JSON) " + statement, parameters
        ).scalar_one()
    return _index_names(plan)


def _query(**fields: Any) -> RecallQuery:
    return RecallQuery(principal=P1, scopes=("user", "general"), **fields)


def test_newest_first_live_recall_uses_the_live_position_index(seeded: PostgresStorage) -> None:
    # snapshot / recency arm: no lexical predicate, live statuses, newest first, LIMIT
    used = _indexes_used(seeded, lambda: seeded.memories.search(_query(limit=64)))
    assert "ix_memories_principal_live_position" in used


def test_the_recall_delta_uses_the_live_position_index(seeded: PostgresStorage) -> None:
    # delta: positions past a session's snapshot watermark
    head = seeded.memories.head_position(P1)
    used = _indexes_used(
        seeded, lambda: seeded.memories.search(_query(min_store_position=head - 50, limit=64))
    )
    assert "ix_memories_principal_live_position" in used


def test_the_lexical_arm_uses_the_gin_index(seeded: PostgresStorage) -> None:
    used = _indexes_used(seeded, lambda: seeded.memories.search(_query(terms=("zebra", "w3"))))
    assert "ix_memories_lexical" in used


def test_the_lexical_and_subject_arms_combine_their_indexes(seeded: PostgresStorage) -> None:
    used = _indexes_used(
        seeded,
        lambda: seeded.memories.search(_query(terms=("zebra",), subjects=("Subject 7",))),
    )
    assert "ix_memories_lexical" in used
    # either subject index serves the OR'd subject match (the live one is the smaller)
    assert used & {"ix_memories_principal_subject", "ix_memories_principal_live_subject_position"}


def test_the_subject_arm_alone_reads_each_subject_newest_first(seeded: PostgresStorage) -> None:
    used = _indexes_used(
        seeded,
        lambda: seeded.memories.search(_query(terms=(), subjects=("subject 7", "Subject 8"))),
    )
    assert "ix_memories_principal_live_subject_position" in used


def test_the_subject_arm_alone_finds_the_newest_across_its_subjects(
    seeded: PostgresStorage,
) -> None:
    query = _query(terms=(), subjects=("subject 7", "Subject 8", "subject 7"))
    found = seeded.memories.search(query)
    every = seeded.memories.search(_query(terms=None, limit=100_000))
    expected = [b for b in every if b.subject in {"subject 7", "subject 8"}]
    assert found == expected[: query.limit]


def test_list_idle_uses_the_idle_index(seeded: PostgresStorage) -> None:
    used = _indexes_used(
        seeded, lambda: seeded.memories.list_idle(P1, T0 + timedelta(minutes=500), 50)
    )
    assert "ix_memories_principal_idle" in used


def test_head_position_and_non_live_searches_use_the_full_position_index(
    seeded: PostgresStorage,
) -> None:
    assert "ix_memories_principal_position" in _indexes_used(
        seeded, lambda: seeded.memories.head_position(P1)
    )
    every_status = frozenset(BeliefStatus) - LIVE_STATUSES
    assert "ix_memories_principal_position" in _indexes_used(
        seeded, lambda: seeded.memories.search(_query(statuses=every_status, as_of=T0))
    )


def test_the_trace_sweep_uses_the_operator_expiry_index(seeded: PostgresStorage) -> None:
    used = _indexes_used(
        seeded, lambda: seeded.traces.expire_operator_fields(T0 + timedelta(days=40), limit=100)
    )
    assert "ix_traces_operator_expiry" in used


def test_the_idle_session_sweep_uses_the_open_idle_index(seeded: PostgresStorage) -> None:
    used = _indexes_used(
        seeded, lambda: seeded.sessions.list_open_idle(T0 + timedelta(minutes=300), limit=20)
    )
    assert "ix_sessions_open_idle" in used


def test_event_reads_use_the_principal_sequence_indexes(seeded: PostgresStorage) -> None:
    assert "ix_events_principal_session_sequence" in _indexes_used(
        seeded, lambda: seeded.events.read_session(P1, "s7", after_sequence=100)
    )
    assert "ix_events_principal_sequence" in _indexes_used(
        seeded, lambda: seeded.events.page(P1, after_sequence=1000, limit=100)
    )


def test_a_newest_first_event_page_uses_the_principal_sequence_index(
    seeded: PostgresStorage,
) -> None:
    head = seeded.events.page(P1, descending=True, limit=1)[0].sequence
    assert "ix_events_principal_sequence" in _indexes_used(
        seeded, lambda: seeded.events.page(P1, descending=True, limit=200)
    )
    assert "ix_events_principal_sequence" in _indexes_used(
        seeded,
        lambda: seeded.events.page(
            P1,
            before_sequence=head - 500,
            limit=200,
            event_types=("user.message.created", "assistant.message.created"),
            descending=True,
        ),
    )


def test_rejections_are_read_through_their_ordering_index(seeded: PostgresStorage) -> None:
    used = _indexes_used(seeded, lambda: seeded.formation.rejections(P1))
    assert "ix_rejections_principal_rejected" in used


def test_subject_lookups_use_the_subject_match_index(seeded: PostgresStorage) -> None:
    # reject's same-statement copies and the formation ledger
    used = _indexes_used(
        seeded,
        lambda: seeded.memories.find_by_subject(
            P1, ["Subject 7."], belief_types=frozenset({BeliefType.FACT}), statuses=LIVE_STATUSES
        ),
    )
    assert "ix_memories_principal_subject_match" in used
    found = seeded.memories.find_by_subject(P1, ["Subject 7."])
    assert found and {b.subject for b in found} == {"subject 7"}
