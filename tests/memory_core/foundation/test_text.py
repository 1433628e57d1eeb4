"""memory_core.text: folding, the one matching key and its variant, English word forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core.formation.deterministic.phrases import _facet
from memory_core.formation.third_person import third_person_verb
from memory_core.retrieval import DEFAULT_FACETS
from memory_core.text import (
    FACETS,
    IRREGULAR_PLURALS,
    IRREGULAR_VERBS,
    LABEL_TRAILING_PUNCTUATION,
    QUERY_FACETS,
    SUBJECT_FACETS,
    TRAILING_PUNCTUATION,
    IrregularVerb,
    base_forms,
    collapse,
    fold,
    gerund,
    gerund_base,
    irregular_past,
    irregular_past_base,
    label_key,
    matching_key,
    same_word,
    third_person,
    undo_third_person,
    variants,
    word_list,
)
from memory_core.tokenizer import STOPWORDS

PROPERTY = settings(max_examples=200, deadline=None)
TEXT = st.text(
    alphabet=st.characters(codec="utf-8") | st.sampled_from(" \t\n\u00a0.!?;:,…"),
    max_size=40,
)


# -- fold and the matching key ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "folded", "key"),
    [
        ("  Coffee\tTime ", "coffee time", "coffee time"),
        ("Coffee.", "coffee.", "coffee"),
        (" coffee", "coffee", "coffee"),
        ("COFFEE!", "coffee!", "coffee"),
        ("tea, ", "tea,", "tea"),
        ("Straße ?! ", "strasse ?!", "strasse"),
        ("x. . ;", "x. . ;", "x"),
        ("…", "…", "…"),
        ("", "", ""),
    ],
)
def test_fold_and_matching_key(text: str, folded: str, key: str) -> None:
    assert fold(text) == folded
    assert matching_key(text) == key


def test_the_subject_key_set_is_the_postgresql_index_set() -> None:
    """Migration 0004 indexes ``rtrim(subject_key, ...)`` with a literal set: a change to the
    key's set is a change to that index and needs a migration."""
    from memory_store_pg.migrations.versions import rev_0004_subject_match_index as rev_0004

    assert f"rtrim(subject_key, '{TRAILING_PUNCTUATION}')" == rev_0004._MATCH_KEY
    assert LABEL_TRAILING_PUNCTUATION == TRAILING_PUNCTUATION + "…"


@PROPERTY
@given(TEXT)
def test_fold_is_idempotent_and_commutes_with_collapse(text: str) -> None:
    assert fold(fold(text)) == fold(text)
    assert fold(collapse(text)) == fold(text) == collapse(text).casefold()
    assert "  " not in fold(text) and fold(text) == fold(text).strip()


@PROPERTY
@given(TEXT)
def test_the_matching_key_is_idempotent_and_fold_invariant(text: str) -> None:
    key = matching_key(text)
    assert matching_key(key) == key
    assert matching_key(fold(text)) == key
    assert matching_key(text.upper()) == matching_key(text.upper().casefold())
    assert not key or key[-1] not in TRAILING_PUNCTUATION


@PROPERTY
@given(TEXT, st.text(alphabet=st.sampled_from(TRAILING_PUNCTUATION + "\t\n"), max_size=5))
def test_trailing_punctuation_never_changes_the_key(text: str, tail: str) -> None:
    assert matching_key(text + tail) == matching_key(text)


@PROPERTY
@given(TEXT, TEXT)
def test_the_label_key_is_coarser_than_the_matching_key(a: str, b: str) -> None:
    assert label_key(label_key(a)) == label_key(a)
    assert label_key(a + "…") == label_key(a)
    if matching_key(a) == matching_key(b):
        assert label_key(a) == label_key(b)


def test_the_label_key_strips_an_ellipsis_the_matching_key_keeps() -> None:
    assert label_key("I don't know…") == "i don't know"
    assert matching_key("I don't know…") == "i don't know…"


# -- English word forms ----------------------------------------------------------------------


def test_the_irregular_table_has_one_row_per_verb_and_form() -> None:
    bases = [verb.base for verb in IRREGULAR_VERBS]
    assert len(bases) == len(set(bases))
    formation = [v for v in IRREGULAR_VERBS if "formation" in v.readers]
    pasts = [v.past for v in formation]
    assert len(pasts) == len(set(pasts))
    assert len(formation) > 20 and any("retrieval" in v.readers for v in IRREGULAR_VERBS)


def _read_by(reader: str) -> list[IrregularVerb]:
    return [verb for verb in IRREGULAR_VERBS if reader in verb.readers]


@pytest.mark.parametrize("verb", _read_by("formation"), ids=lambda verb: verb.base)
def test_formation_reads_an_irregular_past_back_to_its_base(verb: IrregularVerb) -> None:
    assert irregular_past(verb.base) == verb.past
    assert irregular_past_base(verb.past) == verb.base


@pytest.mark.parametrize("verb", _read_by("retrieval"), ids=lambda verb: verb.base)
def test_retrieval_expands_a_keyword_across_an_irregular_verb(verb: IrregularVerb) -> None:
    for form in {verb.past, verb.participle} - {verb.base}:
        assert form in variants(verb.base)
        if len(verb.base) < 3 or verb.base in STOPWORDS:
            # a base too short to mean something (go) or a stopword (tell) is never a term
            assert base_forms(form) == {form}
        else:
            assert verb.base in base_forms(form)
            assert same_word(form, verb.base)


def test_formation_reads_back_only_its_rows_and_retrieval_every_row() -> None:
    assert irregular_past_base("thought") is None  # a row formation does not read
    assert "think" in base_forms("thought")
    assert irregular_past("see") == "saw"
    assert "see" in base_forms("saw")
    assert "get" in base_forms("got")
    assert all("retrieval" in verb.readers for verb in IRREGULAR_VERBS if verb.readers)


@pytest.mark.parametrize(("plural", "singular"), sorted(IRREGULAR_PLURALS.items()))
def test_an_irregular_plural_reduces_to_its_singular(plural: str, singular: str) -> None:
    assert singular in base_forms(plural)


@pytest.mark.parametrize(
    ("base", "third", "back"),
    [
        ("have", "has", "have"),
        ("be", "is", "am"),
        ("do", "does", "do"),
        ("go", "goes", "go"),
        ("can", "can", "can"),
        ("watch", "watches", "watch"),
        ("carry", "carries", "carry"),
        ("live", "lives", "live"),
        ("Play", "Plays", "Play"),
    ],
)
def test_third_person_and_back(base: str, third: str, back: str) -> None:
    assert third_person(base) == third
    assert undo_third_person(third) == back


@pytest.mark.parametrize(
    "base",
    [
        "visit",
        "host",
        "run",
        "drive",
        "stay",
        "take",
        "share",
        "dance",
        "explore",
        "open",
        "enter",
        "edit",
        "call",
        "pass",
        "shop",
        "use",
        "live",
        "write",
        "cook",
        "travel",
        "plan",
        "die",
        "lie",
        "fly",
        "buzz",
        "swim",
        "bike",
        "see",
        "go",
    ],
)
def test_an_ing_form_reads_back_to_its_base(base: str) -> None:
    assert gerund_base(gerund(base)) == base


def test_a_word_without_ing_has_no_gerund_base() -> None:
    assert gerund_base("sing") is None
    assert gerund_base("string-ing") is None


def test_the_statement_rewrite_conjugates_through_the_text_module() -> None:
    assert third_person_verb("be") == "is"
    assert third_person_verb("study") == "studies"
    assert third_person_verb("moved") == "moved"


# -- the facet word table --------------------------------------------------------------------


def test_the_facet_table_is_one_table_read_two_ways() -> None:
    names = [facet.name for facet in FACETS]
    assert len(names) == len(set(names))
    assert all(facet.words or facet.phrases for facet in FACETS)
    assert DEFAULT_FACETS == QUERY_FACETS == tuple(f for f in FACETS if f.words)
    assert tuple(f for f in FACETS if f.phrases) == SUBJECT_FACETS
    assert {"residence", "spouse"} <= {f.name for f in QUERY_FACETS}
    assert {"answer style", "indentation style"} <= {f.name for f in SUBJECT_FACETS}


def test_formation_files_a_preference_under_a_subject_facet() -> None:
    assert _facet("concise answers") == "answer style"
    assert _facet("tabs over spaces") == "indentation style"
    assert _facet("living in Oslo") is None  # a query facet, not a subject facet


def test_a_facet_keyword_cues_the_facet_through_its_base_forms() -> None:
    residence = next(f for f in QUERY_FACETS if f.name == "residence")
    assert "live" in residence.keys and "lives" in residence.lexemes
    assert word_list("a b", " c ") == ("a", "b", "c")


# -- one normaliser --------------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[3]
INLINE_COPIES = re.compile(
    r"""" "\.join\([^\n]*\.split\(\)\)"""  # a whitespace collapse (and fold) written out
    r"""|compile\(r?"\\s\+"\)"""  # a whitespace-run pattern, for the same
)


def _copies(source: str) -> list[str]:
    return [m.group(0) for m in INLINE_COPIES.finditer(source)]


def test_the_guard_sees_the_copies_it_replaced() -> None:
    assert _copies('    return " ".join(text.casefold().split()).rstrip(" .!?;:")\n')
    assert _copies('_SPACE = re.compile(r"\\s+")\n')
    assert not _copies("    return fold(text)\n")


def test_no_package_collapses_whitespace_outside_memory_core_text() -> None:
    sources = sorted((REPO / "packages").glob("*/src/**/*.py"))
    assert len(sources) > 100  # the workspace's sources, not a vacuous pass
    found = [
        f"{path.relative_to(REPO)}: {copy}"
        for path in sources
        if "memory_core/text" not in path.as_posix()
        for copy in _copies(path.read_text(encoding="utf-8"))
    ]
    assert found == []
