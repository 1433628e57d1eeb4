"""Which beliefs the decay sweep may touch: the eligibility rule both storage tiers filter on.

The spec's rule ("Forgetting is decay over unused beliefs"): a belief is **idle** (eligible to
lose confidence) when it is live, is not a user statement (``Authority.USER``), is PROVISIONAL
or at most :data:`MAX_INFERRED_CONFIDENCE`, was last evidenced at or before its type's cut
(``now - decay_tau_days[type]``), and, when a ``touched_before`` instant is given, was last
updated and last cited at or before it (one sweep interval ago).

``MemoryStore.list_idle`` returns only rows passing :func:`is_idle`, so a bounded sweep window
is never filled with rows it cannot change (the oldest rows of a principal are mostly user
statements, which never decay). The PostgreSQL tier serves the static half of the rule (live,
not USER, the confidence ceiling) from the partial index ``ix_memories_principal_idle`` and
evaluates the instants as filters; :data:`IDLE_SQL_PREDICATE` is that static half.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from memory_core.domain import LIVE_STATUSES, Authority, Belief, BeliefStatus

MAX_INFERRED_CONFIDENCE = 0.7
"""The highest confidence formation assigns an inference (the provider extractor's
``PROVIDER_CANDIDATE_CONFIDENCE``; a test keeps them equal). A live belief above it (a user
statement, 0.9) is never decayed unless it is PROVISIONAL."""

IDLE_SQL_PREDICATE = (
    "status IN ({live}) AND authority <> '{user}' AND (status = '{provisional}' "
    "OR confidence <= {ceiling!r})"
).format(
    live=", ".join(f"'{s.value}'" for s in sorted(LIVE_STATUSES)),
    user=Authority.USER.value,
    provisional=BeliefStatus.PROVISIONAL.value,
    ceiling=MAX_INFERRED_CONFIDENCE,
)
"""The time-independent half of :func:`is_idle` as SQL over the ``memories`` columns (the
predicate of the partial index ``ix_memories_principal_idle``; a migration test keeps the
shipped index equal to it)."""


def is_decayable(belief: Belief) -> bool:
    """The time-independent half of the rule: live, not USER, PROVISIONAL or at the ceiling."""
    if belief.status not in LIVE_STATUSES or belief.authority is Authority.USER:
        return False
    return belief.status is BeliefStatus.PROVISIONAL or belief.confidence <= MAX_INFERRED_CONFIDENCE


def is_idle(
    belief: Belief,
    *,
    evidence_before: datetime,
    type_evidence_before: Mapping[str, datetime] | None = None,
    touched_before: datetime | None = None,
) -> bool:
    """Whether ``belief`` passes ``list_idle``'s filter (see the module docstring).

    Args:
        belief: The belief to test.
        evidence_before: Every idle belief was last evidenced at or before this instant.
        type_evidence_before: Per belief type (a ``BeliefType`` value), a further cut on
            ``last_evidence_at``; a type absent from it has only ``evidence_before``.
        touched_before: When given, ``updated_at`` and ``last_used_at`` (if any) must be at
            or before it.
    """
    if not is_decayable(belief) or belief.last_evidence_at > evidence_before:
        return False
    if type_evidence_before is not None:
        cut = type_evidence_before.get(str(belief.belief_type))
        if cut is not None and belief.last_evidence_at > cut:
            return False
    if touched_before is None:
        return True
    if belief.last_used_at is not None and belief.last_used_at > touched_before:
        return False
    return belief.updated_at <= touched_before


__all__ = ["IDLE_SQL_PREDICATE", "MAX_INFERRED_CONFIDENCE", "is_decayable", "is_idle"]
