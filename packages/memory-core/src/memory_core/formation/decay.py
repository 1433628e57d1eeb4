"""Forgetting as decay over unused beliefs: one bounded sweep per principal.

Decay is a sweep, not a read-time discount. :func:`decay_sweep` reads the principal's idle
window through ``MemoryStore.list_idle`` (least recently evidenced first, cut at the shortest
``retrieval.decay_tau_days`` any type carries and at each type's own, bounded by
``formation.decay.max_per_sweep``). The store returns **eligible** beliefs only
(``memory_core.idle.is_idle``), so the bounded window is never filled with rows the sweep
cannot change (user statements, the bulk of a principal's oldest rows) and eligible beliefs
behind them are reached. For every eligible belief it takes ``formation.decay.step`` of
confidence:

* eligible = live; not a user statement (``Authority.USER``); PROVISIONAL, or at most the
  highest confidence formation gives an inference (:data:`MAX_INFERRED_CONFIDENCE`); last
  evidenced at least its own type's tau ago; and last updated, and last cited
  (``last_used_at``), at least one sweep interval (``formation.scheduled_interval_seconds``)
  ago: the first keeps a belief from decaying twice in one window, the second lets a citation
  hold off decay for a window without renewing the evidence clock;
* a belief whose confidence stays at or above ``formation.decay.floor_confidence`` is
  rewritten **in place** (``update_in_place``: it keeps its store position, since a session
  reads a position past its watermark as a change, and a quiet loss of confidence is none)
  and a ``memory.decayed`` event is written;
* one that falls below the floor is **retired** (status RETIRED, ``valid_to`` the sweep
  instant) through ``update``, which takes a fresh store position (a retirement *is* the change
  the correction lines select on), and a ``memory.retired`` event is written.

Provenance, evidence count and the evidence clock never move. The events are principal-level
(no session id): a background sweep never advances any session's activity time. The whole
sweep of one principal is one unit of work.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from memory_core.base.events import EventType, EventWriter
from memory_core.clock import Clock
from memory_core.domain import Belief, BeliefStatus, Principal, Trust
from memory_core.idle import MAX_INFERRED_CONFIDENCE, is_idle
from memory_core.ids import IdFactory
from memory_core.ports import Storage
from memory_core.profiles import MemoryProfiles

DECAY_ACTOR = "memory"
DECAY_TRIGGER = "decay_sweep"


@dataclass(frozen=True, kw_only=True)
class DecayResult:
    """What one principal's sweep did.

    Attributes:
        read: Idle beliefs the window held.
        decayed: Beliefs that lost ``decay.step`` and stayed live.
        retired: Beliefs that fell below ``decay.floor_confidence`` and were retired.
    """

    read: int
    decayed: int
    retired: int


def idle_cuts(
    *, now: datetime, profiles: MemoryProfiles, interval: timedelta
) -> tuple[datetime, dict[str, datetime], datetime]:
    """``list_idle``'s arguments at ``now``: (shortest-tau cut, per-type cuts, touched cut)."""
    taus = profiles.retrieval.decay_tau_days.model_dump()
    by_type = {str(t): now - timedelta(days=float(tau)) for t, tau in taus.items()}
    return max(by_type.values()), by_type, now - interval


def is_eligible(
    belief: Belief, *, now: datetime, profiles: MemoryProfiles, interval: timedelta
) -> bool:
    """Whether ``belief`` loses confidence in a sweep at ``now`` (see the module docstring)."""
    cut, by_type, touched = idle_cuts(now=now, profiles=profiles, interval=interval)
    return is_idle(
        belief, evidence_before=cut, type_evidence_before=by_type, touched_before=touched
    )


def decay_sweep(
    *,
    storage: Storage,
    clock: Clock,
    ids: IdFactory,
    profiles: MemoryProfiles,
    principal: Principal,
    policy_version: str,
) -> DecayResult:
    """Run one decay sweep over ``principal``'s idle beliefs at the clock's instant."""
    now = clock.now()
    formation = profiles.formation
    interval = timedelta(seconds=formation.scheduled_interval_seconds)
    cut, by_type, touched = idle_cuts(now=now, profiles=profiles, interval=interval)
    decayed = retired = 0
    with storage.unit_of_work():
        window = storage.memories.list_idle(
            principal,
            cut,
            formation.decay.max_per_sweep,
            type_evidence_before=by_type,
            touched_before=touched,
        )
        for belief in window:
            if not is_idle(
                belief, evidence_before=cut, type_evidence_before=by_type, touched_before=touched
            ):
                continue  # the store filters on the same rule; a stale row is skipped, not changed
            confidence = max(0.0, round(belief.confidence - formation.decay.step, 9))
            if confidence < formation.decay.floor_confidence:
                changed = storage.memories.update(
                    belief.model_copy(
                        update={
                            "status": BeliefStatus.RETIRED,
                            "confidence": confidence,
                            "valid_to": max(belief.valid_from, now),
                            "updated_at": now,
                        }
                    )
                )
                event_type = EventType.MEMORY_RETIRED
                retired += 1
            else:
                changed = storage.memories.update_in_place(
                    belief.model_copy(update={"confidence": confidence, "updated_at": now})
                )
                event_type = EventType.MEMORY_DECAYED
                decayed += 1
            EventWriter(events=storage.events, clock=clock, ids=ids).append(
                event_type,
                principal=principal,
                session_id=None,
                actor=DECAY_ACTOR,
                trust=Trust.MEMORY,
                payload={
                    "belief_id": changed.id,
                    "short_id": changed.short_id,
                    "previous_confidence": belief.confidence,
                    "confidence": changed.confidence,
                    "status": changed.status.value,
                    "trigger": DECAY_TRIGGER,
                    "policy_version": policy_version,
                },
                at=now,
            )
    return DecayResult(read=len(window), decayed=decayed, retired=retired)


__all__ = [
    "DECAY_TRIGGER",
    "MAX_INFERRED_CONFIDENCE",
    "DecayResult",
    "decay_sweep",
    "idle_cuts",
    "is_eligible",
]
