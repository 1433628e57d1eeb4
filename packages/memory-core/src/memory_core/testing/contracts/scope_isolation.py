"""Property tests for the foundational gate "never cross a principal or project scope".

Each hypothesis example writes generated beliefs, events, sessions and traces for three
principals that share something with each other (A and B share a tenant; A and C share a
principal id in different tenants), then reads through every port as each of them. One storage
tier serves all examples of a test; every example draws a fresh tenant, so examples never see
each other's records. The example budget comes from the ``property_settings`` fixture, scaled
to the adapter under test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import (
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    NotFoundError,
    Principal,
    RecallTrace,
    Session,
    Storage,
)
from memory_core.domain import LIVE_STATUSES, RecallQuery, visible_scopes

GATE = "gate.memory.scope_isolation"

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
FAR_FUTURE = datetime(2100, 1, 1, tzinfo=UTC)
OWNERS = ("A", "B", "C")
PROJECTS = ("p1", "p2", "p3")
SCOPES = ("user", "general", *(f"project:{p}" for p in PROJECTS))
SUBJECTS = ("answer style", "home city", "editor", "Tea Habit")
VOCAB = ("tea", "coffee", "portland", "vim", "dark-mode", "api.example.com", "concise", "rust")
SESSION_IDS = ("s-1", "s-2")
ALL_STATUSES = frozenset(BeliefStatus)


@dataclass(frozen=True, kw_only=True)
class BeliefSpec:
    owner: str
    scope: str
    status: BeliefStatus
    belief_type: BeliefType
    subject: str
    words: tuple[str, ...]
    evidence_day: int


belief_specs = st.builds(
    BeliefSpec,
    owner=st.sampled_from(OWNERS),
    scope=st.sampled_from(SCOPES),
    status=st.sampled_from(list(BeliefStatus)),
    belief_type=st.sampled_from(list(BeliefType)),
    subject=st.sampled_from(SUBJECTS),
    words=st.lists(st.sampled_from(VOCAB), min_size=1, max_size=3).map(tuple),
    evidence_day=st.integers(0, 20),
)
event_specs = st.tuples(st.sampled_from(OWNERS), st.sampled_from(SESSION_IDS))
trace_specs = st.sampled_from(OWNERS)
session_specs = st.tuples(st.sampled_from(OWNERS), st.sampled_from((None, *PROJECTS)))
query_terms = st.none() | st.lists(st.sampled_from((*VOCAB, "dark", "mode")), max_size=3).map(tuple)


@dataclass
class Written:
    """What one example wrote, per owner."""

    beliefs: dict[str, list[Belief]] = field(default_factory=lambda: {o: [] for o in OWNERS})
    events: dict[str, list[Event]] = field(default_factory=lambda: {o: [] for o in OWNERS})
    traces: dict[str, list[RecallTrace]] = field(default_factory=lambda: {o: [] for o in OWNERS})
    sessions: dict[str, list[Session]] = field(default_factory=lambda: {o: [] for o in OWNERS})


def principals_for(tenant: str) -> dict[str, Principal]:
    """A and B share a tenant; C has A's principal id in another tenant."""
    return {
        "A": Principal(tenant, "alice"),
        "B": Principal(tenant, "bob"),
        "C": Principal(f"{tenant}-other", "alice"),
    }


def _belief(make_belief: Callable[..., Belief], who: Principal, spec: BeliefSpec) -> Belief:
    return make_belief(
        who,
        scope=spec.scope,
        status=spec.status,
        belief_type=spec.belief_type,
        subject=spec.subject,
        statement=f"User mentioned {' and '.join(spec.words)}.",
        evidenced_at=T0 + timedelta(days=spec.evidence_day),
    )


@pytest.mark.gate(GATE)
def test_no_read_for_one_principal_returns_another_principals_record(
    storage: Storage,
    property_settings: settings,
    new_tenant: Callable[[], str],
    make_belief: Callable[..., Belief],
    make_event: Callable[..., Event],
    make_trace: Callable[..., RecallTrace],
    make_session: Callable[..., Session],
) -> None:
    @property_settings
    @given(
        beliefs=st.lists(belief_specs, max_size=12),
        events=st.lists(event_specs, max_size=8),
        traces=st.lists(trace_specs, max_size=4),
        sessions=st.lists(session_specs, max_size=4),
        terms=query_terms,
        named=st.lists(st.sampled_from(SUBJECTS), max_size=2).map(tuple),
    )
    def check(
        beliefs: list[BeliefSpec],
        events: list[tuple[str, str]],
        traces: list[str],
        sessions: list[tuple[str, str | None]],
        terms: tuple[str, ...] | None,
        named: tuple[str, ...],
    ) -> None:
        write_and_read_as_everyone(
            storage,
            new_tenant(),
            make_belief=make_belief,
            make_event=make_event,
            make_trace=make_trace,
            make_session=make_session,
            beliefs=beliefs,
            events=events,
            traces=traces,
            sessions=sessions,
            terms=terms,
            named=named,
        )

    check()


def write_and_read_as_everyone(
    storage: Storage,
    tenant: str,
    *,
    make_belief: Callable[..., Belief],
    make_event: Callable[..., Event],
    make_trace: Callable[..., RecallTrace],
    make_session: Callable[..., Session],
    beliefs: list[BeliefSpec],
    events: list[tuple[str, str]],
    traces: list[str],
    sessions: list[tuple[str, str | None]],
    terms: tuple[str, ...] | None,
    named: tuple[str, ...],
) -> None:
    """Write one example's records, then read every port as each principal."""
    who = principals_for(tenant)
    written = Written()
    for spec in beliefs:
        written.beliefs[spec.owner].append(
            storage.memories.put(_belief(make_belief, who[spec.owner], spec))
        )
    for owner, session_id in events:
        written.events[owner].append(
            storage.events.append(make_event(who[owner], session_id=session_id))
        )
    for owner in traces:
        written.traces[owner].append(storage.traces.record(make_trace(who[owner])))
    for owner, project in sessions:
        written.sessions[owner].append(
            storage.sessions.create(make_session(who[owner], project=project))
        )

    for viewer, principal in who.items():
        own_beliefs = {b.id: b for b in written.beliefs[viewer]}
        foreign = [b for o in OWNERS if o != viewer for b in written.beliefs[o]]

        def owned(found: list[Belief], principal: Principal = principal) -> bool:
            return all(b.principal == principal for b in found)

        # search: unfiltered it returns exactly the viewer's records; filtered, a subset of them
        everything = storage.memories.search(
            RecallQuery(principal=principal, scopes=SCOPES, statuses=ALL_STATUSES, limit=1000)
        )
        assert {b.id: b for b in everything} == own_beliefs
        for query in (
            RecallQuery(principal=principal, scopes=SCOPES, terms=terms, subjects=named),
            RecallQuery(principal=principal, scopes=SCOPES, terms=(), subjects=SUBJECTS),
            RecallQuery(
                principal=principal,
                scopes=SCOPES,
                statuses=ALL_STATUSES,
                terms=VOCAB,
                as_of=T0 + timedelta(days=10),
            ),
        ):
            found = storage.memories.search(query)
            assert owned(found)
            assert all(own_beliefs[b.id] == b for b in found)

        # lists and gets
        assert owned(storage.memories.list_beliefs(principal))
        assert {b.id for b in storage.memories.list_beliefs(principal)} == set(own_beliefs)
        assert owned(storage.memories.list_idle(principal, FAR_FUTURE, 1000))
        for belief in foreign:
            assert storage.memories.get(principal, belief.id) is None
        expected_head = max((b.store_position for b in own_beliefs.values()), default=0)
        assert storage.memories.head_position(principal) == expected_head

        # events
        own_events = written.events[viewer]
        assert storage.events.page(principal, limit=1000) == own_events
        for session_id in SESSION_IDS:
            assert storage.events.read_session(principal, session_id) == [
                e for e in own_events if e.session_id == session_id
            ]
        for other in OWNERS:
            if other != viewer:
                for event in written.events[other]:
                    assert storage.events.get(principal, event.event_id) is None

        # traces and sessions
        for other in OWNERS:
            if other == viewer:
                continue
            for trace in written.traces[other]:
                assert storage.traces.get(principal, trace.trace_id) is None
                with pytest.raises(NotFoundError):
                    storage.traces.mark_cited(trace.trace_id, principal, ["x"])
            for session in written.sessions[other]:
                assert storage.sessions.get(principal, session.id) is None
        for trace in written.traces[viewer]:
            assert storage.traces.get(principal, trace.trace_id) == trace
        for session in written.sessions[viewer]:
            assert storage.sessions.get(principal, session.id) == session


@pytest.mark.gate(GATE)
def test_a_project_session_never_receives_another_projects_local_belief(
    storage: Storage,
    property_settings: settings,
    new_tenant: Callable[[], str],
    make_belief: Callable[..., Belief],
    make_session: Callable[..., Session],
) -> None:
    @property_settings
    @given(
        beliefs=st.lists(belief_specs, max_size=14),
        project=st.sampled_from((None, *PROJECTS)),
        terms=query_terms,
        named=st.lists(st.sampled_from(SUBJECTS), max_size=2).map(tuple),
    )
    def check(
        beliefs: list[BeliefSpec],
        project: str | None,
        terms: tuple[str, ...] | None,
        named: tuple[str, ...],
    ) -> None:
        recall_in_project(
            storage,
            new_tenant(),
            make_belief=make_belief,
            make_session=make_session,
            beliefs=beliefs,
            project=project,
            terms=terms,
            named=named,
        )

    check()


def recall_in_project(
    storage: Storage,
    tenant: str,
    *,
    make_belief: Callable[..., Belief],
    make_session: Callable[..., Session],
    beliefs: list[BeliefSpec],
    project: str | None,
    terms: tuple[str, ...] | None,
    named: tuple[str, ...],
) -> None:
    """Store beliefs across projects, open a session in ``project`` and recall as it would."""
    principal = principals_for(tenant)["A"]
    stored = [storage.memories.put(_belief(make_belief, principal, spec)) for spec in beliefs]
    session = storage.sessions.create(make_session(principal, project=project))

    loaded = storage.sessions.get(principal, session.id)
    assert loaded is not None
    scopes = visible_scopes(loaded.metadata.project_scope)
    forbidden = {f"project:{p}" for p in PROJECTS if p != project}
    assert forbidden.isdisjoint(scopes)

    queries: list[dict[str, Any]] = [
        {"terms": None},
        {"terms": terms, "subjects": named},
        {"terms": (), "subjects": SUBJECTS},
        {"terms": VOCAB, "statuses": ALL_STATUSES, "limit": 1000},
    ]
    for fields in queries:
        found = storage.memories.search(RecallQuery(principal=principal, scopes=scopes, **fields))
        assert all(b.scope in scopes for b in found)
        assert not any(b.scope in forbidden for b in found)

    # and nothing visible is lost: the unfiltered live read is exactly the visible live beliefs
    visible_live = {b.id for b in stored if b.scope in scopes and b.status in LIVE_STATUSES}
    found = storage.memories.search(RecallQuery(principal=principal, scopes=scopes, limit=1000))
    assert {b.id for b in found} == visible_live


class Rollback(Exception):
    """Raised to abandon a unit of work."""


operations = st.lists(
    st.one_of(
        st.tuples(st.just("put"), st.sampled_from(OWNERS), st.integers(0, 0)),
        st.tuples(st.just("update"), st.sampled_from(OWNERS), st.integers(0, 50)),
        st.tuples(st.just("rollback"), st.sampled_from(OWNERS), st.integers(0, 50)),
    ),
    min_size=1,
    max_size=16,
)


@pytest.mark.gate(GATE)
def test_store_positions_strictly_increase_over_generated_operations(
    storage: Storage,
    property_settings: settings,
    new_tenant: Callable[[], str],
    make_belief: Callable[..., Belief],
) -> None:
    @property_settings
    @given(ops=operations)
    def check(ops: list[tuple[str, str, int]]) -> None:
        apply_operations(storage, new_tenant(), make_belief=make_belief, ops=ops)

    check()


def write_then_roll_back(
    storage: Storage, make_belief: Callable[..., Belief], target: Belief
) -> None:
    """Retire ``target`` and add a belief inside a unit of work that then fails."""
    with storage.unit_of_work():
        storage.memories.update(target.model_copy(update={"status": BeliefStatus.RETIRED}))
        storage.memories.put(make_belief(target.principal))
        raise Rollback


def apply_operations(
    storage: Storage,
    tenant: str,
    *,
    make_belief: Callable[..., Belief],
    ops: list[tuple[str, str, int]],
) -> None:
    """Apply puts, updates and rolled-back units; check positions after every step."""
    who = principals_for(tenant)
    current: dict[str, dict[str, Belief]] = {o: {} for o in OWNERS}
    heads = {o: storage.memories.head_position(who[o]) for o in OWNERS}
    assert heads == dict.fromkeys(OWNERS, 0)
    last = 0

    for kind, owner, pick in ops:
        principal = who[owner]
        mine = sorted(current[owner].values(), key=lambda b: b.store_position)
        watermark = storage.memories.head_position(principal)
        if kind == "put" or not mine:
            written = storage.memories.put(make_belief(principal))
        elif kind == "update":
            target = mine[pick % len(mine)]
            written = storage.memories.update(
                target.model_copy(update={"confidence": round(pick / 50, 2)})
            )
        else:
            target = mine[pick % len(mine)]
            with pytest.raises(Rollback):
                write_then_roll_back(storage, make_belief, target)
            assert storage.memories.head_position(principal) == watermark
            assert storage.memories.get(principal, target.id) == target
            continue

        assert written.store_position > last
        last = written.store_position
        current[owner][written.id] = written
        heads[owner] = written.store_position
        for o in OWNERS:
            assert storage.memories.head_position(who[o]) == heads[o]
        # a session holding the old head sees exactly this write as new
        since = storage.memories.search(
            RecallQuery(
                principal=principal,
                scopes=("user",),
                statuses=frozenset(BeliefStatus),
                min_store_position=watermark,
            )
        )
        assert since == [written]

    for o in OWNERS:
        listed = storage.memories.list_beliefs(who[o])
        positions = [b.store_position for b in listed]
        assert positions == sorted(set(positions))
        assert listed == sorted(current[o].values(), key=lambda b: b.store_position)
