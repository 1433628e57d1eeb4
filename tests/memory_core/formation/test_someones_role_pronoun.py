"""``he``/``she`` after a person named as someone's role (``Felix's teacher is Mr. Abara``).

``My uncle is Farid. He owns a vineyard.`` formed ``Farid owns a vineyard.``, but after
``Noor's coach is Mr. Silva.`` the ``He`` of the next sentence named no one, since only the
user's own relations were people a pronoun could stand for. Invented text; written before the
change, when 1 of its 3 cases held (the guard).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "Noor's coach is Mr. Silva. He moved practice to the indoor field.",
            "Mr. Silva moved practice to the indoor field.",
        ),
        (
            "Dev's tutor is Ms. Adeyemi. She assigned three essays.",
            "Ms. Adeyemi assigned three essays.",
        ),
    ],
)
def test_the_pronoun_is_the_person_named(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)


def test_an_evaluation_of_them_still_forms_nothing(read: Reader) -> None:
    formed = [r[2] for r in read("Noor's coach is Mr. Silva. He's great.")]
    assert not any("great" in statement for statement in formed), formed
