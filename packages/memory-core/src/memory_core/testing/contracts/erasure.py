"""ErasureStore contract (short-id lookup, erasure, redaction), run against every tier."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from memory_core import (
    Authority,
    Belief,
    Event,
    Principal,
    RecallTrace,
    Rejection,
    Session,
    Storage,
    UsageError,
)
from memory_core.domain import RecallQuery

MakeBelief = Callable[..., Belief]
MakeEvent = Callable[..., Event]


def test_match_id_prefix_finds_by_the_dashless_prefix_sorted_and_principal_scoped(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    first = storage.memories.put(make_belief(alice, id="4b64ba22-0000-4000-8000-000000000002"))
    second = storage.memories.put(make_belief(alice, id="4b64ba22-0000-4000-8000-000000000001"))
    other = storage.memories.put(make_belief(alice, id="4b64ba23-0000-4000-8000-000000000001"))
    storage.memories.put(make_belief(bob, id="4b64ba22-ffff-4000-8000-000000000001"))
    found = storage.erasure.match_id_prefix(alice, "4b64ba22", limit=10)
    assert [b.id for b in found] == [second.id, first.id]
    assert storage.erasure.match_id_prefix(alice, "4b64ba2", limit=1) == [second]
    # the prefix runs past the first dash: dashes are not part of the hex
    assert storage.erasure.match_id_prefix(alice, "4b64ba2300004", limit=5) == [other]
    assert storage.erasure.match_id_prefix(alice, "ffff", limit=5) == []
    assert [b.principal for b in storage.erasure.match_id_prefix(bob, "4b64", limit=5)] == [bob]


@pytest.mark.parametrize("prefix", ["", "4B64", "4b_%", "4b-64", "zz"])
def test_match_id_prefix_refuses_what_is_not_lowercase_hex(
    storage: Storage, alice: Principal, prefix: str
) -> None:
    with pytest.raises(UsageError, match="lowercase hex"):
        storage.erasure.match_id_prefix(alice, prefix, limit=1)


def test_erase_beliefs_deletes_rows_index_entries_and_lowers_the_head(
    storage: Storage, make_belief: MakeBelief, alice: Principal, bob: Principal
) -> None:
    kept = storage.memories.put(make_belief(alice, statement="User prefers tea."))
    gone = storage.memories.put(make_belief(alice, statement="User prefers hunter2 keys."))
    theirs = storage.memories.put(make_belief(bob, id=gone.id.replace("-", "")[:8] + "-x-bob"))
    assert storage.erasure.erase_beliefs(alice, [gone.id, gone.id, "missing", theirs.id]) == 1
    assert storage.memories.get(alice, gone.id) is None
    assert storage.memories.get(bob, theirs.id) == theirs
    assert storage.memories.list_beliefs(alice) == [kept]
    query = RecallQuery(principal=alice, scopes=("user",), terms=("hunter2",))
    assert storage.memories.search(query) == []
    assert storage.memories.head_position(alice) == kept.store_position
    assert storage.erasure.erase_beliefs(alice, [kept.id]) == 1
    assert storage.memories.head_position(alice) == 0


def test_erase_rejections_deletes_only_the_named_ones_of_the_principal(
    storage: Storage, make_rejection: Callable[..., Rejection], alice: Principal, bob: Principal
) -> None:
    first = make_rejection(alice)
    second = make_rejection(alice)
    theirs = make_rejection(bob, belief_id=first.belief_id + "-b")
    for rejection in (first, second, theirs):
        storage.formation.record_rejection(rejection)
    assert storage.erasure.erase_rejections(alice, [first.belief_id, theirs.belief_id]) == 1
    assert storage.formation.rejections(alice) == [second]
    assert storage.formation.rejections(bob) == [theirs]


def test_redact_events_replaces_the_payload_and_keeps_the_log_shape(
    storage: Storage, make_event: MakeEvent, alice: Principal, bob: Principal
) -> None:
    secret = storage.events.append(make_event(alice, payload={"text": "My pin is 4321."}))
    other = storage.events.append(make_event(alice, payload={"text": "I like tea."}))
    theirs = storage.events.append(make_event(bob, payload={"text": "My pin is 4321."}))
    redaction = {"redacted": True, "reason": "forgotten"}
    assert storage.erasure.redact_events(alice, [secret.event_id, theirs.event_id], redaction) == 1
    stored = storage.events.get(alice, secret.event_id)
    assert stored == secret.model_copy(update={"payload": redaction})
    assert storage.events.read_session(alice, "s-1") == [stored, other]
    assert storage.events.get(bob, theirs.event_id) == theirs


def test_redact_traces_drops_only_the_named_beliefs_copies(
    storage: Storage, make_trace: Callable[..., RecallTrace], alice: Principal, bob: Principal
) -> None:
    trace = storage.traces.record(make_trace(alice))
    untouched = storage.traces.record(make_trace(alice))
    belief_id = trace.beliefs[0].id
    theirs = storage.traces.record(make_trace(bob, beliefs=trace.beliefs))
    assert storage.erasure.redact_traces(alice, [belief_id]) == 1
    assert storage.traces.get(alice, trace.trace_id) == trace.model_copy(update={"beliefs": ()})
    assert storage.traces.get(alice, untouched.trace_id) == untouched
    assert storage.traces.get(bob, theirs.trace_id) == theirs
    assert storage.erasure.redact_traces(alice, [belief_id]) == 0


def test_erase_principal_empties_every_table_of_that_principal_only(
    storage: Storage,
    make_belief: MakeBelief,
    make_event: MakeEvent,
    make_session: Callable[..., Session],
    make_trace: Callable[..., RecallTrace],
    make_rejection: Callable[..., Rejection],
    alice: Principal,
    bob: Principal,
) -> None:
    def seed(who: Principal) -> Session:
        session = storage.sessions.create(make_session(who))
        storage.events.append(make_event(who, session_id=session.id))
        storage.memories.put(make_belief(who))
        storage.traces.record(make_trace(who))
        storage.formation.set_watermark(who, session.id, 3)
        storage.formation.record_rejection(make_rejection(who))
        return session

    mine, theirs = seed(alice), seed(bob)
    counts = storage.erasure.erase_principal(alice)
    assert counts == {
        "events": 1,
        "sessions": 1,
        "memories": 1,
        "recall_traces": 1,
        "formation_watermarks": 1,
        "rejections": 1,
    }
    assert storage.sessions.get(alice, mine.id) is None
    assert storage.events.page(alice) == []
    assert storage.memories.list_beliefs(alice) == []
    assert storage.memories.head_position(alice) == 0
    assert storage.formation.watermark(alice, mine.id) == 0
    assert storage.formation.rejections(alice) == []
    assert storage.sessions.get(bob, theirs.id) is not None
    assert len(storage.events.page(bob)) == 1
    assert len(storage.memories.list_beliefs(bob)) == 1
    assert storage.formation.watermark(bob, theirs.id) == 3
    assert len(storage.formation.rejections(bob)) == 1
    assert set(storage.erasure.erase_principal(alice).values()) == {0}


def test_an_erasure_inside_a_failed_unit_of_work_is_undone(
    storage: Storage,
    make_belief: MakeBelief,
    make_event: MakeEvent,
    make_trace: Callable[..., RecallTrace],
    make_rejection: Callable[..., Rejection],
    alice: Principal,
) -> None:
    # an inference, so the idle index (decay-eligible rows only) holds it too
    belief = storage.memories.put(make_belief(alice, authority=Authority.INFERRED, confidence=0.6))
    event = storage.events.append(make_event(alice))
    trace = storage.traces.record(make_trace(alice))
    rejection = make_rejection(alice, belief_id=belief.id)
    storage.formation.record_rejection(rejection)
    head = storage.memories.head_position(alice)

    def erase_then_fail() -> None:
        with storage.unit_of_work():
            storage.erasure.erase_beliefs(alice, [belief.id])
            storage.erasure.redact_events(alice, [event.event_id], {"redacted": True})
            storage.erasure.redact_traces(alice, [trace.beliefs[0].id])
            storage.erasure.erase_rejections(alice, [belief.id])
            storage.erasure.erase_principal(alice)
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        erase_then_fail()
    assert storage.memories.list_beliefs(alice) == [belief]
    assert storage.memories.head_position(alice) == head
    assert storage.events.get(alice, event.event_id) == event
    assert storage.traces.get(alice, trace.trace_id) == trace
    assert storage.formation.rejections(alice) == [rejection]
    query = RecallQuery(principal=alice, scopes=("user",), terms=("concise",))
    assert storage.memories.search(query) == [belief]
    assert storage.memories.list_idle(alice, belief.last_evidence_at + timedelta(1), 5) == [belief]
