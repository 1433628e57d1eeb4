"""The time a turn sets is when the past act it narrates next happened.

``Last weekend I did something new. I ran a 5K for the animal shelter.`` formed the run
undated. Blind set 25 (``scene_time_cases.json``) guards the reading; these pin its edges: a
sentence keeps a time of its own, the scene ends at a sentence that is no narrated act, and a
future scene dates no past act. Invented text, read at the case clock (Monday 2026-01-05).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memory_core.formation.deterministic.scene import in_scene, scene_of

Reader = Callable[[str], list[tuple[str, str, str]]]


@pytest.mark.parametrize(
    ("sentence", "scene"),
    [
        ("Last weekend I did something new.", "last weekend"),
        ("Yesterday was wild.", "yesterday"),
        ("In May I visited Kyoto.", "in may"),
        ("Next Friday I'm hosting a party.", None),
        ("In May I'm going to Kyoto.", None),
        ("I went hiking.", None),
    ],
)
def test_a_past_time_sets_the_scene(sentence: str, scene: str | None) -> None:
    assert scene_of(sentence) == scene


@pytest.mark.parametrize(
    "sentence",
    [
        "I flew back on Sunday.",
        "I love the mountains.",
        "I grew up in Ohio.",
        "I always took the bus.",
        "I was born there.",
        "The food was great.",
        "I wanted to feel closer to my faith.",
        "I visited the Louvre?",
    ],
)
def test_only_a_plain_past_act_without_a_time_of_its_own_is_in_the_scene(sentence: str) -> None:
    assert in_scene(sentence, "last week") is None


def test_a_narrated_act_takes_the_scenes_time(read: Reader) -> None:
    statements = [r[2] for r in read("Last week I went to Oslo. I bought a sweater.")]
    assert statements == [
        "User went to Oslo in the week of 2025-12-29.",
        "User bought a sweater in the week of 2025-12-29.",
    ]


def test_the_scene_ends_where_the_narration_does(read: Reader) -> None:
    statements = [
        r[2] for r in read("Last week I went to Oslo. The food was great. I bought a sweater.")
    ]
    assert "User bought a sweater." in statements, statements
    statements = [r[2] for r in read("Last week I went to Oslo. I flew back on Sunday.")]
    assert "User flew back on 2026-01-04." in statements, statements


@pytest.mark.parametrize(
    ("text", "undated"),
    [
        # Found in an adversarial review: a time of its own the time phrases do not bound.
        ("Last summer I went to Spain. I ran a marathon in 2019.", "User ran a marathon in 2019."),
        (
            "Last week I went to a reunion. I dated Sam in high school.",
            "User dated Sam in high school.",
        ),
        ("Last week I finally quit smoking. I smoked for 20 years.", "User smoked for 20 years."),
        # A scene someone else set, a wish or a dream dates nothing the user did.
        ("You went to Paris last year. I went to Rome.", "User went to Rome."),
        ("My coworker went to Bali last month. I went to Spain.", "User went to Spain."),
        ("I wish I had gone last weekend. I went to the gym.", "User went to the gym."),
        ("Last night I had a dream. I won the lottery.", "User won the lottery."),
    ],
)
def test_no_scene_dates_what_it_does_not_narrate(read: Reader, text: str, undated: str) -> None:
    assert undated in [r[2] for r in read(text)], read(text)


def test_a_reading_that_cannot_take_the_date_takes_no_scene(read: Reader) -> None:
    statements = [r[2] for r in read("Last week I got a dog. I adopted a cat too.")]
    assert not [s for s in statements if "last week" in s], statements
