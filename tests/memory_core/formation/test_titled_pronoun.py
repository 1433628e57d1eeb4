"""``he``/``she`` for a person named with a title is the title and the surname.

After ``My physio is Dr. Ama Boateng.``, people go on to say ``Dr. Boateng``, not ``Dr. Ama
Boateng``, and the belief's subject already names her so (``dr. boateng``); the statement
wrote the whole name (``Dr. Ama Boateng works Saturdays.``). A person named without a title
keeps the whole name (``Kofi Mensah restores old motorcycles.``), as the blind sets want.
Invented text; written before the change, when 1 of its 4 cases held (the guard). Two cases
failed for another reason: ``She works Saturdays at ...`` forms nothing by the case files' rule
that a person's work is theirs (``Tom works at the Museum of Flight``), so after the run its
verb became ``fixed``; a relative's role (``My son's coach is ...``) forms nothing yet, so that
case is marked as the known gap it is.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "My dentist is Dr. Priya Raman. She fixed a cracked filling in ten minutes.",
            "Dr. Raman fixed a cracked filling in ten minutes.",
        ),
        pytest.param(
            "My son's coach is Mr. Tobias Lindqvist. He runs practice on Wednesday evenings.",
            "Mr. Lindqvist runs practice on Wednesday evenings.",
            marks=pytest.mark.xfail(strict=True, reason="a relative's role forms nothing yet"),
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
