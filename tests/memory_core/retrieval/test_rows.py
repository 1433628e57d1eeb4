"""A ranking row holds exactly its belief's values, and a changed belief never reads a stale row.

``memory_core.retrieval._rows`` copies the fields ranking reads into slots and remembers each
row by belief id; the ranking tests (``test_fast_paths``) check the row-based passes against
their definitions, these check the rows themselves.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core.domain import Authority, Belief, BeliefStatus, BeliefType, TracedBelief
from memory_core.retrieval import _rows
from memory_core.retrieval._memo import fold_subject, statement_key
from memory_core.retrieval._rows import ROW_CACHE_SIZE, Row, row_of, rows_of
from memory_core.retrieval.ranking import is_durable
from memory_core.retrieval.render import render_line
from memory_core.tokenizer import lexemes

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _belief(number: int, **fields: object) -> Belief:
    values: dict[str, object] = {
        "id": f"r-{number:09d}",
        "tenant_id": "tenant-1",
        "principal_id": "alice",
        "belief_type": BeliefType.FACT,
        "subject": "Drink ",
        "statement": "User likes green tea.",
        "scope": "user",
        "status": BeliefStatus.ACTIVE,
        "authority": Authority.USER,
        "confidence": 0.5,
        "source_event_ids": (f"evt-{number}",),
        "valid_from": T0,
        "last_evidence_at": T0,
        "created_at": T0,
        "updated_at": T0,
        "consolidation_policy_version": "formation@5",
        "store_position": number + 1,
    }
    values.update(fields)
    return Belief.model_validate(values)


@settings(max_examples=60, deadline=None)
@given(
    belief_type=st.sampled_from(list(BeliefType)),
    scope=st.sampled_from(["user", "general", "project:alpha"]),
    status=st.sampled_from(list(BeliefStatus)),
    review=st.booleans(),
    conflicts=st.lists(st.sampled_from(["r-1", "r-2"]), max_size=2, unique=True),
)
def test_a_row_holds_its_beliefs_values(
    belief_type: BeliefType, scope: str, status: BeliefStatus, review: bool, conflicts: list[str]
) -> None:
    belief = _belief(
        7,
        belief_type=belief_type,
        scope=scope,
        status=status,
        needs_review=review,
        conflicts_with=tuple(conflicts),
        valid_to=T0,
    )
    row = Row(belief)
    for name in _rows._FIELD_NAMES:
        assert getattr(row, name) == getattr(belief, name), name
    assert row.subject_key == fold_subject(belief.subject)
    assert row.duplicate_key == (belief.belief_type, statement_key(belief.statement))
    assert row.durable == is_durable(belief)
    assert row.text_lexemes() == lexemes(f"{belief.subject} {belief.statement}")
    assert row.statement_lexemes() == lexemes(belief.statement)
    assert row.line() == render_line(belief)
    assert row.traced() == TracedBelief(
        id=belief.id,
        short_id=belief.short_id,
        belief_type=belief.belief_type,
        subject=belief.subject,
        statement=belief.statement,
        scope=belief.scope,
    )


def test_a_changed_belief_gets_a_fresh_row() -> None:
    before = _belief(11)
    after = before.model_copy(update={"statement": "User likes black tea.", "store_position": 99})
    assert row_of(before).statement == "User likes green tea."
    row = row_of(after)
    assert row.belief is after
    assert (row.statement, row.store_position) == ("User likes black tea.", 99)
    assert row_of(after) is row  # the same belief object: the remembered row


def test_rows_keep_order_and_the_table_stays_bounded() -> None:
    beliefs = [_belief(100 + n) for n in range(ROW_CACHE_SIZE + 10)]
    rows = rows_of(beliefs)
    assert [r.belief for r in rows] == beliefs
    assert len(_rows._rows) <= ROW_CACHE_SIZE
