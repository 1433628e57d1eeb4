"""Properties over generated belief sets: the token ceiling, scope isolation, determinism."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from memory_core import Principal
from memory_core.domain import RecallMoment, visible_scopes
from memory_core.profiles import load_profiles
from memory_core.retrieval import MemoryRetriever, RecallRequest, render_header
from memory_core.tokenizer import estimate_tokens

ALICE = Principal("tenant-1", "alice")
BOB = Principal("tenant-1", "bob")
MALLORY = Principal("tenant-2", "alice")  # same principal id, another tenant

WORDS = ["tea", "live", "lives", "home", "work", "works", "jazz", "Portland", "team", "deploy"]
SCOPES = ["user", "general", "project:alpha", "project:beta"]
TYPES = ["fact", "preference", "relationship", "user_model_attr", "procedure_pointer"]
STATUSES = ["ACTIVE", "PROVISIONAL", "SUPERSEDED", "REJECTED", "RETIRED"]

_text = (
    st.lists(
        st.one_of(st.sampled_from(WORDS), st.text(alphabet="abcxyz .,'-\n\té漢", max_size=12)),
        min_size=1,
        max_size=12,
    )
    .map(" ".join)
    .filter(lambda s: s.strip() != "")
)

beliefs_strategy = st.lists(
    st.fixed_dictionaries(
        {
            "owner": st.sampled_from([ALICE, ALICE, ALICE, BOB, MALLORY]),
            "statement": st.one_of(
                _text,
                st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join),
            ),
            "subject": st.sampled_from(["home location", "answer style", "topic", "x\ny"]),
            "belief_type": st.sampled_from(TYPES),
            "scope": st.sampled_from(SCOPES),
            "status": st.sampled_from([*STATUSES, "ACTIVE", "ACTIVE", "PROVISIONAL"]),
            "confidence": st.floats(0.0, 1.0),
            "evidence_count": st.integers(1, 20),
            "utility": st.floats(-1.0, 1.0),
            "needs_review": st.sampled_from([False, False, False, True]),
        }
    ),
    min_size=1,
    max_size=30,
)

request_strategy = st.fixed_dictionaries(
    {
        "text": st.one_of(
            st.none(),
            st.lists(st.sampled_from([*WORDS, "where", "do", "I"]), min_size=1, max_size=6).map(
                " ".join
            ),
        ),
        "project_scope": st.sampled_from([None, "alpha", "beta"]),
        "max_items": st.integers(1, 15),
        "max_tokens": st.one_of(st.integers(1, 60), st.integers(60, 400)),
        "share": st.sampled_from([0.0, 0.25, 0.5, 1.0]),
    }
)


def _fill(world: Any, beliefs: list[dict[str, Any]]) -> None:
    for spec in beliefs:
        fields = dict(spec)
        owner = fields.pop("owner")
        world.put(owner, fields.pop("statement"), **fields)


def _recall(world: Any, req: dict[str, Any]) -> Any:
    profiles = load_profiles({"retrieval": {"durable_item_share": req["share"]}})
    moment: RecallMoment = "snapshot" if req["text"] is None else "in_turn"
    return world.retriever(profiles).recall(
        RecallRequest(
            principal=ALICE,
            moment=moment,
            text=req["text"],
            project_scope=req["project_scope"],
            max_items=req["max_items"],
            max_tokens=req["max_tokens"],
        )
    )


_settings = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


_CROWDED = [
    {
        "owner": ALICE,
        "statement": f"tea home work jazz deploy team Portland {n}",
        "subject": f"topic {n}",
        "belief_type": "fact",
        "scope": "user",
        "status": "ACTIVE",
        "confidence": 0.9,
        "evidence_count": 1,
        "utility": 0.0,
        "needs_review": False,
    }
    for n in range(8)
]
"""Eight matching beliefs whose lines overflow a small token budget well before the item cap."""


@pytest.mark.gate("gate.memory.token_ceiling")
@_settings
@given(beliefs=beliefs_strategy, req=request_strategy)
@example(
    beliefs=_CROWDED,
    req={
        "text": "tea jazz",
        "project_scope": None,
        "max_items": 15,
        "max_tokens": 40,
        "share": 0.0,
    },
)
def test_gate_never_render_above_the_token_ceiling(
    make_world: Any, beliefs: list[dict[str, Any]], req: dict[str, Any]
) -> None:
    """gate.memory.token_ceiling: the whole block (header included) fits both budgets."""
    world = make_world()
    _fill(world, beliefs)
    result = _recall(world, req)
    block = result.block
    assert estimate_tokens(block) <= req["max_tokens"]
    lines = block.split("\n") if block else []
    assert max(0, len(lines) - 1) <= req["max_items"]
    assert result.trace.rendered_tokens == estimate_tokens(block)
    assert result.trace.returned_count == len(result.beliefs) == max(0, len(lines) - 1)
    event(f"returned {'some' if result.beliefs else 'none'}")
    event(f"dropped for budget {'some' if result.trace.dropped_count else 'none'}")
    if block:
        assert lines[0] == render_header(result.trace.moment)
    else:
        assert result.beliefs == ()


@pytest.mark.gate("gate.memory.scope_isolation")
@_settings
@given(beliefs=beliefs_strategy, req=request_strategy)
def test_gate_recall_never_crosses_a_principal_or_project_scope(
    make_world: Any, beliefs: list[dict[str, Any]], req: dict[str, Any]
) -> None:
    """gate.memory.scope_isolation: no tier of a recall names a belief the session can't see."""
    world = make_world()
    _fill(world, beliefs)
    result = _recall(world, req)
    visible = set(visible_scopes(req["project_scope"]))
    for belief in result.beliefs:
        assert belief.principal == ALICE
        assert belief.scope in visible
        assert belief.is_live
    trace = result.trace
    assert trace.principal == ALICE
    allowed = {
        b.id for b in world.storage.memories.list_beliefs(ALICE) if b.scope in visible and b.is_live
    }
    named = {*trace.returned, *trace.blocked, *(trace.dropped_for_budget or ())}
    assert named <= allowed
    assert {t.scope for t in trace.beliefs} <= visible
    # another principal can never read the trace
    assert world.storage.traces.get(BOB, trace.trace_id) is None
    assert world.storage.traces.get(MALLORY, trace.trace_id) is None


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(beliefs=beliefs_strategy, req=request_strategy)
def test_same_inputs_give_byte_identical_blocks_and_traces(
    make_world: Any, beliefs: list[dict[str, Any]], req: dict[str, Any]
) -> None:
    first, second = make_world(), make_world()
    _fill(first, beliefs)
    _fill(second, list(beliefs))
    one, two = _recall(first, req), _recall(second, req)
    assert one.block == two.block
    assert one.trace.model_dump_json() == two.trace.model_dump_json()


def test_traces_differ_only_in_latencies_under_the_default_timer(make_world: Any) -> None:
    dumps = []
    for _ in range(2):
        world = make_world()
        for word in WORDS:
            world.put(ALICE, f"User mentioned {word}.", subject=word, scope="user")
        retriever = MemoryRetriever(
            memories=world.storage.memories,
            traces=world.storage.traces,
            clock=world.clock,
            ids=world.ids,
            profiles=world.retriever().profiles,
        )
        result = retriever.recall(
            RecallRequest(principal=ALICE, moment="in_turn", text="where do I live, home?")
        )
        dumps.append((result.block, result.trace.model_dump_json(exclude={"arm_latencies_ms"})))
        assert set(result.trace.arm_latencies_ms or {}) == {"recency", "lexical", "subject"}
    assert dumps[0] == dumps[1]
