"""``MemoryRetriever``: recall at retrieval@2, with a trace recorded for every recall.

Order of operations (every store read carries the principal and the session's visible
scopes, so isolation holds before any ranking happens):

1. **Arms.** Each reads the store through ``MemoryStore.search`` with the principal, the
   visible scopes (``visible_scopes(project_scope)``), live statuses, ``as_of``,
   ``min_store_position`` and ``exclude_ids``, capped at ``max(max_items * 8, 64)``:

   * ``recency``: no lexical predicate, newest store position first (every moment); in
     fusion it votes on the candidates' own newest-first order (see ``ranking``);
   * ``lexical``: any-term over the formed query's terms (``in_turn``, and ``delta`` with text);
   * ``subject``: beliefs whose subject the turn names (same moments, when one is named);
   * ``person``: the relationship beliefs, when the turn asks about a person (``who``,
     ``whom``, ``whose``) and neither the lexical nor the subject arm found a relationship:
     "Who is traveling with me?" names no relation word the lexicon could bridge;
   * ``period``: when the turn names a period (``in May 2023``, or ``last week`` read at
     ``as_of``; see ``_period``), one equal vote for each belief of then: the query-matched
     ones and, for a period shorter than a year, the beliefs said in it (the newest said by
     its end, through ``as_of``);
   * ``durable``: the snapshot's supply of preference and user-model beliefs, newest first,
     so a burst of newer beliefs cannot push them out of the candidate pool; and ``project``,
     the snapshot's supply of the session's own project beliefs. Both supply candidates for
     the reservation and take no part in fusion.

   Known subjects for subject naming come from what the recency and lexical arms read, so
   forming a query never scans a principal's whole store. A turn's recency and lexical arms
   are read together (``MemoryStore.search_keyed``: one statement on PostgreSQL), the
   recency arm as its beliefs' keys only (it is counted and named by subject, never ranked).
2. **Eligibility.** ``snapshot`` ranks the beliefs it primes (``ranking.is_primed``): what
   should shape every answer of a session that opens with no query, i.e. preferences,
   user-model attributes and the session's own project beliefs. Relationships and facts from
   outside the project are topical and reach the model in-turn. ``delta`` without text ranks
   the recency candidates. ``in_turn`` ranks only what the lexical, subject, person or period
   arm found: recency orders them but never adds a belief the turn does not touch, and a turn
   with nothing to search for (only stopwords) reads nothing and recalls nothing.
3. **Policy (``blocked``).** A live candidate is withheld, and its id recorded in
   ``blocked``, when it is flagged ``needs_review`` (awaiting the user's confirmation) and is
   not a conflict partner (a conflicted belief surfaces beside the belief it disputes, its
   link rendered as ``conflicts=[m:xxxxxxxx]``), or
   already names a successor (``superseded_by`` set while its status still reads live).
   Rejected, superseded, expired and retired beliefs are never read at all: the status
   predicate runs in the store, beside the principal and scope predicates, so a rejected
   statement cannot reach a block by any path, and they are not listed as blocked.
4. **Ranking, collapse, per-subject cap, budget**: see ``memory_core.retrieval.ranking``.
5. **Render and trace**: see ``memory_core.retrieval.render``; the trace is recorded in the
   trace store before ``recall`` returns.

``recall_delta`` runs a ``delta`` recall past a session's snapshot watermark within what the
turn's base recall left; ``corrections`` renders the correction lines of the snapshot's
members that no longer hold (see ``memory_core.retrieval.lifecycle``).

Arm latencies are measured with ``timer`` (``time.perf_counter`` by default) and appear only
in the operator tier; arms read together share their read's time equally. Pass a constant
timer for byte-identical traces under a fixed clock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from memory_core.clock import Clock, require_aware
from memory_core.domain import (
    LIVE_STATUSES,
    Belief,
    BeliefType,
    Principal,
    RecallMoment,
    RecallQuery,
    RecallTrace,
    scope_for_project,
    visible_scopes,
)
from memory_core.errors import UsageError
from memory_core.ids import IdFactory
from memory_core.policy import RETRIEVAL_POLICY
from memory_core.ports import BeliefKey, MemoryStore, TraceStore
from memory_core.profiles import Budget, MemoryProfiles
from memory_core.retrieval import _rows
from memory_core.retrieval._period import Period, question_period
from memory_core.retrieval._rows import Row, row_of
from memory_core.retrieval.lifecycle import (
    UNREADABLE,
    Corrections,
    delta_allowance,
    excluded_from_delta,
    find_corrections,
    read_snapshot,
)
from memory_core.retrieval.query import FormedQuery, QueryFormer
from memory_core.retrieval.ranking import (
    DURABLE_TYPES,
    collapse_and_cap_rows,
    fused_matches,
    is_primed,
    lexical_weights_rows,
    near_duplicate_order_rows,
    newest_first,
    reserved_slots,
    rows_scorer,
    select_rows_within_budget,
)
from memory_core.retrieval.render import block_tokens, render_header

_log = logging.getLogger(__name__)

CANDIDATE_MULTIPLIER = 8
"""Each arm reads up to ``max(max_items * CANDIDATE_MULTIPLIER, CANDIDATE_FLOOR)`` beliefs."""
CANDIDATE_FLOOR = 64

ARM_RECENCY = "recency"
ARM_LEXICAL = "lexical"
ARM_SUBJECT = "subject"
ARM_DURABLE = "durable"
ARM_PROJECT = "project"
ARM_PERSON = "person"
ARM_PERIOD = "period"

PERSON_TYPES: frozenset[BeliefType] = frozenset({BeliefType.RELATIONSHIP})
"""What a person question (who, whom, whose) may be asking about."""

_SUPPORTED_MOMENTS: tuple[RecallMoment, ...] = ("snapshot", "in_turn", "delta")


@dataclass(frozen=True, kw_only=True)
class RecallRequest:
    """One recall: who, when in the session, and within what budget."""

    principal: Principal
    moment: RecallMoment
    text: str | None = None
    """The user's turn (``in_turn``; optional for ``delta``); ``None`` for ``snapshot``."""
    project_scope: str | None = None
    """The session's bare project name; ``None`` reads ``user`` and ``general`` only."""
    session_id: str | None = None
    run_id: str | None = None
    turn_id: str | None = None
    max_items: int | None = None
    """Item budget; ``None`` takes the profile's ``retrieval.in_turn.max_items``."""
    max_tokens: int | None = None
    """Token budget of the whole block, header included; ``None`` takes the profile's."""
    as_of: datetime | None = None
    """The instant validity is judged at; ``None`` is the clock's now."""
    min_store_position: int = 0
    """Only beliefs written after this store position (the recall delta)."""
    exclude_ids: frozenset[str] = field(default_factory=frozenset)
    """Belief ids never to return (e.g. what an earlier block already holds)."""


@dataclass(frozen=True, kw_only=True)
class RecallResult:
    """What a recall produced: the block for the model, its trace, and the beliefs behind it."""

    block: str
    """The rendered block; ``""`` when nothing was returned."""
    trace: RecallTrace
    """The recorded trace (never shown to the model)."""
    beliefs: tuple[Belief, ...]
    """The returned beliefs in rendered order."""


@dataclass(frozen=True, kw_only=True)
class _Arm:
    name: str
    rows: list[Row]
    """The arm's beliefs (as rows), in its order; empty when only ``plain`` is kept."""
    latency_ms: float
    fused: bool
    scores: dict[str, float] | None = None
    """The arm's own score of each belief, when it scores rather than only orders them."""
    plain: list[BeliefKey] | None = None
    """The arm's beliefs, as their keys, when no row is made of them: an in-turn recall's
    recency arm, whose beliefs are never ranked as such (it votes on the candidates' own
    order)."""

    @property
    def size(self) -> int:
        """How many beliefs the arm read (and admitted)."""
        return len(self.rows) if self.plain is None else len(self.plain)


class MemoryRetriever:
    """Recalls a principal's beliefs into a rendered block under the retrieval@2 policy."""

    def __init__(
        self,
        *,
        memories: MemoryStore,
        traces: TraceStore,
        clock: Clock,
        ids: IdFactory,
        profiles: MemoryProfiles,
        query_former: QueryFormer | None = None,
        timer: Callable[[], float] = time.perf_counter,
    ) -> None:
        """Create a retriever.

        Args:
            memories: the belief store the arms read.
            traces: where every recall's trace is recorded.
            clock: the source of ``created_at``, expiries and the default ``as_of``.
            ids: the source of trace ids.
            profiles: memory profiles; the retriever reads ``retrieval`` and ``trace``.
            query_former: forms in-turn queries; the default uses the shipped facet lexicon.
            timer: seconds counter for arm latencies (operator tier only).
        """
        self._memories = memories
        self._traces = traces
        self._clock = clock
        self._ids = ids
        self._profiles = profiles
        self._former = query_former or QueryFormer()
        self._timer = timer

    @property
    def profiles(self) -> MemoryProfiles:
        """The profiles this retriever ranks and budgets with."""
        return self._profiles

    def budget_for(self, request: RecallRequest) -> Budget:
        """The effective budget: the request's values, else the profile's in-turn budget."""
        default = self._profiles.retrieval.in_turn
        max_items = default.max_items if request.max_items is None else request.max_items
        max_tokens = default.max_tokens if request.max_tokens is None else request.max_tokens
        if max_items < 1 or max_tokens < 1:
            raise UsageError(
                f"recall budget must be at least 1 item and 1 token, got max_items={max_items}, "
                f"max_tokens={max_tokens}; pass positive values or None for the profile's"
            )
        return Budget(max_items=max_items, max_tokens=max_tokens)

    def recall(self, request: RecallRequest) -> RecallResult:
        """Recall, render and trace; the trace is recorded before this returns.

        Raises:
            UsageError: the moment is unsupported, the text does not fit the moment, the
                budget is not positive, the project name is invalid or ``as_of`` is naive.
        """
        _check_request(request)
        # One connection for the arms and the trace write (on a tier with a pool).
        with self._memories.pinned():
            return self._recall(request)

    def _recall(self, request: RecallRequest) -> RecallResult:
        budget = self.budget_for(request)
        now = self._clock.now()
        as_of = now if request.as_of is None else require_aware(request.as_of, "as_of")
        try:
            scopes = visible_scopes(request.project_scope)
        except ValueError as exc:
            raise UsageError(f"recall project_scope: {exc}") from exc
        reads = _Reads(
            principal=request.principal,
            scopes=scopes,
            as_of=as_of,
            min_store_position=request.min_store_position,
            exclude_ids=request.exclude_ids,
            limit=max(budget.max_items * CANDIDATE_MULTIPLIER, CANDIDATE_FLOOR),
        )
        arms, formed = self._gather(request, reads)
        pool = _eligible(arms, formed)
        candidates: list[Row] = []
        withheld: list[str] = []
        for row in pool:
            # A conflict's flagged belief surfaces beside its partner (its link is rendered);
            # a belief flagged for review for any other reason is withheld.
            if (row.needs_review and not row.conflicts_with) or row.superseded_by is not None:
                withheld.append(row.id)
            else:
                candidates.append(row)
        blocked = sorted(withheld)

        retrieval = self._profiles.retrieval
        ranked = self._rank(candidates, arms, request.project_scope, now=as_of)
        capped_in, collapsed, capped_out = collapse_and_cap_rows(ranked, retrieval.per_subject_cap)
        header = render_header(request.moment)
        reserved = (
            reserved_slots(retrieval.durable_item_share, budget.max_items)
            if request.moment == "snapshot"
            else 0
        )
        seated, dropped = select_rows_within_budget(
            capped_in,
            header=header,
            render=Row.line,
            max_items=budget.max_items,
            max_tokens=budget.max_tokens,
            reserved=reserved,
        )
        returned = [r.belief for r in seated]
        lines = [r.line() for r in seated]
        block = "\n".join((header, *lines)) if lines else ""

        counts = {arm.name: arm.size for arm in arms}
        counts["collapsed"] = len(collapsed)
        counts["over_subject_cap"] = len(capped_out)
        trace_profile = self._profiles.trace
        trace = RecallTrace(
            trace_id=self._ids.new_id(),
            tenant_id=request.principal.tenant_id,
            principal_id=request.principal.principal_id,
            session_id=request.session_id,
            run_id=request.run_id,
            turn_id=request.turn_id,
            moment=request.moment,
            policy_version=RETRIEVAL_POLICY,
            created_at=now,
            returned=tuple(b.id for b in returned),
            beliefs=tuple(r.traced() for r in seated),
            cited=(),
            blocked=tuple(blocked),
            candidate_total=len(candidates),
            returned_count=len(returned),
            dropped_count=len(dropped),
            rendered_tokens=block_tokens(header, lines),
            user_expires_at=now + timedelta(days=trace_profile.user_retention_days),
            arm_latencies_ms={arm.name: arm.latency_ms for arm in arms},
            candidate_counts=dict(sorted(counts.items())),
            dropped_for_budget=tuple(r.id for r in dropped),
            operator_expires_at=now + timedelta(days=trace_profile.operator_retention_days),
        )
        recorded = self._traces.record(trace)
        _log.info(
            "recall %s (%s): %d returned, %d dropped for budget",
            recorded.trace_id,
            request.moment,
            len(returned),
            len(dropped),
        )
        return RecallResult(block=block, trace=recorded, beliefs=tuple(returned))

    def corrections(
        self,
        snapshot_id: str | None,
        watermark: int,
        as_of: datetime | None = None,
        *,
        principal: Principal,
    ) -> Corrections:
        """Correction lines for the snapshot's members that no longer hold.

        Reads the snapshot trace (``snapshot_id``) and renders one line per returned belief
        now superseded, expired or retired at a store position past ``watermark``, sorted by
        belief id (see ``memory_core.retrieval.lifecycle``). An unrecorded or expired trace
        yields ``snapshot_readable=False`` and no lines.

        Raises:
            UsageError: ``watermark`` is negative or ``as_of`` is naive.
        """
        if watermark < 0:
            raise UsageError(f"watermark must be >= 0, got {watermark}")
        instant = self._clock.now() if as_of is None else require_aware(as_of, "as_of")
        snapshot = read_snapshot(self._traces, principal, snapshot_id, instant)
        if snapshot is None:
            return UNREADABLE
        return find_corrections(
            self._memories, principal, snapshot, watermark=watermark, as_of=instant
        )

    def recall_delta(
        self, base_request: RecallRequest, base: RecallResult, *, watermark: int
    ) -> RecallResult | None:
        """The recall delta of a turn: beliefs written past ``watermark``, no query text.

        Runs within what ``base`` left of ``base_request``'s item and token budgets, with the
        base's returned ids excluded in the store query (before candidate limits). Returns
        ``None``, issuing nothing, when either allowance is exhausted.

        Raises:
            UsageError: ``watermark`` is negative, or the base request is invalid.
        """
        if watermark < 0:
            raise UsageError(f"watermark must be >= 0, got {watermark}")
        allowance = delta_allowance(
            self.budget_for(base_request),
            returned_items=len(base.beliefs),
            rendered_tokens=base.trace.rendered_tokens,
        )
        if allowance is None:
            return None
        return self.recall(
            replace(
                base_request,
                moment="delta",
                text=None,
                max_items=allowance.max_items,
                max_tokens=allowance.max_tokens,
                min_store_position=max(watermark, base_request.min_store_position),
                exclude_ids=excluded_from_delta(base.trace.returned, base_request.exclude_ids),
            )
        )

    def _gather(
        self, request: RecallRequest, reads: _Reads
    ) -> tuple[list[_Arm], FormedQuery | None]:
        """Run the moment's arms; the formed query is ``None`` for a recall without text."""
        if request.text is None:
            recency = self._run(ARM_RECENCY, reads.query(terms=None), reads, fused=True)
            if request.moment != "snapshot":
                return [recency], None
            primed = [r for r in recency.rows if is_primed(r.belief, request.project_scope)]
            arms = [replace(recency, rows=primed), self._durable_arm(reads)]
            if request.project_scope is not None:
                own = reads.query(terms=None, scopes=(scope_for_project(request.project_scope),))
                arms.append(self._run(ARM_PROJECT, own, reads, fused=False))
            return arms, None
        formed = self._former.form(request.text)
        if not formed.terms:  # a turn with nothing to search for reads nothing
            return [], formed
        recency, lexical = self._run_turn(
            reads.query(terms=None), reads.query(terms=formed.terms), reads
        )
        formed, query_arms = self._query_arms(request.text, formed, reads, recency, lexical)
        return [recency, *query_arms], formed

    def _rank(
        self,
        candidates: Sequence[Row],
        arms: Sequence[_Arm],
        project_scope: str | None,
        *,
        now: datetime,
    ) -> list[Row]:
        """Fuse, score every candidate at ``now`` (one instant per recall), demote near
        duplicates and order them."""
        retrieval = self._profiles.retrieval
        # candidates are newest first (``_eligible``): the recency arm votes on that order
        matches = fused_matches(
            candidates,
            {arm.name: None if arm.name == ARM_RECENCY else arm.rows for arm in arms if arm.fused},
            k=retrieval.reciprocal_rank_fusion_k,
            scores={arm.name: arm.scores for arm in arms if arm.fused and arm.scores is not None},
        )
        scores_of = rows_scorer(
            weights=retrieval.ranking_weights,
            lifecycle=retrieval.lifecycle_weights,
            project_scope=project_scope,
            now=now,
            tau_days=retrieval.decay_tau_days,
            stale_penalty=retrieval.stale_penalty,
        )
        scores = scores_of(candidates, matches)
        judged = near_duplicate_order_rows(candidates, scores, retrieval.near_duplicate_penalty)
        return [candidates[index] for _, index in judged]

    def _run(self, name: str, query: RecallQuery, reads: _Reads, *, fused: bool) -> _Arm:
        started = self._timer()
        hits = self._memories.search(query)
        latency_ms = round((self._timer() - started) * 1000.0, 3)
        # Defence in depth: a store bug must never leak across principals or scopes.
        return _Arm(
            name=name,
            rows=newest_first(reads.admitted_rows(hits)),
            latency_ms=latency_ms,
            fused=fused,
        )

    def _run_turn(
        self, recency: RecallQuery, lexical: RecallQuery, reads: _Reads
    ) -> tuple[_Arm, _Arm]:
        """A turn's recency and lexical arms, read in one go (``MemoryStore.search_keyed``):
        the recency arm as its beliefs' keys, kept without rows. Each arm's latency is half
        the read, so the arms' latencies still add up to the time spent reading."""
        started = self._timer()
        keys, (hits,) = self._memories.search_keyed(recency, [lexical])
        share_ms = round((self._timer() - started) * 1000.0 / 2, 3)
        return (
            _Arm(
                name=ARM_RECENCY,
                rows=[],
                latency_ms=share_ms,
                fused=True,
                # in the store's order: only its size and subjects are read
                plain=reads.admitted(keys),
            ),
            _Arm(
                name=ARM_LEXICAL,
                rows=newest_first(reads.admitted_rows(hits)),
                latency_ms=share_ms,
                fused=True,
            ),
        )

    def _query_arms(
        self, text: str, unnamed: FormedQuery, reads: _Reads, recency: _Arm, lexical: _Arm
    ) -> tuple[FormedQuery, list[_Arm]]:
        recent = recency.plain or ()
        weights = lexical_weights_rows(lexical.rows, unnamed.groups)
        # Its rows stay newest first: fusion reads its scores, never its order (what
        # ``weight_order`` would give), and nothing else reads its order.
        arms = [
            _Arm(
                name=ARM_LEXICAL,
                rows=lexical.rows,
                latency_ms=lexical.latency_ms,
                fused=True,
                scores=weights,
            )
        ]
        # Known subjects come from what the arms already read: no whole-store scan per turn.
        # Only the named subjects depend on them; the turn's terms are formed once.
        # order-free: named by position
        known = {b.subject for b in recent}.union([r.subject for r in lexical.rows])
        formed = FormedQuery(  # ``replace(unnamed, subjects=...)``, without its field walk
            terms=unnamed.terms,
            subjects=self._former.named_subjects(text, known),
            keywords=unnamed.keywords,
            groups=unnamed.groups,
            asks_person=unnamed.asks_person,
        )
        if formed.subjects:
            subject_query = reads.query(terms=(), subjects=formed.subjects)
            arms.append(self._run(ARM_SUBJECT, subject_query, reads, fused=True))
        if formed.asks_person and not _names_relationship(arms):
            people = reads.query(terms=None, belief_types=PERSON_TYPES)
            arms.append(self._run(ARM_PERSON, people, reads, fused=True))
        period = question_period(text, reads.as_of)
        if period is not None:
            arms.append(self._period_arm(period, arms, reads))
        return formed, arms

    def _period_arm(self, period: Period, arms: Sequence[_Arm], reads: _Reads) -> _Arm:
        """``What did I bake in May 2023?``: one equal vote for each belief of the period, the
        query-matched ones and, for a day or a month, the beliefs said then (the newest said
        by its end; a year holds most of a history, so it only votes)."""
        started = self._timer()
        then = {r.id: r for arm in arms for r in arm.rows if period.holds(r.belief)}
        if not period.is_year:
            end = datetime.combine(period.last, datetime.max.time(), tzinfo=UTC)
            said = reads.query(terms=None, as_of=min(end, reads.as_of))
            for row in reads.admitted_rows(self._memories.search(said)):
                if period.holds(row.belief):
                    then.setdefault(row.id, row)
        return _Arm(
            name=ARM_PERIOD,
            rows=newest_first(list(then.values())),
            latency_ms=round((self._timer() - started) * 1000.0, 3),
            fused=True,
            scores=dict.fromkeys(then, 1.0),
        )

    def _durable_arm(self, reads: _Reads) -> _Arm:
        return self._run(
            ARM_DURABLE, reads.query(terms=None, belief_types=DURABLE_TYPES), reads, fused=False
        )


@dataclass(frozen=True, kw_only=True)
class _Reads:
    """The predicates every arm of one recall reads under."""

    principal: Principal
    scopes: tuple[str, ...]
    as_of: datetime
    min_store_position: int
    exclude_ids: frozenset[str]
    limit: int

    def query(
        self,
        *,
        terms: tuple[str, ...] | None,
        subjects: tuple[str, ...] = (),
        belief_types: frozenset[BeliefType] | None = None,
        scopes: tuple[str, ...] | None = None,
        as_of: datetime | None = None,
    ) -> RecallQuery:
        return RecallQuery(
            principal=self.principal,
            scopes=self.scopes if scopes is None else scopes,
            statuses=LIVE_STATUSES,
            as_of=self.as_of if as_of is None else as_of,
            min_store_position=self.min_store_position,
            terms=terms,
            subjects=subjects,
            belief_types=belief_types,
            exclude_ids=self.exclude_ids,
            limit=self.limit,
        )

    def admitted(self, keys: Sequence[BeliefKey]) -> list[BeliefKey]:
        """The beliefs (by their keys) of this recall's principal, visible scopes and live
        statuses, not excluded and past the position cursor, in order."""
        return self._admit(keys)

    def admitted_rows(self, beliefs: Sequence[Belief]) -> list[Row]:
        """:meth:`admitted`, as the admitted beliefs' rows (each row read once: the remembered
        one, or made and remembered, as ``rows_of`` gives it)."""
        tenant, owner = self.principal.tenant_id, self.principal.principal_id
        scopes, excluded, floor = self.scopes, self.exclude_ids, self.min_store_position
        table = _rows.remembered
        get = table.get
        out: list[Row] = []
        append = out.append
        for belief in beliefs:
            row = get(belief.id)
            if row is None or row.belief is not belief:
                row = row_of(belief)
            if (
                row.tenant_id == tenant
                and row.principal_id == owner
                and row.scope in scopes
                and row.status in LIVE_STATUSES
                and row.id not in excluded
                and row.store_position > floor
            ):
                append(row)
        return out

    def _admit(self, records: Sequence[_Record]) -> list[_Record]:
        tenant, owner = self.principal.tenant_id, self.principal.principal_id
        scopes, excluded, floor = self.scopes, self.exclude_ids, self.min_store_position
        return [
            b
            for b in records
            if b.tenant_id == tenant
            and b.principal_id == owner
            and b.scope in scopes
            and b.status in LIVE_STATUSES
            and b.id not in excluded
            and b.store_position > floor
        ]


_Record = TypeVar("_Record", bound=BeliefKey)
"""A belief's key, the belief, or its row: all name the fields admission reads alike."""


def _check_request(request: RecallRequest) -> None:
    if request.moment not in _SUPPORTED_MOMENTS:
        raise UsageError(
            f"recall moment {request.moment!r} is not supported by {RETRIEVAL_POLICY}; "
            f"use one of {', '.join(_SUPPORTED_MOMENTS)}"
        )
    if request.moment == "snapshot" and request.text is not None:
        raise UsageError("a snapshot recall takes no query text; pass text=None")
    if request.moment == "in_turn" and request.text is None:
        raise UsageError("an in_turn recall needs the user's turn as text")
    if request.min_store_position < 0:
        raise UsageError(f"min_store_position must be >= 0, got {request.min_store_position}")


def _eligible(arms: Sequence[_Arm], formed: FormedQuery | None) -> list[Row]:
    """Distinct candidates, newest first (store position descending, then id): query-matched
    ones for a text recall, else every arm's.

    Their order decides nothing (fusion reads the arms, and every later order is total: score,
    position, id), so they are put in the recency arm's order once, which its vote then
    checks rather than sorts."""
    if formed is not None:
        sources = [
            arm for arm in arms if arm.name in (ARM_LEXICAL, ARM_SUBJECT, ARM_PERSON, ARM_PERIOD)
        ]
    else:
        sources = list(arms)
    pool: dict[str, Row] = {}
    for arm in sources:
        for row in arm.rows:
            pool.setdefault(row.id, row)
    keyed = [(-row.store_position, identifier, row) for identifier, row in pool.items()]
    keyed.sort()  # ids are distinct: no two entries compare their rows
    return [row for _, _, row in keyed]


def _names_relationship(arms: Sequence[_Arm]) -> bool:
    """Whether some arm found a relationship belief (asked only of a person question)."""
    return any(r.belief_type is BeliefType.RELATIONSHIP for arm in arms for r in arm.rows)


__all__ = [
    "CANDIDATE_FLOOR",
    "CANDIDATE_MULTIPLIER",
    "MemoryRetriever",
    "RecallRequest",
    "RecallResult",
]
