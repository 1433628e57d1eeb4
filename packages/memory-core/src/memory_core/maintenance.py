"""``MaintenanceWorker``: the background sweeps, one pass per ``run_once()`` call.

Tests and the benchmark call ``run_once()`` themselves, so they control when maintenance
happens and what the clock says; a deployment calls it on a schedule. The sweeps available now:

* **trace expiry**: null the operator tier of recall traces past their operator expiry
  (``TraceStore.expire_operator_fields``), in bounded batches;
* **idle sessions**: close sessions idle for ``SESSION_IDLE_SECONDS``, consolidating each at
  its own scope (``SessionService.sweep_idle_report``);
* **decay**: when ``formation.scheduled_enabled``, at most once per
  ``formation.scheduled_interval_seconds``, one decay sweep (``GovernedMemoryService.decay``)
  per principal the worker was given.

Failures are isolated: each idle session closes on its own (one that fails is counted in
``sessions_failed``, logged with its principal, and the sweep goes on), and a sweep that fails as
a whole (trace expiry on an unreachable store, a decay sweep) is counted in ``sweeps_failed`` and
logged without stopping the other sweeps.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from memory_core.clock import Clock
from memory_core.domain import Principal
from memory_core.errors import UsageError
from memory_core.formation.decay import DecayResult
from memory_core.ports import Storage
from memory_core.profiles import FormationProfile
from memory_core.sessions import SessionService, SweepReport

TRACE_EXPIRY_BATCH = 1000
"""Traces one expiry call may change."""
TRACE_EXPIRY_MAX_BATCHES = 100
"""Expiry calls one pass makes at most (a backlog beyond that waits for the next pass)."""

_log = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True)
class MaintenanceReport:
    """Integer counts of what one maintenance pass changed and what it could not do.

    Attributes:
        traces_expired: Traces whose operator tier was nulled.
        sessions_closed: Idle sessions closed.
        sessions_failed: Idle sessions whose close raised (logged; retried next pass).
        sweeps_failed: Sweeps that raised as a whole (logged; the other sweeps still ran).
    """

    traces_expired: int
    sessions_closed: int
    sessions_failed: int = 0
    sweeps_failed: int = 0
    decay_sweeps: int = 0
    """Principals a decay sweep ran over in this pass (0 when none was due)."""
    beliefs_decayed: int = 0
    beliefs_retired: int = 0


class Decayer(Protocol):
    """What the decay step needs (``GovernedMemoryService`` satisfies it)."""

    def decay(self, *, principal: Principal | None = None) -> DecayResult:
        """Run one decay sweep over the principal's idle beliefs."""
        ...


class MaintenanceWorker:
    """Runs each maintenance sweep once per ``run_once()``."""

    def __init__(
        self,
        *,
        storage: Storage,
        clock: Clock,
        sessions: SessionService,
        trace_batch: int = TRACE_EXPIRY_BATCH,
        max_trace_batches: int = TRACE_EXPIRY_MAX_BATCHES,
        decayer: Decayer | None = None,
        decay_principals: Sequence[Principal] = (),
        formation: FormationProfile | None = None,
    ) -> None:
        """Create a worker; without ``decayer`` and ``formation`` it runs no decay sweep."""
        if trace_batch < 1 or max_trace_batches < 1:
            raise UsageError("trace_batch and max_trace_batches must be >= 1")
        self._storage = storage
        self._clock = clock
        self._sessions = sessions
        self._trace_batch = trace_batch
        self._max_trace_batches = max_trace_batches
        self._decayer = decayer
        self._decay_principals = tuple(decay_principals)
        self._formation = formation
        self._last_decay_at: datetime | None = None

    def run_once(self) -> MaintenanceReport:
        """Run every sweep once at the clock's current instant and report the counts.

        No sweep's failure stops another: each is counted and logged.
        """
        sweeps_failed = 0
        try:
            expired = self.expire_traces()
        except Exception as exc:  # the trace sweep's failure must not stop the session sweep
            _log.warning("trace expiry sweep failed: %s", type(exc).__name__, exc_info=exc)
            expired, sweeps_failed = 0, sweeps_failed + 1
        try:
            idle = self._sessions.sweep_idle_report()
        except Exception as exc:  # listing the idle sessions itself failed
            _log.warning("idle session sweep failed: %s", type(exc).__name__, exc_info=exc)
            idle, sweeps_failed = SweepReport(closed=0), sweeps_failed + 1
        try:
            sweeps, decayed, retired = self.decay_if_due()
        except Exception as exc:  # a failed decay sweep must not stop the other sweeps
            _log.warning("decay sweep failed: %s", type(exc).__name__, exc_info=exc)
            (sweeps, decayed, retired), sweeps_failed = (0, 0, 0), sweeps_failed + 1
        return MaintenanceReport(
            traces_expired=expired,
            sessions_closed=idle.closed,
            sessions_failed=idle.failed,
            sweeps_failed=sweeps_failed,
            decay_sweeps=sweeps,
            beliefs_decayed=decayed,
            beliefs_retired=retired,
        )

    def decay_if_due(self) -> tuple[int, int, int]:
        """Sweep every principal when decay is scheduled and due; (sweeps, decayed, retired)."""
        formation = self._formation
        if self._decayer is None or formation is None or not formation.scheduled_enabled:
            return 0, 0, 0
        now = self._clock.now()
        interval = timedelta(seconds=formation.scheduled_interval_seconds)
        if self._last_decay_at is not None and now - self._last_decay_at < interval:
            return 0, 0, 0
        self._last_decay_at = now
        results = [self._decayer.decay(principal=p) for p in self._decay_principals]
        return (
            len(results),
            sum(r.decayed for r in results),
            sum(r.retired for r in results),
        )

    def expire_traces(self) -> int:
        """Null the operator tier of traces past expiry; return how many traces changed."""
        now = self._clock.now()
        total = 0
        for _ in range(self._max_trace_batches):
            changed = self._storage.traces.expire_operator_fields(now, limit=self._trace_batch)
            total += changed
            if changed < self._trace_batch:
                break
        return total
