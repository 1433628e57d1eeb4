"""Narrow ``ix_memories_principal_idle`` to the rows the decay sweep may change.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

``list_idle`` now returns only decay-eligible rows (live, not a user statement, PROVISIONAL or
at most the inferred ceiling 0.7: ``memory_core.idle.IDLE_SQL_PREDICATE``). Over every live row
the index led the sweep through a principal's oldest rows, mostly user statements that can
never decay, and a bounded window filled with them. Over the eligible rows only, the range scan
reads nothing the sweep must skip on the static rule. Same name, same columns, new predicate.

The predicate is written out here (a migration is frozen); a test keeps it equal to
``IDLE_SQL_PREDICATE``, which the adapter's query repeats verbatim.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_INDEX = "ix_memories_principal_idle"
_COLUMNS = ["tenant_id", "principal_id", "last_evidence_at", "store_position"]
_LIVE = "status IN ('ACTIVE', 'PROVISIONAL')"
_ELIGIBLE = _LIVE + " AND authority <> 'USER' AND (status = 'PROVISIONAL' OR confidence <= 0.7)"


def upgrade() -> None:
    """Rebuild the idle index over eligible rows only."""
    op.drop_index(_INDEX, table_name="memories")
    op.create_index(_INDEX, "memories", _COLUMNS, postgresql_where=sa.text(_ELIGIBLE))


def downgrade() -> None:
    """Rebuild the idle index over every live row (revision 0002's shape)."""
    op.drop_index(_INDEX, table_name="memories")
    op.create_index(_INDEX, "memories", _COLUMNS, postgresql_where=sa.text(_LIVE))
