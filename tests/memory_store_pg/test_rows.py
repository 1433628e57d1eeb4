"""The read path's row conversion gives exactly the record validation gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from memory_core import Authority, Belief, BeliefStatus, BeliefType, Polarity
from memory_store_pg._rows import belief_from_row, belief_values, to_record

T0 = datetime(2026, 3, 2, 9, 0, 0, 123456, tzinfo=UTC)
PLUS_TWO = timezone(timedelta(hours=2))


def _belief(**fields: Any) -> Belief:
    values: dict[str, Any] = {
        "id": "b-0000001",
        "tenant_id": "tenant-1",
        "principal_id": "alice",
        "belief_type": BeliefType.PREFERENCE,
        "subject": "coffee",
        "statement": "User prefers espresso.",
        "scope": "user",
        "status": BeliefStatus.ACTIVE,
        "authority": Authority.USER,
        "confidence": 0.9,
        "source_event_ids": ("e1", "e2"),
        "valid_from": T0,
        "last_evidence_at": T0,
        "created_at": T0,
        "updated_at": T0,
        "store_position": 7,
        "consolidation_policy_version": "formation@8",
    }
    values.update(fields)
    return Belief(**values)


def _row(belief: Belief, *, zone: timezone = UTC) -> dict[str, Any]:
    """The row as the driver returns it: plain values, lists, instants in the session zone."""
    row = belief_values(belief)
    row["store_position"] = belief.store_position
    return {
        name: value.astimezone(zone) if isinstance(value, datetime) else value
        for name, value in row.items()
    }


@pytest.mark.parametrize(
    "belief",
    [
        _belief(),
        _belief(
            belief_type=BeliefType.RELATIONSHIP,
            polarity=Polarity.RETRACT,
            status=BeliefStatus.SUPERSEDED,
            authority=Authority.INFERRED,
            utility=-0.5,
            evidence_count=3,
            source_session_id="s1",
            valid_to=T0 + timedelta(days=1),
            last_used_at=T0 + timedelta(hours=2),
            supersedes="b-0000000",
            superseded_by="b-0000002",
            conflicts_with=("b-0000003",),
            needs_review=True,
        ),
    ],
)
@pytest.mark.parametrize("zone", [UTC, PLUS_TWO])
def test_a_converted_row_equals_the_validated_record(belief: Belief, zone: timezone) -> None:
    row = _row(belief, zone=zone)
    converted = belief_from_row(row)
    validated = to_record(Belief, {k: v for k, v in row.items() if k != "subject_key"})
    assert converted == validated == belief
    assert converted.model_dump() == validated.model_dump()
    assert all(
        getattr(converted, name).tzinfo is UTC
        for name in ("valid_from", "last_evidence_at", "created_at", "updated_at")
    )
    assert converted.model_copy(update={"statement": "x"}).statement == "x"
