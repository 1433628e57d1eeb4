"""Records racing closes, on every storage tier: no message lost, no session reopened.

Recorder threads keep recording user messages into the session a closer thread is closing
(and its neighbours) while the closer closes every session in turn. Afterwards, for every
session: it is closed with the instant its close reported (never reopened, never re-closed);
every message a record call returned is in the log, and every user message in the log lies at
or below the session's formation watermark (consolidated, not lost); nothing was recorded after
the ``session.closed`` event.
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from memory_core import ConsolidationResult, Event, SessionClosedError, SessionClosure, Storage
from memory_core.bootstrap import Composition, build
from memory_core.domain import Principal
from memory_core.formation.service import is_formation_source
from memory_core.session_close import CLOSE_ATTEMPTS

OWNER = Principal("tests", "owner")

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SESSIONS = 200
RECORDERS = 4
MESSAGES_BEFORE_CLOSE = 2
"""The closer waits (up to a moment) for this many messages in a session before closing it."""
MAX_MESSAGES = 12
"""Recorders stop recording into a session holding this many (bounds the test's work)."""


@dataclass
class _Race:
    app: Composition
    session_ids: list[str]
    cursor: int = 0
    done: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    recorded: dict[str, list[Event]] = field(default_factory=lambda: defaultdict(list))
    refused: int = 0
    errors: list[BaseException] = field(default_factory=list)


def _recorder(race: _Race, n: int) -> None:
    rng = random.Random(n)
    count = 0
    try:
        while not race.done.is_set():
            offset = rng.choice((-1, 0, 0, 0, 1))
            index = min(max(race.cursor + offset, 0), SESSIONS - 1)
            session_id = race.session_ids[index]
            # the previous session (just closed, or closing) is always tried: it must refuse
            if offset >= 0 and len(race.recorded[session_id]) >= MAX_MESSAGES:
                time.sleep(0.0005)
                continue
            count += 1
            try:
                event = race.app.sessions.record_user_message(
                    session_id, f"I visited city number {n} {count}."
                )
            except SessionClosedError:
                with race.lock:
                    race.refused += 1
                continue
            with race.lock:
                race.recorded[session_id].append(event)
    except BaseException as exc:  # surfaced by the test
        race.errors.append(exc)


def _closer(race: _Race, closures: dict[str, SessionClosure]) -> None:
    try:
        for index, session_id in enumerate(race.session_ids):
            race.cursor = index
            deadline = time.monotonic() + 0.5
            while len(race.recorded[session_id]) < MESSAGES_BEFORE_CLOSE:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.0005)
            closures[session_id] = race.app.sessions.close(session_id)
    except BaseException as exc:
        race.errors.append(exc)
    finally:
        race.done.set()


def test_records_racing_closes_lose_no_message_and_reopen_no_session(storage: Storage) -> None:
    app = build(
        principal=OWNER, storage=storage, fixed_clock_at=T0
    )  # random ids: safe across threads
    race = _Race(app=app, session_ids=[app.sessions.create().id for _ in range(SESSIONS)])
    closures: dict[str, SessionClosure] = {}
    threads = [
        threading.Thread(target=_recorder, args=(race, n), daemon=True) for n in range(RECORDERS)
    ]
    threads.append(threading.Thread(target=_closer, args=(race, closures), daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not race.errors, race.errors
    assert len(closures) == SESSIONS

    lost = reopened = after_close = missing = stray = 0
    for session_id in race.session_ids:
        closure = closures[session_id]
        stored = app.sessions.get(session_id)
        if stored.is_open or stored.closed_at != closure.session.closed_at:
            reopened += 1
        events = app.events.read_session(app.principal, session_id)
        user = [e for e in events if is_formation_source(e, app.principal, session_id)]
        watermark = app.storage.formation.watermark(app.principal, session_id)
        lost += sum(1 for e in user if e.sequence > watermark)
        closed_at = [e.sequence for e in events if e.event_type == "session.closed"]
        assert len(closed_at) == 1
        after_close += sum(1 for e in user if e.sequence > closed_at[0])
        returned = {e.event_id for e in race.recorded[session_id]}
        logged = {e.event_id for e in user}
        missing += len(returned - logged)
        stray += len(logged - returned)  # stored although its record call raised
    recorded = sum(len(v) for v in race.recorded.values())
    print(  # the figures the issue asks for, visible with -s
        f"race[{type(storage).__name__}]: sessions={SESSIONS} recorders={RECORDERS} "
        f"recorded={recorded} refused={race.refused} lost={lost} reopened={reopened} "
        f"after_close={after_close} missing={missing} stray={stray}"
    )
    assert (lost, reopened, after_close, missing, stray) == (0, 0, 0, 0, 0)
    assert recorded >= SESSIONS  # the recorders really raced the closer
    assert race.refused > 0  # and some of them lost the race to a close


def test_messages_arriving_during_every_consolidation_are_formed_by_the_last_pass(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = build(principal=OWNER, storage=storage, fixed_clock_at=T0, sequential_ids=True)
    other_client = build(
        principal=OWNER, storage=storage, fixed_clock_at=T0
    )  # random ids: no collision
    session = app.sessions.create()
    app.sessions.record_user_message(session.id, "I live in Oslo.")
    consolidate = app.memory.service.run
    passes: list[int] = []
    newcomers = iter(["I prefer concise answers.", "I work at Acme Labs.", "My wife is Morgan."])

    def a_message_arrives_meanwhile(*args: Any, **kwargs: Any) -> ConsolidationResult:
        result = consolidate(*args, **kwargs)
        passes.append(result.committed)
        if len(passes) <= CLOSE_ATTEMPTS:  # every pass outside the unit is outrun
            other_client.sessions.record_user_message(session.id, next(newcomers))
        return result

    monkeypatch.setattr(app.memory.service, "run", a_message_arrives_meanwhile)
    closure = app.sessions.close(session.id)
    assert len(passes) == CLOSE_ATTEMPTS + 1  # the last pass ran inside the unit
    assert closure.consolidation is not None
    assert passes == [1, 1, 1, 1]
    assert closure.consolidation.committed == 1 + CLOSE_ATTEMPTS
    user = app.events.read_session(app.principal, session.id)
    watermark = storage.formation.watermark(app.principal, session.id)
    assert all(e.sequence <= watermark for e in user if e.event_type == "user.message.created")
    closed = [e for e in user if e.event_type == "session.closed"]
    assert closed[0].payload["committed"] == closure.consolidation.committed
