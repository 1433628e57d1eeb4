"""What a relation named in apposition has or owns is a fact of theirs.

``My neighbor Elif has two greyhounds`` formed only the relationship, though ``My uncle is
Farid. He owns a small vineyard.`` formed the vineyard. A habit, an obligation or a verdict
stays theirs, as the held-out cases rule (``My cofounder Ravi handles all the sales calls``).
Invented text; written before the change, when its four guards held and none of its four
possessions formed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "subject", "statement"),
    [
        ("My neighbor Elif has two greyhounds.", "elif", "Elif has two greyhounds."),
        ("My cousin Ana owns a bakery in Lisbon.", "ana", "Ana owns a bakery in Lisbon."),
        ("My brother Idris has a boat on Lake Union.", "idris", "Idris has a boat on Lake Union."),
        ("My aunt Rosa has a cabin near Tahoe.", "rosa", "Rosa has a cabin near Tahoe."),
    ],
)
def test_what_they_have_is_theirs_to_remember(
    read: Reader, text: str, subject: str, statement: str
) -> None:
    assert [(r[1], r[2]) for r in read(text) if r[0] == "fact"] == [(subject, statement)]


@pytest.mark.parametrize(
    "text",
    [
        "My cofounder Ravi handles all the sales calls.",
        "My neighbor Elif has to work late.",
        "My friend Sam has been great.",
        "My sister Mia has no idea.",
    ],
)
def test_a_habit_an_obligation_or_a_verdict_stays_theirs(read: Reader, text: str) -> None:
    assert [r[0] for r in read(text)] == ["relationship"], read(text)
