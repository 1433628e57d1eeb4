"""``MaintenanceWorker``: the background sweeps, one pass per ``run_once()`` call.

Tests and the benchmark call ``run_once()`` themselves, so they control when maintenance
happens and what the clock says; a deployment calls it on a schedule. The sweeps available now:

* **trace expiry**: null the operator tier of recall traces past their operator expiry
  (``TraceStore.expire_operator_fields``), in bounded batches;
* **idle sessions**: close sessions idle for ``SESSION_IDLE_SECONDS``, consolidating each at
  its own scope (``SessionService.sweep_idle_report``).

Failures are isolated: each idle session closes on its own (one that fails is counted in
``sessions_failed``, logged with its principal, and the sweep goes on), and a sweep that fails as
a whole (trace expiry on an unreachable store) is counted in ``sweeps_failed`` and logged
without stopping the other sweeps.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from memory_core.clock import Clock
from memory_core.errors import UsageError
from memory_core.ports import Storage
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
    ) -> None:
        if trace_batch < 1 or max_trace_batches < 1:
            raise UsageError("trace_batch and max_trace_batches must be >= 1")
        self._storage = storage
        self._clock = clock
        self._sessions = sessions
        self._trace_batch = trace_batch
        self._max_trace_batches = max_trace_batches

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
        return MaintenanceReport(
            traces_expired=expired,
            sessions_closed=idle.closed,
            sessions_failed=idle.failed,
            sweeps_failed=sweeps_failed,
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
