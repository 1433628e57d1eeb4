"""The shared tokenizer, exactly as the spec's "Lexical parity between the adapters" states it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core.tokenizer import (
    STOPWORDS,
    estimate_tokens,
    lexemes,
    query_terms,
    term_lexeme_groups,
    term_lexemes,
    tokenize,
)

PROPERTY = settings(max_examples=150, deadline=None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # whole lexemes, lowercase, no stemming
        ("Themes", ["themes"]),
        ("Apple", ["apple"]),
        ("User prefers Dark MODE.", ["user", "prefers", "dark", "mode"]),
        # runs joined by dots, slashes, colons or @ stay whole
        ("api.example.com", ["api.example.com"]),
        ("see src/memory_core", ["see", "src/memory", "core"]),
        ("meet at 10:30", ["meet", "at", "10:30"]),
        ("mail me@example.com!", ["mail", "me@example.com"]),
        ("v1.2.3", ["v1.2.3"]),
        # an apostrophe splits
        ("don't", ["don", "t"]),
        ("Portland's rain", ["portland", "s", "rain"]),
        # a hyphenated word is emitted whole and in parts
        ("e-mail", ["e-mail", "e", "mail"]),
        ("state-of-the-art", ["state-of-the-art", "state", "of", "the", "art"]),
        # separators that join nothing
        ("end.", ["end"]),
        ("a--b", ["a", "b"]),
        ("-x-", ["x"]),
        ("snake_case", ["snake", "case"]),
        ("C++ and C#", ["c", "and", "c"]),
        # letters of any script, combining marks continue their word
        ("Straße Café", ["straße", "café"]),
        ("cafe\u0301", ["cafe\u0301"]),
        ("हिंदी भाषा", ["हिंदी", "भाषा"]),
        ("東京 tower", ["東京", "tower"]),
        # no lexeme at all
        ("", []),
        ("   ", []),
        ("!!! ... --- ///", []),
        ("\u0301", []),
    ],
)
def test_tokenize(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_no_stemming_and_no_prefix_matching() -> None:
    assert "theme" not in lexemes("The themes are dark")
    assert "app" not in lexemes("Apple makes the phone")
    assert "apple" in lexemes("APPLE makes the phone")


def test_duplicates_are_kept_by_tokenize_and_collapsed_by_lexemes() -> None:
    assert tokenize("tea, Tea, TEA") == ["tea", "tea", "tea"]
    assert lexemes("tea, Tea, TEA") == frozenset({"tea"})


def test_a_term_with_no_lexeme_matches_nothing() -> None:
    assert term_lexemes(["", "!!!", "  "]) == frozenset()
    assert term_lexeme_groups(["", "!!!", "  "]) == ()


def test_term_lexeme_groups_keep_each_terms_lexemes_together() -> None:
    # One plainto_tsquery per term: a term's lexemes are required together, terms are OR-ed.
    assert term_lexeme_groups(["e-mail", "Tea", "tea", "new york", "???"]) == (
        frozenset({"e-mail", "e", "mail"}),
        frozenset({"tea"}),
        frozenset({"new", "york"}),
    )
    assert term_lexemes(["e-mail", "tea"]) == frozenset({"e-mail", "e", "mail", "tea"})


def test_query_terms_drop_stopwords_and_duplicates_in_first_seen_order() -> None:
    assert query_terms("What do I prefer for the answer style? Answer STYLE!") == [
        "prefer",
        "answer",
        "style",
    ]
    assert query_terms("the tea", drop_stopwords=False) == ["the", "tea"]
    assert "the" in STOPWORDS


def test_estimate_tokens_is_a_quarter_of_the_characters_rounded_up() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2


# -- properties --------------------------------------------------------------------------------

_word = st.text(alphabet=st.characters(categories=("Ll", "Lu", "Lo", "Nd")), min_size=1, max_size=8)
_filler = st.text(alphabet=" \t\n,;!?()[]\"'", min_size=1, max_size=3)


@PROPERTY
@given(st.text(max_size=80))
def test_tokens_are_lowercase_non_empty_and_retokenize_to_themselves(text: str) -> None:
    tokens = tokenize(text)
    everything = set(tokens)
    for token in tokens:
        assert token
        assert token == token.lower()
        again = tokenize(token)
        assert again[0] == token
        assert set(again) <= everything


@PROPERTY
@given(st.lists(_word, min_size=2, max_size=4), st.sampled_from("./:@"), _filler, _filler)
def test_runs_joined_by_dot_slash_colon_or_at_never_split(
    words: list[str], joiner: str, before: str, after: str
) -> None:
    run = joiner.join(words)
    tokens = tokenize(f"{before}{run}{after}")
    assert tokens == [run.lower()]


@PROPERTY
@given(st.lists(_word, min_size=2, max_size=4), _filler, _filler)
def test_hyphenated_words_are_emitted_whole_then_in_parts(
    words: list[str], before: str, after: str
) -> None:
    run = "-".join(words)
    tokens = tokenize(f"{before}{run}{after}")
    assert tokens == [run.lower(), *(w.lower() for w in words)]


@PROPERTY
@given(st.lists(_word, min_size=1, max_size=6), _filler)
def test_separated_words_are_each_one_lexeme(words: list[str], separator: str) -> None:
    assert tokenize(separator.join(words)) == [w.lower() for w in words]


@PROPERTY
@given(st.lists(st.text(max_size=12), max_size=5))
def test_term_groups_are_exactly_the_terms_non_empty_lexeme_sets(terms: list[str]) -> None:
    groups = term_lexeme_groups(terms)
    expected = {frozenset(tokenize(t)) for t in terms} - {frozenset()}
    assert set(groups) == expected
    assert len(groups) == len(expected)
    assert frozenset().union(*groups) == term_lexemes(terms)
