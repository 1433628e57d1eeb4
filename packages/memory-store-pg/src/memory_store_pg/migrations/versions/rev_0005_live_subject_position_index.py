"""Index live rows by subject, then store position: the recall subject arm alone.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

The subject arm of an in-turn recall reads the live beliefs about the subjects a turn names,
newest store position first, capped. ``ix_memories_principal_subject`` finds them but not in
store order, so a common subject (a relationship role, a frequent word) had every one of its
rows read, filtered and sorted to keep the newest few, and a generic plan walking the live
position index instead reads the whole store for a rare one. Keyed by subject, then position,
over live rows, each named subject is one newest-first range scan that stops at the limit.

The predicate is written out here (a migration is frozen); a test keeps it equal to the
live predicate the schema declares.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_INDEX = "ix_memories_principal_live_subject_position"
_COLUMNS = ["tenant_id", "principal_id", "subject_key", "store_position"]
_LIVE = "status IN ('ACTIVE', 'PROVISIONAL')"


def upgrade() -> None:
    """Create the live subject-position index."""
    op.create_index(_INDEX, "memories", _COLUMNS, postgresql_where=sa.text(_LIVE))


def downgrade() -> None:
    """Drop the live subject-position index."""
    op.drop_index(_INDEX, table_name="memories")
