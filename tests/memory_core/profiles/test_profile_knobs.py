"""gate.memory.profiles_wired, knob by knob: every knob of the document is read by the code.

Each test overlays one knob and observes the behaviour it controls change; the unknown-key test
walks every section of the shipped document, so a new section that forgets ``extra="forbid"``
fails here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memory_core import ConfigurationError, InMemoryStorage
from memory_core.bootstrap import build
from memory_core.clock import FixedClock
from memory_core.domain import Authority, Belief, BeliefStatus, BeliefType, Principal
from memory_core.ids import SequentialIdFactory
from memory_core.policy import SESSION_IDLE_SECONDS
from memory_core.profiles import MemoryProfiles, load_profiles, shipped_document
from memory_core.retrieval import MemoryRetriever, RecallRequest, RecallResult

OWNER = Principal("tests", "owner")

GATE = pytest.mark.gate("gate.memory.profiles_wired")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALICE = Principal("tenant-1", "alice")


def _sections(document: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, ...]]:
    yield tuple(prefix.split(".")) if prefix else ()
    for key, value in document.items():
        if isinstance(value, Mapping):
            yield from _sections(value, f"{prefix}.{key}" if prefix else key)


def _nested(path: tuple[str, ...], leaf: Mapping[str, Any]) -> dict[str, Any]:
    document: dict[str, Any] = dict(leaf)
    for key in reversed(path):
        document = {key: document}
    return document


def recall_over(
    profiles: MemoryProfiles,
    beliefs: list[dict[str, Any]],
    text: str | None = "Where do I live?",
    now: datetime = T0,
) -> RecallResult:
    """One recall by a retriever built from ``profiles`` over ``beliefs`` (put in order)."""
    storage, ids = InMemoryStorage(), SequentialIdFactory()
    for fields in beliefs:
        defaults: dict[str, Any] = {
            "id": ids.new_id(),
            "tenant_id": ALICE.tenant_id,
            "principal_id": ALICE.principal_id,
            "belief_type": BeliefType.USER_MODEL_ATTR,
            "subject": "home location",
            "scope": "user",
            "status": BeliefStatus.ACTIVE,
            "authority": Authority.USER,
            "confidence": 0.9,
            "source_event_ids": ("event-1",),
            "valid_from": T0 - timedelta(days=400),
            "last_evidence_at": T0,
            "created_at": T0 - timedelta(days=400),
            "updated_at": T0 - timedelta(days=400),
            "consolidation_policy_version": "formation@5",
        }
        storage.memories.put(Belief(**{**defaults, **fields}))
    retriever = MemoryRetriever(
        memories=storage.memories,
        traces=storage.traces,
        clock=FixedClock(now),
        ids=ids,
        profiles=profiles,
        timer=lambda: 0.0,
    )
    if text is None:
        return retriever.recall(RecallRequest(principal=ALICE, moment="snapshot"))
    return retriever.recall(RecallRequest(principal=ALICE, moment="in_turn", text=text))


def first_statement(result: RecallResult) -> str:
    statement: str = result.trace.beliefs[0].statement
    return statement


# -- unknown keys, at every level ---------------------------------------------------------------


@GATE
@pytest.mark.parametrize(
    "section", list(_sections(shipped_document())), ids=lambda p: ".".join(p) or "<root>"
)
def test_an_unknown_key_is_refused_in_every_section(section: tuple[str, ...]) -> None:
    with pytest.raises(ConfigurationError) as raised:
        load_profiles(_nested(section, {"no_such_knob": 1}))
    assert ".".join((*section, "no_such_knob")) in str(raised.value)


def test_the_document_has_every_section_the_spec_lists() -> None:
    sections = {".".join(p) for p in _sections(shipped_document())}
    assert {
        "retrieval",
        "retrieval.ranking_weights",
        "retrieval.lifecycle_weights",
        "retrieval.in_turn",
        "formation",
        "snapshot.async",
        "snapshot.child",
        "trace",
    } <= sections


# -- knobs that exist but refuse to turn on -----------------------------------------------------


@GATE
@pytest.mark.parametrize(("section", "knob"), [("retrieval", "semantic_enabled")])
def test_a_feature_outside_this_build_exists_off_and_refuses_to_turn_on(
    section: str, knob: str
) -> None:
    assert getattr(getattr(load_profiles(), section), knob) is False
    assert getattr(getattr(load_profiles({section: {knob: False}}), section), knob) is False
    with pytest.raises(ConfigurationError) as raised:
        load_profiles({section: {knob: True}})
    message = str(raised.value)
    assert f"{section}.{knob}" in message
    assert "not part of this build" in message
    assert "set it to false" in message


@GATE
def test_established_facts_ship_off_and_an_overlay_turns_them_on() -> None:
    assert load_profiles().formation.established_facts_enabled is False
    overlay = {"formation": {"established_facts_enabled": True}}
    assert load_profiles(overlay).formation.established_facts_enabled is True


# -- retrieval knobs ----------------------------------------------------------------------------

# Three equally matching home beliefs: the oldest the most trusted, the newest the least, so
# the fused match (which favours the newest) and confidence/authority disagree.
_HOMES = [
    {"statement": "User lives near Lisbon.", "confidence": 0.95, "authority": Authority.USER},
    {"statement": "User lives near Porto.", "confidence": 0.8, "authority": Authority.AFFIRMED},
    {"statement": "User lives near Faro.", "confidence": 0.5, "authority": Authority.INFERRED},
]


@GATE
def test_overlay_reciprocal_rank_fusion_k_changes_the_order() -> None:
    # With the match weight dominant, a small k separates adjacent ranks enough for fusion to
    # put the newest first; a huge k flattens fusion until confidence and authority decide.
    def first(k: int) -> str:
        overlay = {
            "retrieval": {
                "per_subject_cap": 3,
                "reciprocal_rank_fusion_k": k,
                "ranking_weights": {"match": 100.0, "confidence": 0.001, "authority": 0.001},
            }
        }
        return first_statement(recall_over(load_profiles(overlay), _HOMES))

    assert first(60) == "User lives near Faro."
    assert first(10_000_000) == "User lives near Lisbon."


@GATE
def test_overlay_lifecycle_weights_change_the_order() -> None:
    beliefs = [
        {"statement": "User lives near Lisbon.", "status": BeliefStatus.ACTIVE},
        {"statement": "User lives near Porto.", "status": BeliefStatus.PROVISIONAL},
    ]

    def first(active: float, provisional: float) -> str:
        weights = {"active": active, "provisional": provisional}
        overlay = {"retrieval": {"lifecycle_weights": weights}}
        return first_statement(recall_over(load_profiles(overlay), beliefs))

    assert first(1.0, 0.6) == "User lives near Lisbon."
    assert first(0.1, 1.0) == "User lives near Porto."
    with pytest.raises(ConfigurationError, match=r"lifecycle_weights\.provisional"):
        load_profiles({"retrieval": {"lifecycle_weights": {"provisional": 0}}})


@GATE
def test_overlay_user_retention_days_changes_the_user_expiry() -> None:
    overlay = {"trace": {"user_retention_days": 10}}
    trace = recall_over(load_profiles(overlay), _HOMES).trace
    assert trace.user_expires_at == trace.created_at + timedelta(days=10)
    assert trace.operator_expires_at == trace.created_at + timedelta(days=30)


# -- formation knobs ----------------------------------------------------------------------------


@GATE
def test_overlay_session_boundary_enabled_false_short_circuits_both_sweeps() -> None:
    def formed_and_swept(enabled: bool) -> tuple[int, int]:
        app = build(
            principal=OWNER,
            fixed_clock_at=T0,
            sequential_ids=True,
            profile_overlay={"formation": {"session_boundary_enabled": enabled}},
        )
        closed = app.sessions.create()
        app.sessions.record_user_message(closed.id, "I live in Seattle.")
        app.sessions.close(closed.id)
        idle = app.sessions.create()
        app.sessions.record_user_message(idle.id, "I prefer tea.")
        app.advance(SESSION_IDLE_SECONDS + 1)
        swept = app.sessions.sweep_idle()
        return len(app.memory.list_memories()), swept

    assert formed_and_swept(True) == (2, 1)
    assert formed_and_swept(False) == (0, 0)


@GATE
def test_overlay_max_candidates_caps_a_consolidation() -> None:
    def closure_counts(ceiling: int) -> tuple[int, int]:
        app = build(
            principal=OWNER,
            fixed_clock_at=T0,
            sequential_ids=True,
            profile_overlay={"formation": {"max_candidates": ceiling}},
        )
        session = app.sessions.create()
        app.sessions.record_user_message(
            session.id, "I live in Seattle. I prefer tea. I work at Acme Labs."
        )
        consolidation = app.sessions.close(session.id).consolidation
        assert consolidation is not None
        return consolidation.committed, consolidation.dropped_for_ceiling

    assert closure_counts(32) == (3, 0)
    assert closure_counts(1) == (1, 2)


# -- retrieval@2 ranking knobs ------------------------------------------------------------------


@GATE
def test_overlay_decay_tau_days_fades_the_reinforce_term() -> None:
    # The newer belief is well reinforced but last evidenced 400 days ago; the older one has
    # one fresh piece of evidence. Without fading, reinforcement (and fusion) favour the
    # newer; with a 30-day fact clock its reinforcement has faded to nothing.
    beliefs: list[dict[str, Any]] = [
        {"statement": "The office is in Lisbon.", "belief_type": BeliefType.FACT},
        {
            "statement": "The office is in Porto.",
            "belief_type": BeliefType.FACT,
            "evidence_count": 10,
            "last_evidence_at": T0 - timedelta(days=400),
        },
    ]

    def first(fact_tau: float) -> str:
        overlay = {"retrieval": {"decay_tau_days": {"fact": fact_tau}}}
        return first_statement(recall_over(load_profiles(overlay), beliefs, "Where is the office?"))

    assert first(1e9) == "The office is in Porto."
    assert first(30) == "The office is in Lisbon."
    # the user-model clock is a different knob: changing it leaves these facts alone
    assert first_statement(
        recall_over(
            load_profiles({"retrieval": {"decay_tau_days": {"user_model_attr": 1}}}),
            beliefs,
            "Where is the office?",
        )
    ) == ("The office is in Lisbon.")


@GATE
def test_overlay_near_duplicate_penalty_demotes_the_second_phrasing() -> None:
    beliefs: list[dict[str, Any]] = [
        {"statement": "User lives near the Lisbon city centre.", "confidence": 0.95},
        {"statement": "User lives near the Lisbon city centre now.", "confidence": 0.9},
        {
            "statement": "User lives with two cats.",
            "subject": "pets",
            "confidence": 0.6,
            "authority": Authority.INFERRED,
        },
    ]

    def order(penalty: float) -> list[str]:
        overlay = {"retrieval": {"near_duplicate_penalty": penalty, "per_subject_cap": 3}}
        result = recall_over(load_profiles(overlay), beliefs, "Where do I live?")
        return [t.statement for t in result.trace.beliefs]

    assert order(0.0) == [
        "User lives near the Lisbon city centre.",
        "User lives near the Lisbon city centre now.",
        "User lives with two cats.",
    ]
    assert order(5.0) == [  # demoted below the cats, not deleted
        "User lives near the Lisbon city centre.",
        "User lives with two cats.",
        "User lives near the Lisbon city centre now.",
    ]
