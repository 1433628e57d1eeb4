"""Two acts joined by ``and`` read as two clauses (``coordinated_acts``), and when not."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memory_core.formation.deterministic.coordination import coordinated_acts

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        ("I went kayaking and saw otters", ["I went kayaking", "I saw otters"]),
        (
            "I have been learning Portuguese and training for a 10k",
            ["I have been learning Portuguese", "I have been training for a 10k"],
        ),
        (
            "Yesterday I repainted the fence and planted tulips",
            ["Yesterday I repainted the fence", "Yesterday I planted tulips"],
        ),
        (
            "We drove to the coast and camped on the beach last weekend",
            ["We drove to the coast last weekend", "We camped on the beach last weekend"],
        ),
        ("I picked up milk and eggs and drove home", ["I picked up milk and eggs", "I drove home"]),
        (
            "I cooked dinner and washed the dishes and then watched a film",
            ["I cooked dinner", "I washed the dishes", "I watched a film"],
        ),
        # a time phrase inside the first act is that act's alone
        (
            "I went to Paris in May and visited the Louvre",
            ["I went to Paris in May", "I visited the Louvre"],
        ),
    ],
)
def test_two_acts_split_with_their_subject_and_time(text: str, acts: list[str]) -> None:
    assert coordinated_acts(text) == acts


@pytest.mark.parametrize(
    "text",
    [
        "I tried sushi and loved it",  # the second act refers back
        "I visited my grandma and helped her with the garden",
        "I bought apples and oranges",  # objects, not acts
        "I felt tired and stressed out",  # a linking verb
        "I was born and raised in Lisbon",
        "I have been enjoying hiking and swimming",  # a gerund object
        "I laughed and cried",  # one-word acts
        "I did not go out and buy anything",  # negated
        "So I went kayaking and saw otters",  # a lead that is no time phrase
        'I read "Dune" and loved the ending',
    ],
)
def test_a_clause_that_joins_no_two_acts_stays_whole(text: str) -> None:
    assert coordinated_acts(text) == [text]


def _statements(read: Reader, text: str) -> list[str]:
    return [statement for _, _, statement in read(text)]


def test_the_second_act_is_an_update_of_the_home(read: Reader) -> None:
    assert read("I got a promotion and moved to Denver.") == [
        ("user_model_attr", "promotion", "User has a promotion."),
        ("user_model_attr", "home location", "User lives in Denver."),
    ]


def test_a_team_change_of_decision_is_read_whole_by_its_rule(read: Reader) -> None:
    assert "The team ditched Heroku." in _statements(read, "We ditched Heroku and moved to Fly.io.")


def test_acts_stay_whole_when_one_of_them_reads_as_nothing_alone(read: Reader) -> None:
    # ``I camped two nights at Pine Hollow`` forms nothing alone: the whole is kept.
    text = "I drove up to Kettle Lake and camped two nights at Pine Hollow."
    assert _statements(read, text) == [
        "User drove up to Kettle Lake and camped two nights at Pine Hollow."
    ]
