"""Create the memory store: events, sessions, memories, recall traces, formation state.

Revision ID: 0001
Revises:
Create Date: 2026-03-02

The revision is a frozen snapshot: it spells its enum values and index expressions out rather
than importing them from the live schema module, so a later change there cannot rewrite history.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_LIVE = "status IN ('ACTIVE', 'PROVISIONAL')"
_BELIEF_TYPES = "'fact', 'preference', 'procedure_pointer', 'relationship', 'user_model_attr'"
_POLARITIES = "'assert', 'retract'"


def _key() -> sa.Text:
    return sa.Text(collation="C")


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _json() -> postgresql.JSON:
    return postgresql.JSON(none_as_null=True)


def _text_array() -> postgresql.ARRAY[str]:
    return postgresql.ARRAY(sa.Text)


def upgrade() -> None:
    """Create every table, sequence and index of the first schema."""
    op.execute(sa.schema.CreateSequence(sa.Sequence("events_sequence_seq")))
    op.execute(sa.schema.CreateSequence(sa.Sequence("memories_store_position_seq")))

    op.create_table(
        "events",
        sa.Column("tenant_id", _key(), nullable=False),
        sa.Column("principal_id", _key(), nullable=False),
        sa.Column("event_id", _key(), nullable=False),
        sa.Column("sequence", sa.BigInteger, nullable=False),
        sa.Column("session_id", _key()),
        sa.Column("run_id", _key()),
        sa.Column("event_type", sa.Text, nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("trust", sa.Text, nullable=False),
        sa.Column("payload", _json(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "principal_id", "event_id", name="pk_events"),
        sa.UniqueConstraint("event_id", name="uq_events_event_id"),
        sa.CheckConstraint("trust IN ('memory', 'system', 'tool', 'user')", name="ck_events_trust"),
    )
    op.create_index(
        "ix_events_principal_sequence", "events", ["tenant_id", "principal_id", "sequence"]
    )
    op.create_index(
        "ix_events_principal_session_sequence",
        "events",
        ["tenant_id", "principal_id", "session_id", "sequence"],
    )

    op.create_table(
        "sessions",
        sa.Column("tenant_id", _key(), nullable=False),
        sa.Column("principal_id", _key(), nullable=False),
        sa.Column("id", _key(), nullable=False),
        sa.Column("agent", sa.Text, nullable=False),
        sa.Column("metadata", _json(), nullable=False),
        sa.Column("snapshot_id", _key()),
        sa.Column("snapshot_watermark", sa.BigInteger, nullable=False),
        sa.Column("opened_at", _ts(), nullable=False),
        sa.Column("last_activity_at", _ts(), nullable=False),
        sa.Column("closed_at", _ts()),
        sa.PrimaryKeyConstraint("tenant_id", "principal_id", "id", name="pk_sessions"),
        sa.UniqueConstraint("id", name="uq_sessions_id"),
    )
    op.create_index(
        "ix_sessions_open_idle",
        "sessions",
        ["last_activity_at", "id"],
        postgresql_where=sa.text("closed_at IS NULL"),
    )

    op.create_table(
        "memories",
        sa.Column("tenant_id", _key(), nullable=False),
        sa.Column("principal_id", _key(), nullable=False),
        sa.Column("id", _key(), nullable=False),
        sa.Column("store_position", sa.BigInteger, nullable=False),
        sa.Column("belief_type", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("subject_key", sa.Text, nullable=False),
        sa.Column("statement", sa.Text, nullable=False),
        sa.Column("polarity", sa.Text, nullable=False),
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("authority", sa.Text, nullable=False),
        sa.Column("confidence", sa.Double, nullable=False),
        sa.Column("utility", sa.Double, nullable=False),
        sa.Column("evidence_count", sa.BigInteger, nullable=False),
        sa.Column("source_event_ids", _text_array(), nullable=False),
        sa.Column("source_session_id", _key()),
        sa.Column("valid_from", _ts(), nullable=False),
        sa.Column("valid_to", _ts()),
        sa.Column("last_evidence_at", _ts(), nullable=False),
        sa.Column("last_used_at", _ts()),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.Column("supersedes", _key()),
        sa.Column("superseded_by", _key()),
        sa.Column("conflicts_with", _text_array(), nullable=False),
        sa.Column("needs_review", sa.Boolean, nullable=False),
        sa.Column("consolidation_policy_version", sa.Text, nullable=False),
        sa.Column(
            "lexical",
            postgresql.TSVECTOR,
            sa.Computed(
                "to_tsvector('simple'::regconfig, subject || ' ' || statement)", persisted=True
            ),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("tenant_id", "principal_id", "id", name="pk_memories"),
        sa.UniqueConstraint("id", name="uq_memories_id"),
        sa.CheckConstraint(f"belief_type IN ({_BELIEF_TYPES})", name="ck_memories_belief_type"),
        sa.CheckConstraint(f"polarity IN ({_POLARITIES})", name="ck_memories_polarity"),
        sa.CheckConstraint(
            "status IN ('ACTIVE', 'EXPIRED', 'PROVISIONAL', 'REJECTED', 'RETIRED', 'SUPERSEDED')",
            name="ck_memories_status",
        ),
        sa.CheckConstraint(
            "authority IN ('AFFIRMED', 'INFERRED', 'USER')", name="ck_memories_authority"
        ),
    )
    # Newest-first live recall without a lexical predicate (snapshot, recency, delta).
    op.create_index(
        "ix_memories_principal_live_position",
        "memories",
        ["tenant_id", "principal_id", "store_position"],
        postgresql_where=sa.text(_LIVE),
    )
    # head_position, list_beliefs, and searches over non-live statuses.
    op.create_index(
        "ix_memories_principal_position",
        "memories",
        ["tenant_id", "principal_id", "store_position"],
        unique=True,
    )
    # list_idle: least recently evidenced live beliefs first (the decay sweep's window).
    op.create_index(
        "ix_memories_principal_idle",
        "memories",
        ["tenant_id", "principal_id", "last_evidence_at", "store_position"],
        postgresql_where=sa.text(_LIVE),
    )
    # The subject-named arm.
    op.create_index(
        "ix_memories_principal_subject", "memories", ["tenant_id", "principal_id", "subject_key"]
    )
    # The any-term lexical arm; no pending list (recall reads far more than formation writes).
    op.create_index(
        "ix_memories_lexical",
        "memories",
        ["lexical"],
        postgresql_using="gin",
        postgresql_with={"fastupdate": "off"},
    )
    op.execute("ALTER SEQUENCE memories_store_position_seq OWNED BY memories.store_position")
    op.execute("ALTER SEQUENCE events_sequence_seq OWNED BY events.sequence")

    op.create_table(
        "recall_traces",
        sa.Column("tenant_id", _key(), nullable=False),
        sa.Column("principal_id", _key(), nullable=False),
        sa.Column("trace_id", _key(), nullable=False),
        sa.Column("session_id", _key()),
        sa.Column("run_id", _key()),
        sa.Column("turn_id", _key()),
        sa.Column("moment", sa.Text, nullable=False),
        sa.Column("policy_version", sa.Text, nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("returned", _text_array(), nullable=False),
        sa.Column("beliefs", _json(), nullable=False),
        sa.Column("cited", _text_array(), nullable=False),
        sa.Column("blocked", _text_array(), nullable=False),
        sa.Column("candidate_total", sa.BigInteger, nullable=False),
        sa.Column("returned_count", sa.BigInteger, nullable=False),
        sa.Column("dropped_count", sa.BigInteger, nullable=False),
        sa.Column("rendered_tokens", sa.BigInteger, nullable=False),
        sa.Column("user_expires_at", _ts()),
        sa.Column("arm_latencies_ms", _json()),
        sa.Column("candidate_counts", _json()),
        sa.Column("dropped_for_budget", _text_array()),
        sa.Column("operator_expires_at", _ts()),
        sa.Column("operator_expired", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "principal_id", "trace_id", name="pk_recall_traces"),
        sa.UniqueConstraint("trace_id", name="uq_recall_traces_trace_id"),
    )
    # The trace sweep's bounded id-subquery: due traces in expiry order.
    op.create_index(
        "ix_traces_operator_expiry",
        "recall_traces",
        ["operator_expires_at", "trace_id"],
        postgresql_where=sa.text("NOT operator_expired AND operator_expires_at IS NOT NULL"),
    )

    op.create_table(
        "formation_watermarks",
        sa.Column("tenant_id", _key(), nullable=False),
        sa.Column("principal_id", _key(), nullable=False),
        sa.Column("session_id", _key(), nullable=False),
        sa.Column("sequence", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint(
            "tenant_id", "principal_id", "session_id", name="pk_formation_watermarks"
        ),
    )

    op.create_table(
        "rejections",
        sa.Column("tenant_id", _key(), nullable=False),
        sa.Column("principal_id", _key(), nullable=False),
        sa.Column("belief_id", _key(), nullable=False),
        sa.Column("belief_type", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("statement", sa.Text, nullable=False),
        sa.Column("polarity", sa.Text, nullable=False),
        sa.Column("rejected_at", _ts(), nullable=False),
        sa.Column("reason", sa.Text),
        sa.PrimaryKeyConstraint("tenant_id", "principal_id", "belief_id", name="pk_rejections"),
        sa.CheckConstraint(f"belief_type IN ({_BELIEF_TYPES})", name="ck_rejections_belief_type"),
        sa.CheckConstraint(f"polarity IN ({_POLARITIES})", name="ck_rejections_polarity"),
    )
    op.create_index(
        "ix_rejections_principal_rejected",
        "rejections",
        ["tenant_id", "principal_id", "rejected_at", "belief_id"],
    )


def downgrade() -> None:
    """Drop everything the revision created."""
    for table in (
        "rejections",
        "formation_watermarks",
        "recall_traces",
        "memories",
        "sessions",
        "events",
    ):
        op.drop_table(table)
