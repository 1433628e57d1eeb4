"""The in-memory tier serialises a unit of work against every other access, on one lock.

A unit holds the tier's lock from start to end: another thread's read waits (it never sees
uncommitted writes) and another thread's write waits (a rollback never erases it). Rolled-back
sequence numbers and store positions leave gaps, as PostgreSQL sequences do.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from memory_core import Belief, Event, InMemoryStorage, Principal


class Boom(Exception):
    """The failure raised inside a unit of work."""


def fail_inside_unit(storage: InMemoryStorage, write: Callable[[], object]) -> None:
    """Run ``write`` inside a unit of work, then raise ``Boom`` out of it."""
    with storage.unit_of_work():
        write()
        raise Boom


def test_another_threads_read_and_write_wait_for_an_open_unit(
    alice: Principal, bob: Principal, make_event: Callable[..., Event]
) -> None:
    storage = InMemoryStorage()
    alice_event = make_event(alice, session_id="s-a")
    bob_event = make_event(bob, session_id="s-b")
    started = threading.Barrier(3)
    seen: list[list[Event]] = []
    written: list[Event] = []

    def read_alice() -> None:
        started.wait()
        seen.append(storage.events.read_session(alice, "s-a"))

    def write_bob() -> None:
        started.wait()
        written.append(storage.events.append(bob_event))

    threads = [threading.Thread(target=read_alice), threading.Thread(target=write_bob)]

    def alice_unit() -> None:
        assert storage.events.append(alice_event).sequence == 1
        for thread in threads:
            thread.start()
        started.wait()
        for thread in threads:
            thread.join(timeout=0.2)
        # both are still blocked on the unit's lock: nothing read, nothing written yet
        assert seen == []
        assert written == []

    with pytest.raises(Boom):
        fail_inside_unit(storage, alice_unit)
    for thread in threads:
        thread.join()
    assert seen == [[]]  # alice's rolled-back event was never visible
    [bob_stamped] = written
    assert bob_stamped.sequence == 2  # 1 was drawn by the rolled-back unit: a gap, not reuse
    assert storage.events.page(bob) == [bob_stamped]
    assert storage.events.append(make_event(bob)).sequence == 3


def test_rolled_back_store_positions_leave_a_gap(
    alice: Principal, make_belief: Callable[..., Belief]
) -> None:
    storage = InMemoryStorage()
    kept = storage.memories.put(make_belief(alice))

    def rewrite() -> None:
        storage.memories.put(make_belief(alice))
        storage.memories.update(kept.model_copy(update={"statement": "User likes tea."}))

    with pytest.raises(Boom):
        fail_inside_unit(storage, rewrite)
    assert storage.memories.head_position(alice) == kept.store_position == 1
    assert storage.memories.get(alice, kept.id) == kept
    assert storage.memories.put(make_belief(alice)).store_position == 4


def test_a_committed_unit_leaves_nothing_to_undo(
    alice: Principal, make_belief: Callable[..., Belief]
) -> None:
    storage = InMemoryStorage()
    with storage.unit_of_work():
        kept = storage.memories.put(make_belief(alice))
    with pytest.raises(Boom):
        fail_inside_unit(storage, lambda: storage.memories.put(make_belief(alice)))
    assert storage.memories.list_beliefs(alice) == [kept]
