"""Tombstones: the rejection a forgotten belief leaves behind, holding no text of it.

``forget`` erases a belief and the text it came from, yet formation must never form the
statement again (from a turn that states it anew, or from a replay). A tombstone is a
``Rejection`` whose subject is :data:`TOMBSTONE_SUBJECT` and whose statement is
``sha256:<digest>`` of the belief's normalized (type, subject, statement) key; formation
rejects a candidate whose key hashes to a recorded digest. Only the digest is kept: the
statement cannot be read back from it (a short statement could still be guessed and checked
against it, as with any unsalted hash). The digest does not depend on the owner, so an
export imported under another principal keeps its tombstones working.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime

from memory_core.domain import Belief, Rejection
from memory_core.formation.resolver import BeliefKey, key_of

TOMBSTONE_SUBJECT = "(forgotten)"
"""The subject every tombstone carries in place of the forgotten belief's."""
TOMBSTONE_REASON = "forgotten"
"""The reason every tombstone records."""
_DIGEST_PREFIX = "sha256:"


def key_digest(key: BeliefKey) -> str:
    """The tombstone digest of a normalized belief key."""
    material = "\x1f".join(key)
    return _DIGEST_PREFIX + hashlib.sha256(material.encode("utf-8")).hexdigest()


def tombstone_for(belief: Belief, *, forgotten_at: datetime) -> Rejection:
    """The tombstone of a belief being forgotten: its id, type and polarity, and a digest."""
    return Rejection(
        belief_id=belief.id,
        tenant_id=belief.tenant_id,
        principal_id=belief.principal_id,
        belief_type=belief.belief_type,
        subject=TOMBSTONE_SUBJECT,
        statement=key_digest(key_of(belief)),
        polarity=belief.polarity,
        rejected_at=forgotten_at,
        reason=TOMBSTONE_REASON,
    )


def is_tombstone(rejection: Rejection) -> bool:
    """True for a rejection ``forget`` recorded (it holds a digest, not a statement)."""
    return (
        rejection.reason == TOMBSTONE_REASON
        and rejection.subject == TOMBSTONE_SUBJECT
        and rejection.statement.startswith(_DIGEST_PREFIX)
    )


def forgotten_digests(rejections: Iterable[Rejection]) -> frozenset[str]:
    """The digests of the tombstones among ``rejections``."""
    return frozenset(r.statement for r in rejections if is_tombstone(r))


__all__ = [
    "TOMBSTONE_REASON",
    "TOMBSTONE_SUBJECT",
    "forgotten_digests",
    "is_tombstone",
    "key_digest",
    "tombstone_for",
]
