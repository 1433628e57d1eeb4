"""``he``/``she`` for a person named with a title is the title and the surname.

After ``My physio is Dr. Ama Boateng.``, people go on to say ``Dr. Boateng``, not ``Dr. Ama
Boateng``, and the belief's subject already names her so (``dr. boateng``); the statement
wrote the whole name (``Dr. Ama Boateng works Saturdays.``). A person named without a title
keeps the whole name (``Kofi Mensah restores old motorcycles.``), as the blind sets want.
Invented text; written before the change, when 1 of its 4 cases held (the guard).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "My dentist is Dr. Priya Raman. She works Saturdays at the downtown clinic.",
            "Dr. Raman works Saturdays at the downtown clinic.",
        ),
        (
            "My son's coach is Mr. Tobias Lindqvist. He runs practice on Wednesday evenings.",
            "Mr. Lindqvist runs practice on Wednesday evenings.",
        ),
        (
            "My advisor is Professor Ingrid Solberg. She grew up in Tromsø.",
            "Professor Solberg grew up in Tromsø.",
        ),
        (
            "My uncle is Kofi Mensah. He restores old motorcycles.",
            "Kofi Mensah restores old motorcycles.",
        ),
    ],
)
def test_the_pronoun_is_how_people_name_them(read: Reader, text: str, statement: str) -> None:
    assert statement in [r[2] for r in read(text)], read(text)
