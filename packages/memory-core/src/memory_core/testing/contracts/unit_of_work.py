"""Storage.unit_of_work contract: all or nothing across the five ports, on every adapter."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from memory_core import (
    Belief,
    BeliefStatus,
    Event,
    Principal,
    RecallTrace,
    Rejection,
    Session,
    Storage,
)
from memory_core.domain import RecallQuery

FAR_FUTURE = datetime(2100, 1, 1, tzinfo=UTC)


class Boom(Exception):
    """The failure raised inside a unit of work."""


@dataclass(frozen=True, kw_only=True)
class World:
    """Everything a principal can observe through the ports."""

    events: list[Event]
    sessions: list[Session | None]
    open_idle: list[Session]
    beliefs: list[Belief]
    search: list[Belief]
    lexical: list[Belief]
    head: int
    traces: list[RecallTrace | None]
    watermarks: list[int]
    rejections: list[Rejection]


@dataclass(frozen=True, kw_only=True)
class Seeded:
    session: Session
    belief: Belief
    trace: RecallTrace


def observe(storage: Storage, principal: Principal, seeded: Seeded, extra: Seeded) -> World:
    """Read every port for ``principal``; ``extra`` names records written inside the unit."""
    sessions = (seeded.session.id, extra.session.id)
    traces = (seeded.trace.trace_id, extra.trace.trace_id)
    return World(
        events=storage.events.page(principal, limit=1000),
        sessions=[storage.sessions.get(principal, s) for s in sessions],
        open_idle=storage.sessions.list_open_idle(FAR_FUTURE, limit=1000),
        beliefs=storage.memories.list_beliefs(principal),
        search=storage.memories.search(
            RecallQuery(principal=principal, scopes=("user",), statuses=frozenset(BeliefStatus))
        ),
        lexical=storage.memories.search(
            RecallQuery(principal=principal, scopes=("user",), terms=("tea", "coffee"))
        ),
        head=storage.memories.head_position(principal),
        traces=[storage.traces.get(principal, t) for t in traces],
        watermarks=[storage.formation.watermark(principal, s) for s in sessions],
        rejections=storage.formation.rejections(principal),
    )


@pytest.fixture
def seeded(
    storage: Storage,
    alice: Principal,
    make_event: Callable[..., Event],
    make_session: Callable[..., Session],
    make_belief: Callable[..., Belief],
    make_trace: Callable[..., RecallTrace],
    make_rejection: Callable[..., Rejection],
    t0: datetime,
) -> Seeded:
    """One committed record in every port."""
    session = storage.sessions.create(make_session(alice))
    storage.events.append(make_event(alice, session_id=session.id))
    belief = storage.memories.put(make_belief(alice, statement="User drinks tea."))
    trace = storage.traces.record(
        make_trace(alice, operator_expires_at=t0 + timedelta(days=1), returned=(belief.id,))
    )
    storage.formation.set_watermark(alice, session.id, 1)
    storage.formation.record_rejection(make_rejection(alice))
    return Seeded(session=session, belief=belief, trace=trace)


@pytest.fixture
def extra(
    alice: Principal,
    make_session: Callable[..., Session],
    make_belief: Callable[..., Belief],
    make_trace: Callable[..., RecallTrace],
) -> Seeded:
    """Records that a unit of work will try to add (not yet written)."""
    return Seeded(
        session=make_session(alice),
        belief=make_belief(alice, statement="User drinks coffee."),
        trace=make_trace(alice),
    )


def write_everything(
    storage: Storage,
    alice: Principal,
    seeded: Seeded,
    extra: Seeded,
    make_event: Callable[..., Event],
    make_rejection: Callable[..., Rejection],
    t0: datetime,
) -> None:
    """Change every port: inserts, updates, marks, sweeps, watermarks and rejections."""
    storage.events.append(make_event(alice, session_id=seeded.session.id))
    storage.events.append(make_event(alice, session_id=extra.session.id))
    storage.sessions.create(extra.session)
    storage.sessions.update(seeded.session.model_copy(update={"closed_at": t0}))
    storage.memories.put(extra.belief)
    storage.memories.update(
        seeded.belief.model_copy(update={"status": BeliefStatus.SUPERSEDED, "statement": "Gone."})
    )
    storage.traces.record(extra.trace)
    storage.traces.mark_cited(seeded.trace.trace_id, alice, [seeded.belief.id])
    assert storage.traces.expire_operator_fields(t0 + timedelta(days=2)) >= 1
    storage.formation.set_watermark(alice, seeded.session.id, 99)
    storage.formation.set_watermark(alice, extra.session.id, 5)
    storage.formation.record_rejection(make_rejection(alice))


def fail_inside_unit(storage: Storage, write: Callable[[], object]) -> None:
    """Run ``write`` inside a unit of work, then raise ``Boom`` out of it."""
    with storage.unit_of_work():
        write()
        raise Boom


def test_an_exception_inside_leaves_every_port_exactly_as_before(
    storage: Storage,
    alice: Principal,
    seeded: Seeded,
    extra: Seeded,
    make_event: Callable[..., Event],
    make_rejection: Callable[..., Rejection],
    t0: datetime,
) -> None:
    before = observe(storage, alice, seeded, extra)

    def write() -> None:
        write_everything(storage, alice, seeded, extra, make_event, make_rejection, t0)
        assert observe(storage, alice, seeded, extra) != before

    with pytest.raises(Boom):
        fail_inside_unit(storage, write)
    assert observe(storage, alice, seeded, extra) == before


def test_a_block_that_completes_keeps_every_write(
    storage: Storage,
    alice: Principal,
    seeded: Seeded,
    extra: Seeded,
    make_event: Callable[..., Event],
    make_rejection: Callable[..., Rejection],
    t0: datetime,
) -> None:
    before = observe(storage, alice, seeded, extra)
    with storage.unit_of_work():
        write_everything(storage, alice, seeded, extra, make_event, make_rejection, t0)
    after = observe(storage, alice, seeded, extra)
    assert len(after.events) == len(before.events) + 2
    assert after.sessions[1] == extra.session
    assert after.head > before.head
    assert after.lexical[0].id == extra.belief.id
    assert after.watermarks == [99, 5]
    assert len(after.rejections) == 2


def test_the_store_keeps_working_after_a_rollback(
    storage: Storage,
    alice: Principal,
    seeded: Seeded,
    extra: Seeded,
    make_belief: Callable[..., Belief],
    make_event: Callable[..., Event],
) -> None:
    head = storage.memories.head_position(alice)
    last_sequence = storage.events.page(alice)[-1].sequence
    with pytest.raises(Boom):
        fail_inside_unit(storage, lambda: storage.memories.put(extra.belief))
    # the rolled-back id is free again, and positions keep increasing
    again = storage.memories.put(extra.belief)
    assert again.store_position > head
    assert storage.memories.head_position(alice) == again.store_position
    later = storage.memories.put(make_belief(alice))
    assert later.store_position > again.store_position
    assert storage.events.append(make_event(alice)).sequence > last_sequence
    hits = storage.memories.search(
        RecallQuery(principal=alice, scopes=("user",), terms=("coffee",))
    )
    assert hits == [again]


def test_a_failed_inner_unit_undoes_only_its_own_writes(
    storage: Storage,
    alice: Principal,
    seeded: Seeded,
    extra: Seeded,
    make_belief: Callable[..., Belief],
) -> None:
    with storage.unit_of_work():
        outer = storage.memories.put(make_belief(alice))

        def inner() -> None:
            storage.memories.put(extra.belief)
            storage.formation.set_watermark(alice, seeded.session.id, 50)

        with pytest.raises(Boom):
            fail_inside_unit(storage, inner)
        storage.formation.set_watermark(alice, seeded.session.id, 2)
    assert storage.memories.get(alice, outer.id) == outer
    assert storage.memories.get(alice, extra.belief.id) is None
    assert storage.memories.head_position(alice) == outer.store_position
    assert storage.formation.watermark(alice, seeded.session.id) == 2


def test_an_outer_failure_undoes_a_completed_inner_unit(
    storage: Storage, alice: Principal, seeded: Seeded, extra: Seeded
) -> None:
    before = observe(storage, alice, seeded, extra)

    def completed_inner_unit() -> None:
        with storage.unit_of_work():
            storage.memories.put(extra.belief)
            storage.sessions.create(extra.session)

    with pytest.raises(Boom):
        fail_inside_unit(storage, completed_inner_unit)
    assert observe(storage, alice, seeded, extra) == before


def test_a_failed_unit_keeps_another_threads_write_and_never_reuses_a_sequence(
    storage: Storage, alice: Principal, bob: Principal, make_event: Callable[..., Event]
) -> None:
    alice_event = make_event(alice)
    bob_event = make_event(bob, session_id="s-bob")
    bob_started = threading.Event()
    bob_appended: list[Event] = []
    alice_appended: list[Event] = []

    def bob_writes() -> None:  # another principal, outside any unit of work
        bob_started.set()
        bob_appended.append(storage.events.append(bob_event))

    bob_thread = threading.Thread(target=bob_writes)

    def alice_unit() -> None:
        alice_appended.append(storage.events.append(alice_event))
        bob_thread.start()
        bob_started.wait()
        # PostgreSQL lets bob commit now (another principal's lock); the in-memory tier makes
        # him wait for the unit to end. Either way his write must survive alice's rollback.
        bob_thread.join(timeout=0.2)

    with pytest.raises(Boom):
        fail_inside_unit(storage, alice_unit)
    bob_thread.join()

    assert storage.events.get(alice, alice_event.event_id) is None
    [bob_stamped] = bob_appended
    assert storage.events.get(bob, bob_event.event_id) == bob_stamped
    rolled_back = alice_appended[0].sequence
    assert bob_stamped.sequence != rolled_back
    after = storage.events.append(make_event(bob, session_id="s-bob"))
    assert after.sequence > max(bob_stamped.sequence, rolled_back)
    assert storage.events.page(bob) == [bob_stamped, after]
    assert storage.events.read_session(bob, "s-bob") == [bob_stamped, after]
    assert storage.events.page(alice) == []


def test_a_failed_unit_restores_the_order_of_updated_beliefs(
    storage: Storage, alice: Principal, make_belief: Callable[..., Belief]
) -> None:
    first, second, third = (
        storage.memories.put(make_belief(alice, statement=f"User drinks tea number {i}."))
        for i in range(3)
    )
    query = RecallQuery(principal=alice, scopes=("user",), statuses=frozenset(BeliefStatus))
    lexical = RecallQuery(principal=alice, scopes=("user",), terms=("tea", "coffee"), limit=2)
    before = (
        storage.memories.list_beliefs(alice),
        storage.memories.search(query),
        storage.memories.search(lexical),
        storage.memories.head_position(alice),
    )

    def rewrite() -> None:
        storage.memories.update(first.model_copy(update={"statement": "User drinks coffee."}))
        storage.memories.update(second.model_copy(update={"status": BeliefStatus.RETIRED}))
        storage.memories.update(first.model_copy(update={"statement": "User drinks water."}))
        storage.memories.put(make_belief(alice, statement="User drinks coffee too."))

    with pytest.raises(Boom):
        fail_inside_unit(storage, rewrite)
    after = (
        storage.memories.list_beliefs(alice),
        storage.memories.search(query),
        storage.memories.search(lexical),
        storage.memories.head_position(alice),
    )
    assert after == before
    assert [b.id for b in after[1]] == [third.id, second.id, first.id]
