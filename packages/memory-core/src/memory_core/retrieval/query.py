"""The query former: what an in-turn recall searches for, derived from the user's turn alone.

A formed query has two parts, matching the two query-driven candidate arms:

* ``terms``: the lexemes the lexical arm searches with (any-term, whole lexemes). They are the
  turn's own keywords (shared tokenizer, stopwords removed), each keyword's inflections (and
  a month name's ISO month number), and the words of any facet a keyword cues (see
  ``memory_core.retrieval._lexicon``). ``groups`` keeps that structure so the lexical arm can
  rank by concepts matched rather than by raw lexeme counts: a keyword and its inflections
  are one group of weight 1, a facet expansion is one group of weight ``FACET_WEIGHT``.
* ``subjects``: known subjects (of the principal's live beliefs) that the turn names, i.e.
  whose lexemes appear as a contiguous phrase in the turn, up to inflection.

Forming is pure: the same text and known subjects give the same query, in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from memory_core.retrieval._lexicon import DEFAULT_FACETS, MONTH_NUMBERS, QUESTION_SCAFFOLDING
from memory_core.retrieval._memo import TEXT_KEY_CACHE_SIZE, fold_subject
from memory_core.text import Facet, base_forms, same_word, variants, word_list
from memory_core.tokenizer import STOPWORDS, query_terms, tokenize

FACET_WEIGHT = 0.5
"""Weight of a facet expansion group relative to a keyword group (part of retrieval@2)."""

PERSON_QUESTION_WORDS: frozenset[str] = frozenset({"who", "whom", "whose"})
"""Interrogatives that ask for a person: the answer, if remembered, is a relationship."""


@dataclass(frozen=True, kw_only=True)
class TermGroup:
    """One concept of a query: a keyword with its inflections, or one facet's expansion."""

    kind: Literal["keyword", "facet"]
    """A keyword of the turn with its inflections, or a facet expansion."""
    label: str
    """The keyword, or ``facet:<name>`` for an expansion."""
    lexemes: tuple[str, ...]
    """The group's lexemes, sorted."""
    weight: float
    """1.0 for a keyword group, ``FACET_WEIGHT`` for a facet expansion."""


@dataclass(frozen=True, kw_only=True)
class FormedQuery:
    """What the query-driven arms search for."""

    terms: tuple[str, ...]
    """Every lexeme the lexical arm searches with: keywords first, then inflections, then facets."""
    subjects: tuple[str, ...]
    """Known subjects the turn names (normalized), in order of first mention."""
    keywords: tuple[str, ...] = ()
    """The turn's own lexemes with stopwords removed, in order of first appearance."""
    groups: tuple[TermGroup, ...] = ()
    """The concept groups ``terms`` is the union of; the lexical arm ranks by them."""
    asks_person: bool = False
    """The turn asks about a person (``who``, ``whom``, ``whose``)."""

    @property
    def is_empty(self) -> bool:
        """True when the turn gives neither a term nor a named subject to search for."""
        return not self.terms and not self.subjects


class QueryFormer:
    """Forms a recall query from a user's turn with the shared tokenizer and the facet lexicon."""

    def __init__(self, *, facets: Sequence[Facet] | None = None, inflect: bool = True) -> None:
        """Create a former.

        Args:
            facets: the concept lexicon; ``None`` is the shipped ``DEFAULT_FACETS``, ``()``
                disables facet expansion.
            inflect: whether keywords are expanded to their inflections.
        """
        self._facets = tuple(DEFAULT_FACETS if facets is None else facets)
        self._inflect = inflect
        # key -> the indexes of the facets it cues, ascending: a turn's cued facets are found
        # from its keywords' base forms (no test per facet), in lexicon order
        self._facets_of_key: dict[str, list[int]] = {}
        for index, facet in enumerate(self._facets):
            for key in facet.keys:
                self._facets_of_key.setdefault(key, []).append(index)

    def keywords(self, text: str) -> tuple[str, ...]:
        """The turn's distinct lexemes with stopwords removed, in order of first appearance.

        In a question (:func:`is_question`), words that frame the question rather than name
        what it asks about (``QUESTION_SCAFFOLDING``: "kind", "mention", "likely"...) are
        dropped too; a turn made only of them keeps them, so it still searches for something.
        """
        terms = tuple(query_terms(text))
        if not is_question(text):
            return terms
        kept = tuple(term for term in terms if term not in QUESTION_SCAFFOLDING)
        return kept or terms

    def groups(self, text: str) -> tuple[TermGroup, ...]:
        """Keyword groups (one per keyword) followed by facet groups, in a deterministic order."""
        return self._groups(self.keywords(text))

    def _groups(self, keywords: tuple[str, ...]) -> tuple[TermGroup, ...]:
        keyword_groups = [
            TermGroup(
                kind="keyword",
                label=keyword,
                lexemes=tuple(sorted(_keyword_lexemes(keyword, inflect=self._inflect))),
                weight=1.0,
            )
            for keyword in keywords
        ]
        covered = {lexeme for group in keyword_groups for lexeme in group.lexemes}
        # a facet is cued when some keyword's base form is one of its keys
        keyword_bases = frozenset().union(*(base_forms(keyword) for keyword in keywords))
        facets_of_key = self._facets_of_key
        cued = sorted({index for base in keyword_bases for index in facets_of_key.get(base, ())})
        facet_groups: list[TermGroup] = []
        for index in cued:
            facet = self._facets[index]
            extra = facet.lexemes - covered
            if extra:
                facet_groups.append(
                    TermGroup(
                        kind="facet",
                        label=f"facet:{facet.name}",
                        lexemes=tuple(sorted(extra)),
                        weight=FACET_WEIGHT,
                    )
                )
        return (*keyword_groups, *facet_groups)

    def named_subjects(self, text: str, known_subjects: Iterable[str]) -> tuple[str, ...]:
        """Known subjects whose lexemes occur as a contiguous phrase of the turn.

        Matching is by whole lexeme up to inflection (``answer style`` is named by "my answer
        styles"); a subject made only of stopwords is never named.
        """
        turn_bases: frozenset[str] | None = None
        tokens: list[str] = []
        checked: set[str] = set()
        found: list[tuple[int, str]] = []
        for known in known_subjects:
            nameable = _nameable_subject(known)
            if nameable is None:
                continue
            subject, (phrase, phrase_bases) = nameable
            if subject in checked:  # another spelling of a subject already judged
                continue
            checked.add(subject)
            if turn_bases is None:
                tokens = tokenize(text)
                # Every word of a named subject is the same word as some token of the turn, so
                # a subject holding a word that shares no base form with any token is skipped
                # unread.
                turn_bases = frozenset().union(*(base_forms(token) for token in tokens))
            for bases in phrase_bases:
                if bases.isdisjoint(turn_bases):
                    break
            else:
                position = _find_phrase(tokens, phrase)
                if position is not None:
                    found.append((position, subject))
        found.sort()
        return tuple(subject for _, subject in found)

    def form(self, text: str, *, known_subjects: Sequence[str] = ()) -> FormedQuery:
        """Form the query of one turn.

        Args:
            text: the user's turn.
            known_subjects: subjects of the principal's live beliefs the turn may name.

        Returns:
            The formed query; ``is_empty`` when the turn has no keyword and names no subject.
        """
        keywords = self.keywords(text)
        groups = self._groups(keywords)
        terms: dict[str, None] = {}
        for group in groups:
            if group.kind == "keyword":
                terms.setdefault(group.label, None)
        for group in groups:
            for lexeme in group.lexemes:
                terms.setdefault(lexeme, None)
        return FormedQuery(
            terms=tuple(terms),
            subjects=self.named_subjects(text, known_subjects),
            keywords=keywords,
            groups=groups,
            asks_person=not PERSON_QUESTION_WORDS.isdisjoint(tokenize(text)),
        )


def _keyword_lexemes(keyword: str, *, inflect: bool) -> set[str]:
    """A keyword's group: itself, its inflections, and a month name's ISO month number."""
    out = set(variants(keyword)) if inflect else {keyword}
    if keyword in MONTH_NUMBERS:
        out.add(MONTH_NUMBERS[keyword])
    return out


QUESTION_OPENERS: frozenset[str] = frozenset(
    word_list(
        "what when where which who whom whose why how did does do is are was were has have had",
        "can could would will should",
    )
)
"""First words that make a turn a question even without a question mark."""


def is_question(text: str) -> bool:
    """True when the turn asks: it holds a ``?`` or opens with an interrogative or auxiliary."""
    if "?" in text:
        return True
    tokens = tokenize(text)
    return bool(tokens) and tokens[0] in QUESTION_OPENERS


@lru_cache(maxsize=TEXT_KEY_CACHE_SIZE)
def _subject_phrase(
    subject: str,
) -> tuple[tuple[str, ...], tuple[frozenset[str], ...]] | None:
    """A folded subject's tokens and each token's base forms; ``None`` for a subject a turn
    never names (no token, or only stopwords). Cached: known subjects recur across turns."""
    phrase = tuple(tokenize(subject))
    if not phrase or all(token in STOPWORDS for token in phrase):
        return None
    return phrase, tuple(base_forms(word) for word in phrase)


@lru_cache(maxsize=TEXT_KEY_CACHE_SIZE)
def _nameable_subject(
    subject: str,
) -> tuple[str, tuple[tuple[str, ...], tuple[frozenset[str], ...]]] | None:
    """A known subject's folded form with its :func:`_subject_phrase`; ``None`` for a blank
    subject or one a turn never names. Cached per stored spelling."""
    if not subject.strip():
        return None
    folded = fold_subject(subject)
    phrase = _subject_phrase(folded)
    return None if phrase is None else (folded, phrase)


def _find_phrase(tokens: Sequence[str], phrase: Sequence[str]) -> int | None:
    width = len(phrase)
    for start in range(len(tokens) - width + 1):
        if all(same_word(tokens[start + i], phrase[i]) for i in range(width)):
            return start
    return None


__all__ = [
    "FACET_WEIGHT",
    "PERSON_QUESTION_WORDS",
    "FormedQuery",
    "QueryFormer",
    "TermGroup",
    "is_question",
]
