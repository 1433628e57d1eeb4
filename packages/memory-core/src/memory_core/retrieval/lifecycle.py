"""What changed since a session's snapshot: the recall delta's allowance and correction lines.

A session's snapshot is frozen into its cached prefix at open, together with the watermark
(the principal's ``head_position`` at that instant). Two things report what happened later,
without rewriting the prefix:

* the **recall delta**, a ``delta`` recall with no query text over store positions past the
  watermark, issued within what the turn's base recall left of its item and token budgets
  (:func:`delta_allowance`), with the base's returned ids excluded in the store query;
* **correction lines**, one per snapshot member that is now superseded, expired or retired at
  a store position past the watermark, sorted by belief id (:func:`find_corrections`), each
  one line (wrapped here)::

      correction: [m:8f21a0c3] no longer holds as of 2026-07-24T00:00:00Z;
      superseded by [m:9d02b117].

  The superseding clause is omitted when the belief has no successor. The instant is the
  belief's ``valid_to`` (when it stopped holding), else its ``updated_at``, in UTC to the
  second.

A snapshot trace that was never recorded, or whose user-safe tier has expired at ``as_of``, is
unreadable: the turn then takes its base recall and no more (neither delta nor corrections).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from memory_core.domain import Belief, BeliefStatus, Principal, RecallTrace
from memory_core.ids import short_id
from memory_core.ports import MemoryStore, TraceStore
from memory_core.profiles import Budget
from memory_core.retrieval.render import render_header

CORRECTED_STATUSES: frozenset[BeliefStatus] = frozenset(
    {BeliefStatus.SUPERSEDED, BeliefStatus.EXPIRED, BeliefStatus.RETIRED}
)
"""Statuses a snapshot member reports a correction for (a rejection is the user's own act)."""


@dataclass(frozen=True, kw_only=True)
class Corrections:
    """The correction lines of one turn.

    Attributes:
        snapshot_readable: False when the snapshot trace was never recorded or has expired;
            the turn then takes no delta either.
        lines: One ``correction:`` line per corrected snapshot member, sorted by belief id.
        belief_ids: The corrected beliefs' ids, in the order of ``lines``.
    """

    snapshot_readable: bool
    lines: tuple[str, ...] = ()
    belief_ids: tuple[str, ...] = ()

    @property
    def block(self) -> str:
        """The message body: a ``corrections`` header, then the lines; ``""`` with none."""
        if not self.lines:
            return ""
        return "\n".join((render_header("corrections"), *self.lines))


UNREADABLE = Corrections(snapshot_readable=False)
"""What an unrecorded or expired snapshot yields: nothing to report a change against."""


def format_instant(instant: datetime) -> str:
    """``2026-07-24T00:00:00Z``: the instant in UTC, to the second."""
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def render_correction(belief: Belief) -> str:
    """One correction line for a belief that no longer holds."""
    ended = belief.valid_to if belief.valid_to is not None else belief.updated_at
    line = f"correction: [m:{belief.short_id}] no longer holds as of {format_instant(ended)}"
    if belief.superseded_by is not None:
        return f"{line}; superseded by [m:{short_id(belief.superseded_by)}]."
    return f"{line}."


def read_snapshot(
    traces: TraceStore, principal: Principal, snapshot_id: str | None, as_of: datetime
) -> RecallTrace | None:
    """The session's snapshot trace, or ``None`` when unrecorded or expired at ``as_of``."""
    if snapshot_id is None:
        return None
    trace = traces.get(principal, snapshot_id)
    if trace is None or trace.moment != "snapshot":
        return None
    if trace.user_expires_at is not None and trace.user_expires_at <= as_of:
        return None
    return trace


def is_corrected(belief: Belief, *, watermark: int, as_of: datetime) -> bool:
    """True when a snapshot member stopped holding after the watermark, by ``as_of``."""
    return (
        belief.status in CORRECTED_STATUSES
        and belief.store_position > watermark
        and (belief.valid_to is None or belief.valid_to <= as_of)
    )


def find_corrections(
    memories: MemoryStore,
    principal: Principal,
    snapshot: RecallTrace,
    *,
    watermark: int,
    as_of: datetime,
) -> Corrections:
    """The correction lines of the snapshot's members (one batched read of them)."""
    members = memories.get_many(principal, snapshot.returned) if snapshot.returned else []
    corrected = [b for b in members if is_corrected(b, watermark=watermark, as_of=as_of)]
    corrected.sort(key=lambda b: b.id)
    return Corrections(
        snapshot_readable=True,
        lines=tuple(render_correction(b) for b in corrected),
        belief_ids=tuple(b.id for b in corrected),
    )


def delta_allowance(budget: Budget, *, returned_items: int, rendered_tokens: int) -> Budget | None:
    """What the base block left of both budgets; ``None`` when either is exhausted."""
    items = budget.max_items - returned_items
    tokens = budget.max_tokens - rendered_tokens
    if items < 1 or tokens < 1:
        return None
    return Budget(max_items=items, max_tokens=tokens)


def excluded_from_delta(base_returned: Sequence[str], already: frozenset[str]) -> frozenset[str]:
    """Ids the delta must not return: the base block's and what the base itself excluded."""
    return already | frozenset(base_returned)


__all__ = [
    "CORRECTED_STATUSES",
    "UNREADABLE",
    "Corrections",
    "delta_allowance",
    "excluded_from_delta",
    "find_corrections",
    "format_instant",
    "is_corrected",
    "read_snapshot",
    "render_correction",
]
