"""Generated secrets of every family and injections of every template x language x
obfuscation, on both storage tiers: none forms, none renders."""

from __future__ import annotations

import pytest
from _support.hazard_examples import ADMIN_CLAIM_WORDS
from _support.hazard_strategies import (
    PROSE,
    SECRET_FAMILIES,
    injection_turns,
    obfuscated_secret,
)
from _support.hazard_world import compose, live_turns
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_core import Storage
from memory_core.formation.hazards import screen_session, screen_turn

PROPERTY = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize("family", sorted(SECRET_FAMILIES))
@PROPERTY
@given(data=st.data())
def test_a_generated_secret_never_forms_or_renders(
    family: str, data: st.DataObject, storage: Storage
) -> None:
    sentence, fragments = data.draw(obfuscated_secret(family))
    before = data.draw(st.lists(st.sampled_from(PROSE), max_size=2))
    after = data.draw(st.lists(st.sampled_from(PROSE), max_size=2))
    split = data.draw(st.booleans())
    turns = [*before, sentence, *after] if split else [" ".join((*before, sentence, *after))]
    outcome = live_turns(compose(storage), turns)
    for fragment in fragments:
        assert not outcome.leaks(fragment), (sentence, fragment)
    assert outcome.result.refused_hazard >= 1


@settings(PROPERTY, max_examples=30)
@given(drawn=injection_turns())
def test_a_generated_injection_never_forms_or_renders_its_claim(
    drawn: tuple[list[str], str], storage: Storage
) -> None:
    turns, _language = drawn
    outcome = live_turns(compose(storage), turns)
    for word in ADMIN_CLAIM_WORDS:
        assert not any(word in s.casefold() for s in outcome.statements), (turns, word)
        assert word not in outcome.rendered.casefold(), (turns, word)
    assert outcome.result.refused_hazard >= 1


@settings(max_examples=300, deadline=None)
@given(drawn=injection_turns())
def test_the_screen_keeps_no_generated_injection_or_its_claim(
    drawn: tuple[list[str], str],
) -> None:
    turns, _language = drawn
    screened = screen_session(turns)
    kept = " ".join(s for turn in screened for s in turn.sentences).casefold()
    assert not any(word in kept for word in ADMIN_CLAIM_WORDS), turns
    assert any(turn.injected for turn in screened)


@pytest.mark.parametrize("family", sorted(SECRET_FAMILIES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_screen_keeps_no_generated_secret(family: str, data: st.DataObject) -> None:
    sentence, fragments = data.draw(obfuscated_secret(family))
    before = data.draw(st.sampled_from(PROSE))
    screened = screen_turn(f"{before} {sentence} I prefer green tea.")
    kept = " ".join(screened.sentences)
    assert not any(fragment in kept for fragment in fragments), sentence
    assert screened.sentences == (before, "I prefer green tea.")
