"""The governed memory service: every belief enters the store through here.

``run`` consolidates a session's unprocessed user events (past its formation watermark):

1. only ``user.message.created`` events with ``user`` trust of the session's own principal are
   read (assistant, tool, memory and system events never form anything);
2. each turn passes the hazard screen (:mod:`memory_core.formation.hazards`); refused units are
   counted, never stored and never echoed;
3. the extractor proposes candidates; each is re-validated against the same hazard rules
   (a hazardous one is counted ``refused_hazard``) and against provenance (it may only cite
   the turn it came from; another is counted ``invalid_provenance``), whatever extractor made
   it;
4. at most ``profiles.formation.max_candidates`` automatic candidates go on, the newest ones
   (what the user said last is what holds now); the older rest are counted
   ``dropped_for_ceiling``;
5. recorded rejections are re-read and re-applied: a candidate matching one is counted
   ``rejected`` and never committed;
6. the resolver decides same source / duplicate / conflict / contradiction / new, and the
   service writes the beliefs and one event per change (``memory.formed``,
   ``memory.reinforced``, ``memory.superseded``, and for a conflict ``memory.needs_confirmation``
   too: see :mod:`memory_core.formation.conflicts`); event payloads carry ids and counts, never
   statement text.

With ``formation.established_facts_enabled`` the facts of the window's last working-state
update are validated into ``AFFIRMED`` candidates and go before the extractor's, ahead of the
ceiling (:mod:`memory_core.formation.established`).

Steps 1-3 run outside any unit of work, so a provider extractor's model call holds no
transaction and no storage lock (on PostgreSQL, the principal's advisory lock). Steps 4-6 and
the watermark run in one unit of work, which re-reads the watermark and the window first: when
a concurrent consolidation moved the watermark, the window it reads is the new one (extractions
are kept per turn, so nothing is read twice); when new turns arrived, they are extracted outside
the unit and the unit retried, at most :data:`MAX_WINDOW_ATTEMPTS` times. Everything a
consolidation writes commits together or not at all.

Scope: a session's memory forms at the session's own scope, ``project:<name>`` for a session
opened in a project and ``general`` otherwise (portable types at ``user``). ``run`` derives it
from the session; a caller may name it but cannot choose another one.

Counting: ``proposed`` is every candidate the extractor produced that passed the hazard
re-check (before the ceiling; for ``remember``, every candidate read from the statement that
no refused sentence alone supports), and ``proposed == committed + reinforced + rejected +
ungrounded + invalid_provenance + dropped_for_ceiling + unchanged``, where *unchanged*
(same-source no-ops) is the remainder. ``rejected`` counts only candidates matching a
rejection the user recorded; ``ungrounded`` counts ``remember`` statements the message does
not support. ``superseded`` counts the existing beliefs a change retired; ``conflicted`` counts
the committed beliefs flagged as conflicting and ``confirmations_requested`` the
``memory.needs_confirmation`` events written (one per conflicted belief).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import assert_never

from memory_core.base.events import EventType, EventWriter
from memory_core.clock import Clock
from memory_core.domain import (
    LIVE_STATUSES,
    PORTABLE_TYPES,
    USER_SCOPE,
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    JsonValue,
    Principal,
    Rejection,
    Session,
    Trust,
    scope_for_project,
    validate_scope,
)
from memory_core.errors import NotFoundError, UsageError
from memory_core.formation._text import split_sentences
from memory_core.formation.conflicts import confirmation_payload, linked_back, unlink_partners
from memory_core.formation.decay import MAX_INFERRED_CONFIDENCE, DecayResult, decay_sweep
from memory_core.formation.established import apply_ceiling, established_pass
from memory_core.formation.extractor import (
    Candidate,
    DeterministicExtractor,
    Extractor,
    Turn,
    sentence_forms_nothing,
)
from memory_core.formation.grounding import UserEvidence, as_remembered, entailing_event
from memory_core.formation.hazards import (
    ScreenedTurn,
    SessionScreen,
    forms_hazard,
    is_hazardous,
    screen_turn,
)
from memory_core.formation.resolver import (
    GROUNDING_FILLER,
    Ledger,
    Resolver,
    belief_key,
    candidate_key,
    content_words,
    key_of,
)
from memory_core.formation.tombstones import forgotten_digests, key_digest
from memory_core.formation.usage import UsageResult, record_usage
from memory_core.ids import IdFactory
from memory_core.ports import Storage
from memory_core.profiles import MemoryProfiles
from memory_core.text import collapse, undo_third_person
from memory_core.tokenizer import lexemes

_log = logging.getLogger(__name__)

TRIGGERS: frozenset[str] = frozenset(
    {"session_close", "idle_sweep", "manual", "replay", "remember"}
)
"""What may start a consolidation."""

MAX_WINDOW_ATTEMPTS = 3
"""How many times ``run`` reads and extracts its window before consolidating what it has.

Extraction runs outside the unit of work; when turns arrive between reading the window and
opening the unit, the new ones are extracted (outside the unit again) and the unit retried.
After this many attempts the consolidation commits what it read and stops its watermark before
the first unread turn, which the next consolidation picks up."""

MEMORY_ACTOR = "memory"


@dataclass(frozen=True, kw_only=True)
class ConsolidationResult:
    """The audit of one consolidation: integer counts and the ids it committed or changed.

    ``proposed == committed + reinforced + rejected + ungrounded + invalid_provenance +
    dropped_for_ceiling + unchanged`` (same-source no-ops are the remainder).

    Attributes:
        proposed: Candidates that passed the hazard re-check (see the module docstring).
        committed: New beliefs written.
        reinforced: Live beliefs a duplicate reinforced.
        superseded: Existing beliefs a change retired (not part of the sum above).
        conflicted: Beliefs committed flagged as conflicting (part of ``committed``).
        confirmations_requested: ``memory.needs_confirmation`` events written.
        rejected: Candidates matching a rejection the user recorded (``reject``).
        ungrounded: ``remember`` statements the user's message does not support.
        invalid_provenance: Candidates that cited no event or an event other than their turn.
        refused_hazard: Refused units: hazardous sentences or turns, and hazardous candidates
            or statements (not part of ``proposed``).
        dropped_for_ceiling: Candidates past ``formation.max_candidates``.
        policy_version: The formation policy version.
        belief_ids: Ids committed or changed, in order.
        refused_by_family: ``refused_hazard`` by hazard rule family (``secret.financial``,
            ``injection.override``, ``candidate`` for a refused candidate, ...), sorted; a
            count, never the refused text.
    """

    proposed: int
    committed: int
    reinforced: int
    superseded: int
    conflicted: int
    confirmations_requested: int
    rejected: int
    ungrounded: int
    invalid_provenance: int
    refused_hazard: int
    dropped_for_ceiling: int
    policy_version: str
    belief_ids: tuple[str, ...]
    refused_by_family: tuple[tuple[str, int], ...] = ()


@dataclass(kw_only=True)
class _Tally:
    policy_version: str
    proposed: int = 0
    committed: int = 0
    reinforced: int = 0
    superseded: int = 0
    conflicted: int = 0
    confirmations_requested: int = 0
    rejected: int = 0
    ungrounded: int = 0
    invalid_provenance: int = 0
    refused_hazard: int = 0
    dropped_for_ceiling: int = 0
    belief_ids: list[str] = field(default_factory=list)
    last_sequence: int = 0
    families: dict[str, int] = field(default_factory=dict)

    def refused_family(self, families: Sequence[str]) -> None:
        for family in families:
            self.families[family] = self.families.get(family, 0) + 1

    def touched(self, belief_id: str) -> None:
        if belief_id not in self.belief_ids:
            self.belief_ids.append(belief_id)

    def result(self) -> ConsolidationResult:
        return ConsolidationResult(
            proposed=self.proposed,
            committed=self.committed,
            reinforced=self.reinforced,
            superseded=self.superseded,
            conflicted=self.conflicted,
            confirmations_requested=self.confirmations_requested,
            rejected=self.rejected,
            ungrounded=self.ungrounded,
            invalid_provenance=self.invalid_provenance,
            refused_hazard=self.refused_hazard,
            dropped_for_ceiling=self.dropped_for_ceiling,
            policy_version=self.policy_version,
            belief_ids=tuple(self.belief_ids),
            refused_by_family=tuple(sorted(self.families.items())),
        )


@dataclass(frozen=True, kw_only=True)
class _Extraction:
    """What screening and extracting one user turn gave (computed outside any unit of work)."""

    refused: int = 0
    """Units the hazard screen refused plus candidates refused on the hazard re-check."""
    families: tuple[str, ...] = ()
    """The rule family of each refused unit (``candidate`` for a refused candidate)."""
    invalid_provenance: int = 0
    candidates: tuple[Candidate, ...] = ()


def message_text(event: Event) -> str | None:
    """The text of a message event (payload ``text``, else ``content``), or None."""
    for key in ("text", "content"):
        value = event.payload.get(key)
        if isinstance(value, str):
            return value
    return None


def is_formation_source(event: Event, principal: Principal, session_id: str) -> bool:
    """True for a trusted user message of ``principal`` in ``session_id``: the only source."""
    return (
        event.trust is Trust.USER
        and event.event_type == EventType.USER_MESSAGE_CREATED
        and event.principal == principal
        and event.session_id == session_id
    )


_THIRD_TO_FIRST: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?:the\s+)?user's\s+", re.IGNORECASE), "My "),
    (re.compile(r"^(?:the\s+)?user\s+is\s+", re.IGNORECASE), "I am "),
    (re.compile(r"^(?:the\s+)?user\s+has\s+", re.IGNORECASE), "I have "),
)
_THIRD_VERB = re.compile(r"^(?:the\s+)?user\s+(?P<neg>no\s+longer\s+)?(?P<verb>\w+)\b", re.I)


def first_person(statement: str) -> str:
    """Rewrite a third-person ``User ...`` statement in the first person for extraction."""
    text = collapse(statement)
    for pattern, replacement in _THIRD_TO_FIRST:
        if pattern.match(text):
            return pattern.sub(replacement, text, count=1)
    match = _THIRD_VERB.match(text)
    if match is None:
        return text
    negation = "no longer " if match.group("neg") else ""
    return f"I {negation}{undo_third_person(match.group('verb'))}{text[match.end() :]}"


_ENTITY = re.compile(r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*")


def statement_subject(statement: str) -> str:
    """A stable subject for a free statement: its first capitalized entity span (ignoring the
    word that only opens the sentence), else its first three words; lowercase."""
    words = collapse(statement).rstrip(" .!").split(" ")
    rest = " ".join(words[1:])
    match = _ENTITY.search(rest)
    if match is not None and match.group(0).casefold() not in ("user", "i"):
        return match.group(0).casefold()
    return " ".join(words[:3]).casefold()


def grounded(statement: str, source_text: str) -> bool:
    """True when a statement is supported by its source text.

    Every capitalized name (after the opening word) and every number in the statement must
    occur in the source, and the two must share at least one content word. This is what keeps
    the remember tool from committing a statement the user never made.
    """
    source = lexemes(source_text)
    words = collapse(statement).split(" ")[1:]
    for word in words:
        bare = word.strip(".,;:!?()\"'")
        named = bare[:1].isupper() or any(c.isdigit() for c in bare)
        if named and bare.casefold() not in ("user", "user's") and not lexemes(bare) <= source:
            return False
    return bool(
        content_words(statement, filler=GROUNDING_FILLER)
        & content_words(source_text, filler=GROUNDING_FILLER)
    )


class GovernedMemoryService:
    """Forms, consolidates and rejects beliefs for a principal under the formation policy."""

    def __init__(
        self,
        *,
        storage: Storage,
        clock: Clock,
        ids: IdFactory,
        principal: Principal,
        profiles: MemoryProfiles,
        extractor: Extractor | None = None,
        resolver: Resolver | None = None,
    ) -> None:
        """Build the service.

        Args:
            storage: The storage tier beliefs, events and formation state live in.
            clock: Source of every timestamp written.
            ids: Source of belief and event ids.
            principal: The default principal of calls that do not name one.
            profiles: Memory profiles (``formation.max_candidates`` caps each consolidation).
            extractor: Candidate extractor; the deterministic one (formation@7) by default.
            resolver: Resolution rules; same source, duplicate, conflict, contradiction by default.
        """
        self.principal = principal
        self._storage = storage
        self._clock = clock
        self._ids = ids
        self._writer = EventWriter(events=storage.events, clock=clock, ids=ids)
        self._profiles = profiles
        self._extractor: Extractor = extractor or DeterministicExtractor()
        self._resolver = resolver or Resolver()

    @property
    def policy_version(self) -> str:
        """The formation policy version beliefs formed here record."""
        return self._extractor.policy_version

    # -- consolidation --------------------------------------------------------------------

    def run(
        self,
        trigger: str,
        scope: str | None = None,
        session_id: str | None = None,
        *,
        principal: Principal | None = None,
    ) -> ConsolidationResult:
        """Consolidate the session's user events past its formation watermark.

        Args:
            trigger: ``session_close``, ``idle_sweep``, ``manual``, ``replay`` or ``remember``;
                ``replay`` reads the session from its beginning.
            scope: The session's formation scope, or ``None`` (the default) to derive it. It is
                always the session's own: ``project:<name>`` for a session opened in a project,
                else ``general`` (:func:`~memory_core.domain.scope_for_project`). Facts form
                there, portable types (preference, user attribute, relationship) at ``user``.
                A caller that names a scope must name that one; it cannot move a project's
                memory into ``general`` or another project.
            session_id: The session to consolidate (required).
            principal: The session's owner; the service's default principal when omitted.

        Raises:
            UsageError: Unknown trigger, no session id, an invalid scope, or a scope that is not
                the session's own.
            NotFoundError: The principal has no such session.
        """
        if trigger not in TRIGGERS:
            raise UsageError(
                f"unknown consolidation trigger {trigger!r}; use one of {sorted(TRIGGERS)}"
            )
        if session_id is None:
            raise UsageError(
                "run() needs the session to consolidate; pass session_id=<the session's id>"
            )
        requested = None if scope is None else _formation_scope(scope)
        owner = principal or self.principal
        session = self._session(owner, session_id)
        formation_scope = _session_scope(session, requested)
        extracted: dict[str, _Extraction] = {}
        for attempt in range(1, MAX_WINDOW_ATTEMPTS + 1):
            # Outside any unit of work: read the window, screen it and extract (a provider
            # extractor calls its model here, holding no transaction and no storage lock).
            _, events = self._window(owner, session_id, trigger)
            self._extract(owner, session, events, extracted, whole=trigger == "replay")
            with self._storage.unit_of_work():
                # Re-read under the unit (on PostgreSQL the principal's lock is taken here):
                # a concurrent consolidation may have moved the watermark, and turns may have
                # arrived, since the window was read.
                watermark, events = self._window(owner, session_id, trigger)
                unread = [
                    e
                    for e in events
                    if is_formation_source(e, owner, session_id) and e.event_id not in extracted
                ]
                if not unread or attempt == MAX_WINDOW_ATTEMPTS:
                    return self._consolidate(
                        owner, session, formation_scope, trigger, watermark, events, extracted
                    )
            # The unit wrote nothing; extract the new turns outside it and try again.
        raise AssertionError("unreachable: the last attempt always consolidates")

    def replay(self, session_id: str, *, principal: Principal | None = None) -> ConsolidationResult:
        """Re-consolidate a session from its first event under the current policy.

        Recorded rejections are re-applied before commit, and the same-source rule keeps what
        later sessions superseded from being reverted.
        """
        owner = principal or self.principal
        return self.run("replay", None, session_id, principal=owner)

    def remember(
        self,
        statement: str,
        *,
        session_id: str,
        source_event_id: str,
        principal: Principal | None = None,
        trust: Trust = Trust.USER,
    ) -> ConsolidationResult:
        """Form ``statement`` (the ``memory.remember`` tool) through the governed path.

        The source must be a trusted user message of the session's principal, free of
        injections; the statement must pass the hazard screen (in a tainted session, claim no
        authority) and be entailed, with the same polarity, by a trusted user turn of the
        session up to the source, as the hazard screen kept it
        (:mod:`memory_core.formation.grounding`: a question, hypothetical, reported speech or
        negation never grounds its positive). It forms at the model's authority
        (``AFFIRMED``), never ``USER``. A statement only a refused sentence supports is
        counted ``refused_hazard``, like the sentence itself. A first-person or ``User ...``
        statement is read by the extractor; another declarative statement forms a fact at the
        session's scope.

        ``trust`` is how the statement reached the service: ``USER`` (the default: the user's
        own words, e.g. a command the user ran) forms at ``USER`` authority; ``MEMORY`` (the
        tool's argument, written by a model) forms at ``AFFIRMED`` authority and at most the
        maximum inferred confidence, so it cannot overwrite what the user said (the resolver's
        conflict rule).

        Raises:
            UsageError: The source event is not a user message of this principal's session.
            NotFoundError: The principal has no such session.
        """
        owner = principal or self.principal
        session = self._session(owner, session_id)
        source = self._storage.events.get(owner, source_event_id)
        if source is None or not is_formation_source(source, owner, session_id):
            raise UsageError(
                f"event {source_event_id} is not a user message of session {session_id} for "
                "this principal; remember() only forms what the user said - pass the id of "
                "the user turn that asked for it"
            )
        tally = _Tally(policy_version=self.policy_version)
        history = self._session_events(owner, session_id)
        screens = _screen_sources(history, owner, session_id)
        screened = screens[source.event_id]
        if screened.injected or forms_hazard(statement, tainted=screened.tainted):
            tally.refused_hazard = 1
            tally.refused_family(("statement",))
            return tally.result()
        # Grounded by meaning in the user's own turns of this session up to the source, as
        # the hazard screen kept them (see memory_core.formation.grounding).
        evidence: list[UserEvidence] = []
        for event in history:
            if event.event_id in screens and event.sequence <= source.sequence:
                evidence.append(
                    UserEvidence(
                        event_id=event.event_id,
                        created_at=event.created_at,
                        sentences=screens[event.event_id].sentences,
                    )
                )
        raw_text = message_text(source) or ""
        kept: list[Candidate] = []
        for candidate in self._remember_candidates(statement, source):
            found = entailing_event(candidate, statement, evidence)
            if found is not None:
                kept.append(_at_trust(as_remembered(candidate, *found), trust))
            elif grounded(candidate.statement, raw_text) and not grounded(
                candidate.statement, " ".join(screened.sentences)
            ):
                # Only a refused sentence supports it: a secret restated in other words.
                tally.refused_hazard += 1
                tally.refused_family(("statement",))
            else:
                tally.proposed += 1
                tally.ungrounded += 1
        tally.proposed += len(kept)
        scope = _session_scope(session, None)
        with self._storage.unit_of_work():
            self._apply(
                tally, owner, session, scope, kept, "remember", {source.event_id: source.sequence}
            )
        return tally.result()

    # -- rejection and listing ------------------------------------------------------------

    def reject(
        self, belief_id: str, *, reason: str | None = None, principal: Principal | None = None
    ) -> Belief:
        """Reject a belief durably: it becomes REJECTED and its statement never forms again.

        A rejected belief's conflict partners lose their link to it (``unlink_partners``).

        Live beliefs with the same normalized (type, subject, statement) are rejected with it.
        Rejecting an already rejected belief changes nothing.

        Raises:
            NotFoundError: The principal has no belief with this id.
        """
        owner = principal or self.principal
        with self._storage.unit_of_work():
            belief = self._storage.memories.get(owner, belief_id)
            if belief is None:
                raise NotFoundError(
                    f"belief {belief_id} does not exist for this principal; "
                    "list_memories() shows the ids that do"
                )
            now = self._clock.now()
            self._storage.formation.record_rejection(
                Rejection(
                    belief_id=belief.id,
                    tenant_id=owner.tenant_id,
                    principal_id=owner.principal_id,
                    belief_type=belief.belief_type,
                    subject=belief.subject,
                    statement=belief.statement,
                    polarity=belief.polarity,
                    rejected_at=now,
                    reason=reason,
                )
            )
            if belief.status is BeliefStatus.REJECTED:
                return belief
            # Copies may live in any scope (the same fact in two projects): the principal's
            # live beliefs of the type about the subject (an exact lookup), same key only.
            key = key_of(belief)
            copies = {
                b.id: b
                for b in self._storage.memories.find_by_subject(
                    owner,
                    [belief.subject],
                    belief_types=frozenset({belief.belief_type}),
                    statuses=LIVE_STATUSES,
                )
                if key_of(b) == key
            }
            copies[belief.id] = belief
            same = sorted(copies.values(), key=lambda b: (b.store_position, b.id))
            rejected: Belief | None = None
            for target in same:
                updated = self._storage.memories.update(
                    target.model_copy(
                        update={
                            "status": BeliefStatus.REJECTED,
                            "valid_to": target.valid_to or max(now, target.valid_from),
                            "updated_at": now,
                        }
                    )
                )
                self._emit(
                    owner,
                    target.source_session_id,
                    EventType.MEMORY_REJECTED,
                    {
                        "belief_id": updated.id,
                        "short_id": updated.short_id,
                        "policy_version": self.policy_version,
                    },
                )
                unlink_partners(self._storage.memories, owner, updated, now)
                if updated.id == belief.id:
                    rejected = updated
            assert rejected is not None
            return rejected

    def list_memories(
        self,
        statuses: frozenset[BeliefStatus] | None = None,
        *,
        principal: Principal | None = None,
    ) -> list[Belief]:
        """The principal's beliefs (optionally of some statuses) in store-position order."""
        return self._storage.memories.list_beliefs(principal or self.principal, statuses)

    # -- lifecycle (logic in memory_core.formation.decay) ----------------------------------

    def decay(self, *, principal: Principal | None = None) -> DecayResult:
        """Run one decay sweep over the principal's idle beliefs (see ``formation.decay``)."""
        return decay_sweep(
            storage=self._storage,
            clock=self._clock,
            ids=self._ids,
            profiles=self._profiles,
            principal=principal or self.principal,
            policy_version=self.policy_version,
        )

    def record_usage(
        self,
        *,
        run_id: str,
        session_id: str,
        final_message: str,
        trace_ids: Sequence[str],
        principal: Principal | None = None,
    ) -> UsageResult:
        """Record which recalled beliefs a run's final message cited (``formation.usage``)."""
        return record_usage(
            storage=self._storage,
            clock=self._clock,
            ids=self._ids,
            profiles=self._profiles,
            principal=principal or self.principal,
            run_id=run_id,
            session_id=session_id,
            final_message=final_message,
            trace_ids=trace_ids,
        )

    # -- internals ------------------------------------------------------------------------

    def _session(self, principal: Principal, session_id: str) -> Session:
        session = self._storage.sessions.get(principal, session_id)
        if session is None:
            raise NotFoundError(
                f"session {session_id} does not exist for principal {principal.principal_id}; "
                "create it through the session service before consolidating it"
            )
        return session

    def _window(
        self, principal: Principal, session_id: str, trigger: str
    ) -> tuple[int, list[Event]]:
        """The session's watermark and the events a consolidation reads (past it, or all of
        them for a replay), in sequence order."""
        watermark = self._storage.formation.watermark(principal, session_id)
        start = 0 if trigger == "replay" else watermark
        events = self._storage.events.read_session(principal, session_id, after_sequence=start)
        return watermark, sorted(events, key=lambda e: e.sequence)

    def _extract(
        self,
        principal: Principal,
        session: Session,
        events: Sequence[Event],
        extracted: dict[str, _Extraction],
        *,
        whole: bool = False,
    ) -> None:
        """Screen and extract every formation source in ``events`` not yet in ``extracted``;
        each reads the last question of the non-source message just before it (its prompt).

        The screen reads the whole session (taint and split secrets cross turns): ``events``
        themselves when ``whole`` says they are all of it (a replay's window), else a fresh
        read."""
        screens: dict[str, ScreenedTurn] | None = None
        prompt: str | None = None
        for event in events:
            if not is_formation_source(event, principal, session.id):
                text = message_text(event)
                prompt = _last_question(text) if text is not None else prompt
                continue
            if event.event_id not in extracted:
                if screens is None:
                    history = events if whole else self._session_events(principal, session.id)
                    screens = _screen_sources(history, principal, session.id)
                screened = screens.get(event.event_id)
                if screened is not None:
                    extracted[event.event_id] = self._extract_turn(event, screened, prompt)
            prompt = None

    def _session_events(self, principal: Principal, session_id: str) -> list[Event]:
        """Every event of the session, in sequence order."""
        events = self._storage.events.read_session(principal, session_id, after_sequence=0)
        return sorted(events, key=lambda e: e.sequence)

    def _extract_turn(
        self, event: Event, screened: ScreenedTurn, prompt: str | None = None
    ) -> _Extraction:
        if message_text(event) is None:
            return _Extraction()
        if not screened.sentences:
            return _Extraction(refused=screened.refused, families=screened.families)
        turn = Turn(
            event_id=event.event_id,
            created_at=event.created_at,
            sentences=screened.sentences,
            prompt=prompt,
        )
        hazardous = invalid = 0
        kept: list[Candidate] = []
        for candidate in self._extractor.extract(turn):
            tainted = screened.tainted
            if forms_hazard(candidate.statement, tainted=tainted) or forms_hazard(
                candidate.subject, tainted=tainted
            ):
                hazardous += 1
            elif not candidate.source_event_ids or set(candidate.source_event_ids) - {
                event.event_id
            }:
                invalid += 1
            else:
                kept.append(candidate)
        return _Extraction(
            refused=screened.refused + hazardous,
            families=screened.families + ("candidate",) * hazardous,
            invalid_provenance=invalid,
            candidates=tuple(kept),
        )

    def _consolidate(
        self,
        principal: Principal,
        session: Session,
        scope: str,
        trigger: str,
        watermark: int,
        events: Sequence[Event],
        extracted: dict[str, _Extraction],
    ) -> ConsolidationResult:
        """Apply the window's extractions and advance the watermark (inside the unit).

        Should a turn of the window still be unread (turns kept arriving), the window stops
        just before it: the watermark never passes a turn nothing has read.
        """
        tally = _Tally(policy_version=self.policy_version)
        candidates: list[Candidate] = []
        read_up_to = watermark
        complete = True
        for event in events:
            if is_formation_source(event, principal, session.id):
                extraction = extracted.get(event.event_id)
                if extraction is None:
                    complete = False
                    break
                tally.refused_hazard += extraction.refused
                tally.refused_family(extraction.families)
                tally.invalid_provenance += extraction.invalid_provenance
                tally.proposed += extraction.invalid_provenance
                candidates.extend(extraction.candidates)
            read_up_to = max(read_up_to, event.sequence)
        established = self._established(tally, principal, session, events, read_up_to)
        tally.proposed += len(established) + len(candidates)
        ceiling = self._profiles.formation.max_candidates
        kept, displaced, tally.dropped_for_ceiling = apply_ceiling(established, candidates, ceiling)
        tally.rejected += displaced
        order = {e.event_id: e.sequence for e in events}
        self._apply(tally, principal, session, scope, kept, trigger, order)
        # The memory events just written belong to this session too: skip past them, unless
        # an unread turn precedes them.
        new_watermark = max(read_up_to, tally.last_sequence) if complete else read_up_to
        if new_watermark != watermark:
            self._storage.formation.set_watermark(principal, session.id, new_watermark)
        _log.info(
            "formed session %s (%s): %d proposed, %d committed, %d refused as hazards, %d rejected",
            session.id,
            trigger,
            tally.proposed,
            tally.committed,
            tally.refused_hazard,
            tally.rejected,
        )
        return tally.result()

    def _established(
        self,
        tally: _Tally,
        principal: Principal,
        session: Session,
        events: Sequence[Event],
        read_up_to: int,
    ) -> list[Candidate]:
        """The working-state pass (``formation.established``), when the profile enables it."""
        if not self._profiles.formation.established_facts_enabled:
            return []
        found = established_pass(
            events=self._storage.events,
            window=[e for e in events if e.sequence <= read_up_to],
            principal=principal,
            session=session,
            is_source=is_formation_source,
            subject_of=statement_subject,
        )
        tally.refused_hazard += found.refused_hazard
        tally.invalid_provenance += found.invalid_provenance
        tally.proposed += found.invalid_provenance
        return list(found.candidates)

    def _remember_candidates(self, statement: str, source: Event) -> list[Candidate]:
        sentences = tuple(split_sentences(first_person(statement)))
        turn = Turn(event_id=source.event_id, created_at=source.created_at, sentences=sentences)
        extracted = [
            c
            for c in self._extractor.extract(turn)
            if c.source_event_ids == (source.event_id,) and not is_hazardous(c.statement)
        ]
        if extracted:
            return extracted
        text = collapse(statement).rstrip(" .!")
        if not text or sentence_forms_nothing(text) or re.match(r"^(?:I|my|we)\b", text, re.I):
            return []
        return [
            Candidate(
                belief_type=BeliefType.FACT,
                subject=statement_subject(text),
                statement=f"{text[:1].upper()}{text[1:]}.",
                exclusive=False,
                source_event_ids=(source.event_id,),
                evidence_at=source.created_at,
            )
        ]

    def _apply(
        self,
        tally: _Tally,
        principal: Principal,
        session: Session,
        scope: str,
        candidates: Sequence[Candidate],
        trigger: str,
        event_order: Mapping[str, int],
    ) -> None:
        if not candidates:
            return
        recorded = self._storage.formation.rejections(principal)
        rejected = {belief_key(r.belief_type.value, r.subject, r.statement) for r in recorded}
        forgotten = forgotten_digests(recorded)  # tombstones of ``forget``: digests only
        targets = [
            (candidate, USER_SCOPE if candidate.belief_type in PORTABLE_TYPES else scope)
            for candidate in candidates
        ]
        ledger = self._ledger(principal, targets, session_id=session.id, event_order=event_order)
        for candidate, target_scope in targets:
            key = candidate_key(candidate)
            if key in rejected or (forgotten and key_digest(key) in forgotten):
                tally.rejected += 1
                continue
            decision = self._resolver.resolve(candidate, target_scope, ledger)
            match decision.kind:
                case "same_source":
                    continue
                case "duplicate":
                    self._reinforce(
                        tally, principal, session, ledger, decision.targets[0], candidate, trigger
                    )
                case "contradiction":
                    formed = self._form(
                        tally,
                        principal,
                        session,
                        ledger,
                        candidate,
                        target_scope,
                        trigger,
                        supersedes=decision.targets[-1],
                    )
                    self._supersede(
                        tally, principal, session, ledger, decision.targets, formed, trigger
                    )
                case "conflict":
                    self._conflict(
                        tally,
                        principal,
                        session,
                        ledger,
                        candidate,
                        target_scope,
                        trigger,
                        decision.targets,
                    )
                case "new":
                    self._form(tally, principal, session, ledger, candidate, target_scope, trigger)
                case _:
                    assert_never(decision.kind)

    def _ledger(
        self,
        principal: Principal,
        targets: Sequence[tuple[Candidate, str]],
        *,
        session_id: str | None = None,
        event_order: Mapping[str, int] | None = None,
    ) -> Ledger:
        """The beliefs resolving ``targets`` (candidate, scope it forms at) can touch.

        Every rule reads beliefs of the candidate's type, in the scope it forms at, whose
        normalized subject is the candidate's (any status: the same-source rule reads retired
        beliefs too). One exact subject lookup (``MemoryStore.find_by_subject``) reads them:
        those types and scopes, any status, a candidate's subject by its match key (which
        also finds a stored subject differing only in case, spacing or trailing
        punctuation); the ledger's indexes narrow the union to each candidate.
        ``session_id`` and ``event_order`` (the window's event sequences) let the conflict rule
        order a candidate against a belief of the same session.
        """
        found = self._storage.memories.find_by_subject(
            principal,
            sorted({c.subject for c, _ in targets}),
            belief_types=frozenset(c.belief_type for c, _ in targets),
            scopes=sorted({scope for _, scope in targets}),
        )
        return Ledger(found, session_id=session_id, event_order=event_order)

    def _form(
        self,
        tally: _Tally,
        principal: Principal,
        session: Session,
        ledger: Ledger,
        candidate: Candidate,
        scope: str,
        trigger: str,
        *,
        supersedes: str | None = None,
        conflicts_with: tuple[str, ...] = (),
    ) -> Belief:
        now = self._clock.now()
        belief = self._storage.memories.put(
            Belief(
                id=self._ids.new_id(),
                tenant_id=principal.tenant_id,
                principal_id=principal.principal_id,
                belief_type=candidate.belief_type,
                subject=collapse(candidate.subject).casefold(),
                statement=collapse(candidate.statement),
                polarity=candidate.polarity,
                scope=scope,
                status=BeliefStatus.ACTIVE,
                authority=candidate.authority,
                confidence=candidate.confidence,
                evidence_count=1,
                source_event_ids=candidate.source_event_ids,
                source_session_id=session.id,
                valid_from=candidate.evidence_at,
                last_evidence_at=candidate.evidence_at,
                created_at=now,
                updated_at=now,
                supersedes=supersedes,
                conflicts_with=conflicts_with,
                needs_review=bool(conflicts_with),
                consolidation_policy_version=self.policy_version,
            )
        )
        ledger.put(belief)
        tally.committed += 1
        tally.touched(belief.id)
        self._emit(
            principal,
            session.id,
            EventType.MEMORY_FORMED,
            {
                "belief_id": belief.id,
                "short_id": belief.short_id,
                "belief_type": belief.belief_type.value,
                "scope": belief.scope,
                "polarity": belief.polarity.value,
                "source_event_ids": list(belief.source_event_ids),
                "supersedes": supersedes,
                "trigger": trigger,
                "policy_version": self.policy_version,
            },
            tally,
        )
        return belief

    def _reinforce(
        self,
        tally: _Tally,
        principal: Principal,
        session: Session,
        ledger: Ledger,
        belief_id: str,
        candidate: Candidate,
        trigger: str,
    ) -> None:
        current = ledger.get(belief_id)
        sources = tuple(dict.fromkeys((*current.source_event_ids, *candidate.source_event_ids)))
        updated = self._storage.memories.update(
            current.model_copy(
                update={
                    "evidence_count": current.evidence_count + 1,
                    "source_event_ids": sources,
                    "last_evidence_at": max(current.last_evidence_at, candidate.evidence_at),
                    "updated_at": self._clock.now(),
                }
            )
        )
        ledger.put(updated)
        tally.reinforced += 1
        tally.touched(updated.id)
        self._emit(
            principal,
            session.id,
            EventType.MEMORY_REINFORCED,
            {
                "belief_id": updated.id,
                "short_id": updated.short_id,
                "evidence_count": updated.evidence_count,
                "source_event_ids": list(candidate.source_event_ids),
                "trigger": trigger,
                "policy_version": self.policy_version,
            },
            tally,
        )

    def _conflict(
        self,
        tally: _Tally,
        principal: Principal,
        session: Session,
        ledger: Ledger,
        candidate: Candidate,
        scope: str,
        trigger: str,
        disputed_ids: Sequence[str],
    ) -> None:
        """Commit ``candidate`` flagged and linked both ways (``formation.conflicts``)."""
        flagged = self._form(
            tally,
            principal,
            session,
            ledger,
            candidate,
            scope,
            trigger,
            conflicts_with=tuple(disputed_ids),
        )
        tally.conflicted += 1
        disputed: list[Belief] = []
        for belief_id in disputed_ids:
            linked = self._storage.memories.update(
                linked_back(ledger.get(belief_id), flagged.id, self._clock.now())
            )
            ledger.put(linked)
            tally.touched(linked.id)
            disputed.append(linked)
        payload = confirmation_payload(
            flagged, disputed, trigger=trigger, policy_version=self.policy_version
        )
        self._emit(principal, session.id, EventType.MEMORY_NEEDS_CONFIRMATION, payload, tally)
        tally.confirmations_requested += 1

    def _supersede(
        self,
        tally: _Tally,
        principal: Principal,
        session: Session,
        ledger: Ledger,
        belief_ids: Sequence[str],
        successor: Belief,
        trigger: str,
    ) -> None:
        """Mark the beliefs superseded by ``successor``: one batched update, one batch of
        events (two statements on PostgreSQL however many beliefs the successor replaces)."""
        now = self._clock.now()
        replaced = []
        for belief_id in belief_ids:
            current = ledger.get(belief_id)
            ended: datetime = max(current.valid_from, successor.valid_from)
            replaced.append(
                current.model_copy(
                    update={
                        "status": BeliefStatus.SUPERSEDED,
                        "valid_to": ended,
                        "superseded_by": successor.id,
                        "updated_at": now,
                    }
                )
            )
        updated = self._storage.memories.update_many(replaced)
        for belief in updated:
            ledger.put(belief)
            tally.superseded += 1
            tally.touched(belief.id)
        self._emit_many(
            principal,
            session.id,
            EventType.MEMORY_SUPERSEDED,
            [
                {
                    "belief_id": belief.id,
                    "short_id": belief.short_id,
                    "superseded_by": successor.id,
                    "trigger": trigger,
                    "policy_version": self.policy_version,
                }
                for belief in updated
            ],
            tally,
        )

    def _emit_many(
        self,
        principal: Principal,
        session_id: str,
        event_type: EventType,
        payloads: Sequence[dict[str, JsonValue]],
        tally: _Tally,
    ) -> None:
        """Append one memory event per payload, in one batch."""
        stamped = self._writer.append_many(
            event_type,
            payloads,
            principal=principal,
            session_id=session_id,
            actor=MEMORY_ACTOR,
            trust=Trust.MEMORY,
        )
        for event in stamped:
            tally.last_sequence = max(tally.last_sequence, event.sequence)

    def _emit(
        self,
        principal: Principal,
        session_id: str | None,
        event_type: EventType,
        payload: dict[str, JsonValue],
        tally: _Tally | None = None,
    ) -> Event:
        stamped = self._writer.append(
            event_type,
            principal=principal,
            session_id=session_id,
            actor=MEMORY_ACTOR,
            trust=Trust.MEMORY,
            payload=payload,
        )
        if tally is not None and session_id is not None:
            tally.last_sequence = max(tally.last_sequence, stamped.sequence)
        return stamped


def _screen_sources(
    events: Sequence[Event], principal: Principal, session_id: str
) -> dict[str, ScreenedTurn]:
    """Every user turn of the session's ``events`` (in sequence order) screened in order: an
    injection taints the turns after it, and a secret split across turns is caught
    (``SessionScreen``)."""
    screen = SessionScreen()
    return {
        event.event_id: screen.screen(message_text(event) or "")
        for event in events
        if is_formation_source(event, principal, session_id)
    }


def _last_question(text: str) -> str | None:
    """The last hazard-screened sentence of ``text`` that is a question, or None."""
    questions = [s for s in screen_turn(text).sentences if s.rstrip().endswith("?")]
    return questions[-1] if questions else None


def _at_trust(candidate: Candidate, trust: Trust) -> Candidate:
    """A grounded ``remember`` candidate at the authority ``trust`` gives: the user's own words
    (``USER`` trust) form at ``USER`` authority; a statement received at memory trust (a model's
    tool argument) stays ``AFFIRMED``, at no more than the maximum inferred confidence."""
    if trust is Trust.USER:
        return replace(candidate, authority=Authority.USER)
    return replace(
        candidate,
        authority=Authority.AFFIRMED,
        confidence=min(candidate.confidence, MAX_INFERRED_CONFIDENCE),
    )


def _session_scope(session: Session, requested: str | None) -> str:
    """The session's own formation scope; a requested scope must be that one."""
    derived = scope_for_project(session.metadata.project_scope)
    if requested is not None and requested != derived:
        raise UsageError(
            f"session {session.id} belongs to {derived!r}, so its memory forms there, not at "
            f"{requested!r}; pass scope={derived!r} or omit it (None derives it from the "
            "session's project)"
        )
    return derived


def _formation_scope(scope: str) -> str:
    try:
        validated = validate_scope(scope)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    if validated == USER_SCOPE:
        raise UsageError(
            "a session's formation scope is 'general' or 'project:<name>', not 'user'; "
            "portable beliefs are placed at 'user' scope automatically"
        )
    return validated


__all__ = [
    "TRIGGERS",
    "ConsolidationResult",
    "GovernedMemoryService",
    "first_person",
    "grounded",
    "is_formation_source",
    "message_text",
    "statement_subject",
]
