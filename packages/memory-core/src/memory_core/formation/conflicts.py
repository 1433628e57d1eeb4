"""Conflicts are surfaced, not resolved: what the service writes for a ``conflict`` decision.

The resolver (:func:`~memory_core.formation.resolver.conflict`) decides that a candidate may
not replace the live beliefs it contradicts. The service then

1. commits the candidate as a new belief flagged ``needs_review`` whose ``conflicts_with``
   names the beliefs it disputes (its ``memory.formed`` event as for any new belief);
2. links each disputed belief back (:func:`linked_back`: the new id appended to its
   ``conflicts_with``) through ``MemoryStore.update``, so it takes a fresh store position:
   being disputed is a state change, and the next turn's recall delta is how the user learns
   of it. The disputed belief stays live and unflagged;
3. emits one ``memory.needs_confirmation`` event (:func:`confirmation_payload`: ids only,
   never statement text), and counts the belief committed and ``conflicted``.

Nothing is resolved by guessing: both statements stay live, and retrieval surfaces them
together with the link rendered (``conflicts=[m:xxxxxxxx]``). The user resolves a conflict by
rejecting one side: :func:`unlink_partners` then drops the rejected id from each partner's
``conflicts_with`` (a fresh store position again), so no live line keeps naming it. A partner
flagged ``needs_review`` stays flagged: rejecting the other statement confirms nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memory_core.domain import Belief, JsonValue, Principal
from memory_core.ports import MemoryStore


def linked_back(belief: Belief, partner_id: str, now: datetime) -> Belief:
    """``belief`` with ``partner_id`` added to its ``conflicts_with`` (idempotent)."""
    links = tuple(dict.fromkeys((*belief.conflicts_with, partner_id)))
    return belief.model_copy(update={"conflicts_with": links, "updated_at": now})


def unlink_partners(
    memories: MemoryStore, principal: Principal, rejected: Belief, now: datetime
) -> list[Belief]:
    """Drop ``rejected`` from the links of the beliefs it conflicts with; return them updated."""
    unlinked: list[Belief] = []
    for partner_id in rejected.conflicts_with:
        partner = memories.get(principal, partner_id)
        if partner is None or rejected.id not in partner.conflicts_with:
            continue
        links = tuple(i for i in partner.conflicts_with if i != rejected.id)
        unlinked.append(
            memories.update(partner.model_copy(update={"conflicts_with": links, "updated_at": now}))
        )
    return unlinked


def confirmation_payload(
    flagged: Belief, disputed: Sequence[Belief], *, trigger: str, policy_version: str
) -> dict[str, JsonValue]:
    """The ``memory.needs_confirmation`` payload: the flagged belief and what it disputes."""
    return {
        "belief_id": flagged.id,
        "short_id": flagged.short_id,
        "conflicts_with": [b.id for b in disputed],
        "conflicts_with_short_ids": [b.short_id for b in disputed],
        "authority": flagged.authority.value,
        "trigger": trigger,
        "policy_version": policy_version,
    }


__all__ = ["confirmation_payload", "linked_back", "unlink_partners"]
