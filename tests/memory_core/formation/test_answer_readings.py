"""A short answer read against a 'what/where/who did you ...?' question (blind cases).

Written before the extractor read these questions: each pair is a question the other speaker
asked and the user's bare reply. Invented people and places; no public dataset text.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Answered = Callable[[str, str], list[str]]


@pytest.mark.parametrize(
    ("prompt", "reply", "statement"),
    [
        ("Where did you go?", "Lisbon!", "User went to Lisbon."),
        (
            "Oh nice, where did you go on vacation?",
            "Crete, of course!",
            "User went to Crete on vacation.",
        ),
        ("What did you bake?", "Banana bread.", "User baked Banana bread."),
        ("What did you make for dinner?", "Lentil soup!", "User made Lentil soup for dinner."),
        pytest.param(
            "Who did you go with?",
            "My cousin Ines.",
            "User went with their cousin Ines.",
            marks=pytest.mark.xfail(
                strict=True,
                reason="the reply forms its own relationship (User's cousin is Ines.), and a "
                "turn that formed something is not read as an answer",
            ),
        ),
        ("Which book did you read?", "The Salt Road.", "User read The Salt Road."),
    ],
)
def test_a_bare_reply_answers_the_question(
    answered: Answered, prompt: str, reply: str, statement: str
) -> None:
    assert answered(prompt, reply) == [statement]


@pytest.mark.parametrize(
    ("prompt", "reply"),
    [
        ("Where did you go?", "Not sure yet."),  # no answer
        ("Where did you go?", "Did you?"),  # a question back
        ("What did you think of it?", "Amazing."),  # a pronoun in the question
        ("Where should I go?", "Lisbon!"),  # asks about the other speaker
        ("That's lovely. Where did you go?", "Not telling!"),  # no place in the reply
        ("Where did your sister go?", "Lisbon!"),  # about someone else
        ("What would you cook?", "Paella."),  # a hypothetical
    ],
)
def test_anything_else_forms_nothing(answered: Answered, prompt: str, reply: str) -> None:
    assert answered(prompt, reply) == []


def test_a_reply_with_its_own_statement_is_not_read_as_an_answer(answered: Answered) -> None:
    statements = answered("What did you buy?", "It was great, I loved the market.")
    assert not any(s.startswith("User bought") for s in statements)
