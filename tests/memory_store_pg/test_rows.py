"""The read path's row conversion gives exactly the record validation gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from memory_core import Authority, Belief, BeliefStatus, BeliefType, Polarity
from memory_store_pg import _rows
from memory_store_pg._rows import (
    PG_EPOCH,
    BeliefReader,
    belief_from_row,
    belief_values,
    beliefs_from_rows,
    to_record,
)

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


@pytest.mark.parametrize("zone", [UTC, PLUS_TWO])
@pytest.mark.parametrize("shift", [0, 5, 13])
def test_rows_read_by_position_equal_rows_read_by_name(zone: timezone, shift: int) -> None:
    beliefs = [
        _belief(),
        _belief(id="b-0000002", valid_to=T0 + timedelta(days=2), conflicts_with=("b-0000001",)),
    ]
    mappings = [_row(b, zone=zone) for b in beliefs]
    names = list(mappings[0])
    columns = names[shift:] + names[:shift]  # any column order, extra columns included
    rows = [tuple(m[name] for name in columns) for m in mappings]
    read = beliefs_from_rows(columns, rows)
    assert read == [belief_from_row(m) for m in mappings] == beliefs
    assert [b.model_dump() for b in read] == [b.model_dump() for b in beliefs]
    instants = [getattr(b, name) for b in read for name in Belief.model_fields]
    assert all(value.tzinfo is UTC for value in instants if isinstance(value, datetime))


def _micros(instant: datetime) -> int:
    """``instant`` as a binary ``timestamptz`` read raw: microseconds since PostgreSQL's epoch."""
    return (instant - PG_EPOCH) // timedelta(microseconds=1)


def test_raw_instants_read_as_their_instants_past_the_memo_size() -> None:
    count = _rows.INSTANT_MEMO_SIZE + 3
    beliefs = [_belief(id=f"b-{n:07d}", created_at=T0 + timedelta(seconds=n)) for n in range(count)]
    mappings = [_row(b) for b in beliefs]
    columns = list(mappings[0])
    rows = [
        tuple(_micros(v) if isinstance(v, datetime) else v for v in m.values()) for m in mappings
    ]
    assert beliefs_from_rows(columns, rows) == beliefs
    assert len(_rows._instants) <= _rows.INSTANT_MEMO_SIZE
    again = beliefs_from_rows(columns, rows[-1:])[0]
    assert again.created_at == beliefs[-1].created_at
    assert again.created_at.tzinfo is UTC


def test_rows_missing_a_belief_column_are_refused() -> None:
    names = [name for name in _row(_belief()) if name != "statement"]
    with pytest.raises(TypeError, match="statement"):
        beliefs_from_rows(names, [])


def _columns_and_row(belief: Belief) -> tuple[list[str], tuple[Any, ...]]:
    mapping = _row(belief)
    return list(mapping), tuple(mapping.values())


def test_a_reader_reuses_the_record_of_a_row_it_read_with_the_same_values() -> None:
    reader = BeliefReader()
    columns, row = _columns_and_row(_belief())
    first = reader.beliefs(columns, [row])[0]
    again = reader.beliefs(columns, [tuple(row)])[0]
    assert again is first
    assert first == _belief()
    assert len(reader) == 1


def test_a_reader_reads_a_changed_row_as_a_new_record() -> None:
    reader = BeliefReader()
    columns, row = _columns_and_row(_belief())
    first = reader.beliefs(columns, [row])[0]
    _, changed = _columns_and_row(_belief(statement="User prefers ristretto."))
    second = reader.beliefs(columns, [changed])[0]
    assert second is not first
    assert second.statement == "User prefers ristretto."
    assert reader.beliefs(columns, [changed])[0] is second


def test_a_full_reader_is_emptied_and_forget_empties_it() -> None:
    reader = BeliefReader(capacity=2)
    rows = [_columns_and_row(_belief(id=f"b-000000{n}")) for n in range(3)]
    read = [reader.beliefs(columns, [row])[0] for columns, row in rows]
    assert len(reader) == 1  # the third record found the reader full
    assert [b.id for b in read] == ["b-0000000", "b-0000001", "b-0000002"]
    reader.forget()
    assert len(reader) == 0


def test_branches_share_one_record_per_row() -> None:
    columns, row = _columns_and_row(_belief())
    _, other = _columns_and_row(_belief(id="b-0000002"))
    tagged = ["branch", *columns]
    rows = [(0, *row), (0, *other), (1, *row)]
    found = BeliefReader().branches(tagged, rows, 3)
    assert [[b.id for b in branch] for branch in found] == [
        ["b-0000001", "b-0000002"],
        ["b-0000001"],
        [],
    ]
    assert found[1][0] is found[0][0]


def test_branches_come_newest_first_whatever_the_row_order() -> None:
    # the union has no sort of its own: a branch whose rows arrive out of order is sorted
    rows = [_columns_and_row(_belief(id=f"b-000000{n}", store_position=n)) for n in (1, 3, 2)]
    columns = ["branch", *rows[0][0]]
    tagged = [(b, *row) for b in (0, 1) for _, row in rows]
    keys, found = BeliefReader().keyed_branches(columns, tagged, 2, keyed=0)
    assert [key.id for key in keys] == ["b-0000003", "b-0000002", "b-0000001"]
    assert [b.id for b in found[1]] == ["b-0000003", "b-0000002", "b-0000001"]
    assert found[0] == []
    in_order = [
        (0, *row) for _, row in sorted(rows, key=lambda r: -r[1][r[0].index("store_position")])
    ]
    assert [b.id for b in BeliefReader().branches(columns, in_order, 1)[0]] == [
        "b-0000003",
        "b-0000002",
        "b-0000001",
    ]
