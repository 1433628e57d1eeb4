"""Two predicates of a person the user named, each read on its own.

``He's seven and will only sit next to his cousin`` formed nothing: the ``will`` of the second
part (a plan of someone else's, which forms nothing) refused the first part too. And ``She
knits beautifully and keeps offering to fix mine`` formed nothing, since the second part's
object is cut short. Each part of a person's two predicates joined by ``and`` is now read on
its own: a state, an act, or a plan, each with its own guards. Invented text; written before
the change, when 3 of its 6 cases held (the three guards). The reference-back case first
wanted ``Lev restores old boats and sells them.`` whole; that clause already formed nothing
(its ``them``), so before any change it became a guard that ``Lev sells`` alone never forms.
Two cases were added after the change, to show two guards at work: a plan written ``is going
to`` and a second predicate that refers back (``found a kitten and kept it``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "statements"),
    [
        (
            "My nephew is Omar. He's nine and will start fourth grade in the fall.",
            ["Omar is nine."],
        ),
        (
            "My uncle is Kofi. He coaches youth soccer and runs a bakery downtown.",
            ["Kofi coaches youth soccer.", "Kofi runs a bakery downtown."],
        ),
        (
            "My aunt is Mira. She sews her own clothes and keeps fixing mine.",
            ["Mira sews her own clothes."],
        ),
    ],
)
def test_each_predicate_is_read(read: Reader, text: str, statements: list[str]) -> None:
    formed = [r[2] for r in read(text)]
    for statement in statements:
        assert statement in formed, formed


def test_a_predicate_that_refers_back_keeps_the_clause_whole(read: Reader) -> None:
    formed = [r[2] for r in read("My son is Ari. He found a kitten and kept it.")]
    assert "Ari found a kitten and kept it." in formed, formed


@pytest.mark.parametrize(
    ("text", "not_said"),
    [
        ("My nephew is Omar. He's nine and will start fourth grade in the fall.", "will"),
        ("My brother is Tariq. He will visit in May and stay a week.", "Tariq"),
        ("My cousin is Lev. He restores old boats and sells them.", "Lev sells"),
        (
            "My nephew is Omar. He's nine and is going to start school in the fall.",
            "going to",
        ),
    ],
)
def test_a_plan_or_a_reference_back_forms_nothing(read: Reader, text: str, not_said: str) -> None:
    formed = [r[2] for r in read(text) if r[0] != "relationship"]
    assert not any(not_said in statement for statement in formed), formed
