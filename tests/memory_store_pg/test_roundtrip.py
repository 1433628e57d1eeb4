"""Records come back from PostgreSQL exactly as they went in."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from memory_core import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    Polarity,
    Principal,
    RecallTrace,
    Rejection,
    Session,
    SessionMetadata,
)
from memory_core.domain import TracedBelief
from memory_store_pg import PostgresStorage

pytestmark = pytest.mark.postgres

ALICE = Principal("tenant-1", "alice")
T0 = datetime(2026, 3, 2, 9, 0, 0, 123456, tzinfo=UTC)
PLUS_TWO = timezone(timedelta(hours=2))


def test_a_belief_with_every_field_set_round_trips(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    belief = make_belief(
        ALICE,
        belief_type=BeliefType.RELATIONSHIP,
        subject="manager",
        statement="User's manager is Dana — «ça va» 🙂.",
        polarity=Polarity.RETRACT,
        scope="project:orbit-app",
        status=BeliefStatus.PROVISIONAL,
        authority=Authority.INFERRED,
        confidence=0.1 + 0.2,  # not representable in decimal: must survive bit for bit
        utility=-0.333333333333333,
        evidence_count=7,
        source_event_ids=("e-3", "e-1", "e-2"),
        source_session_id="s-9",
        valid_from=T0,
        valid_to=T0 + timedelta(days=3),
        last_evidence_at=T0 + timedelta(seconds=1),
        last_used_at=T0 + timedelta(microseconds=1),
        created_at=T0,
        updated_at=T0 + timedelta(hours=1),
        supersedes="b-old",
        superseded_by="b-new",
        conflicts_with=("b-x", "b-a"),
        needs_review=True,
        consolidation_policy_version="formation@6",
    )
    stored = pg.memories.put(belief)
    assert stored == belief.model_copy(update={"store_position": stored.store_position})

    loaded = pg.memories.get(ALICE, belief.id)
    assert loaded == stored
    assert loaded is not None
    assert loaded.source_event_ids == ("e-3", "e-1", "e-2")  # a tuple, in order
    assert type(loaded.status) is BeliefStatus
    assert loaded.model_dump_json() == stored.model_dump_json()


def test_timestamps_in_another_offset_come_back_as_the_same_instant_in_utc(
    pg: PostgresStorage, make_belief: Callable[..., Belief]
) -> None:
    local = datetime(2026, 3, 2, 11, 0, tzinfo=PLUS_TWO)
    belief = pg.memories.put(make_belief(ALICE, valid_from=local, last_evidence_at=local))
    loaded = pg.memories.get(ALICE, belief.id)
    assert loaded is not None
    assert loaded.valid_from == local
    assert loaded.valid_from.utcoffset() == timedelta(0)
    assert loaded.valid_from.isoformat() == "2026-03-02T09:00:00+00:00"


def test_an_event_payload_keeps_its_key_order_and_number_spelling(
    pg: PostgresStorage, make_event: Callable[..., Event]
) -> None:
    payload = {
        "z": 1,
        "a": [1.5, 0.1, 10**20, None, True],
        "nested": {"y": "é", "b": {"k": []}},
        "text": 'line\nbreak "quoted"',
    }
    stored = pg.events.append(make_event(ALICE, run_id="r-1", payload=payload))
    loaded = pg.events.get(ALICE, stored.event_id)
    assert loaded == stored
    assert loaded is not None
    assert json.dumps(loaded.payload) == json.dumps(payload)


@pytest.mark.parametrize(
    "payload",
    [{"when": T0}, {"x": {1, 2}}, {"x": float("nan")}, {"x": float("inf")}],
    ids=["datetime", "set", "nan", "inf"],
)
def test_a_payload_json_cannot_hold_is_refused_when_the_event_is_built(
    make_event: Callable[..., Event], payload: dict[str, object]
) -> None:
    # the storage contract suite (test_record_validation_contract) refuses it on append too
    with pytest.raises(ValidationError, match="payload"):
        make_event(ALICE, payload=payload)


def test_a_session_round_trips(pg: PostgresStorage) -> None:
    session = Session(
        id="sess-1",
        tenant_id=ALICE.tenant_id,
        principal_id=ALICE.principal_id,
        agent="assistant",
        metadata=SessionMetadata(project_scope="orbit-app"),
        snapshot_id="snap-1",
        snapshot_watermark=12,
        opened_at=T0,
        last_activity_at=T0 + timedelta(minutes=5),
        closed_at=T0 + timedelta(minutes=9),
    )
    pg.sessions.create(session)
    assert pg.sessions.get(ALICE, "sess-1") == session


def test_a_trace_round_trips_with_both_tiers_and_then_without_the_operator_tier(
    pg: PostgresStorage,
) -> None:
    traced = TracedBelief(
        id="8f21a0c3-0000",
        short_id="8f21a0c3",
        belief_type=BeliefType.PREFERENCE,
        subject="answer style",
        statement="User prefers concise answers.",
        scope="user",
    )
    trace = RecallTrace(
        trace_id="tr-1",
        tenant_id=ALICE.tenant_id,
        principal_id=ALICE.principal_id,
        session_id="s-1",
        run_id="r-1",
        turn_id="t-1",
        moment="snapshot",
        policy_version="retrieval@1",
        created_at=T0,
        returned=("8f21a0c3-0000",),
        beliefs=(traced,),
        cited=(),
        blocked=("b-2",),
        candidate_total=9,
        returned_count=1,
        dropped_count=8,
        rendered_tokens=21,
        user_expires_at=T0 + timedelta(days=365),
        arm_latencies_ms={"lexical": 0.25, "recency": 1e-7},
        candidate_counts={"lexical": 3, "recency": 6},
        dropped_for_budget=(),
        operator_expires_at=T0 + timedelta(days=30),
    )
    pg.traces.record(trace)
    loaded = pg.traces.get(ALICE, "tr-1")
    assert loaded == trace
    assert loaded is not None
    assert loaded.dropped_for_budget == ()  # empty, not None: the operator tier is present

    assert pg.traces.expire_operator_fields(T0 + timedelta(days=30)) == 1
    expired = pg.traces.get(ALICE, "tr-1")
    assert expired == trace.model_copy(
        update={
            "arm_latencies_ms": None,
            "candidate_counts": None,
            "dropped_for_budget": None,
            "operator_expired": True,
        }
    )


def test_a_rejection_round_trips(pg: PostgresStorage) -> None:
    rejection = Rejection(
        belief_id="b-1",
        tenant_id=ALICE.tenant_id,
        principal_id=ALICE.principal_id,
        belief_type=BeliefType.USER_MODEL_ATTR,
        subject="home city",
        statement="User lives in Paris.",
        polarity=Polarity.RETRACT,
        rejected_at=T0,
        reason="wrong city",
    )
    pg.formation.record_rejection(rejection)
    assert pg.formation.rejections(ALICE) == [rejection]
