"""The people in the user's life named by their role (``rules_relations._rule_relationship``).

Blind set 16 (``roles_and_titles_cases.json``) was written and scored first: 1 of its 22
expected beliefs formed. A role named with a qualifier (``My tech lead on the mobile team is
Arjun``), the household's or team's role (``Our vet is ...``), a word that narrows the role
(``My piano teacher``), an adverb between (``Yusuf is actually my skip-level``) and a role word
the relation table lacked formed nothing, or a plain fact. These cases pin each reading, with
invented text.
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
        ("My dentist here is Dr. Leila Haddad.", "dentist", "User's dentist is Dr. Leila Haddad."),
        ("My manager now is Beatrix.", "manager", "User's manager is Beatrix."),
        ("My manager is now Beatrix.", "manager", "User's manager is Beatrix."),
        (
            "My tech lead on the mobile team is Arjun.",
            "tech lead",
            "User's tech lead on the mobile team is Arjun.",
        ),
        ("Our vet is Dr. Okafor.", "vet", "User's vet is Dr. Okafor."),
        ("My new physio is Rafael.", "physio", "User's physio is Rafael."),
        (
            "My piano teacher is Mrs. Albescu.",
            "piano teacher",
            "User's piano teacher is Mrs. Albescu.",
        ),
        ("My lab partner is Tobias.", "lab partner", "User's lab partner is Tobias."),
        ("Yusuf is actually my skip-level.", "skip-level", "User's skip-level is Yusuf."),
        ("My mechanic is a guy called Stavros.", "mechanic", "User's mechanic is Stavros."),
        ("Our plumber is Dario, not Mario.", "plumber", "User's plumber is Dario."),
        (
            "My realtor, Dana Whitfield, found us a flat.",
            "realtor",
            "User's realtor is Dana Whitfield.",
        ),
        ("My other cousin, Ilse, lives in Graz.", "cousin", "User's cousin is Ilse."),
    ],
)
def test_a_role_and_its_name_form_the_relationship(
    read: Reader, text: str, subject: str, statement: str
) -> None:
    assert ("relationship", subject, statement) in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "My old teacher is Mr. Pike.",  # a past relation is no current one
        "My former boss is Dana.",
        "My favorite teacher is Mr. Keating.",  # a verdict narrows no role
        "My manager is not Beatrix.",
        "My doctor might be Dr. Ruiz next year.",
        "His plumber is Dario.",
    ],
)
def test_a_past_judged_negated_or_unowned_role_is_no_relationship(read: Reader, text: str) -> None:
    assert [r for r in read(text) if r[0] == "relationship"] == []


def _candidates(text: str) -> list[tuple[str, bool]]:
    at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    turn = Turn(event_id="e1", created_at=at, sentences=screen_turn(text).sentences)
    return [(c.statement, c.exclusive) for c in DeterministicExtractor().extract(turn)]


def test_a_qualified_role_accumulates_and_a_plain_one_is_superseded() -> None:
    # One tech lead per team: naming the second must not supersede the first.
    assert _candidates("My tech lead on billing is Oksana.") == [
        ("User's tech lead on billing is Oksana.", False)
    ]
    assert _candidates("My dentist is Dr. Haddad.") == [("User's dentist is Dr. Haddad.", True)]
    assert _candidates("My lab partner is Tobias.") == [("User's lab partner is Tobias.", False)]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        # ``'s`` before a participle with an object is ``has``, not ``is``.
        ("My accountant is Hollis. He's saved me a fortune.", "Hollis has saved User a fortune."),
        ("My sister is Ana. She's married to a pilot.", "Ana is married to a pilot."),
        # A cleft says what the person does.
        ("My boss is Ravi. He's the one who hired me.", "Ravi hired User."),
        # Knowing how is a skill, not a thought.
        ("My dad is Sol. He knows how to fix anything.", "Sol knows how to fix anything."),
    ],
)
def test_what_the_named_person_did_or_can_do_reads_as_said(
    read: Reader, text: str, statement: str
) -> None:
    assert statement in [r[2] for r in read(text)]


def test_knowing_that_stays_their_thought(read: Reader) -> None:
    assert [r for r in read("My boss is Ravi. He knows that I'm tired.") if r[0] == "fact"] == []
