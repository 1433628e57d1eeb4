"""Gate 18: the resolver orders authority, then recency (over generated pairs and orderings).

One standing belief and one incoming candidate about the same exclusive slot are generated
with every authority pair, same or different session, a source ordering (earlier, equal,
later) and an instant ordering drawn independently of it, an arbitrary ``updated_at`` on the
standing belief, and the candidate either a new value or a retraction. The oracle is the
specification's rule:

* higher authority never loses: it supersedes; lower authority conflicts;
* equal authority supersedes when something orders the candidate later (same session: a later
  source event; different session: the standing belief older than the candidate's instant)
  and conflicts when nothing does;
* polarity alone never conflicts: the retraction decides exactly as the new value does;
* ``updated_at`` never orders anything.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import Authority, Belief, BeliefStatus, BeliefType, Polarity
from memory_core.formation import (
    Candidate,
    DeterministicExtractor,
    GovernedMemoryService,
    Ledger,
    Resolver,
    Turn,
)
from memory_core.profiles import load_profiles

GATE = pytest.mark.gate("gate.memory.authority_recency")

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SESSION = "s-now"
Order = Literal["earlier", "equal", "later"]
ORDERS: tuple[Order, ...] = ("earlier", "equal", "later")
_OFFSET = {"earlier": -1, "equal": 0, "later": 1}


def standing(authority: Authority, *, session: str, updated_offset_days: int = 0) -> Belief:
    """The live belief in the slot, "User lives in Oslo.": event ``e-standing`` at ``T0``."""
    return Belief(
        id="0000aaaa-0000-4000-8000-000000000000",
        tenant_id="tenant-1",
        principal_id="alice",
        belief_type=BeliefType.USER_MODEL_ATTR,
        subject="home location",
        statement="User lives in Oslo.",
        scope="user",
        status=BeliefStatus.ACTIVE,
        authority=authority,
        confidence=0.9 if authority is Authority.USER else 0.6,
        source_event_ids=("e-standing",),
        source_session_id=session,
        valid_from=T0,
        last_evidence_at=T0,
        created_at=T0,
        updated_at=T0 + timedelta(days=updated_offset_days),
        store_position=1,
        consolidation_policy_version="formation@7",
    )


def incoming(authority: Authority, *, instant: Order, retraction: bool) -> Candidate:
    """A new home location, or a retraction of Oslo, from event ``e-incoming``."""
    at = T0 + timedelta(hours=_OFFSET[instant])
    if retraction:
        return Candidate(
            belief_type=BeliefType.USER_MODEL_ATTR,
            subject="home location",
            statement="User no longer lives in Oslo.",
            polarity=Polarity.RETRACT,
            retracts="Oslo",
            source_event_ids=("e-incoming",),
            evidence_at=at,
            authority=authority,
        )
    return Candidate(
        belief_type=BeliefType.USER_MODEL_ATTR,
        subject="home location",
        statement="User lives in Bergen.",
        source_event_ids=("e-incoming",),
        evidence_at=at,
        authority=authority,
    )


def window(source: Order) -> dict[str, int]:
    """Sequences of the consolidation's window: the incoming event relative to the standing
    one (``equal``: the standing belief was formed from the very same turn's sequence)."""
    return {"e-standing": 10, "e-incoming": 10 + _OFFSET[source]}


def expected(
    existing: Authority, new: Authority, *, same_session: bool, source: Order, instant: Order
) -> str:
    """The specification's oracle."""
    if new.rank != existing.rank:
        return "contradiction" if new.rank > existing.rank else "conflict"
    ordered = (source == "later") if same_session else (instant == "later")
    return "contradiction" if ordered else "conflict"


def decide(existing: Belief, candidate: Candidate, *, source: Order) -> tuple[str, tuple[str, ...]]:
    ledger = Ledger([existing], session_id=SESSION, event_order=window(source))
    decision = Resolver().resolve(candidate, "user", ledger)
    return decision.kind, decision.targets


authorities = st.sampled_from(tuple(Authority))
orders = st.sampled_from(ORDERS)


@GATE
@settings(max_examples=300, deadline=None)
@given(
    existing=authorities,
    new=authorities,
    same_session=st.booleans(),
    source=orders,
    instant=orders,
    updated_offset_days=st.integers(min_value=-400, max_value=400),
)
def test_authority_then_recency_decides_every_generated_pair(
    existing: Authority,
    new: Authority,
    same_session: bool,
    source: Order,
    instant: Order,
    updated_offset_days: int,
) -> None:
    belief = standing(
        existing,
        session=SESSION if same_session else "s-earlier",
        updated_offset_days=updated_offset_days,
    )
    want = expected(existing, new, same_session=same_session, source=source, instant=instant)
    for retraction in (False, True):
        candidate = incoming(new, instant=instant, retraction=retraction)
        kind, targets = decide(belief, candidate, source=source)
        # polarity alone never conflicts: the retraction decides as the new value does
        assert (kind, targets) == (want, (belief.id,)), (retraction, kind)


@GATE
@settings(max_examples=150, deadline=None)
@given(existing=authorities, new=authorities, source=orders, instant=orders)
def test_higher_authority_never_loses_and_lower_never_wins(
    existing: Authority, new: Authority, source: Order, instant: Order
) -> None:
    belief = standing(existing, session="s-earlier")
    kind, _ = decide(belief, incoming(new, instant=instant, retraction=False), source=source)
    if existing.rank > new.rank:
        assert kind == "conflict"  # the standing higher-authority belief is never replaced
    if new.rank > existing.rank:
        assert kind == "contradiction"  # and a higher-authority statement always replaces


@GATE
@settings(max_examples=100, deadline=None)
@given(authority=authorities, same_session=st.booleans(), updated_offset_days=st.integers(1, 900))
def test_updated_at_never_stands_in_for_the_instant(
    authority: Authority, same_session: bool, updated_offset_days: int
) -> None:
    # decay, usage feedback and conflict linkage move updated_at long after the evidence: a
    # later candidate still supersedes however recent the standing belief's updated_at is
    belief = standing(
        authority,
        session=SESSION if same_session else "s-earlier",
        updated_offset_days=updated_offset_days,
    )
    candidate = incoming(authority, instant="later", retraction=False)
    assert decide(belief, candidate, source="later")[0] == "contradiction"


@GATE
@pytest.mark.parametrize("authority", tuple(Authority))
def test_a_later_retraction_at_the_same_authority_supersedes_the_assertion(
    authority: Authority,
) -> None:
    belief = standing(authority, session="s-earlier")
    retraction = incoming(authority, instant="later", retraction=True)
    assert decide(belief, retraction, source="later") == ("contradiction", (belief.id,))
    # and the same pair with nothing ordering it conflicts, exactly as a new value would
    unordered = incoming(authority, instant="equal", retraction=True)
    assert decide(belief, unordered, source="equal")[0] == "conflict"


@GATE
def test_a_ledger_without_a_session_orders_by_instant() -> None:
    belief = standing(Authority.USER, session=SESSION)
    later = incoming(Authority.USER, instant="later", retraction=False)
    same = incoming(Authority.USER, instant="equal", retraction=False)
    assert Resolver().resolve(later, "user", Ledger([belief])).kind == "contradiction"
    assert Resolver().resolve(same, "user", Ledger([belief])).kind == "conflict"


@GATE
def test_a_standing_source_outside_the_window_precedes_it() -> None:
    # same session, the standing belief formed by an earlier consolidation (its source is
    # before the watermark, so the window does not hold it): the window's turn is later
    belief = standing(Authority.USER, session=SESSION)
    candidate = incoming(Authority.USER, instant="earlier", retraction=False)
    ledger = Ledger([belief], session_id=SESSION, event_order={"e-incoming": 3})
    assert Resolver().resolve(candidate, "user", ledger).kind == "contradiction"


class _StatementAuthority:
    """The deterministic extractor, with each statement's authority set by the test."""

    def __init__(self, authorities: dict[str, Authority]) -> None:
        self.policy_version = DeterministicExtractor().policy_version
        self._authorities = authorities

    def extract(self, turn: Turn) -> list[Candidate]:
        return [
            replace(c, authority=self._authorities[c.statement])
            for c in DeterministicExtractor().extract(turn)
        ]


Placement = Literal["same_turn", "later_turn", "other_session"]


@GATE
@settings(max_examples=120, deadline=None)
@given(
    existing=authorities,
    new=authorities,
    placement=st.sampled_from(("same_turn", "later_turn", "other_session")),
    instant=orders,
)
def test_the_service_applies_the_order_end_to_end(
    make_harness: Any, existing: Authority, new: Authority, placement: Placement, instant: Order
) -> None:
    harness = make_harness()
    extractor = _StatementAuthority({"User lives in Oslo.": existing, "User lives in Bergen.": new})
    service = GovernedMemoryService(
        storage=harness.storage,
        clock=harness.clock,
        ids=harness.ids,
        principal=harness.principal,
        profiles=load_profiles(),
        extractor=extractor,
    )
    harness.open("s1")
    if placement == "same_turn":
        harness.say("s1", "I live in Oslo. I live in Bergen.")
        service.run("manual", None, "s1")
    else:
        first = harness.say("s1", "I live in Oslo.")
        service.run("manual", None, "s1")
        session = "s1"
        if placement == "other_session":
            session = "s2"
            harness.open(session)
        harness.storage.events.append(
            first.model_copy(
                update={
                    "event_id": harness.ids.new_id(),
                    "session_id": session,
                    "payload": {"text": "I live in Bergen."},
                    "created_at": first.created_at + timedelta(hours=_OFFSET[instant]),
                }
            )
        )
        service.run("manual", None, session)
    beliefs = {b.statement: b for b in service.list_memories()}
    oslo, bergen = beliefs["User lives in Oslo."], beliefs["User lives in Bergen."]
    # a later turn of the same session is ordered by its sequence whatever its timestamp
    source: Order = "later" if placement == "later_turn" else "equal"
    want = expected(
        existing, new, same_session=placement != "other_session", source=source, instant=instant
    )
    assert bergen.is_live
    if want == "contradiction":
        assert oslo.status is BeliefStatus.SUPERSEDED and oslo.superseded_by == bergen.id
        assert not bergen.needs_review
    else:
        assert oslo.is_live and oslo.conflicts_with == (bergen.id,)
        assert bergen.needs_review and bergen.conflicts_with == (oslo.id,)
