"""Resolution: what a candidate does to the store, decided by an ordered list of rules.

The rules run in order and the first that applies decides:

1. **same source**: a belief (any status) in the scope the candidate forms at already states
   it from the same source events; nothing changes. This makes consolidation idempotent and
   makes a replay of an old session unable to revert what later sessions superseded. (Formation
   derives that scope from the session and the belief type, so every belief formed or
   reinforced from a session's events is in the scope its candidates form at.)
2. **duplicate**: a live belief in the same scope states the same thing; it is reinforced
   (unless it is flagged for review and the candidate ranks above it: see :func:`duplicate`).
3. **conflict**: the candidate would replace live beliefs (rule 4 claims it) but something
   about one of them forbids replacing it. The candidate conflicts when its authority ranks
   below that belief's (``USER`` > ``AFFIRMED`` > ``INFERRED``), or when the two rank equally
   and nothing orders them in time:

   * **same session** (the belief's ``source_session_id`` is the ledger's session): the
     candidate has no later source event, i.e. its newest source does not come after the
     belief's newest source in the session's event sequence (a belief source the ledger's
     window does not hold was consolidated before the window, so it precedes all of it);
   * **different session**: the belief is not older than the candidate's instant,
     ``belief.valid_from >= candidate.evidence_at``.

   The candidate's instant is its newest source event's time (``evidence_at``: when the
   statement was made, never when it is consolidated); the belief's is ``valid_from`` (when its
   own evidence arrived), never ``updated_at``, which usage feedback, decay and conflict
   linkage all write long after. So a replay of old evidence no newer than the belief standing
   in its place conflicts with it instead of reverting it. Polarity plays no part: a later
   retraction at the same authority supersedes the assertion it retracts, exactly as a later
   value does. When the candidate conflicts with any belief it would replace, it supersedes
   none of them; the decision's targets are the beliefs it conflicts with.
4. **contradiction**: a newer statement about the same exclusive subject, or a retraction of
   an assertion, supersedes the live beliefs it replaces (a higher authority always may).

A candidate no rule claims is new. Two beliefs state "the same thing" when their normalized
(belief type, subject, statement) keys and polarities are equal; normalization case-folds,
collapses whitespace and strips trailing punctuation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from memory_core.domain import Belief, Polarity
from memory_core.formation.extractor import Candidate
from memory_core.text import matching_key
from memory_core.tokenizer import STOPWORDS, tokenize

BeliefKey = tuple[str, str, str]
"""Normalized (belief type, subject, statement)."""

ResolutionKind = Literal["same_source", "duplicate", "conflict", "contradiction", "new"]
"""The decisions the resolver makes."""


STATEMENT_FILLER: frozenset[str] = frozenset({"user"})
"""The word every stored statement is written around (``User ...``): never content."""

GROUNDING_FILLER: frozenset[str] = STATEMENT_FILLER | {"team"}
"""Statement filler plus the ``The team ...`` lead: what grounding a statement in the user's
words ignores (the user's message never says either)."""


def content_words(text: str, *, filler: frozenset[str] = STATEMENT_FILLER) -> frozenset[str]:
    """The lexemes of ``text`` that carry content: stopwords and ``filler`` words dropped.

    The one content-word rule of formation: the contradiction rule and a retraction's object
    use the default filler; grounding (``grounded``, the provider's novel-word check) passes
    :data:`GROUNDING_FILLER`.
    """
    return frozenset(t for t in tokenize(text) if t not in STOPWORDS and t not in filler)


def belief_key(belief_type: str, subject: str, statement: str) -> BeliefKey:
    """The normalized matching key of a belief or candidate."""
    return (matching_key(belief_type), matching_key(subject), matching_key(statement))


def candidate_key(candidate: Candidate) -> BeliefKey:
    """The matching key of a candidate."""
    return belief_key(candidate.belief_type.value, candidate.subject, candidate.statement)


def key_of(belief: Belief) -> BeliefKey:
    """The matching key of a stored belief."""
    return belief_key(belief.belief_type.value, belief.subject, belief.statement)


@dataclass(frozen=True, kw_only=True)
class Resolution:
    """A rule's decision: its kind and the existing beliefs it acts on, in store order."""

    kind: ResolutionKind
    targets: tuple[str, ...] = ()


SlotKey = tuple[str, str, str]
"""(scope, belief type, normalized subject): the beliefs an exclusive value competes with."""


def slot_of(belief: Belief) -> SlotKey:
    """The slot of a stored belief."""
    return (belief.scope, belief.belief_type.value, matching_key(belief.subject))


def _in_store_order(beliefs: dict[str, Belief] | None) -> list[Belief]:
    if not beliefs:
        return []
    return sorted(beliefs.values(), key=lambda b: (b.store_position, b.id))


class Ledger:
    """The beliefs one consolidation resolves against, updated as it writes.

    Indexed once, by matching key and by slot, and kept indexed as the consolidation puts
    beliefs, so a rule reads only the few beliefs that can concern its candidate. The ledger
    holds whatever it is given: the governed service loads, for a batch of candidates, the
    beliefs of any status that share a candidate's type, scope and subject (see
    ``GovernedMemoryService``); handing it every belief of the principal gives the same
    decisions.

    The ledger also knows the consolidation it serves: ``session_id``, the session the
    candidates come from, and ``event_order``, the sequence number of each event of the window
    being consolidated. The conflict rule reads them to order a candidate against a belief of
    the same session; a ledger built without them orders every belief by its instant, as one
    from another session.
    """

    def __init__(
        self,
        beliefs: Iterable[Belief],
        *,
        session_id: str | None = None,
        event_order: Mapping[str, int] | None = None,
    ) -> None:
        self.session_id = session_id
        self._event_order: dict[str, int] = dict(event_order or {})
        self._beliefs: dict[str, Belief] = {}
        self._by_key: dict[BeliefKey, dict[str, Belief]] = {}
        self._by_slot: dict[SlotKey, dict[str, Belief]] = {}
        for belief in beliefs:
            self.put(belief)

    def put(self, belief: Belief) -> None:
        """Record a belief the consolidation inserted or updated."""
        previous = self._beliefs.get(belief.id)
        if previous is not None:
            self._by_key[key_of(previous)].pop(previous.id, None)
            self._by_slot[slot_of(previous)].pop(previous.id, None)
        self._beliefs[belief.id] = belief
        self._by_key.setdefault(key_of(belief), {})[belief.id] = belief
        self._by_slot.setdefault(slot_of(belief), {})[belief.id] = belief

    def get(self, belief_id: str) -> Belief:
        """The belief with this id (it must be in the ledger)."""
        return self._beliefs[belief_id]

    def all(self) -> list[Belief]:
        """Every belief, in store-position order (ties broken by id)."""
        return _in_store_order(self._beliefs)

    def newest_source(self, event_ids: Iterable[str]) -> int | None:
        """The highest window sequence among ``event_ids``; ``None`` when the window holds
        none of them (they were consolidated before it)."""
        known = [self._event_order[e] for e in event_ids if e in self._event_order]
        return max(known) if known else None

    def with_key(self, key: BeliefKey) -> list[Belief]:
        """Beliefs (any status, any scope) with this matching key, in store order."""
        return _in_store_order(self._by_key.get(key))

    def live(self, *, scope: str, belief_type: str, subject: str) -> list[Belief]:
        """Live beliefs of one scope, type and normalized subject, in store order."""
        slot = (scope, belief_type, matching_key(subject))
        return [b for b in _in_store_order(self._by_slot.get(slot)) if b.is_live]


ResolutionRule = Callable[[Candidate, str, Ledger], Resolution | None]
"""A rule: (candidate, the scope it would form at, ledger) -> a decision, or None to pass."""


def same_source(candidate: Candidate, scope: str, ledger: Ledger) -> Resolution | None:
    """Any belief (any status) in the candidate's scope already carrying this statement from
    these very source events."""
    sources = set(candidate.source_event_ids)
    for belief in ledger.with_key(candidate_key(candidate)):
        if (
            belief.scope == scope
            and belief.polarity == candidate.polarity
            and sources <= set(belief.source_event_ids)
        ):
            return Resolution(kind="same_source", targets=(belief.id,))
    return None


def duplicate(candidate: Candidate, scope: str, ledger: Ledger) -> Resolution | None:
    """A live belief in the same scope saying the same thing: reinforce it.

    A belief flagged for review (a conflict) is no duplicate of a higher-authority candidate:
    the user saying what an inference said settles the conflict, so the candidate goes on to
    the contradiction rule and supersedes both sides rather than reinforcing the flagged one.
    """
    key = candidate_key(candidate)
    for belief in ledger.live(
        scope=scope, belief_type=candidate.belief_type.value, subject=candidate.subject
    ):
        if belief.needs_review and candidate.authority.rank > belief.authority.rank:
            continue
        if key_of(belief) == key and belief.polarity == candidate.polarity:
            return Resolution(kind="duplicate", targets=(belief.id,))
    return None


def contradiction(candidate: Candidate, scope: str, ledger: Ledger) -> Resolution | None:
    """Live beliefs the candidate replaces.

    A retraction supersedes the live assertions of its type and subject whose statement names
    everything it retracts. An exclusive assertion supersedes every other live belief of its
    type and subject in the scope (an earlier value, or an earlier retraction).
    """
    peers = ledger.live(
        scope=scope, belief_type=candidate.belief_type.value, subject=candidate.subject
    )
    if candidate.polarity is Polarity.RETRACT:
        withdrawn = content_words(candidate.retracts or candidate.subject)
        targets = tuple(
            b.id
            for b in peers
            if b.polarity is Polarity.ASSERT and withdrawn <= content_words(b.statement)
        )
    elif candidate.exclusive:
        targets = tuple(b.id for b in peers)
    else:
        targets = ()
    return Resolution(kind="contradiction", targets=targets) if targets else None


def is_ordered_after(candidate: Candidate, belief: Belief, ledger: Ledger) -> bool:
    """True when something orders ``candidate`` after ``belief`` in time.

    Same session: the candidate has a later source event than the belief. Different session
    (or a ledger that names no session): the belief is older than the candidate's instant.
    """
    if ledger.session_id is not None and belief.source_session_id == ledger.session_id:
        incoming = ledger.newest_source(candidate.source_event_ids)
        if incoming is not None:
            standing = ledger.newest_source(belief.source_event_ids)
            return standing is None or incoming > standing
    return belief.valid_from < candidate.evidence_at


def disputes(candidate: Candidate, belief: Belief, ledger: Ledger) -> bool:
    """True when ``candidate`` may not replace ``belief``: it ranks below it, or ranks equally
    and nothing orders it after it. Polarity plays no part."""
    if candidate.authority.rank != belief.authority.rank:
        return candidate.authority.rank < belief.authority.rank
    return not is_ordered_after(candidate, belief, ledger)


def conflict(candidate: Candidate, scope: str, ledger: Ledger) -> Resolution | None:
    """Live beliefs the candidate would replace but may not (see :func:`disputes`)."""
    replaced = contradiction(candidate, scope, ledger)
    if replaced is None:
        return None
    disputed = tuple(t for t in replaced.targets if disputes(candidate, ledger.get(t), ledger))
    return Resolution(kind="conflict", targets=disputed) if disputed else None


DEFAULT_RULES: tuple[ResolutionRule, ...] = (same_source, duplicate, conflict, contradiction)
"""The rule order: same source, duplicate, conflict, contradiction."""


class Resolver:
    """Applies resolution rules in order; the first decision wins, else the candidate is new."""

    def __init__(self, rules: Sequence[ResolutionRule] = DEFAULT_RULES) -> None:
        self._rules = tuple(rules)

    def resolve(self, candidate: Candidate, scope: str, ledger: Ledger) -> Resolution:
        """Decide what ``candidate``, forming at ``scope``, does to the beliefs in ``ledger``."""
        for rule in self._rules:
            decision = rule(candidate, scope, ledger)
            if decision is not None:
                return decision
        return Resolution(kind="new")


__all__ = [
    "DEFAULT_RULES",
    "GROUNDING_FILLER",
    "STATEMENT_FILLER",
    "BeliefKey",
    "Ledger",
    "Resolution",
    "ResolutionKind",
    "ResolutionRule",
    "Resolver",
    "SlotKey",
    "belief_key",
    "candidate_key",
    "conflict",
    "content_words",
    "contradiction",
    "disputes",
    "duplicate",
    "is_ordered_after",
    "key_of",
    "same_source",
    "slot_of",
]
