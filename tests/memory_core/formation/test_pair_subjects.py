"""Two people named together are filed under the first of them, an entity the memory knows.

``Hana and Mei were waiting at the finish line`` was filed under ``hana and mei``, a subject no
later statement about Hana or Mei reaches. Invented text; written before the change, when none
of its 4 cases held (the second's expected statement was then corrected to the house's
resolved month, ``June 2025``; the fourth was filed under ``dr. kofi``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        (
            "Hana and Mei were waiting at the finish line.",
            "hana",
            "Hana and Mei were waiting at the finish line.",
        ),
        (
            "Mateo and Lucia got married in June.",
            "mateo",
            "Mateo and Lucia got married in June 2025.",
        ),
        (
            "Kofi and Ama moved to Accra last year.",
            "kofi",
            "Kofi and Ama moved to Accra in 2025.",
        ),
        (
            "Dr. Ama Boateng and Kofi opened a clinic.",
            "dr. boateng",
            "Dr. Ama Boateng and Kofi opened a clinic.",
        ),
    ],
)
def test_a_pair_is_filed_under_the_first_named(
    read: Reader, text: str, subject: str, statement: str
) -> None:
    assert [(r[1], r[2]) for r in read(text) if r[0] == "fact"] == [(subject, statement)]
