"""The resolver's ledger and the beliefs the governed service loads to resolve against."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Polarity,
    Principal,
    Storage,
)
from memory_core.domain import PORTABLE_TYPES
from memory_core.formation import Candidate, Ledger, Resolver, grounded
from memory_core.formation.provider import novel_content_words, retracted_object
from memory_core.formation.resolver import GROUNDING_FILLER, content_words

Harness = Any
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

SCOPES = ("user", "general", "project:alpha", "project:beta")
TYPES = (BeliefType.PREFERENCE, BeliefType.USER_MODEL_ATTR, BeliefType.FACT)
SUBJECTS = ("answer style", "Answer  Style.", "home location", "git", "git!", "the deploy window,")
STATEMENTS = (
    "User prefers concise answers.",
    "user prefers concise answers",
    "User lives in Oslo.",
    "User uses Git.",
    "User no longer uses Git.",
    "The deploy window is Tuesday.",
)
SOURCES = ("e1", "e2", "e3")
STATUSES = tuple(BeliefStatus)


def _belief(
    n: int,
    principal: Principal,
    *,
    belief_type: BeliefType,
    subject: str,
    statement: str,
    scope: str,
    status: BeliefStatus = BeliefStatus.ACTIVE,
    polarity: Polarity = Polarity.ASSERT,
    sources: tuple[str, ...] = ("e0",),
) -> Belief:
    return Belief(
        id=f"{n:08x}-0000-4000-8000-000000000000",
        tenant_id=principal.tenant_id,
        principal_id=principal.principal_id,
        belief_type=belief_type,
        subject=subject,
        statement=statement,
        polarity=polarity,
        scope=scope,
        status=status,
        authority=Authority.USER,
        confidence=0.9,
        source_event_ids=sources,
        valid_from=T0,
        last_evidence_at=T0,
        created_at=T0,
        updated_at=T0,
        consolidation_policy_version="formation@5",
    )


def _candidate(
    belief_type: BeliefType,
    subject: str,
    statement: str,
    *,
    polarity: Polarity = Polarity.ASSERT,
    exclusive: bool = True,
    sources: tuple[str, ...] = ("e1",),
    evidence_at: datetime = T0,
    authority: Authority = Authority.USER,
) -> Candidate:
    return Candidate(
        belief_type=belief_type,
        subject=subject,
        statement=statement,
        polarity=polarity,
        exclusive=exclusive,
        retracts="Git" if polarity is Polarity.RETRACT else None,
        source_event_ids=sources,
        evidence_at=evidence_at,
        authority=authority,
    )


def test_the_ledger_keeps_its_indexes_as_beliefs_change(alice: Principal) -> None:
    def stored(n: int, position: int, **fields: Any) -> Belief:
        belief = _belief(n, alice, belief_type=BeliefType.USER_MODEL_ATTR, **fields)
        return belief.model_copy(update={"store_position": position})

    seattle = stored(
        1, 1, subject="home location", statement="User lives in Seattle.", scope="user"
    )
    oslo = stored(2, 2, subject="Home Location.", statement="User lives in Oslo.", scope="user")
    elsewhere = stored(
        3, 3, subject="home location", statement="User lives in Oslo.", scope="general"
    )
    ledger = Ledger([elsewhere, oslo, seattle])
    assert ledger.all() == [seattle, oslo, elsewhere]
    live = ledger.live(scope="user", belief_type="user_model_attr", subject="HOME location")
    assert live == [seattle, oslo]
    oslo_key = ("user_model_attr", "home location", "user lives in oslo")
    assert ledger.with_key(oslo_key) == [oslo, elsewhere]

    retired = seattle.model_copy(update={"status": BeliefStatus.SUPERSEDED, "store_position": 4})
    ledger.put(retired)
    assert ledger.live(scope="user", belief_type="user_model_attr", subject="home location") == [
        oslo
    ]
    moved = oslo.model_copy(update={"statement": "User lives in Bergen.", "store_position": 5})
    ledger.put(moved)
    assert ledger.with_key(oslo_key) == [elsewhere]
    assert ledger.all() == [elsewhere, retired, moved]
    assert ledger.get(seattle.id) == retired


def _decisions(storage: Storage, service: Any, principal: Principal, candidates: Any) -> Any:
    """Each candidate's decision against every belief and against what the service loads."""
    everything = storage.memories.list_beliefs(principal)
    out = []
    for candidate in candidates:
        scope = "user" if candidate.belief_type in PORTABLE_TYPES else "project:alpha"
        full = Resolver().resolve(candidate, scope, Ledger(everything))
        loaded = Resolver().resolve(
            candidate, scope, service._ledger(principal, [(candidate, scope)])
        )
        out.append((full, loaded))
    return out


def _random_store(storage: Storage, principal: Principal, rng: random.Random, size: int) -> None:
    for n in range(size):
        storage.memories.put(
            _belief(
                n,
                principal,
                belief_type=rng.choice(TYPES),
                subject=rng.choice(SUBJECTS),
                statement=rng.choice(STATEMENTS),
                scope=rng.choice(SCOPES),
                status=rng.choice(STATUSES),
                polarity=rng.choice(tuple(Polarity)),
                sources=tuple(sorted(set(rng.sample(SOURCES, rng.randint(1, 2))))),
            )
        )


def _random_candidates(rng: random.Random, count: int) -> list[Candidate]:
    return [
        _candidate(
            rng.choice(TYPES),
            rng.choice(SUBJECTS),
            rng.choice(STATEMENTS),
            polarity=rng.choice(tuple(Polarity)),
            exclusive=rng.random() < 0.7,
            sources=(rng.choice(SOURCES),),
            evidence_at=T0 + timedelta(hours=rng.choice((0, 1))),
            authority=rng.choice(tuple(Authority)),
        )
        for _ in range(count)
    ]


def test_the_loaded_ledger_decides_as_the_whole_store_does(harness: Harness) -> None:
    rng = random.Random(20260302)
    _random_store(harness.storage, harness.principal, rng, 120)
    decisions = _decisions(
        harness.storage, harness.service, harness.principal, _random_candidates(rng, 120)
    )
    assert [full for full, _ in decisions] == [loaded for _, loaded in decisions]
    assert {full.kind for full, _ in decisions} == {
        "same_source",
        "duplicate",
        "conflict",
        "contradiction",
        "new",
    }


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), size=st.integers(0, 40))
def test_the_loaded_ledger_decides_as_the_whole_store_does_for_any_store(
    make_harness: Any, seed: int, size: int
) -> None:
    harness = make_harness()
    rng = random.Random(seed)
    _random_store(harness.storage, harness.principal, rng, size)
    decisions = _decisions(
        harness.storage, harness.service, harness.principal, _random_candidates(rng, 8)
    )
    assert [full for full, _ in decisions] == [loaded for _, loaded in decisions]


def test_consolidation_loads_only_beliefs_that_share_a_candidates_subject(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(40):
        harness.storage.memories.put(
            _belief(
                n,
                harness.principal,
                belief_type=BeliefType.FACT,
                subject=f"topic {n}",
                statement=f"User mentioned topic number {n} once.",
                scope="general",
            )
        )
    harness.open("s1")
    harness.say("s1", "I live in Portland. I use Neovim. I prefer concise answers.")
    memories = harness.storage.memories
    loaded: list[int] = []
    find_by_subject = memories.find_by_subject

    def counting_lookup(*args: Any, **kwargs: Any) -> Any:
        found = find_by_subject(*args, **kwargs)
        loaded.append(len(found))
        return found

    def no_reading(*_: Any, **__: Any) -> Any:
        raise AssertionError("consolidation read beliefs other than by subject")

    monkeypatch.setattr(memories, "find_by_subject", counting_lookup)
    monkeypatch.setattr(memories, "list_beliefs", no_reading)
    monkeypatch.setattr(memories, "search", no_reading)
    result = harness.service.run("session_close", None, "s1")
    assert result.committed == 3
    assert loaded == [0]  # one lookup; none of the 40 unrelated beliefs was read
    harness.say("s1", "I live in Seattle.")
    assert harness.service.run("manual", None, "s1").superseded == 1
    assert loaded == [0, 1]  # only the belief the new home location replaces


def test_one_content_word_rule_serves_resolution_grounding_and_the_provider() -> None:
    statement = "The team's user decided to use Postgres, didn't it?"
    assert content_words(statement) == {"team", "decided", "use", "postgres", "didn"}
    assert content_words(statement, filler=GROUNDING_FILLER) == {
        "decided",
        "use",
        "postgres",
        "didn",
    }
    # grounding ignores the "User"/"The team" lead on both sides, so a lead alone never grounds
    assert not grounded("The team decided.", "Our team is great.")
    assert grounded("The team uses Jira.", "We use Jira.")
    assert novel_content_words("The team adopted Jira.", "We use Jira.") == ["adopt"]
    assert retracted_object("apple watch", "User no longer uses an Apple Watch.") == "apple watch"
    assert retracted_object("team lunch", "User no longer joins the team lunch.") == "team lunch"
