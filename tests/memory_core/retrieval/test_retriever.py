"""MemoryRetriever.recall end to end over each storage tier."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memory_core import Principal, UsageError
from memory_core.domain import BeliefStatus
from memory_core.policy import RETRIEVAL_POLICY
from memory_core.profiles import load_profiles
from memory_core.retrieval import MemoryRetriever, RecallRequest, render_header, render_line
from memory_core.tokenizer import estimate_tokens


def _relocation(world: Any, alice: Principal) -> dict[str, Any]:
    """The spec's first worked scenario, as formation would leave the store."""
    seattle = world.put(
        alice,
        "User lives in Seattle.",
        subject="home location",
        belief_type="user_model_attr",
        scope="user",
    )
    employer = world.put(
        alice,
        "User works at Acme Labs as a data engineer.",
        subject="employment",
        belief_type="user_model_attr",
        scope="user",
    )
    concise = world.put(
        alice,
        "User prefers concise answers.",
        subject="answer style",
        belief_type="preference",
        scope="user",
    )
    wife = world.put(
        alice, "User's wife is Morgan.", subject="wife", belief_type="relationship", scope="user"
    )
    fridays = world.put(
        alice,
        "The team decided to deploy on Fridays for the rest of the quarter.",
        subject="project decision",
    )
    portland = world.put(
        alice,
        "User lives in Portland now.",
        subject="home location",
        belief_type="user_model_attr",
        scope="user",
        supersedes=seattle.id,
    )
    world.storage.memories.update(
        seattle.model_copy(
            update={
                "status": BeliefStatus.SUPERSEDED,
                "superseded_by": portland.id,
                "valid_to": world.clock.now(),
            }
        )
    )
    return {
        "seattle": seattle,
        "employer": employer,
        "concise": concise,
        "wife": wife,
        "fridays": fridays,
        "portland": portland,
    }


# what in-turn recall finds ------------------------------------------------------------------


def test_in_turn_finds_the_current_home_and_never_the_superseded_one(
    world: Any, alice: Principal
) -> None:
    b = _relocation(world, alice)
    result = world.recall(alice, "Where do I live now?")
    assert b["portland"].id in result.trace.returned
    assert b["seattle"].id not in result.trace.returned
    assert "Seattle" not in result.block
    assert render_line(b["portland"]) in result.block.split("\n")


@pytest.mark.parametrize(
    ("question", "labels"),
    [
        ("Who is my spouse, and which company do I work for?", {"wife", "employer"}),
        ("How do I like my answers formatted?", {"concise"}),
        ("What did we decide about deploy days this quarter?", {"fridays"}),
    ],
)
def test_in_turn_finds_what_the_worked_probes_need(
    world: Any, alice: Principal, question: str, labels: set[str]
) -> None:
    b = _relocation(world, alice)
    returned = set(world.recall(alice, question).trace.returned)
    assert {b[label].id for label in labels} <= returned


def test_in_turn_returns_only_what_the_turn_touches(world: Any, alice: Principal) -> None:
    b = _relocation(world, alice)
    result = world.recall(alice, "Where do I live now?")
    assert result.trace.returned == (b["portland"].id,)


def test_a_month_in_the_question_finds_a_belief_dated_in_it(world: Any, alice: Principal) -> None:
    january = world.put(alice, "User ran the Harbor 10k on 2026-01-21.", subject="harbor 10k")
    march = world.put(alice, "User painted the fence on 2026-03-14.", subject="fence")
    returned = world.recall(alice, "What did I do in January?").trace.returned
    assert january.id in returned and march.id not in returned


def test_lexical_matching_is_by_whole_lexeme(world: Any, alice: Principal) -> None:
    world.put(alice, "User works on the Apple account.", subject="account")
    app = world.put(alice, "User wrote the app in Rust.", subject="app")
    result = world.recall(alice, "Tell me about the app")
    assert result.trace.returned == (app.id,)


def test_a_turn_of_stopwords_recalls_nothing_but_is_traced(world: Any, alice: Principal) -> None:
    _relocation(world, alice)
    result = world.recall(alice, "Thanks, that is all!")
    assert result.block == ""
    assert result.beliefs == ()
    assert result.trace.returned == ()
    assert result.trace.rendered_tokens == 0
    assert world.storage.traces.get(alice, result.trace.trace_id) == result.trace


def test_a_named_subject_is_found_by_the_subject_arm(world: Any, alice: Principal) -> None:
    style = world.put(alice, "Bullet points first.", subject="answer style", scope="user")
    result = world.recall(alice, "Remind me of my answer style")
    assert style.id in result.trace.returned
    assert result.trace.candidate_counts is not None
    assert result.trace.candidate_counts["subject"] == 1


# policy: what is withheld, excluded or invisible --------------------------------------------


def test_needs_review_and_named_successors_are_blocked(world: Any, alice: Principal) -> None:
    flagged = world.put(alice, "User drinks coffee daily.", needs_review=True)
    lagging = world.put(alice, "User drinks coffee black.", superseded_by="later-belief-id")
    fine = world.put(alice, "User drinks coffee with oat milk.")
    result = world.recall(alice, "How do I take my coffee?")
    assert result.trace.returned == (fine.id,)
    assert result.trace.blocked == tuple(sorted((flagged.id, lagging.id)))
    assert result.trace.candidate_total == 1


def test_non_live_beliefs_are_never_read(world: Any, alice: Principal) -> None:
    for status in ("SUPERSEDED", "EXPIRED", "RETIRED", "REJECTED"):
        world.put(alice, f"User owns a {status.lower()} kayak.", status=status)
    result = world.recall(alice, "Do I own a kayak?")
    assert result.block == ""
    assert result.trace.blocked == ()
    assert result.trace.candidate_counts == {
        "collapsed": 0,
        "lexical": 0,
        "over_subject_cap": 0,
        "recency": 0,
    }


def test_exclude_ids_and_min_store_position_are_honoured(world: Any, alice: Principal) -> None:
    old = world.put(alice, "User plays chess.")
    newer = world.put(alice, "User plays chess online.")
    newest = world.put(alice, "User plays chess on Sundays.")
    result = world.recall(
        alice,
        "chess",
        exclude_ids=frozenset({newest.id}),
        min_store_position=old.store_position,
    )
    assert result.trace.returned == (newer.id,)


def test_as_of_judges_validity(world: Any, alice: Principal) -> None:
    past = world.put(alice, "User rents a flat.", valid_to=world.clock.now() + timedelta(days=1))
    assert world.recall(alice, "flat").trace.returned == (past.id,)
    later = world.clock.now() + timedelta(days=2)
    assert world.recall(alice, "flat", as_of=later).trace.returned == ()


# ranking, collapse, per-subject cap ---------------------------------------------------------


def test_exact_duplicates_are_collapsed(world: Any, alice: Principal) -> None:
    first = world.put(alice, "User likes green tea.", belief_type="preference")
    world.put(alice, "user likes green tea", belief_type="preference")
    result = world.recall(alice, "tea")
    assert len(result.trace.returned) == 1
    assert result.trace.candidate_counts is not None
    assert result.trace.candidate_counts["collapsed"] == 1
    assert result.trace.returned[0] != first.id  # the newer copy ranks first and stays


def test_per_subject_cap_limits_one_subject(world: Any, alice: Principal) -> None:
    for i in range(4):
        world.put(alice, f"User visited Lisbon in trip {i}.", subject="travel")
    other = world.put(alice, "User wants to visit Lisbon again.", subject="wishes")
    result = world.recall(alice, "Lisbon")
    assert len(result.trace.returned) == 3
    assert other.id in result.trace.returned
    assert result.trace.candidate_counts is not None
    assert result.trace.candidate_counts["over_subject_cap"] == 2


def test_confidence_and_authority_order_equal_matches(world: Any, alice: Principal) -> None:
    weak = world.put(alice, "User maybe likes jazz.", confidence=0.3, authority="INFERRED")
    strong = world.put(alice, "User likes jazz.", confidence=0.95, authority="USER")
    # store order puts the weak one... before the strong one; ranking must still prefer strong
    assert world.recall(alice, "jazz").trace.returned == (strong.id, weak.id)


def test_active_outranks_provisional(world: Any, alice: Principal) -> None:
    active = world.put(alice, "User climbs.", status="ACTIVE")
    provisional = world.put(alice, "User climbs often.", status="PROVISIONAL")
    assert world.recall(alice, "climbs").trace.returned == (active.id, provisional.id)


# budgets ------------------------------------------------------------------------------------


def test_in_turn_defaults_to_the_profile_budget(world: Any, alice: Principal) -> None:
    for i in range(12):
        world.put(alice, f"User read book number {i}.", subject=f"book {i}")
    result = world.recall(alice, "book")
    assert result.trace.returned_count == load_profiles().retrieval.in_turn.max_items == 8
    assert result.trace.dropped_count == 4
    assert len(result.trace.dropped_for_budget or ()) == 4
    assert result.trace.candidate_total == 12


def test_budgets_cap_items_and_tokens_with_overflow_dropped(world: Any, alice: Principal) -> None:
    beliefs = [world.put(alice, f"User read novel {i}.", subject=f"n{i}") for i in range(5)]
    result = world.recall(alice, "novel", max_items=2)
    assert len(result.block.split("\n")) == 3
    assert result.trace.dropped_count == 3
    assert set(result.trace.dropped_for_budget or ()) | set(result.trace.returned) == {
        b.id for b in beliefs
    }
    tight = estimate_tokens(render_header("in_turn")) + 12
    result = world.recall(alice, "novel", max_tokens=tight)
    assert estimate_tokens(result.block) <= tight
    assert result.trace.returned_count == 1
    assert result.trace.rendered_tokens == estimate_tokens(result.block)


def test_a_budget_smaller_than_the_header_returns_nothing(world: Any, alice: Principal) -> None:
    only = world.put(alice, "User sails.")
    result = world.recall(alice, "sails", max_tokens=2)
    assert result.block == ""
    assert result.trace.dropped_for_budget == (only.id,)


# snapshot -----------------------------------------------------------------------------------


def test_snapshot_reserves_durable_slots_against_a_project_burst(
    world: Any, alice: Principal
) -> None:
    prefs = [
        world.put(
            alice,
            f"User prefers option {i}.",
            subject=f"pref {i}",
            belief_type="preference",
            scope="user",
        )
        for i in range(3)
    ]
    burst = [
        world.put(alice, f"Orbit decision {i}.", subject=f"decision {i}", scope="project:orbit")
        for i in range(10)
    ]
    result = world.recall(alice, project_scope="orbit", max_items=4, max_tokens=1000)
    returned = set(result.trace.returned)
    assert len(returned) == 4
    assert len(returned & {p.id for p in prefs}) >= 2  # ceil(0.5 * 4) reserved
    assert len(returned & {b.id for b in burst}) <= 2


def test_snapshot_finds_durable_beliefs_beyond_the_recency_window(
    world: Any, alice: Principal
) -> None:
    pref = world.put(
        alice, "User prefers tabs.", subject="indent", belief_type="preference", scope="user"
    )
    for i in range(70):  # more than the recency arm reads (max(2 * 8, 64))
        world.put(alice, f"Orbit note {i}.", subject=f"note {i}", scope="project:orbit")
    result = world.recall(alice, project_scope="orbit", max_items=2, max_tokens=1000)
    assert pref.id in result.trace.returned
    assert result.trace.candidate_counts is not None
    assert result.trace.candidate_counts["durable"] == 1


def test_snapshot_header_and_policy(world: Any, alice: Principal) -> None:
    b = _relocation(world, alice)
    result = world.recall(alice, max_items=12, max_tokens=600)
    assert result.block.split("\n")[0] == f"Memory ({RETRIEVAL_POLICY}, snapshot):"
    assert result.trace.moment == "snapshot"
    assert result.trace.policy_version == RETRIEVAL_POLICY
    # standing context only: the preference and the user-model attributes, the current home
    # and never the superseded one
    assert set(result.trace.returned) == {b["portland"].id, b["employer"].id, b["concise"].id}


def test_snapshot_leaves_relationships_and_other_scopes_facts_to_the_turn(
    world: Any, alice: Principal
) -> None:
    b = _relocation(world, alice)
    snapshot = world.recall(alice, max_items=12, max_tokens=600)
    assert b["wife"].id not in snapshot.trace.returned
    assert b["fridays"].id not in snapshot.trace.returned  # a general-scope fact
    assert snapshot.trace.dropped_for_budget == ()  # not candidates, so never dropped
    # the turn that touches them recalls them
    turn = world.recall(alice, "Is my wife free on deploy Fridays?")
    assert {b["wife"].id, b["fridays"].id} <= set(turn.trace.returned)


def test_a_project_snapshot_primes_that_projects_own_beliefs(world: Any, alice: Principal) -> None:
    pref = world.put(
        alice, "User prefers tabs.", subject="indent", belief_type="preference", scope="user"
    )
    orbit = world.put(
        alice, "The team chose Kafka.", subject="project decision", scope="project:orbit"
    )
    general = world.put(alice, "The team chose Fridays.", subject="project decision")
    for _ in range(70):  # a burst that pushes the project belief out of the recency window
        world.put(alice, "User's friend is Sam.", subject="friend", belief_type="relationship")
    in_orbit = world.recall(alice, project_scope="orbit", max_items=12, max_tokens=600)
    assert set(in_orbit.trace.returned) == {pref.id, orbit.id}
    assert in_orbit.trace.candidate_counts is not None
    assert in_orbit.trace.candidate_counts["project"] == 1
    outside = world.recall(alice, max_items=12, max_tokens=600)
    assert set(outside.trace.returned) == {pref.id}
    assert general.id not in outside.trace.returned


# person questions ---------------------------------------------------------------------------


def _people(world: Any, alice: Principal) -> dict[str, Any]:
    return {
        "neighbor": world.put(
            alice, "User's neighbor is Walt.", subject="neighbor", belief_type="relationship"
        ),
        "colleague": world.put(
            alice,
            "User's colleague is Dr. Hana Sato.",
            subject="colleague",
            belief_type="relationship",
        ),
        "garden": world.put(
            alice,
            "User has a vegetable garden.",
            subject="vegetable garden",
            belief_type="user_model_attr",
        ),
    }


@pytest.mark.parametrize(
    "question",
    ["Who is traveling with me next week?", "Whose ladder did I borrow?", "To whom do I report?"],
)
def test_a_person_question_reads_the_relationships(
    world: Any, alice: Principal, question: str
) -> None:
    b = _people(world, alice)
    result = world.recall(alice, question)
    assert set(result.trace.returned) == {b["neighbor"].id, b["colleague"].id}
    assert result.trace.candidate_counts is not None
    assert result.trace.candidate_counts["person"] == 2


def test_a_person_question_that_names_the_relation_reads_only_that_person(
    world: Any, alice: Principal
) -> None:
    b = _people(world, alice)
    result = world.recall(alice, "Who is my neighbor?")
    assert result.trace.returned == (b["neighbor"].id,)
    assert result.trace.candidate_counts is not None
    assert "person" not in result.trace.candidate_counts


def test_a_question_that_asks_for_no_person_reads_no_relationship(
    world: Any, alice: Principal
) -> None:
    _people(world, alice)
    assert world.recall(alice, "What is traveling like next week?").trace.returned == ()


# the trace ----------------------------------------------------------------------------------


def test_trace_tiers_counts_and_expiries(world: Any, alice: Principal) -> None:
    b = _relocation(world, alice)
    result = world.recall(
        alice,
        "Where do I live now?",
        session_id="s1",
        run_id="r1",
        turn_id="t1",
    )
    trace = result.trace
    now = world.clock.now()
    profile = load_profiles().trace
    assert (trace.session_id, trace.run_id, trace.turn_id) == ("s1", "r1", "t1")
    assert trace.created_at == now
    assert trace.user_expires_at == now + timedelta(days=profile.user_retention_days)
    assert trace.operator_expires_at == now + timedelta(days=profile.operator_retention_days)
    assert trace.returned == (b["portland"].id,)
    assert [t.id for t in trace.beliefs] == [b["portland"].id]
    assert trace.beliefs[0].short_id == b["portland"].short_id
    assert trace.cited == ()
    assert trace.returned_count == 1
    assert trace.rendered_tokens == estimate_tokens(result.block)
    assert trace.arm_latencies_ms == {"lexical": 0.0, "recency": 0.0}
    assert trace.candidate_counts is not None
    assert trace.candidate_counts["recency"] == 5
    assert trace.dropped_for_budget == ()
    assert result.beliefs == (b["portland"],)
    assert world.storage.traces.get(alice, trace.trace_id) == trace


def test_counts_partition_the_candidates(world: Any, alice: Principal) -> None:
    for i in range(6):
        world.put(alice, f"User hikes trail {i}.", subject="hiking" if i < 4 else f"t{i}")
    world.put(alice, "User hikes trail 0.")
    trace = world.recall(alice, "hikes", max_items=2).trace
    counts = trace.candidate_counts
    assert counts is not None
    assert trace.candidate_total == (
        trace.returned_count
        + trace.dropped_count
        + counts["collapsed"]
        + counts["over_subject_cap"]
    )


def test_latencies_are_measured_with_the_timer(world: Any, alice: Principal) -> None:
    world.put(alice, "User knits.")
    ticks = iter(range(100))
    retriever = MemoryRetriever(
        memories=world.storage.memories,
        traces=world.storage.traces,
        clock=world.clock,
        ids=world.ids,
        profiles=load_profiles(),
        timer=lambda: next(ticks) / 1000.0,
    )
    trace = retriever.recall(RecallRequest(principal=alice, moment="in_turn", text="knits")).trace
    # recency and lexical are one read (search_keyed): one tick, shared equally
    assert trace.arm_latencies_ms == {"recency": 0.5, "lexical": 0.5}


# request validation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_fields", "message"),
    [
        ({"moment": "snapshot", "text": "hi"}, "snapshot recall takes no query text"),
        ({"moment": "in_turn"}, "needs the user's turn"),
        ({"moment": "corrections"}, "not supported"),
        ({"moment": "in_turn", "text": "x", "max_items": 0}, "at least 1 item"),
        ({"moment": "in_turn", "text": "x", "max_tokens": -1}, "at least 1 item and 1 token"),
        ({"moment": "in_turn", "text": "x", "project_scope": "Bad Name"}, "invalid project"),
        ({"moment": "in_turn", "text": "x", "min_store_position": -1}, "min_store_position"),
    ],
)
def test_bad_requests_are_usage_errors(
    world: Any, alice: Principal, request_fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        world.retriever().recall(RecallRequest(principal=alice, **request_fields))


def test_a_naive_as_of_is_refused(world: Any, alice: Principal) -> None:
    naive = world.clock.now().replace(tzinfo=None)
    with pytest.raises(UsageError, match="timezone-aware"):
        world.recall(alice, "x", as_of=naive)


def test_delta_recalls_only_what_is_new(world: Any, alice: Principal) -> None:
    old = world.put(alice, "User swims.", scope="user")
    new = world.put(alice, "User runs.", scope="user")
    result = world.recall(alice, moment="delta", min_store_position=old.store_position)
    assert result.trace.returned == (new.id,)
    assert result.block.startswith(render_header("delta"))


def test_a_belief_matching_more_of_the_turn_outranks_newer_weaker_matches(
    world: Any, alice: Principal
) -> None:
    # The lexical arm's weights are fused as scores, not flattened into ranks: the one
    # belief naming both the festival and the ferry leads, though three newer beliefs that
    # name only the ferry are more confident.
    both = world.put(
        alice, "User took the ferry to the lantern festival.", subject="trip", confidence=0.7
    )
    ferries = [
        world.put(alice, f"User missed the ferry on {day}.", subject=f"missed crossing {day}")
        for day in ("Monday", "Tuesday", "Wednesday")
    ]
    result = world.recall(alice, "When did I take the ferry to the festival?")
    assert result.trace.returned[0] == both.id
    assert set(result.trace.returned[1:]) == {b.id for b in ferries}


def test_recency_orders_the_matched_pool_not_the_newest_of_the_whole_store(
    world: Any, alice: Principal
) -> None:
    # The strong match is older than the recency arm's read (the 64 newest beliefs); its
    # recency vote is its rank among the matched candidates, so a newer weak match does not
    # outvote it on recency alone.
    strong = world.put(alice, "User took the ferry to the lantern festival.", subject="trip")
    for number in range(70):
        world.put(alice, f"User filed receipt {number}.", subject=f"receipt {number}")
    weak = world.put(alice, "User missed the ferry.", subject="missed crossing")
    result = world.recall(alice, "When did I take the ferry to the festival?")
    assert result.trace.returned[:2] == (strong.id, weak.id)
