"""Give events a client idempotency key, unique per principal session.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

A recorded message may carry ``payload.idempotency_key``; the adapter copies it into the new
``idempotency_key`` column, and a unique partial index keeps at most one event of a principal's
session per key (a retried record stores once) and serves the lookup. Existing events carry no
key (the column stays NULL).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the column and its unique index."""
    op.add_column("events", sa.Column("idempotency_key", sa.Text(collation="C")))
    op.create_index(
        "uq_events_session_idempotency_key",
        "events",
        ["tenant_id", "principal_id", "session_id", "idempotency_key"],
        unique=True,
        postgresql_where=sa.text("idempotency_key IS NOT NULL"),
    )


def downgrade() -> None:
    """Drop the index and the column."""
    op.drop_index("uq_events_session_idempotency_key", table_name="events")
    op.drop_column("events", "idempotency_key")
