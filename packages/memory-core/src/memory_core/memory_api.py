"""The memory surface of a composition (``Composition.memory``): one class a user manages.

Formation (``run``, ``remember``, ``reject``, ``replay``), recall (``recall``,
``get_recall_trace``) and management (``get``, ``list_memories``, ``history``, ``forget``,
``forget_principal``, ``export_jsonl``, ``import_jsonl``). Every call is principal-scoped:
it acts for the composition's principal, or for the one it is given.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator

from memory_core.clock import Clock
from memory_core.domain import Belief, BeliefStatus, Principal, RecallMoment, RecallTrace, Trust
from memory_core.errors import NotFoundError, SessionClosedError, UsageError
from memory_core.formation import ConsolidationResult, GovernedMemoryService
from memory_core.ids import IdFactory
from memory_core.management import (
    BeliefHistory,
    ForgetReport,
    belief_history,
    forget_belief,
    resolve_belief,
)
from memory_core.portability import ImportReport, export_lines, import_lines
from memory_core.ports import Storage
from memory_core.retrieval import MemoryRetriever, RecallRequest, RecallResult

_log = logging.getLogger(__name__)
"""Records ids and counts only (see ``memory_core.management``)."""


class MemoryAPI:
    """The memory surface of a composition: governed formation plus recall and traces.

    Formation calls (``run``, ``remember``, ``reject``, ``replay``, ``list_memories``) go to the
    ``GovernedMemoryService``; ``recall`` and ``get_recall_trace`` to the retriever and trace
    store; ``get``, ``history``, ``forget``, ``forget_principal`` and the JSON Lines export to
    ``memory_core.management`` and ``memory_core.portability``. The underlying objects are
    ``service`` and ``retriever``.
    """

    def __init__(
        self,
        *,
        service: GovernedMemoryService,
        retriever: MemoryRetriever,
        storage: Storage,
        principal: Principal,
        clock: Clock,
        ids: IdFactory,
    ) -> None:
        self.service = service
        self.retriever = retriever
        self._storage = storage
        self._principal = principal
        self._clock = clock
        self._ids = ids

    @property
    def principal(self) -> Principal:
        """The composition's default principal."""
        return self._principal

    def run(
        self,
        trigger: str,
        scope: str | None = None,
        session_id: str | None = None,
        *,
        principal: Principal | None = None,
    ) -> ConsolidationResult:
        """Consolidate a session's unprocessed user messages at the session's own scope.

        ``scope`` may be omitted (``None``): it is derived from the session, ``project:<name>``
        inside a project, else ``general``. A named scope must be that one (``UsageError``
        otherwise); portable beliefs form at ``user`` scope. See ``GovernedMemoryService.run``.
        """
        return self.service.run(trigger, scope, session_id, principal=principal)

    def remember(
        self,
        statement: str,
        *,
        session_id: str,
        source_event_id: str,
        principal: Principal | None = None,
        trust: Trust = Trust.USER,
    ) -> ConsolidationResult:
        """Form a statement the user asked to keep through the governed path.

        ``trust`` is how the statement arrived: ``USER`` (the user's own words) forms at
        ``USER`` authority, ``MEMORY`` (a model's tool argument) at ``AFFIRMED``; see
        ``GovernedMemoryService.remember``.

        Raises:
            SessionClosedError: the session is closed (a closed session forms nothing more).
            UsageError: the source is not a user message of the principal's session.
            NotFoundError: the principal has no such session.
        """
        session = self._storage.sessions.get(principal or self._principal, session_id)
        if session is not None and not session.is_open:
            raise SessionClosedError(session_id)
        return self.service.remember(
            statement,
            session_id=session_id,
            source_event_id=source_event_id,
            principal=principal,
            trust=trust,
        )

    def reject(
        self, belief_id: str, *, reason: str | None = None, principal: Principal | None = None
    ) -> Belief:
        """Reject a belief (full id or short id) durably; formation never brings it back.

        Raises:
            AmbiguousIdError: a short id fits several beliefs.
            NotFoundError: no belief of the principal fits.
        """
        who = principal or self._principal
        belief = resolve_belief(self._storage, who, belief_id)
        return self.service.reject(belief.id, reason=reason, principal=who)

    def replay(self, session_id: str, *, principal: Principal | None = None) -> ConsolidationResult:
        """Re-consolidate a session from watermark 0, re-applying rejections."""
        return self.service.replay(session_id, principal=principal)

    def list_memories(
        self,
        statuses: frozenset[BeliefStatus] | None = None,
        *,
        principal: Principal | None = None,
    ) -> list[Belief]:
        """The principal's beliefs (optionally of some statuses), in store order."""
        return self.service.list_memories(statuses=statuses, principal=principal)

    def recall(
        self,
        text: str | None = None,
        *,
        moment: RecallMoment = "in_turn",
        session_id: str | None = None,
        project_scope: str | None = None,
        principal: Principal | None = None,
        max_items: int | None = None,
        max_tokens: int | None = None,
        request: RecallRequest | None = None,
    ) -> RecallResult:
        """Recall beliefs and return the rendered block and its trace.

        Pass a full ``RecallRequest`` as ``request`` (used exactly as given), or the common
        fields. With ``session_id`` the session's project scope applies (naming a different
        ``project_scope`` is refused).

        Raises:
            UsageError: ``request`` was combined with any other argument (one left at its
                default is fine), or the scopes disagree.
            NotFoundError: ``session_id`` names no session of the principal.
        """
        if request is not None:
            combined = [
                name
                for name, given in (
                    ("text", text is not None),
                    ("moment", moment != "in_turn"),
                    ("session_id", session_id is not None),
                    ("project_scope", project_scope is not None),
                    ("principal", principal is not None),
                    ("max_items", max_items is not None),
                    ("max_tokens", max_tokens is not None),
                )
                if given
            ]
            if combined:
                raise UsageError(
                    f"recall(request=...) was also given {', '.join(combined)}; set those "
                    "fields on the RecallRequest instead, or pass the fields without request="
                )
            return self.retriever.recall(request)
        who = principal or self._principal
        scope = project_scope
        if session_id is not None:
            session = self._storage.sessions.get(who, session_id)
            if session is None:
                raise NotFoundError(f"session {session_id} does not exist for this principal")
            session_scope = session.metadata.project_scope
            if scope is not None and scope != session_scope:
                raise UsageError(
                    f"project_scope {scope!r} differs from session {session_id}'s "
                    f"{session_scope!r}; omit project_scope to use the session's"
                )
            scope = session_scope
        return self.retriever.recall(
            RecallRequest(
                principal=who,
                moment=moment,
                text=text,
                project_scope=scope,
                session_id=session_id,
                max_items=max_items,
                max_tokens=max_tokens,
            )
        )

    def get_recall_trace(self, trace_id: str, *, principal: Principal | None = None) -> RecallTrace:
        """Return a recall trace of the principal.

        Raises:
            NotFoundError: no such trace for the principal.
        """
        who = principal or self._principal
        trace = self._storage.traces.get(who, trace_id)
        if trace is None:
            raise NotFoundError(f"recall trace {trace_id} does not exist for this principal")
        return trace

    # -- management -----------------------------------------------------------------------

    def get(self, belief_id: str, *, principal: Principal | None = None) -> Belief:
        """The principal's belief with this id or short id (any status).

        Raises:
            UsageError: the reference is neither an id nor a hex short id of 4+ digits.
            AmbiguousIdError: the short id fits several beliefs (never a guess).
            NotFoundError: no belief of the principal fits (a forgotten one says so).
        """
        return resolve_belief(self._storage, principal or self._principal, belief_id)

    def history(self, belief_id: str, *, principal: Principal | None = None) -> BeliefHistory:
        """The lineage, memory events, source events and rejection of one belief."""
        who = principal or self._principal
        return belief_history(self._storage, who, resolve_belief(self._storage, who, belief_id))

    def forget(self, belief_id: str, *, principal: Principal | None = None) -> ForgetReport:
        """Erase a belief and the text it came from, on this tier, leaving a tombstone.

        The belief and its same-statement copies are deleted, their source events' text is
        redacted, their copies in recall traces and their rejections are removed; the
        tombstone keeps formation (a new turn, a replay) from ever forming the statement
        again. See ``memory_core.management``.
        """
        who = principal or self._principal
        belief = resolve_belief(self._storage, who, belief_id)
        return forget_belief(self._storage, who, belief, clock=self._clock, ids=self._ids)

    def forget_principal(self, principal: Principal) -> dict[str, int]:
        """Delete every record of ``principal`` from every table; rows deleted per table.

        The principal is required (never the composition's default by omission).
        """
        if not isinstance(principal, Principal):
            raise UsageError(
                "forget_principal() needs a Principal, e.g. Principal('acme', 'user-42'), got "
                f"{type(principal).__name__}"
            )
        with self._storage.unit_of_work():
            counts = self._storage.erasure.erase_principal(principal)
        _log.info("erased every record of a principal: %s", counts)
        return counts

    def export_jsonl(self, *, principal: Principal | None = None) -> Iterator[str]:
        """The principal's beliefs and rejections as JSON Lines (``memory_core.portability``)."""
        return export_lines(self._storage, principal or self._principal)

    def import_jsonl(
        self, lines: Iterable[str], *, principal: Principal | None = None
    ) -> ImportReport:
        """Import an export into the principal's memory, all or nothing.

        Raises:
            ImportFormatError: a line is malformed (line and field named); nothing written.
            DuplicateIdError: a belief id is already stored; nothing written.
        """
        return import_lines(self._storage, principal or self._principal, lines)


__all__ = ["BeliefHistory", "ForgetReport", "ImportReport", "MemoryAPI"]
