"""Blind sets 4 to 19 (issue 12): floors under what formation reads, and the readings they added.

Each case file was written and committed before the extractor change it guards, with invented
text only, and scored on main first (the commit that adds the file states that figure). The
floors are the figures measured after the change; raise them when the extractor improves, never
lower them to admit a regression.

* ``hedge_and_name_cases.json``: an object that opens with a name ending in ``-ly`` (Italy,
  Emily) was dropped as an adverb. Its twelve tentative-plan and wish cases (``Maybe I'll ...``,
  ``I'd love to ...``) stay unformed by decision: the formation case file already labels those
  readings hypotheticals (fn-015, fn-108, fn-307), and a label is never weakened.
* ``reported_and_embedded_cases.json``: a reporting verb dropped the whole sentence
  (``I wrote a poem``), and so did any ``if``/``whether`` (``... and asked if they had room``).
* ``states_and_fragments_cases.json``: a state since some time, a belief in something, a thing
  heard, a past act written without its ``I``, and ``It's important to me to ...``.
* ``clauses_and_gerunds_cases.json`` (blind set 7, 26 expected beliefs): an experience named by
  a gerund subject (``Painting the fence with my dad was so much fun``), an ongoing activity
  written without its ``I'm`` (``Training for a half marathon.``) and a past event inside a
  leading subordinate clause (``Since I lost my job, ...``) formed nothing.
* ``pronoun_and_coordination_cases.json`` (blind set 8, 22 expected beliefs): an evaluation of
  ``it``/``this``/``that`` after a clause of the same turn that named the thing (``I took a
  pottery class. It was super relaxing.``), a past act written without its ``I`` before a
  preposition, a title or a name (``Just chatted with my cousin``), and the second of two acts
  when only the first is about the listener (``I took your advice and signed up for ...``).
* ``time_and_subordinate_cases.json`` (blind set 9, 22 expected beliefs): a first-person act
  after a conjunction and a time phrase (``..., but last week I finished the quilt``) and a
  past event in a trailing subordinate clause whose main clause forms nothing (``I painted
  this after I visited the harbor``).
* ``weekdays_and_seasons_cases.json`` (blind set 10, 22 expected beliefs): an abbreviated
  weekday (``last Fri``), a season (``last summer``; a winter spans two years) and a time
  phrase after ``just`` were not anchored to the clock, and ``Just yesterday I ...`` formed
  nothing.
* ``relative_clause_cases.json`` (blind set 11, 22 expected beliefs): the user's past act in an
  object relative clause (``The scarf I knitted for my niece was a hit``) formed nothing when
  the main clause did not.
* ``routines_and_roles_cases.json`` (blind set 12, 22 expected beliefs): a habit written with
  an intransitive verb was filed under its adjunct (``I swim before work`` -> ``work``), a habit
  the user started or took up was an event, and teaching or working at a place named with
  ``the`` (``the Museum of Flight``) was not employment.
* ``company_and_plans_cases.json`` (blind set 13, 22 expected beliefs): an act the user did
  with someone was read as the user's alone (``My brother and I went hiking``) or the
  partner's (``Me and my cousin baked a cake``), a plan in the future progressive (``I'll be
  visiting my aunt``) formed nothing, and so did a thing that speaks to the user. Its one miss
  is by decision: a partner named in apposition (``My wife Ingrid and I went to Rome``) forms
  the relationship only, as the held-out set's fp-102 requires.
* ``coordination_and_captions_cases.json`` (blind set 14, 34 expected beliefs): two acts joined
  by ``and`` formed one belief (``I got a promotion and moved to Denver`` never updated the
  home), a long image caption was kept to 14 words, cut mid-phrase, and ``kind of`` made
  ``of`` an adverb (``User is proud their daughter``). Its two misses are by decision: a
  degree word stays in what the user found or had (``really helpful``, ``such a great
  time``), as earlier sets label it (``User found learning to knit really hard.``).
* ``people_and_things_cases.json`` (blind set 15, 34 expected beliefs): what the user says
  about the people and things in their life formed nothing but the relationship: a named
  person's event, state or role (``Kenji moved to Osaka for work``), ``he``/``she``/``his``
  for the person the message named (``My uncle is Farid. He owns a small vineyard.``) and a
  definite thing's fact (``The library closes at six on weekdays``). Its floor rose from 24
  to 27 with a name in apposition's act or state (``My roommate Ali is allergic to dogs``).
* ``roles_and_titles_cases.json`` (blind set 16, 22 expected beliefs): a role named with a
  qualifier (``My tech lead on the mobile team is Arjun``), by the household or team (``Our
  vet is Dr. Okafor``), narrowed by a word (``My piano teacher``), after an adverb (``Yusuf is
  actually my skip-level``) or missing from the relation table (``realtor``, ``plumber``,
  ``lab partner``) formed no relationship.
* ``names_and_favorites_cases.json`` (blind set 17, 25 expected beliefs): a name given after
  its bearer was introduced (``I got a puppy last week, her name is Luna``) formed no
  relationship, and a thing among the user's favorites (``Spider-Man has always been a
  favorite of mine``) no preference.
* ``effects_and_routines_cases.json`` (blind set 18, 21 expected beliefs): what things do to
  the user (``Loud restaurants give me a headache``, ``Cold weather makes my joints ache``)
  and how their times of day go (``Evenings are quiet around here``) formed nothing.
* ``what_it_is_cases.json`` (blind set 19, 42 expected beliefs): ``It's a X`` after the clause
  that named the thing (``I bought a new bike. It's a Trek hybrid.``) formed nothing. Its two
  misses: ``found`` is no act whose object ``it`` names (``I found a great podcast. It's a
  weekly show ...``).
* ``size_and_age_cases.json`` (blind set 20, 21 expected beliefs): a thing was filed under its
  size or age (``the old MySQL box`` -> ``old mysql box``), so a later word about the MySQL
  box did not reach it; a proper name that opens with one (``Little Rock``) stays whole.
* ``undertakings_and_vague_objects_cases.json`` (blind set 21, 21 expected beliefs): starting
  to plan, organize or arrange something (``I started planning my wedding``) was read as a
  habit about ``planning``, and an activity done to ``things`` or ``stuff`` (``I prefer
  planning things in a shared calendar``) was filed under ``planning things``.
* ``contrast_corrections_cases.json`` (blind set 22, 21 expected beliefs): a correction's
  contrast was cut (``The recital is on March 14, not March 7`` -> ``... on March 14.``), and
  ``I'd rather the carpool left at 7:15`` formed a choice cut at the time's colon. Its misses
  are by decision: a relationship, a home and a job keep only the value corrected to, since
  their subject holds one value at a time and the correction supersedes the old one.
* ``captions_and_obligations_cases.json`` (blind set 23, 24 expected beliefs): a written
  thing's words (``a card that said Happy Birthday Grandma``) were read as reported speech,
  so the whole sentence formed nothing, and what a named person had to do (``Kenji had to
  move to Osaka``) was no event of theirs.
* ``family_and_perfect_cases.json`` (blind set 24, 23 expected beliefs): what the user's people
  have done or hold (``My brother has moved to Leeds``, ``My sister's moved back to Lisbon``,
  ``My sister has two kids``), what a thing has done for the user (``Yoga's helped me with my
  back pain``), and a meeting whose relative clause reports speech (``I ran into a group of
  hikers who said hello``) formed nothing.
* ``scene_time_cases.json`` (blind set 25, 25 expected beliefs): a time the turn sets
  (``Last weekend I did something new.``) was not when the past act narrated next happened
  (``I ran a 5K for the animal shelter.``): the act formed undated.
* ``fronted_phrase_cases.json`` (blind set 26, 22 expected beliefs): a prepositional phrase
  opening a first-person clause (``At the party I met Jonah``) was dropped from the statement
  (``User met Jonah.``), and ``With my sister I visited Rome`` formed nothing.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory_bench.formation_eval import FormationReport, evaluate_formation, load_formation_cases
from memory_core.formation import (
    DeterministicExtractor,
    Turn,
    screen_turn,
    sentence_forms_nothing,
)
from memory_core.formation.deterministic.conversation import _verb_base
from memory_core.formation.deterministic.phrases import _is_list_tail

HERE = Path(__file__).parent

FLOORS = {
    "hedge_and_name_cases.json": 6,
    "reported_and_embedded_cases.json": 18,
    "states_and_fragments_cases.json": 15,
    "clauses_and_gerunds_cases.json": 26,
    "pronoun_and_coordination_cases.json": 21,
    "time_and_subordinate_cases.json": 22,
    "weekdays_and_seasons_cases.json": 22,
    "relative_clause_cases.json": 19,
    "routines_and_roles_cases.json": 21,
    "company_and_plans_cases.json": 21,
    "coordination_and_captions_cases.json": 32,
    "people_and_things_cases.json": 27,
    "roles_and_titles_cases.json": 22,
    "names_and_favorites_cases.json": 25,
    "effects_and_routines_cases.json": 21,
    "what_it_is_cases.json": 40,
    "size_and_age_cases.json": 16,
    "undertakings_and_vague_objects_cases.json": 21,
    "contrast_corrections_cases.json": 14,
    "captions_and_obligations_cases.json": 21,
    "family_and_perfect_cases.json": 22,
    "scene_time_cases.json": 22,
    "fronted_phrase_cases.json": 16,
}
"""Expected beliefs formed: 0, 1, 0, 2, 0, 0, 0, 0, 4, 0, 3, 1, 4, 0, 19, 3, 4,
0, 3, 0, 4 and 0 before the change each file guards."""
EXPECTED = dict.fromkeys(FLOORS, 21) | {
    "clauses_and_gerunds_cases.json": 26,
    "pronoun_and_coordination_cases.json": 22,
    "time_and_subordinate_cases.json": 22,
    "weekdays_and_seasons_cases.json": 22,
    "relative_clause_cases.json": 22,
    "routines_and_roles_cases.json": 22,
    "company_and_plans_cases.json": 22,
    "coordination_and_captions_cases.json": 34,
    "people_and_things_cases.json": 34,
    "roles_and_titles_cases.json": 22,
    "names_and_favorites_cases.json": 25,
    "effects_and_routines_cases.json": 21,
    "what_it_is_cases.json": 42,
    "size_and_age_cases.json": 21,
    "undertakings_and_vague_objects_cases.json": 21,
    "contrast_corrections_cases.json": 21,
    "captions_and_obligations_cases.json": 24,
    "family_and_perfect_cases.json": 23,
    "scene_time_cases.json": 25,
    "fronted_phrase_cases.json": 22,
}
"""Expected beliefs in each file (21 in sets 4 to 6)."""


@pytest.fixture(scope="module", params=sorted(FLOORS))
def scored(request: pytest.FixtureRequest) -> tuple[str, FormationReport]:
    name: str = request.param
    return name, evaluate_formation(load_formation_cases(HERE / name))


def test_recall_stays_at_or_above_its_floor(scored: tuple[str, FormationReport]) -> None:
    name, report = scored
    assert report.expected_total == EXPECTED[name]
    assert report.true_positives >= FLOORS[name], [
        (row.id, row.missed) for row in report.cases if row.missed
    ]


def test_no_negative_case_forms_and_nothing_is_fabricated(
    scored: tuple[str, FormationReport],
) -> None:
    _, report = scored
    assert report.negative_formed == 0, [
        (row.id, [b.statement for b in row.formed])
        for row in report.cases
        if row.kind == "negative" and row.formed
    ]
    assert report.fabricated == 0


def _statements(text: str) -> list[str]:
    at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    turn = Turn(event_id="e1", created_at=at, sentences=screen_turn(text).sentences)
    return [c.statement for c in DeterministicExtractor().extract(turn)]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I visited Italy last year.", "User visited Italy in 2025."),
        ("I met Emily at the gym.", "User met Emily at the gym."),
        ("I wrote a poem about my dog.", "User wrote a poem about their dog."),
        ("I told my boss about the move.", "User told their boss about the move."),
        ("I thought about moving to Denver.", "User thought about moving to Denver."),
        ("I called the vet and asked if she had time.", "User called the vet."),
        ("I've been involved in a food drive.", "User has been involved in a food drive."),
        ("I believe in second chances.", "User believes in second chances."),
        ("Finished my first quilt last night.", "User finished their first quilt on 2026-01-04."),
        (
            "It's important to me to cook with my kids.",
            "It is important to User to cook with their kids.",
        ),
        (
            "Repainting our kitchen was a nightmare.",
            "User found repainting their kitchen a nightmare.",
        ),
        (
            "Sewing my own curtains is so satisfying to me.",
            "User finds sewing their own curtains so satisfying.",
        ),
        ("Rehearsing for the spring recital.", "User is rehearsing for the spring recital."),
        ("Since I broke my leg, I've been reading a lot.", "User broke their leg."),
        ("While I was jogging, I spotted a heron.", "User was jogging."),
        ("I signed up for a salsa class. It was a blast.", "User found the salsa class a blast."),
        (
            "I went to a pottery fair, and it was exhausting.",
            "User found the pottery fair exhausting.",
        ),
        ("I joined a choir, it has been wonderful.", "User has found the choir wonderful."),
        (
            "I joined a choir. It was both scary and wonderful.",
            "User found the choir both scary and wonderful.",
        ),
        ('Just finished "Salt Roads" and it was gripping.', 'User finished "Salt Roads".'),
        (
            "Just chatted with my aunt about the wedding.",
            "User chatted with their aunt about the wedding.",
        ),
        ("I borrowed your bike and rode to the lake.", "User rode to the lake."),
        (
            "Busy month, but yesterday I planted the tulips.",
            "User planted the tulips on 2026-01-04.",
        ),
        ("I framed this after I visited the coast.", "User visited the coast."),
        ("Last summer I sold my drum kit.", "User sold their drum kit in summer 2025."),
        ("Last winter I learned to ski.", "User learned to ski in winter 2024-25."),
        (
            "This winter I'm taking a ceramics course.",
            "User is taking a ceramics course in winter 2025-26.",
        ),
        ("Last Thurs I repaired the gate.", "User repaired the gate on 2026-01-01."),
        ("Just yesterday I met my new neighbor.", "User met their new neighbor on 2026-01-04."),
        # A capitalized abbreviation is a weekday only after on/last/this/next.
        ("We ate at Sun Palace last night.", "User ate at Sun Palace on 2026-01-04."),
        (
            "The birdhouse I built last spring fell down.",
            "User built the birdhouse in spring 2025.",
        ),
        ("Here's a peek at the shed I painted.", "User painted the shed."),
        ("The gig I went to on Friday was loud.", "User went to the gig on 2026-01-02."),
        ("The card I mailed to my aunt never arrived.", "User mailed the card to their aunt."),
    ],
)
def test_a_reading_the_blind_sets_added(text: str, statement: str) -> None:
    assert statement in _statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "My mom said she wants to move to Florida.",
        "I said I might join the gym.",
        "I thought I lost my keys.",
        "I asked if I could bring my dog.",
        "I heard that the museum is closing.",
        "I've never been interested in golf.",
        "Booked the table for eight, please.",
        "Seemed like a fun party.",
        "It's important to you to win.",
        "Moving day was rough on the cats.",
        "Teaching kids is important.",
        "Painting landscapes is a great hobby.",
        "Hiking the ridge is a real adventure.",
        "Watching it was amazing.",
        "Cooking with you was a blast.",
        "Hiking the ridge would be amazing.",
        "Training wheels are useful.",
        "Rehearsing is what keeps me sharp.",
        "When I finish the course, I'll celebrate.",
        "If I broke my leg, I would stay home.",
        "When I was a teenager.",
        "It was a blast.",
        "Your garden is lovely. It was amazing.",
        "I never tried the ramen place. It was great.",
        "Wanted to say thanks for the tip!",
        "Chatted with you yesterday.",
        "Trying to get it fixed.",
        "Taking care of ourselves is vital.",
        "Proceed to the gate.",
        "I borrowed your bike and might ride to the lake.",
        "Busy month, but tomorrow I might plant the tulips.",
        "It could have been after I visited the coast.",
        "I framed this when I visit the coast.",
        "My aunt framed this after she visited the coast.",
        "Maybe next summer I'll visit Iceland.",
        "See you on Tues!",
        "Last summer flew by.",
        "The way I felt was strange.",
        "The house I want is too expensive.",
        "The poem she wrote won a prize.",
        "The song I heard on the radio was catchy.",
        "The trip I might take sounds fun.",
        "The present I gave my cousin broke.",
    ],
)
def test_reported_words_conditionals_negations_and_requests_still_form_nothing(
    text: str,
) -> None:
    assert _statements(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "My cousin joined a choir. It was fun.",
        "I took my nephew to the zoo. It was fun.",
        "I bought a kayak. It was a gift.",
        "I went to the market. It was closed.",
        "I talked to my landlord. It was great.",
        "I went hiking. Your photos were amazing.",
        "I wanted to learn salsa, so it was a perfect match.",
        "I lost my wallet. It was awful.",
        "I visited Oslo. It was cold and rainy.",
        "I broke my phone. It was terrible.",
        "I quit my job. It was scary.",
    ],
)
def test_an_evaluation_is_not_resolved_to_what_the_clause_before_did_not_name(text: str) -> None:
    """Another person's act, an outing with someone, a fact that is no evaluation, a verb
    that names no thing, and the listener's things leave ``it`` unresolved."""
    assert not [s for s in _statements(text) if re.match(r"^User (?:has )?f(?:ou|i)nd", s)]


@pytest.mark.parametrize(
    "text", ["Last night was fun.", "Yesterday was so relaxing.", "Today was exhausting."]
)
def test_a_time_is_no_thing_the_user_finds_fun(text: str) -> None:
    """Found writing blind set 25: ``Last night was fun.`` formed ``User found Last night fun.``."""
    assert _statements(text) == []


@pytest.mark.parametrize(
    ("sentence", "forms_nothing"),
    [
        ("I wrote a poem about my dog.", False),
        ("I told my boss about the move.", False),
        ("I said goodbye to the old flat.", False),
        ("I said I'd help with the move.", True),
        ("I told him I was fine.", True),
        ("I thought it was closed.", True),
        ("My mom said the trip was great.", True),
        ("According to my sister, I snore.", True),
    ],
)
def test_the_screen_refuses_a_reported_clause_not_the_users_own_act(
    sentence: str, forms_nothing: bool
) -> None:
    """The screen is shared with grounding and provider formation, so it must hold alone."""
    assert sentence_forms_nothing(sentence) is forms_nothing


# Written before the fix, from three misreadings seen on conversational text: a comma splice
# whose second clause has its own subject lent its time to the first clause ('User had a wild
# week on <last Friday>.'), a list after a comma lost every item but the first, and a verb
# whose base ends in a silent e took a doubled consonant in its subject ('movving').


@pytest.mark.parametrize(
    ("text", "formed", "not_formed"),
    [
        (
            "Had a wild week, my car broke down last Fri on my way to work.",
            "User's car broke down on their way to work on 2026-01-02.",
            "User had a wild week on 2026-01-02.",
        ),
        (
            "We finally moved in, our landlord fixed the heating on Tuesday.",
            "User moved in.",
            "User moved in on 2025-12-30.",
        ),
        (
            "I invited my cousins, my aunt and my grandma.",
            "User invited their cousins, their aunt and their grandma.",
            "User invited their cousins.",
        ),
    ],
)
def test_a_comma_keeps_a_list_and_ends_a_clause_with_its_own_subject(
    text: str, formed: str, not_formed: str
) -> None:
    statements = _statements(text)
    assert formed in statements and not_formed not in statements, statements


@pytest.mark.parametrize(
    ("past", "base"),
    [
        ("moved", "move"),
        ("hiked", "hike"),
        ("baked", "bake"),
        ("used", "use"),
        ("visited", "visit"),
        ("waited", "wait"),
        ("played", "play"),
        ("focused", "focus"),
        ("opened", "open"),
        ("cooled", "cool"),
    ],
)
def test_the_base_of_a_regular_past_keeps_its_silent_e(past: str, base: str) -> None:
    assert _verb_base(past) == base


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I worked on Sun Valley's website.", "User worked on Sun Valley's website."),
        ("I presented on Mon Repos history.", "User presented on Mon Repos history."),
    ],
)
def test_an_abbreviated_weekday_before_a_capitalised_word_is_part_of_a_name(
    text: str, statement: str
) -> None:
    """A review finding: ``on Sun Valley's`` had read as a Sunday and cut the name."""
    assert statement in _statements(text)


def test_a_long_comma_list_without_and_is_read_in_one_pass() -> None:
    """Review follow-up: the list check was one backtracking pattern, exponential in the items
    of a comma list with no ``and`` (20 items: 0.5 s; 60: hours). The suite's timeout fails
    this test if that comes back; it asserts only what forms."""
    text = "I packed my tent" + ", my stove" * 2000 + "."
    assert _statements(text) == ["User packed their tent."]


@pytest.mark.parametrize(
    ("tail", "is_list"),
    [
        ("my aunt and my grandma", True),
        ("two sleeping bags and a camp stove", True),
        ("a stove, and a lighter", True),
        ("reading or hiking", True),
        ("she said it was fine", False),
        ("a stove, a lighter", False),
        ("a stove,, and a lighter", False),
    ],
)
def test_the_rest_of_an_object_after_a_comma_is_a_list_when_it_ends_in_and(
    tail: str, is_list: bool
) -> None:
    assert _is_list_tail(tail) is is_list
