"""``MaintenanceWorker``: the background sweeps, one pass per ``run_once()`` call.

Tests and the benchmark call ``run_once()`` themselves, so they control when maintenance
happens and what the clock says; a deployment calls it on a schedule. The sweeps available now:

* **trace expiry**: null the operator tier of recall traces past their operator expiry
  (``TraceStore.expire_operator_fields``), in bounded batches;
* **idle sessions**: close sessions idle for ``SESSION_IDLE_SECONDS``, consolidating each at
  its own scope (``SessionService.sweep_idle_report``);
* **decay**: when ``formation.scheduled_enabled``, at most once per
  ``formation.scheduled_interval_seconds``, one decay sweep (``GovernedMemoryService.decay``)
  per principal: the principals the worker was given, or, by default, every principal the
  store lists with a decay-eligible belief (``MemoryStore.list_principals_with_idle``, paged
  by ``DECAY_PRINCIPAL_PAGE``; the worker is that listing's one, operator-level, caller).

Failures are isolated: each idle session closes on its own (one that fails is counted in
``sessions_failed``, logged with its principal, and the sweep goes on); so does each
principal's decay sweep (``decay_failed``); and a sweep that fails as a whole (trace expiry on
an unreachable store, listing the idle sessions or the principals to decay) is counted in
``sweeps_failed`` and logged without stopping the other sweeps.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from memory_core.clock import Clock
from memory_core.domain import Principal
from memory_core.errors import UsageError
from memory_core.formation.decay import DecayResult, idle_cuts
from memory_core.ports import Storage
from memory_core.profiles import FormationProfile, MemoryProfiles
from memory_core.sessions import SessionService, SweepReport

TRACE_EXPIRY_BATCH = 1000
"""Traces one expiry call may change."""
TRACE_EXPIRY_MAX_BATCHES = 100
"""Expiry calls one pass makes at most (a backlog beyond that waits for the next pass)."""
DECAY_PRINCIPAL_PAGE = 500
"""Principals one ``list_principals_with_idle`` call returns (the listing pages on)."""

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
    decay_failed: int = 0
    """Principals whose decay sweep raised (logged; the other principals were still swept)."""


@dataclass(frozen=True, kw_only=True)
class DecayPass:
    """What one pass's decay step did across principals."""

    sweeps: int = 0
    decayed: int = 0
    retired: int = 0
    failed: int = 0


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
        decay_principals: Sequence[Principal] | None = None,
        formation: FormationProfile | None = None,
        profiles: MemoryProfiles | None = None,
        principal_page: int = DECAY_PRINCIPAL_PAGE,
    ) -> None:
        """Create a worker; without ``decayer`` and a formation profile it runs no decay sweep.

        Args:
            storage: The store every sweep reads and writes.
            clock: The instant each pass runs at.
            sessions: The session service whose idle sessions are closed.
            trace_batch: Traces one expiry call may change.
            max_trace_batches: Expiry calls one pass makes at most.
            decayer: Runs one principal's decay sweep.
            decay_principals: Sweep exactly these; ``None`` (the default) sweeps every
                principal ``list_principals_with_idle`` returns.
            formation: The decay schedule (``profiles.formation`` when omitted).
            profiles: The shipped profiles: their shortest ``decay_tau_days`` is the listing's
                cut (without them a principal is listed by any eligible row evidenced by now).
            principal_page: Principals one listing call returns.
        """
        if principal_page < 1:
            raise UsageError("principal_page must be >= 1")
        if trace_batch < 1 or max_trace_batches < 1:
            raise UsageError("trace_batch and max_trace_batches must be >= 1")
        self._storage = storage
        self._clock = clock
        self._sessions = sessions
        self._trace_batch = trace_batch
        self._max_trace_batches = max_trace_batches
        self._decayer = decayer
        self._decay_principals = None if decay_principals is None else tuple(decay_principals)
        self._formation = formation if formation is not None or profiles is None else None
        if self._formation is None and profiles is not None:
            self._formation = profiles.formation
        self._profiles = profiles
        self._principal_page = principal_page
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
            decay = self.decay_if_due()
        except Exception as exc:  # listing the principals failed: the other sweeps still ran
            _log.warning("decay sweep failed: %s", type(exc).__name__, exc_info=exc)
            decay, sweeps_failed = DecayPass(), sweeps_failed + 1
        return MaintenanceReport(
            traces_expired=expired,
            sessions_closed=idle.closed,
            sessions_failed=idle.failed,
            sweeps_failed=sweeps_failed,
            decay_sweeps=decay.sweeps,
            beliefs_decayed=decay.decayed,
            beliefs_retired=decay.retired,
            decay_failed=decay.failed,
        )

    def decay_if_due(self) -> DecayPass:
        """Sweep every principal when decay is scheduled and due, each in its own boundary.

        One principal's failed sweep is logged with its principal and counted in ``failed``;
        the others are still swept. A failure to list the principals propagates.
        """
        formation = self._formation
        if self._decayer is None or formation is None or not formation.scheduled_enabled:
            return DecayPass()
        now = self._clock.now()
        interval = timedelta(seconds=formation.scheduled_interval_seconds)
        if self._last_decay_at is not None and now - self._last_decay_at < interval:
            return DecayPass()
        self._last_decay_at = now
        sweeps = decayed = retired = failed = 0
        for principal in self._principals_to_decay(now, interval):
            try:
                result = self._decayer.decay(principal=principal)
            except Exception as exc:  # one principal's failure must not stop the others
                _log.warning(
                    "decay sweep of principal %s/%s failed: %s",
                    principal.tenant_id,
                    principal.principal_id,
                    type(exc).__name__,
                    exc_info=exc,
                )
                failed += 1
                continue
            sweeps += 1
            decayed += result.decayed
            retired += result.retired
        return DecayPass(sweeps=sweeps, decayed=decayed, retired=retired, failed=failed)

    def _principals_to_decay(self, now: datetime, interval: timedelta) -> Iterator[Principal]:
        """The given principals, or every principal the store lists, page by page."""
        if self._decay_principals is not None:
            yield from self._decay_principals
            return
        cut = now
        if self._profiles is not None:
            cut, _, _ = idle_cuts(now=now, profiles=self._profiles, interval=interval)
        after: Principal | None = None
        while True:
            page = self._storage.memories.list_principals_with_idle(
                cut, self._principal_page, after=after
            )
            yield from page
            if len(page) < self._principal_page:
                return
            after = page[-1]

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
