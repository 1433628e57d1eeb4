"""QueryFormer: keywords, inflections, facet expansion and subject naming."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_core.retrieval import DEFAULT_FACETS, Facet, QueryFormer
from memory_core.retrieval.query import is_question
from memory_core.text import (
    base_forms,
    derived_bases,
    inflections,
    same_word,
    variants,
)
from memory_core.tokenizer import STOPWORDS, lexemes


def test_keywords_are_lexemes_of_the_turn_without_stopwords() -> None:
    former = QueryFormer()
    assert former.keywords("Where do I live now?") == ("live",)
    assert former.keywords("What's my e-mail at api.example.com?") == (
        "e-mail",
        "e",
        "mail",
        "api.example.com",
    )
    assert former.keywords("Thanks, hello!") == ()


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Who is traveling with me?", True),
        ("Whose tiller do I borrow?", True),
        ("To whom should I write?", True),
        ("WHO is my co-PI?", True),
        ("What is my sister's name?", False),
        ("The WHO guidelines on travel", True),  # a lexical rule: the acronym reads as "who"
        ("Where do I live?", False),
    ],
)
def test_a_person_question_is_recognised_by_its_interrogative(text: str, asks: bool) -> None:
    assert QueryFormer().form(text).asks_person is asks


def test_terms_start_with_the_keywords_in_turn_order() -> None:
    formed = QueryFormer().form("Which company do I work for?")
    assert formed.terms[:2] == ("company", "work")
    assert formed.keywords == ("company", "work")


def test_inflections_bridge_unstemmed_lexemes() -> None:
    terms = set(QueryFormer(facets=()).form("Where do I live?").terms)
    assert {"live", "lives", "lived", "living"} <= terms
    terms = set(QueryFormer(facets=()).form("what has she studied").terms)
    assert {"studied", "study", "studies", "studying"} <= terms
    assert "preferred" in variants("prefer")
    assert "prefer" in base_forms("preferred")
    assert "stopped" in inflections("stop")
    assert "bought" in variants("buy")
    assert "buy" in variants("bought")


def test_inflection_never_produces_stopwords_or_short_bases() -> None:
    # "thing" must not reduce to "the"; "using" must not reduce to "us".
    assert "the" not in variants("thing")
    assert "us" not in variants("using")
    assert variants("2024") == frozenset({"2024"})
    assert variants("api.example.com") == frozenset({"api.example.com"})


def test_inflect_false_keeps_only_the_keywords() -> None:
    formed = QueryFormer(facets=(), inflect=False).form("Where do I live?")
    assert formed.terms == ("live",)


def test_a_facet_keyword_adds_the_facet_as_a_weaker_group() -> None:
    formed = QueryFormer().form("Where do I live now?")
    labels = [(g.kind, g.label, g.weight) for g in formed.groups]
    assert labels == [("keyword", "live", 1.0), ("facet", "facet:residence", 0.5)]
    assert {"home", "location"} <= set(formed.terms)
    # the facet group never repeats what the keyword group already covers
    facet = formed.groups[1]
    assert not set(facet.lexemes) & set(formed.groups[0].lexemes)


def test_an_inflected_keyword_cues_its_facet() -> None:
    labels = [g.label for g in QueryFormer().form("She lived with her husband").groups]
    assert "facet:residence" in labels
    assert "facet:spouse" in labels


def test_an_inflected_cue_reaches_accented_facet_words() -> None:
    # "marrying" -> "marry" cues the spouse facet, whose words include the accented forms
    # statements use ("User's fiancé is Daniel.").
    terms = set(QueryFormer().form("Who am I marrying?").terms)
    assert {"marrying", "married", "fiancé", "fiancée", "spouse"} <= terms


def test_no_facet_without_a_cue() -> None:
    formed = QueryFormer().form("What about the Q2 roadmap?")
    assert all(g.kind == "keyword" for g in formed.groups)


def test_custom_facets_replace_the_shipped_lexicon() -> None:
    former = QueryFormer(facets=(Facet(name="colour", words=("colour", "color")),))
    assert "color" in former.form("favourite colour").terms
    assert "home" not in former.form("where do I live").terms


def test_shipped_facets_are_lowercase_distinct_lexemes() -> None:
    names = [f.name for f in DEFAULT_FACETS]
    assert len(names) == len(set(names))
    for facet in DEFAULT_FACETS:
        assert len(facet.words) == len(set(facet.words)), facet.name
        for word in facet.words:
            assert lexemes(word) == {word}, word
            assert word not in STOPWORDS, word


def test_named_subjects_are_whole_lexeme_phrases() -> None:
    former = QueryFormer()
    known = ["home location", "answer style", "app", "employment"]
    assert former.named_subjects("Is my home location right?", known) == ("home location",)
    # whole lexemes, never substrings: "apple" does not name "app"
    assert former.named_subjects("I bought an apple", known) == ()
    # up to inflection, in order of first mention
    assert former.named_subjects("my answer styles and my employment", known) == (
        "answer style",
        "employment",
    )
    # a phrase must be contiguous
    assert former.named_subjects("home and location", known) == ()


def test_subjects_are_normalized_and_stopword_subjects_never_named() -> None:
    former = QueryFormer()
    assert former.named_subjects("about my Home  Location", ["Home   LOCATION"]) == (
        "home location",
    )
    assert former.named_subjects("what about me", ["me", "about"]) == ()


def test_form_reports_named_subjects_and_emptiness() -> None:
    former = QueryFormer()
    formed = former.form("What's my answer style?", known_subjects=["answer style", "wife"])
    assert formed.subjects == ("answer style",)
    assert not formed.is_empty
    assert former.form("hi, thanks!", known_subjects=["answer style"]).is_empty


@given(st.text(max_size=80), st.lists(st.text(max_size=20), max_size=5))
def test_forming_is_deterministic_and_free_of_stopwords(text: str, known: list[str]) -> None:
    former = QueryFormer()
    first = former.form(text, known_subjects=known)
    assert first == former.form(text, known_subjects=list(reversed(known)))
    assert not set(first.keywords) & STOPWORDS
    assert len(set(first.terms)) == len(first.terms)
    for group in first.groups:
        assert set(group.lexemes) <= set(first.terms)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [("answer", "answers", True), ("live", "lives", True), ("app", "apple", False)],
)
def test_same_word_is_inflection_equality(a: str, b: str, same: bool) -> None:
    assert same_word(a, b) is same
    assert same_word(b, a) is same


def test_a_question_drops_the_words_that_frame_it() -> None:
    former = QueryFormer()
    assert former.keywords("What kind of music does she mention liking?") == ("music", "liking")
    assert former.keywords("Would I likely enjoy a quiet cabin?") == ("enjoy", "quiet", "cabin")


def test_a_statement_keeps_every_keyword() -> None:
    assert QueryFormer().keywords("I mentioned a new kind of tea.") == (
        "mentioned",
        "new",
        "kind",
        "tea",
    )


def test_a_question_made_only_of_framing_words_keeps_them() -> None:
    assert QueryFormer().keywords("What kind?") == ("kind",)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Where do I live", True),
        ("did I mention my sister", True),
        ("Is it raining?", True),
        ("I live in Oslo.", False),
        ("Tell me about the trip", False),
        ("", False),
    ],
)
def test_is_question(text: str, asks: bool) -> None:
    assert is_question(text) is asks


@pytest.mark.parametrize(
    ("word", "base", "form"),
    [
        ("mentorship", "mentor", "mentored"),
        ("adoption", "adopt", "adopted"),
        ("donation", "donate", "donated"),
        ("achievements", "achieve", "achieved"),
    ],
)
def test_a_derived_noun_reaches_the_verb_it_comes_from(word: str, base: str, form: str) -> None:
    assert base in derived_bases(word) or base in derived_bases(word.removesuffix("s"))
    assert form in variants(word)


def test_a_short_word_is_never_reduced_by_derivation() -> None:
    assert derived_bases("nation") == frozenset()
    assert derived_bases("cement") == frozenset()
    assert derived_bases("ship") == frozenset()


def test_a_month_name_reaches_the_iso_month_of_a_resolved_date() -> None:
    query = QueryFormer().form("What did I do in January 2022?")
    january = next(group for group in query.groups if group.label == "january")
    assert "01" in january.lexemes and "01" in query.terms
    assert not any("03" in group.lexemes for group in query.groups)
