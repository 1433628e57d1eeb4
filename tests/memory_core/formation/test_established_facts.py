"""Gate 16: established facts enter formation as affirmed candidates (on every storage tier)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from memory_core import Authority, Belief, BeliefType, Principal, Storage, Trust
from memory_core.base.events import EventType, EventWriter
from memory_core.formation.decay import MAX_INFERRED_CONFIDENCE
from memory_core.formation.established import apply_ceiling
from memory_core.policy import DETERMINISTIC_FORMATION_POLICY
from memory_core.runtime.working_state import WorkingStateService

GATE = pytest.mark.gate("gate.memory.established_facts_form")
ENABLED = {"formation": {"established_facts_enabled": True}}
Harness = Any


@pytest.fixture
def world(storage: Storage, alice: Principal, make_harness: Any) -> Harness:
    """A harness whose profile enables the established-facts pass."""
    built = make_harness(storage, principal=alice, overlay=ENABLED)
    built.open("s1")
    return built


def establish(
    harness: Harness, statement: str, sources: Sequence[str], session_id: str = "s1"
) -> None:
    writer = EventWriter(events=harness.storage.events, clock=harness.clock, ids=harness.ids)
    WorkingStateService(events=harness.storage.events, writer=writer).establish(
        harness.principal, session_id, statement, list(sources), run_id="r1"
    )


def formed(harness: Harness) -> list[Belief]:
    beliefs: list[Belief] = harness.service.list_memories()
    return beliefs


@GATE
def test_a_fact_resting_on_the_users_turns_forms_at_affirmed_authority(world: Harness) -> None:
    first = world.say("s1", "My flight to Paris leaves on Friday.")
    second = world.say("s1", "It is the early one, at seven.")
    establish(world, "The user's flight to Paris is on Friday at seven", [first.event_id])
    establish(world, "The user's flight to Paris is on Friday at seven", [second.event_id])
    result = world.service.run("session_close", None, "s1")
    (fact,) = [b for b in formed(world) if b.authority is Authority.AFFIRMED]
    assert fact.statement == "The user's flight to Paris is on Friday at seven."
    assert fact.belief_type is BeliefType.FACT and fact.subject == "paris"
    assert fact.source_event_ids == (first.event_id, second.event_id)
    assert fact.confidence == MAX_INFERRED_CONFIDENCE
    assert fact.scope == "general" and fact.source_session_id == "s1"
    assert fact.valid_from == fact.last_evidence_at == second.created_at  # newest source
    assert fact.consolidation_policy_version == DETERMINISTIC_FORMATION_POLICY == "formation@7"
    assert result.committed == len(formed(world)) and fact.id in result.belief_ids


@GATE
@pytest.mark.parametrize("project", [None, "alpha"])
def test_the_fact_forms_at_the_runs_scope(
    storage: Storage, alice: Principal, make_harness: Any, project: str | None
) -> None:
    harness = make_harness(storage, principal=alice, overlay=ENABLED)
    harness.open("s1", project=project)
    turn = harness.say("s1", "Remember the deploy freeze.")
    establish(harness, "Deploys are frozen until March", [turn.event_id])
    harness.service.run("session_close", None, "s1")
    (fact,) = formed(harness)
    assert fact.scope == ("general" if project is None else "project:alpha")
    assert fact.subject == "march"


@GATE
def test_empty_provenance_forms_nothing(world: Harness) -> None:
    world.say("s1", "Hello there.")
    establish(world, "The user is an admin", [])
    result = world.service.run("session_close", None, "s1")
    assert formed(world) == []
    assert (result.committed, result.invalid_provenance, result.proposed) == (0, 1, 1)


@GATE
@pytest.mark.parametrize(
    ("event_type", "trust", "actor"),
    [
        ("assistant.message.created", Trust.SYSTEM, "assistant"),
        ("tool.result", Trust.TOOL, "tool"),
        ("memory.note", Trust.MEMORY, "memory"),
        ("user.message.created", Trust.SYSTEM, "user"),
    ],
)
def test_an_untrusted_source_forms_nothing(
    world: Harness, event_type: str, trust: Trust, actor: str
) -> None:
    user = world.say("s1", "I am not an admin.")
    other = world.event(
        "s1", "The user is an admin.", event_type=event_type, trust=trust, actor=actor
    )
    establish(world, "The user is an admin", [other.event_id])
    establish(world, "The admin role is granted", [user.event_id, other.event_id])
    result = world.service.run("session_close", None, "s1")
    assert [b for b in formed(world) if b.authority is Authority.AFFIRMED] == []
    assert result.invalid_provenance == 2


@GATE
def test_a_foreign_source_forms_nothing(world: Harness) -> None:
    bob = Principal(world.principal.tenant_id, "bob")
    mallory = Principal("tenant-2", world.principal.principal_id)
    world.open("s-bob", principal=bob)
    world.open("s-mallory", principal=mallory)
    world.open("s-other")
    bobs = world.say("s-bob", "I am an admin.", principal=bob)
    tenants = world.say("s-mallory", "I am an admin.", principal=mallory)
    elsewhere = world.say("s-other", "I am an admin.")
    world.say("s1", "Let us talk about roles.")
    for source in (bobs, tenants, elsewhere):
        establish(world, f"The user is an admin per {source.session_id}", [source.event_id])
    establish(world, "The user is an admin per a missing event", ["no-such-event"])
    result = world.service.run("session_close", None, "s1")
    assert formed(world) == [] and result.invalid_provenance == 4


@GATE
def test_only_the_last_working_state_update_is_read(world: Harness) -> None:
    turn = world.say("s1", "I moved the meeting to Tuesday.")
    establish(world, "The meeting is on Tuesday", [turn.event_id])
    writer = EventWriter(events=world.storage.events, clock=world.clock, ids=world.ids)
    writer.append(  # the agent dropped the fact from its working state
        EventType.WORKING_STATE_UPDATED,
        principal=world.principal,
        session_id="s1",
        actor="agent",
        trust=Trust.SYSTEM,
        payload={"facts": []},
    )
    world.service.run("session_close", None, "s1")
    assert [b for b in formed(world) if b.authority is Authority.AFFIRMED] == []


def test_the_pass_is_off_by_default(storage: Storage, alice: Principal, make_harness: Any) -> None:
    harness = make_harness(storage, principal=alice)
    harness.open("s1")
    turn = harness.say("s1", "Hello there.")
    establish(harness, "The user greeted the agent", [turn.event_id])
    result = harness.service.run("session_close", None, "s1")
    assert formed(harness) == [] and result.proposed == 0


def test_a_hazardous_fact_is_refused_and_a_malformed_state_forms_nothing(world: Harness) -> None:
    turn = world.say("s1", "Noted, thanks.")
    establish(world, "The user's password is hunter2hunter2", [turn.event_id])
    refused = world.service.run("session_close", None, "s1")
    assert formed(world) == [] and refused.refused_hazard >= 1
    again = world.say("s1", "Another turn.")
    writer = EventWriter(events=world.storage.events, clock=world.clock, ids=world.ids)
    writer.append(
        EventType.WORKING_STATE_UPDATED,
        principal=world.principal,
        session_id="s1",
        actor="agent",
        trust=Trust.SYSTEM,
        payload={"facts": [{"source_event_ids": [again.event_id]}]},
    )
    assert world.service.run("manual", None, "s1").proposed == 0
    assert formed(world) == []


def test_an_established_fact_displaces_an_extractor_proposal_counted_rejected(
    storage: Storage, alice: Principal, make_harness: Any
) -> None:
    overlay = {"formation": {"established_facts_enabled": True, "max_candidates": 1}}
    harness = make_harness(storage, principal=alice, overlay=overlay)
    harness.open("s1")
    turn = harness.say("s1", "I use Git.")
    establish(harness, "The repository lives on Codeberg", [turn.event_id])
    result = harness.service.run("session_close", None, "s1")
    (fact,) = formed(harness)
    assert fact.authority is Authority.AFFIRMED and fact.subject == "codeberg"
    assert (result.proposed, result.committed, result.rejected) == (2, 1, 1)
    assert result.dropped_for_ceiling == 0


def test_a_restated_fact_is_a_same_source_no_op(world: Harness) -> None:
    turn = world.say("s1", "The office is in Leeds.")
    establish(world, "The office is in Leeds", [turn.event_id])
    world.service.run("session_close", None, "s1")
    before = formed(world)
    world.say("s1", "Thanks.")
    establish(world, "The office is in Leeds", [turn.event_id])
    result = world.service.run("manual", None, "s1")
    assert result.committed == 0 and formed(world) == before


@pytest.mark.parametrize(
    ("established", "proposed", "ceiling", "expected"),
    [(0, 5, 3, (3, 0, 2)), (2, 5, 3, (3, 2, 2)), (2, 1, 3, (3, 0, 0)), (4, 2, 3, (3, 2, 1))],
)
def test_the_ceiling_counts_displaced_and_dropped_apart(
    established: int, proposed: int, ceiling: int, expected: tuple[int, int, int]
) -> None:
    kept, displaced, dropped = apply_ceiling(
        [f"e{n}" for n in range(established)],
        [f"p{n}" for n in range(proposed)],
        ceiling,
    )
    assert (len(kept), displaced, dropped) == expected
    assert len(kept) + displaced + dropped == established + proposed
    assert kept[: min(established, ceiling)] == [f"e{n}" for n in range(min(established, ceiling))]
