"""A clause after ``, and``/``, but``/``, so`` with a subject of its own is read on its own:
``Omar moved to Lisbon, and nobody in the family saw it coming`` forms ``Omar moved to
Lisbon.``

The sentence splitter broke before a pronoun or a possessive subject, not before ``the kids``
or ``nobody``: the second clause stayed glued to the first (``User repainted the shed, and the
kids helped.``) or, when it held a modal or an unnamed ``it``, dropped the whole sentence. A
list that ends ``, and the camp stove`` has no verb after it and stays one object. Invented
text, written before the change; the case clock is Monday 2026-01-05.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Omar moved to Lisbon, and nobody in the family saw it coming.", "Omar moved to Lisbon."),
        (
            "We couldn't get a table, so the party moved to Ana's place.",
            "The party moved to Ana's place.",
        ),
        ("I repainted the shed, and the kids helped.", "User repainted the shed."),
        (
            "I packed a tent, two sleeping bags, and the camp stove.",
            "User packed a tent, two sleeping bags, and the camp stove.",
        ),
    ],
)
def test_the_clause_after_the_conjunction_is_its_own(
    read: Reader, text: str, statement: str
) -> None:
    assert ("fact", statement) in [(r[0], r[2]) for r in read(text)], read(text)
