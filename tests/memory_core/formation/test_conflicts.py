"""Gate 17: a lower-authority contradiction is conflicted, not resolved, and surfaces in recall.

Runs on every storage tier (the ``harness`` fixture), so PostgreSQL stores and returns the
links, the review flag and the fresh store position exactly as the in-memory tier does.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from memory_core import Authority, Belief, BeliefStatus, Trust
from memory_core.base.events import EventType
from memory_core.base.model import ToolCall
from memory_core.formation import (
    Candidate,
    DeterministicExtractor,
    GovernedMemoryService,
    Turn,
)
from memory_core.formation.service import ConsolidationResult
from memory_core.profiles import load_profiles
from memory_core.retrieval import MemoryRetriever, RecallRequest
from memory_core.runtime import REMEMBER_TOOL, ToolContext, ToolExecutor

GATE = pytest.mark.gate("gate.memory.conflict_surfaced")
Harness = Any


class InferringExtractor:
    """The deterministic extractor's candidates at INFERRED authority (as a provider's are)."""

    policy_version = DeterministicExtractor().policy_version

    def extract(self, turn: Turn) -> list[Candidate]:
        return [
            replace(c, authority=Authority.INFERRED, confidence=0.6)
            for c in DeterministicExtractor().extract(turn)
        ]


class RephrasingExtractor:
    """An upgraded policy that words home locations differently (so a replay is not a no-op)."""

    policy_version = DeterministicExtractor().policy_version

    def extract(self, turn: Turn) -> list[Candidate]:
        return [
            replace(c, statement=c.statement.replace(".", ", as the user said."))
            for c in DeterministicExtractor().extract(turn)
        ]


def service_with(harness: Harness, extractor: Any, **overlay: Any) -> GovernedMemoryService:
    return GovernedMemoryService(
        storage=harness.storage,
        clock=harness.clock,
        ids=harness.ids,
        principal=harness.principal,
        profiles=load_profiles(overlay or None),
        extractor=extractor,
    )


def retriever(harness: Harness, **overlay: Any) -> MemoryRetriever:
    return MemoryRetriever(
        memories=harness.storage.memories,
        traces=harness.storage.traces,
        clock=harness.clock,
        ids=harness.ids,
        profiles=load_profiles(overlay or None),
        timer=lambda: 0.0,
    )


def only(harness: Harness, statement: str) -> Belief:
    beliefs: list[Belief] = harness.service.list_memories()
    (belief,) = [b for b in beliefs if b.statement == statement]
    return belief


def user_lives_in_oslo(harness: Harness) -> Belief:
    harness.open("s1")
    harness.say("s1", "I live in Oslo.")
    harness.service.run("session_close", None, "s1")
    return only(harness, "User lives in Oslo.")


def assert_conflicted(
    harness: Harness, result: ConsolidationResult, original: Belief, statement: str
) -> Belief:
    """The shape every conflict leaves: flagged, linked both ways, both live, one request."""
    assert (result.committed, result.conflicted, result.confirmations_requested) == (1, 1, 1)
    assert (result.superseded, result.reinforced) == (0, 0)
    flagged = only(harness, statement)
    disputed = harness.storage.memories.get(harness.principal, original.id)
    assert disputed is not None
    assert flagged.needs_review and flagged.conflicts_with == (original.id,)
    assert disputed.conflicts_with == (flagged.id,) and not disputed.needs_review
    assert flagged.is_live and disputed.is_live and disputed.status is BeliefStatus.ACTIVE
    assert disputed.superseded_by is None and flagged.supersedes is None
    # being disputed is a state change: the original takes a fresh store position
    assert disputed.store_position > flagged.store_position > original.store_position
    assert disputed.valid_from == original.valid_from  # its instant is untouched
    assert set(result.belief_ids) == {flagged.id, original.id}
    kinds = [e.event_type for e in harness.memory_events()]
    assert kinds[-2:] == ["memory.formed", EventType.MEMORY_NEEDS_CONFIRMATION]
    request = harness.memory_events()[-1]
    assert request.payload["belief_id"] == flagged.id
    assert request.payload["conflicts_with"] == [original.id]
    assert "Oslo" not in json.dumps(request.payload) and "Bergen" not in json.dumps(request.payload)
    return flagged


def recall_both(harness: Harness, original: Belief, flagged: Belief, **overlay: Any) -> str:
    result = retriever(harness, **overlay).recall(
        RecallRequest(principal=harness.principal, moment="in_turn", text="Where do I live?")
    )
    returned = {b.id for b in result.beliefs}
    assert {original.id, flagged.id} <= returned
    assert flagged.id not in result.trace.blocked
    lines = result.block.splitlines()
    (original_line,) = [line for line in lines if f"[m:{original.short_id}]" in line[:12]]
    (flagged_line,) = [line for line in lines if f"[m:{flagged.short_id}]" in line[:12]]
    assert original_line.endswith(f"conflicts=[m:{flagged.short_id}]")
    assert flagged_line.endswith(f"conflicts=[m:{original.short_id}]")
    return result.block


@GATE
def test_an_inference_contradicting_the_user_is_conflicted_and_both_surface(
    harness: Harness,
) -> None:
    original = user_lives_in_oslo(harness)
    harness.open("s2")
    harness.say("s2", "I live in Bergen.")
    result = service_with(harness, InferringExtractor()).run("session_close", None, "s2")
    flagged = assert_conflicted(harness, result, original, "User lives in Bergen.")
    assert flagged.authority is Authority.INFERRED
    block = recall_both(harness, original, flagged)
    assert "User lives in Oslo." in block and "User lives in Bergen." in block


@GATE
def test_conflict_partners_bypass_the_per_subject_cap(harness: Harness) -> None:
    original = user_lives_in_oslo(harness)
    harness.open("s2")
    harness.say("s2", "I live in Bergen.")
    service_with(harness, InferringExtractor()).run("session_close", None, "s2")
    flagged = only(harness, "User lives in Bergen.")
    overlay = {"retrieval": {"per_subject_cap": 1}}
    recall_both(harness, original, flagged, **overlay)


@GATE
def test_a_model_written_remember_is_affirmed_and_cannot_overwrite_the_user(
    harness: Harness,
) -> None:
    original = user_lives_in_oslo(harness)
    harness.open("s2")
    ask = harness.say("s2", "My sister lives in Bergen, please remember that.")
    tools = ToolExecutor(
        events=harness.storage.events, rememberer=harness.service, enabled_tools=[REMEMBER_TOOL]
    )
    context = ToolContext(
        principal=harness.principal, session_id="s2", run_id="r1", source_event_id=ask.event_id
    )
    call = ToolCall(id="c1", name=REMEMBER_TOOL, arguments={"statement": "I live in Bergen."})
    reported = json.loads(tools.execute(call, context).content)
    assert (reported["committed"], reported["conflicted"], reported["superseded"]) == (1, 1, 0)
    flagged = only(harness, "User lives in Bergen.")
    assert flagged.authority is Authority.AFFIRMED and flagged.confidence <= 0.7
    assert flagged.needs_review and flagged.conflicts_with == (original.id,)
    recall_both(harness, original, flagged)


def test_the_users_own_remember_is_user_authority_and_supersedes(harness: Harness) -> None:
    user_lives_in_oslo(harness)
    harness.open("s2")
    ask = harness.say("s2", "I moved: I live in Bergen now, remember that.")
    result = harness.service.remember(
        "I live in Bergen.", session_id="s2", source_event_id=ask.event_id, trust=Trust.USER
    )
    assert (result.committed, result.superseded, result.conflicted) == (1, 1, 0)
    bergen = only(harness, "User lives in Bergen.")
    assert bergen.authority is Authority.USER and not bergen.needs_review
    assert only(harness, "User lives in Oslo.").status is BeliefStatus.SUPERSEDED


def test_a_later_user_statement_still_supersedes(harness: Harness) -> None:
    user_lives_in_oslo(harness)
    harness.open("s2")
    harness.say("s2", "I live in Bergen.")
    result = harness.service.run("session_close", None, "s2")
    assert (result.superseded, result.conflicted, result.confirmations_requested) == (1, 0, 0)
    assert harness.statements() == ["User lives in Bergen."]


def test_a_replay_of_older_evidence_conflicts_instead_of_reverting(harness: Harness) -> None:
    harness.open("s1")
    harness.say("s1", "I live in Oslo.")
    harness.service.run("session_close", None, "s1")
    harness.open("s2")
    harness.say("s2", "I live in Bergen.")
    harness.service.run("session_close", None, "s2")
    bergen = only(harness, "User lives in Bergen.")
    # an upgraded policy re-reads s1: its Oslo statement is older than the standing Bergen
    result = service_with(harness, RephrasingExtractor()).replay("s1")
    assert (result.committed, result.conflicted, result.superseded) == (1, 1, 0)
    replayed = only(harness, "User lives in Oslo, as the user said.")
    assert replayed.needs_review and replayed.conflicts_with == (bergen.id,)
    assert only(harness, "User lives in Bergen.").is_live  # the current belief is not reverted
    assert only(harness, "User lives in Oslo.").status is BeliefStatus.SUPERSEDED


def test_the_same_session_orders_by_source_event(harness: Harness) -> None:
    harness.open("s1")
    harness.say("s1", "I live in Oslo.")
    harness.say("s1", "I live in Bergen.")
    later_turn = harness.service.run("session_close", None, "s1")
    assert (later_turn.superseded, later_turn.conflicted) == (1, 0)
    # one turn, two values: no later source event orders them, so the second is disputed
    harness.open("s2")
    harness.say("s2", "I live in Paris. I live in Rome.")
    same_turn = harness.service.run("session_close", None, "s2")
    assert same_turn.conflicted == 1
    rome = only(harness, "User lives in Rome.")
    assert rome.needs_review and rome.conflicts_with == (only(harness, "User lives in Paris.").id,)


def test_a_rerun_after_a_conflict_changes_nothing(harness: Harness) -> None:
    user_lives_in_oslo(harness)
    harness.open("s2")
    harness.say("s2", "I live in Bergen.")
    inferring = service_with(harness, InferringExtractor())
    inferring.run("session_close", None, "s2")
    before = harness.snapshot(("s1", "s2"))
    again = inferring.replay("s2")
    assert (again.committed, again.conflicted, again.confirmations_requested) == (0, 0, 0)
    assert harness.snapshot(("s1", "s2"))[0] == before[0]


def test_rejecting_one_side_unlinks_the_other(harness: Harness) -> None:
    original = user_lives_in_oslo(harness)
    harness.open("s2")
    harness.say("s2", "I live in Bergen.")
    service_with(harness, InferringExtractor()).run("session_close", None, "s2")
    flagged = only(harness, "User lives in Bergen.")
    linked = harness.storage.memories.get(harness.principal, original.id)
    harness.service.reject(flagged.id)
    survivor = harness.storage.memories.get(harness.principal, original.id)
    assert survivor is not None and linked is not None
    assert survivor.conflicts_with == () and survivor.is_live
    assert survivor.store_position > linked.store_position
    result = retriever(harness).recall(
        RecallRequest(principal=harness.principal, moment="in_turn", text="Where do I live?")
    )
    assert [b.id for b in result.beliefs] == [original.id]
    assert "conflicts=" not in result.block


def test_the_user_saying_what_the_inference_said_settles_the_conflict(harness: Harness) -> None:
    original = user_lives_in_oslo(harness)
    harness.open("s2")
    harness.say("s2", "I live in Bergen.")
    service_with(harness, InferringExtractor()).run("session_close", None, "s2")
    flagged = only(harness, "User lives in Bergen.")
    harness.open("s3")
    harness.say("s3", "I live in Bergen.")
    result = harness.service.run("session_close", None, "s3")
    assert (result.committed, result.superseded, result.reinforced) == (1, 2, 0)
    (settled,) = harness.live()
    assert settled.statement == "User lives in Bergen." and settled.authority is Authority.USER
    assert not settled.needs_review and settled.conflicts_with == ()
    for old in (original, flagged):
        gone = harness.storage.memories.get(harness.principal, old.id)
        assert gone is not None and gone.status is BeliefStatus.SUPERSEDED
