"""Index the subject match key: ``find_by_subject``'s exact lookup.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

``reject`` (a belief's same-statement copies) and the formation ledger (the beliefs a
consolidation's candidates can touch) read the principal's beliefs about given subjects,
compared by ``memory_core.text.matching_key``: the stored ``subject_key`` with
trailing `` .!?;:,`` stripped. ``ix_memories_principal_subject`` keys the unstripped form (the
recall subject arm's), so this expression index serves the lookup instead of a scan of every
live row (``reject``) or an any-word search re-run at growing limits (the ledger).

The expression is written out here (a migration is frozen); a test keeps it equal to
``SUBJECT_MATCH_SQL``, which the adapter's query repeats verbatim.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_INDEX = "ix_memories_principal_subject_match"
_MATCH_KEY = "rtrim(subject_key, ' .!?;:,')"


def upgrade() -> None:
    """Create the subject match index."""
    op.create_index(_INDEX, "memories", ["tenant_id", "principal_id", sa.text(_MATCH_KEY)])


def downgrade() -> None:
    """Drop the subject match index."""
    op.drop_index(_INDEX, table_name="memories")
