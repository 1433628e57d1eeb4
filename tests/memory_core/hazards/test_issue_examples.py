"""Every example issue 13 quotes, through the public API, on both storage tiers.

Secrets and injected claims: 0 formed, 0 rendered. Benign turns with a trigger word: none
refused, and their facts form. ``remember``: 0 of the 9 ungrounded claims stored, a grounded
one stored at the model's authority.
"""

from __future__ import annotations

import pytest
from _support.hazard_examples import (
    ADMIN_CLAIM_WORDS,
    BENIGN_EXAMPLES,
    INJECTION_EXAMPLES,
    SECRET_EXAMPLES,
    UNGROUNDED_REMEMBERS,
)
from _support.hazard_world import compose, live_turns

from memory_core import Authority, BeliefStatus, Storage, Trust

BEFORE = "I live in Oslo."
AFTER = "I prefer green tea."


@pytest.mark.parametrize("name", sorted(SECRET_EXAMPLES))
def test_no_quoted_secret_forms_or_renders(name: str, storage: Storage) -> None:
    turns, fragments = SECRET_EXAMPLES[name]
    outcome = live_turns(compose(storage), [BEFORE, *turns, AFTER])
    for fragment in fragments:
        assert not outcome.leaks(fragment), fragment
    assert outcome.result.refused_hazard >= 1
    # The refusal is precise: the benign turns around the secret still form.
    assert any("Oslo" in s for s in outcome.statements)
    assert any("green tea" in s for s in outcome.statements)


@pytest.mark.parametrize("name", sorted(INJECTION_EXAMPLES))
def test_no_quoted_injected_claim_forms_or_renders(name: str, storage: Storage) -> None:
    outcome = live_turns(compose(storage), [BEFORE, *INJECTION_EXAMPLES[name]])
    for word in ADMIN_CLAIM_WORDS:
        assert not any(word in s.casefold() for s in outcome.statements), word
        assert word not in outcome.rendered.casefold(), word
    assert outcome.result.refused_hazard >= 1
    assert dict(outcome.result.refused_by_family)
    assert any("Oslo" in s for s in outcome.statements)


@pytest.mark.parametrize("name", sorted(BENIGN_EXAMPLES))
def test_no_quoted_benign_turn_is_refused(name: str, storage: Storage) -> None:
    text, formed = BENIGN_EXAMPLES[name]
    outcome = live_turns(compose(storage), [text])
    assert outcome.result.refused_hazard == 0
    assert outcome.result.refused_by_family == ()
    assert any(formed.casefold() in s.casefold() for s in outcome.statements), outcome.statements


def test_remember_stores_none_of_the_ungrounded_claims_and_a_grounded_one(
    storage: Storage,
) -> None:
    app = compose(storage)
    earlier = app.sessions.create()
    app.sessions.record_user_message(earlier.id, "I live in Oslo.")
    app.sessions.close(earlier.id)
    (oslo,) = app.memory.list_memories()
    session = app.sessions.create()
    stored = 0
    for said, claimed in UNGROUNDED_REMEMBERS.values():
        event = app.sessions.record_user_message(session.id, said)
        result = app.memory.remember(claimed, session_id=session.id, source_event_id=event.event_id)
        stored += result.committed + result.reinforced
        assert result.committed == 0 and result.superseded == 0, claimed
    assert stored == 0
    assert [b.id for b in app.memory.list_memories()] == [oslo.id]
    assert app.memory.list_memories()[0].status is BeliefStatus.ACTIVE

    event = app.sessions.record_user_message(session.id, "Please remember that I speak Norwegian.")
    result = app.memory.remember(  # as the memory.remember tool sends a model's statement
        "User speaks Norwegian.",
        session_id=session.id,
        source_event_id=event.event_id,
        trust=Trust.MEMORY,
    )
    assert result.committed == 1
    (kept,) = [b for b in app.memory.list_memories() if b.id != oslo.id]
    assert "Norwegian" in kept.statement
    assert kept.authority is Authority.AFFIRMED
    assert kept.source_event_ids == (event.event_id,)
    assert kept.confidence <= oslo.confidence
