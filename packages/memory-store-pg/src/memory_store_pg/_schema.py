"""The relational schema as SQLAlchemy Core tables (what the adapters query).

Every table leads with ``(tenant_id, principal_id)`` so the schema can later be distributed by
tenant; every read filters on both. Identifiers use the ``"C"`` collation so ``ORDER BY id``
sorts by code point, exactly as the in-memory tier's ``sorted`` does.

The migrations in ``memory_store_pg.migrations`` create this schema; a test compares the two.
Indexes and the query each one serves:

``ix_memories_principal_live_position``
    ``(tenant_id, principal_id, store_position)`` over live rows: newest-first recall without a
    lexical predicate (snapshot, recency arm, the recall delta's ``min_store_position``).
``ix_memories_principal_position``
    the same over every row: ``head_position``, ``list_beliefs`` and as-of / include-superseded
    searches that ask for non-live statuses.
``ix_memories_principal_idle``
    ``(tenant_id, principal_id, last_evidence_at, store_position)`` over decay-eligible rows
    (``memory_core.idle.IDLE_SQL_PREDICATE``: live, not USER, PROVISIONAL or at most the
    inferred ceiling): ``list_idle``, least recently evidenced first (the decay sweep's
    window), which therefore never reads a user statement (migration 0003).
``ix_memories_lexical``
    GIN over ``lexical``, the stored ``to_tsvector('simple', subject || ' ' || statement)``:
    the any-term lexical arm.
``ix_memories_principal_subject``
    ``(tenant_id, principal_id, subject_key)``: the subject-named arm, OR'd with the GIN match.
``ix_memories_principal_live_subject_position``
    ``(tenant_id, principal_id, subject_key, store_position)`` over live rows: the recall
    subject arm alone, one newest-first range scan per named subject that stops at the
    limit, however many beliefs a common subject holds (migration 0005).
``ix_memories_principal_subject_match``
    ``(tenant_id, principal_id, rtrim(subject_key, ' .!?;:,'))``: ``find_by_subject``, the
    exact subject lookup of ``reject`` and the formation ledger (migration 0004).
``ix_traces_operator_expiry``
    ``(operator_expires_at, trace_id)`` over traces whose operator tier is still present: the
    trace sweep's bounded id-subquery.
``ix_sessions_open_idle``
    ``(last_activity_at, id)`` over open sessions: the idle-session sweep.
``uq_events_session_idempotency_key``
    unique ``(tenant_id, principal_id, session_id, idempotency_key)`` over events carrying a
    key: a retried record finds the event it stored, and never stores a second.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from memory_core.domain import LIVE_STATUSES, Authority, BeliefStatus, BeliefType, Polarity, Trust
from memory_core.idle import IDLE_SQL_PREDICATE
from memory_core.text import TRAILING_PUNCTUATION

metadata = sa.MetaData()
"""All tables of the memory store."""

VERSION_TABLE = "memory_store_pg_version"
"""Alembic's version table; named so it never collides with a host application's own."""

LEXICAL_CONFIG = "simple"
"""The text-search configuration: lowercases, never stems, has no stopwords."""

LEXICAL_DOCUMENT_SQL = f"to_tsvector('{LEXICAL_CONFIG}'::regconfig, subject || ' ' || statement)"
"""The lexical document every belief is matched on (the stored ``lexical`` column)."""

SUBJECT_MATCH_SQL = f"rtrim(subject_key, '{TRAILING_PUNCTUATION}')"
"""``memory_core.text.matching_key`` of a row, from its ``subject_key``: the key of
``ix_memories_principal_subject_match`` (a query must spell it exactly so to use the index)."""

_LIVE_PREDICATE = "status IN ({})".format(", ".join(f"'{s.value}'" for s in sorted(LIVE_STATUSES)))


def _key() -> sa.Text:
    return sa.Text(collation="C")


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _text_array() -> postgresql.ARRAY[str]:
    return postgresql.ARRAY(sa.Text)


def _one_of(column: str, values: list[str], name: str) -> sa.CheckConstraint:
    listed = ", ".join(f"'{v}'" for v in values)
    return sa.CheckConstraint(f"{column} IN ({listed})", name=name)


def enum_values(enum: type[Trust | BeliefType | BeliefStatus | Authority | Polarity]) -> list[str]:
    """The values of a domain enum, sorted (the check constraints list them in this order)."""
    return sorted(member.value for member in enum)


store_position_seq = sa.Sequence("memories_store_position_seq", metadata=metadata)
"""Store positions: unique and increasing across every principal of the store."""

event_sequence_seq = sa.Sequence("events_sequence_seq", metadata=metadata)
"""Event sequence numbers: unique and increasing across the whole log."""

events = sa.Table(
    "events",
    metadata,
    sa.Column("tenant_id", _key(), nullable=False),
    sa.Column("principal_id", _key(), nullable=False),
    sa.Column("event_id", _key(), nullable=False),
    sa.Column("sequence", sa.BigInteger, nullable=False),
    sa.Column("session_id", _key()),
    sa.Column("run_id", _key()),
    sa.Column("event_type", sa.Text, nullable=False),
    sa.Column("actor", sa.Text, nullable=False),
    sa.Column("trust", sa.Text, nullable=False),
    # ``json`` (not ``jsonb``) keeps the payload's key order and number text exactly.
    sa.Column("payload", postgresql.JSON(none_as_null=True), nullable=False),
    sa.Column("created_at", _ts(), nullable=False),
    # The payload's ``idempotency_key`` (a str) copied out by the adapter: a column, not an
    # expression over ``payload``, so indexing it never parses the JSON (which PostgreSQL
    # refuses to de-escape when a string in it holds \u0000).
    sa.Column("idempotency_key", _key()),
    sa.PrimaryKeyConstraint("tenant_id", "principal_id", "event_id", name="pk_events"),
    # Ids are unique across the store, as the reference tier enforces; a tenant-distributed
    # deployment would keep only the primary key.
    sa.UniqueConstraint("event_id", name="uq_events_event_id"),
    _one_of("trust", enum_values(Trust), "ck_events_trust"),
)
sa.Index(
    "ix_events_principal_sequence", events.c.tenant_id, events.c.principal_id, events.c.sequence
)
sa.Index(
    "ix_events_principal_session_sequence",
    events.c.tenant_id,
    events.c.principal_id,
    events.c.session_id,
    events.c.sequence,
)

sa.Index(
    "uq_events_session_idempotency_key",
    events.c.tenant_id,
    events.c.principal_id,
    events.c.session_id,
    events.c.idempotency_key,
    unique=True,
    postgresql_where=sa.text("idempotency_key IS NOT NULL"),
)

EVENT_COLUMNS: tuple[sa.Column[Any], ...] = tuple(
    column for column in events.c if column.name != "idempotency_key"
)
"""The columns an event record is read from (the key is read from the payload)."""

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("tenant_id", _key(), nullable=False),
    sa.Column("principal_id", _key(), nullable=False),
    sa.Column("id", _key(), nullable=False),
    sa.Column("agent", sa.Text, nullable=False),
    sa.Column("metadata", postgresql.JSON(none_as_null=True), nullable=False),
    sa.Column("snapshot_id", _key()),
    sa.Column("snapshot_watermark", sa.BigInteger, nullable=False),
    sa.Column("opened_at", _ts(), nullable=False),
    sa.Column("last_activity_at", _ts(), nullable=False),
    sa.Column("closed_at", _ts()),
    sa.PrimaryKeyConstraint("tenant_id", "principal_id", "id", name="pk_sessions"),
    sa.UniqueConstraint("id", name="uq_sessions_id"),
)
sa.Index(
    "ix_sessions_open_idle",
    sessions.c.last_activity_at,
    sessions.c.id,
    postgresql_where=sa.text("closed_at IS NULL"),
)

memories = sa.Table(
    "memories",
    metadata,
    sa.Column("tenant_id", _key(), nullable=False),
    sa.Column("principal_id", _key(), nullable=False),
    sa.Column("id", _key(), nullable=False),
    sa.Column("store_position", sa.BigInteger, nullable=False),
    sa.Column("belief_type", sa.Text, nullable=False),
    sa.Column("subject", sa.Text, nullable=False),
    # fold(subject): case-folded, whitespace-collapsed (subject-named matching)
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
    # The lexical document, stored so that a recheck or a filter never re-parses the text.
    sa.Column(
        "lexical",
        postgresql.TSVECTOR,
        sa.Computed(LEXICAL_DOCUMENT_SQL, persisted=True),
        nullable=False,
    ),
    sa.PrimaryKeyConstraint("tenant_id", "principal_id", "id", name="pk_memories"),
    sa.UniqueConstraint("id", name="uq_memories_id"),
    _one_of("belief_type", enum_values(BeliefType), "ck_memories_belief_type"),
    _one_of("polarity", enum_values(Polarity), "ck_memories_polarity"),
    _one_of("status", enum_values(BeliefStatus), "ck_memories_status"),
    _one_of("authority", enum_values(Authority), "ck_memories_authority"),
)
sa.Index(
    "ix_memories_principal_live_position",
    memories.c.tenant_id,
    memories.c.principal_id,
    memories.c.store_position,
    postgresql_where=sa.text(_LIVE_PREDICATE),
)
sa.Index(
    "ix_memories_principal_position",
    memories.c.tenant_id,
    memories.c.principal_id,
    memories.c.store_position,
    unique=True,
)
sa.Index(
    "ix_memories_principal_idle",
    memories.c.tenant_id,
    memories.c.principal_id,
    memories.c.last_evidence_at,
    memories.c.store_position,
    postgresql_where=sa.text(IDLE_SQL_PREDICATE),
)
sa.Index(
    "ix_memories_principal_subject",
    memories.c.tenant_id,
    memories.c.principal_id,
    memories.c.subject_key,
)

sa.Index(
    "ix_memories_principal_live_subject_position",
    memories.c.tenant_id,
    memories.c.principal_id,
    memories.c.subject_key,
    memories.c.store_position,
    postgresql_where=sa.text(_LIVE_PREDICATE),
)

sa.Index(
    "ix_memories_principal_subject_match",
    memories.c.tenant_id,
    memories.c.principal_id,
    sa.text(SUBJECT_MATCH_SQL),
)

sa.Index(
    "ix_memories_lexical",
    memories.c.lexical,
    postgresql_using="gin",
    # Every write goes straight into the index: recall reads far more often than formation
    # writes, and a pending list would be scanned in full by every lexical query until vacuum.
    postgresql_with={"fastupdate": "off"},
)

BELIEF_COLUMNS: tuple[sa.Column[Any], ...] = tuple(
    column for column in memories.c if column.name not in ("subject_key", "lexical")
)
"""The columns a belief record is read from."""

BULK_BELIEF_COLUMNS: tuple[str, ...] = tuple(
    column.name for column in memories.c if column.name != "lexical"
)
"""The columns a bulk load (``COPY``) writes: every stored column but the generated one."""

traces = sa.Table(
    "recall_traces",
    metadata,
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
    sa.Column("beliefs", postgresql.JSON(none_as_null=True), nullable=False),
    sa.Column("cited", _text_array(), nullable=False),
    sa.Column("blocked", _text_array(), nullable=False),
    sa.Column("candidate_total", sa.BigInteger, nullable=False),
    sa.Column("returned_count", sa.BigInteger, nullable=False),
    sa.Column("dropped_count", sa.BigInteger, nullable=False),
    sa.Column("rendered_tokens", sa.BigInteger, nullable=False),
    sa.Column("user_expires_at", _ts()),
    sa.Column("arm_latencies_ms", postgresql.JSON(none_as_null=True)),
    sa.Column("candidate_counts", postgresql.JSON(none_as_null=True)),
    sa.Column("dropped_for_budget", _text_array()),
    sa.Column("operator_expires_at", _ts()),
    sa.Column("operator_expired", sa.Boolean, nullable=False),
    sa.PrimaryKeyConstraint("tenant_id", "principal_id", "trace_id", name="pk_recall_traces"),
    sa.UniqueConstraint("trace_id", name="uq_recall_traces_trace_id"),
)
sa.Index(
    "ix_traces_operator_expiry",
    traces.c.operator_expires_at,
    traces.c.trace_id,
    postgresql_where=sa.text("NOT operator_expired AND operator_expires_at IS NOT NULL"),
)

formation_watermarks = sa.Table(
    "formation_watermarks",
    metadata,
    sa.Column("tenant_id", _key(), nullable=False),
    sa.Column("principal_id", _key(), nullable=False),
    sa.Column("session_id", _key(), nullable=False),
    sa.Column("sequence", sa.BigInteger, nullable=False),
    sa.PrimaryKeyConstraint(
        "tenant_id", "principal_id", "session_id", name="pk_formation_watermarks"
    ),
)

rejections = sa.Table(
    "rejections",
    metadata,
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
    _one_of("belief_type", enum_values(BeliefType), "ck_rejections_belief_type"),
    _one_of("polarity", enum_values(Polarity), "ck_rejections_polarity"),
)
sa.Index(
    "ix_rejections_principal_rejected",
    rejections.c.tenant_id,
    rejections.c.principal_id,
    rejections.c.rejected_at,
    rejections.c.belief_id,
)

__all__ = [
    "BELIEF_COLUMNS",
    "BULK_BELIEF_COLUMNS",
    "EVENT_COLUMNS",
    "LEXICAL_CONFIG",
    "LEXICAL_DOCUMENT_SQL",
    "SUBJECT_MATCH_SQL",
    "VERSION_TABLE",
    "enum_values",
    "event_sequence_seq",
    "events",
    "formation_watermarks",
    "memories",
    "metadata",
    "rejections",
    "sessions",
    "store_position_seq",
    "traces",
]
