"""Index events by client idempotency key, so a retried record stores once.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

A recorded message may carry ``payload.idempotency_key``; at most one event of a principal's
session holds a given key. The key stays in the payload (no new column, so the event record is
unchanged); this unique partial expression index enforces it and serves the lookup.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEY = "(payload ->> 'idempotency_key')"


def upgrade() -> None:
    """Create the unique index of idempotency keys per principal session."""
    op.create_index(
        "uq_events_session_idempotency_key",
        "events",
        ["tenant_id", "principal_id", "session_id", sa.text(_KEY)],
        unique=True,
        postgresql_where=sa.text(f"{_KEY} IS NOT NULL"),
    )


def downgrade() -> None:
    """Drop the index."""
    op.drop_index("uq_events_session_idempotency_key", table_name="events")
