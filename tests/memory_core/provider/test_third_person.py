"""First-person candidate statements rewritten to the stored third-person form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_core.formation.provider import novel_content_words
from memory_core.formation.third_person import third_person, third_person_verb


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("I live in Seattle.", "User lives in Seattle."),
        ("I have two cats.", "User has two cats."),
        ("I am a nurse.", "User is a nurse."),
        ("I'm a nurse.", "User is a nurse."),
        ("I\u2019m a nurse.", "User is a nurse."),
        ("I've been vegetarian for years.", "User has been vegetarian for years."),
        ("My wife is Morgan.", "User's wife is Morgan."),
        ("My cats are named Miso and Tofu.", "User's cats are named Miso and Tofu."),
        ("I don't eat meat.", "User does not eat meat."),
        ("I do not own a car.", "User does not own a car."),
        ("I no longer use an Apple Watch.", "User no longer uses an Apple Watch."),
        ("I stopped drinking coffee.", "User stopped drinking coffee."),
        ("I quit smoking.", "User quit smoking."),
        ("I was born in Ohio.", "User was born in Ohio."),
        ("I really like tea.", "User really likes tea."),
        ("I also work remotely.", "User also works remotely."),
        ("I watch anime.", "User watches anime."),
        ("I study law.", "User studies law."),
        ("I go to the gym.", "User goes to the gym."),
        ("I play chess with my son.", "User plays chess with User's son."),
        ("I can speak French.", "User can speak French."),
        ("I live in Portland, ME.", "User lives in Portland, ME."),
        ("User lives with my wife.", "User lives with User's wife."),
        ("User lives in Seattle.", "User lives in Seattle."),
        ("The team decided to use Postgres.", "The team decided to use Postgres."),
        ("We decided to use Postgres.", "The team decided to use Postgres."),
        ("We use Go.", "The team uses Go."),
        ("We are moving to Rust.", "The team is moving to Rust."),
    ],
)
def test_a_first_person_statement_takes_the_stored_form(written: str, stored: str) -> None:
    assert third_person(written) == stored


@pytest.mark.parametrize(
    "kept",
    [
        "I'd like tea.",  # would or had?
        "I'll learn Rust this summer.",  # a plan
        "I will start Monday.",
        "I might switch to a standing desk.",  # a hedge
        "I think I might switch to a standing desk.",  # and a second first-person clause
        "I want a new job.",  # a wish
        "I probably live here.",  # not a verb this rewrite knows
        "My brother lives in Chicago and loves the Bears.",  # about the brother
        "My manager gave me a raise.",
        "I don't live in Seattle, that was my old office.",  # a second clause
        "I, too, live here.",
        "We might switch to Go.",
        "We decided we would ship.",
    ],
)
def test_what_is_not_certainly_the_same_statement_stays_first_person(kept: str) -> None:
    assert third_person(kept) == kept


@pytest.mark.parametrize(
    ("verb", "agreed"),
    [
        ("live", "lives"),
        ("watch", "watches"),
        ("fix", "fixes"),
        ("study", "studies"),
        ("play", "plays"),
        ("go", "goes"),
        ("have", "has"),
        ("am", "is"),
        ("don't", "does not"),
        ("can't", "cannot"),
        ("moved", "moved"),
        ("can", "can"),
    ],
)
def test_verb_agreement(verb: str, agreed: str) -> None:
    assert third_person_verb(verb) == agreed


VERBS = st.sampled_from(
    ["live", "work", "own", "use", "prefer", "like", "speak", "teach", "study", "watch", "have"]
)
ADVERBS = st.lists(st.sampled_from(["also", "really", "still", "usually", "no longer"]), max_size=2)
OBJECTS = st.lists(
    st.sampled_from(["Seattle", "tea", "a dog", "my bike", "with my sister", "remotely", "Go"]),
    min_size=1,
    max_size=3,
)


@given(VERBS, ADVERBS, OBJECTS)
def test_the_rewrite_is_the_same_statement_over_generated_first_person_ones(
    verb: str, adverbs: list[str], objects: list[str]
) -> None:
    written = " ".join(["I", *adverbs, verb, *objects]) + "."
    stored = third_person(written)
    assert stored.startswith("User ")
    assert stored.endswith(".")
    # Not one content word added; at most the agreed verb form itself, where the source's
    # base form is a stopword the grounding rule ignores ("own").
    assert set(novel_content_words(stored, written)) <= set(
        novel_content_words(third_person_verb(verb), verb)
    )
    assert third_person(stored) == stored  # a stored form is a fixed point
    assert not {"I", "my", "me"} & set(stored.rstrip(".").split(" "))
