"""What the user says about the people and things in their life (``rules_people``).

Blind set 15 (``people_and_things_cases.json``) was written and scored first: 10 of its 34
expected beliefs formed, the relationships only. These cases pin each reading and each
refusal, with invented text; the refusals keep chat's passing remarks (``The atmosphere was
electric``) and the case files' third-party rules (a home, a liking, a job, an apposition) out.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from memory_core.formation import DeterministicExtractor, Turn, screen_turn

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        ("My uncle is Farid. He owns a small vineyard.", "farid", "Farid owns a small vineyard."),
        ("My coach is Rosa Delgado. She's a physio.", "rosa", "Rosa Delgado is a physio."),
        ("My son is Tariq. He's been to Peru twice.", "tariq", "Tariq has been to Peru twice."),
        (
            "My daughter is Ines. Her teacher is Mr. Obi.",
            "ines's teacher",
            "Ines's teacher is Mr. Obi.",
        ),
        ("My sister is Mira. Mira is vegan.", "mira", "Mira is vegan."),
        ("Kenji moved to Osaka for work.", "kenji", "Kenji moved to Osaka for work."),
        (
            "My cousin is Ben. He's getting married in June.",
            "ben",
            "Ben is getting married in June 2026.",
        ),
        ("Clara is teaching me to knit.", "clara", "Clara is teaching User to knit."),
        ("Tomasz fixed my bike.", "tomasz", "Tomasz fixed User's bike."),
        ("Dr. Anya Petrov retired in 2024.", "dr. petrov", "Dr. Anya Petrov retired in 2024."),
        (
            "Harbor Analytics is a Python shop.",
            "harbor analytics",
            "Harbor Analytics is a Python shop.",
        ),
        (
            "The library closes at six on weekdays.",
            "library",
            "The library closes at six on weekdays.",
        ),
        (
            "The café by my office only does light roasts.",
            "café",
            "The café by User's office only does light roasts.",
        ),
        ("The deadline is March 3.", "deadline", "The deadline is March 3."),
        (
            "The cat knocked over my coffee.",
            "cat",
            "The cat knocked over User's coffee.",
        ),
        # A family word written as a name is the user's relation, read as ``My dad ...``.
        ("Dad made pancakes yesterday.", "father", "User's father made pancakes on 2026-01-04."),
        # What a named person's thing is, though the message named no one before it.
        ("Leila's birthday is on May 9.", "leila's birthday", "Leila's birthday is on May 9."),
        ("Priya's wedding is in Goa.", "priya's wedding", "Priya's wedding is in Goa."),
    ],
)
def test_a_fact_of_someone_or_something_in_the_users_life_forms(
    read: Reader, text: str, subject: str, statement: str
) -> None:
    assert ("fact", subject, statement) in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "She's a lawyer.",  # no one named before the pronoun
        "He's been so stressed lately.",
        "Elif loves jazz and hates crowds.",  # a liking stays theirs
        "Leon lives in Hamburg now.",  # so does a home
        "Tom works at the Museum of Flight.",  # and a job
        "Hamid said he's quitting his job.",  # what someone said
        "Nadia might move to Lyon next year.",
        "Oskar isn't coming to the wedding.",
        "Your brother sounds really fun.",
        "The atmosphere was electric.",  # an evaluation of a thing
        "The meetings went really well.",
        "The move finished last weekend.",  # the user's own event, said of a thing
        "The song I heard on the radio was catchy.",  # the user's act in a relative clause
        "Family is everything.",  # a capitalised first word that names no one
        "Balance is key.",
        "Fingers crossed.",
        "Bright screens give me headaches.",
        "My sister is Mira. She's great so far.",
        "My brother is Sam. Sam is my brother.",
        "I have two cats, Miso and Nori. She's a tabby.",  # a relationship that names no one
        "I have a sister. She's a nurse in Leeds.",
        "Sam's idea was great.",
        "Mom is visiting next week.",  # as ``My mom is visiting``: a relation's plan is theirs
        "The best part was the food.",
        "The problem is the noise.",
        "Cascade's fees got ridiculous.",
    ],
)
def test_what_stays_theirs_or_names_no_one_forms_no_fact(read: Reader, text: str) -> None:
    assert [r for r in read(text) if r[0] == "fact"] == []


def test_a_pronoun_beside_the_user_is_no_partner_named(read: Reader) -> None:
    # ``She and I went hiking`` once formed ``User and She went hiking.``.
    assert [r[2] for r in read("My neighbor is Rita. She and I went hiking.")] == [
        "User's neighbor is Rita."
    ]


def test_a_name_in_apposition_forms_an_act_or_a_state_but_not_a_habit(read: Reader) -> None:
    assert read("My roommate Ali is allergic to dogs.") == [
        ("relationship", "roommate", "User's roommate is Ali."),
        ("fact", "ali", "Ali is allergic to dogs."),
    ]
    # The held-out cases rule that a habit stays theirs (``My cofounder Ravi handles ...``).
    assert read("My cofounder Ravi handles all the sales calls.") == [
        ("relationship", "cofounder", "User's cofounder is Ravi.")
    ]


def test_what_a_thing_is_has_one_value_so_a_correction_supersedes() -> None:
    at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    text = "The wedding is on October 17, not October 10."
    turn = Turn(event_id="e1", created_at=at, sentences=screen_turn(text).sentences)
    (candidate,) = DeterministicExtractor().extract(turn)
    assert (candidate.statement, candidate.exclusive) == (
        "The wedding is on October 17, not October 10.",
        True,
    )
    turn = Turn(event_id="e2", created_at=at, sentences=("Kenji moved to Osaka.",))
    (event,) = DeterministicExtractor().extract(turn)
    assert event.exclusive is False  # two events never supersede each other
