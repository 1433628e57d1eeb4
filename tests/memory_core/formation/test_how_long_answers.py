"""A duration answered to ``How long have you been ...?`` (blind cases).

``Since I was 17 or so.`` states nothing alone; after ``How long have you been creating art?``
it states how long the user has been at it. Written before the extractor read these questions:
each pair is a question the other speaker asked and the user's reply, invented text. On main
3 of its 8 cases held (the three that must form no duration). A duration that opens the
reply's first sentence before a clause of its own (``Seven years now, and I've ...``) answers
too, whatever else the reply forms: its two cases were added after the first change, and
failed then.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Answered = Callable[[str, str], list[str]]


@pytest.mark.parametrize(
    ("prompt", "reply", "statement"),
    [
        (
            "That looks amazing! How long have you been creating art?",
            "Since I was 17 or so. It keeps me sane.",
            "User has been creating art since they were 17 or so.",
        ),
        (
            "So how long have you been playing the cello?",
            "For about ten years now!",
            "User has been playing the cello for about ten years.",
        ),
        (
            "How long have you been running?",
            "Almost three years.",
            "User has been running for almost three years.",
        ),
        (
            "Wow. How long have you been volunteering at the shelter?",
            "Since last spring, honestly.",
            "User has been volunteering at the shelter since last spring.",
        ),
        (
            "How long have you been practicing the drums?",
            "Seven years now, and I've finally found my real band: three old friends.",
            "User has been practicing the drums for seven years.",
        ),
        (
            "How long have you been baking?",
            "Since high school - my grandma taught me.",
            "User has been baking since high school.",
        ),
        pytest.param(
            "How long have you been learning Portuguese?",
            "Two months, give or take.",
            "User has been learning Portuguese for two months.",
            marks=pytest.mark.xfail(
                strict=True,
                reason="the learning rule keeps no duration: 'I have been learning Portuguese for "
                "two months.' forms 'User is learning Portuguese.' too",
            ),
        ),
    ],
)
def test_the_duration_answers_the_question(
    answered: Answered, prompt: str, reply: str, statement: str
) -> None:
    assert statement in answered(prompt, reply)


@pytest.mark.parametrize(
    ("prompt", "reply"),
    [
        ("How long have you been dating him?", "Since May."),
        ("How long have you been feeling like this?", "Since Monday."),
        ("How long have you been painting?", "Honestly I can't remember, it's been ages."),
    ],
)
def test_no_duration_forms_from_these(answered: Answered, prompt: str, reply: str) -> None:
    assert not [s for s in answered(prompt, reply) if " since " in s or " for " in s]
