"""What someone in the user's life did to or for the user is a fact: ``My therapist gave me a
journaling exercise`` is ``User's therapist gave them a journaling exercise.``

The family rules read a relation's past acts; a doctor's, a landlord's or a coach's news
stays theirs (``My landlord raised the rent``), except an act whose object is the user or
the user's (``me``, ``my``): that one the user lives with. A plan, a state, a negation of
theirs stays theirs. Invented text, written before the change; the case clock is Monday
2026-01-05.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        (
            "My therapist gave me a journaling exercise.",
            "therapist",
            "User's therapist gave them a journaling exercise.",
        ),
        ("My landlord fixed my radiator.", "landlord", "User's landlord fixed their radiator."),
        (
            "My coach moved me to the varsity team.",
            "coach",
            "User's coach moved them to the varsity team.",
        ),
        (
            "My mentor introduced me to her editor.",
            "mentor",
            "User's mentor introduced them to her editor.",
        ),
    ],
)
def test_a_relations_act_on_the_user_forms(
    read: Reader, text: str, subject: str, statement: str
) -> None:
    assert ("fact", subject, statement) in read(text), read(text)


@pytest.mark.parametrize(
    "text",
    [
        "My landlord raised the rent.",
        "My boss is stressed about me.",
        "My doctor will call me tomorrow.",
        "My boss didn't reply to me.",
    ],
)
def test_a_relations_own_news_forms_nothing(read: Reader, text: str) -> None:
    assert read(text) == [], read(text)
