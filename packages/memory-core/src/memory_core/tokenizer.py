"""The shared tokenizer: the one definition of a lexeme both store adapters match on.

It approximates PostgreSQL's ``to_tsvector('simple', ...)`` parser:

* lexemes are lowercase and unstemmed (``themes`` is not ``theme``);
* a run joined by dots, slashes, colons or ``@`` stays whole (``api.example.com``,
  ``a/b``, ``10:30``, ``me@example.com``);
* an apostrophe splits (``don't`` -> ``don``, ``t``);
* a hyphenated word is emitted whole and in parts (``e-mail`` -> ``e-mail``, ``e``, ``mail``);
* a combining mark continues the word it follows (``नमस्ते`` and a decomposed ``café`` stay
  whole), so a word in a script written with vowel signs is not shredded into letters;
* text with no lexeme yields no token, and a query term with no lexeme matches nothing.

A query term is matched the way PostgreSQL's ``plainto_tsquery`` matches it: all of the term's
lexemes must be present (``e-mail`` needs ``e-mail``, ``e`` and ``mail``), and terms are then
combined with OR (:func:`term_lexeme_groups`).

The PostgreSQL parser divides a few shapes differently (a URL with a query string, a date);
lexical recall is a ranking arm, so such edges change what the ranker is offered, never what a
principal may see.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

# A word is a run of letters or digits (underscore is a separator, as in PostgreSQL).
_WORD = r"[^\W_]+"
_RUN = re.compile(rf"{_WORD}(?:[./:@-]{_WORD})*")

_STOPWORD_TEXT = """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself
just me more most my myself no nor not now of off on once only or other our ours ourselves out
over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which
while who whom why will with would you your yours yourself yourselves s t d ll m re ve
still also please tell know remember again really much many ok okay yes hi hello thanks thank
"""
STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())
"""Words a query former drops: function words and conversational filler."""


_MARK_JOINED = "a"
_MARK_SEPARATOR = " "


def _shadow(lowered: str) -> str:
    """Map ``lowered`` to a same-length string in which a combining mark that follows a word
    character reads as a word character and any other combining mark reads as a separator."""
    out: list[str] = []
    in_word = False
    for char in lowered:
        if unicodedata.category(char).startswith("M"):
            out.append(_MARK_JOINED if in_word else _MARK_SEPARATOR)
        else:
            out.append(char)
            in_word = char.isalnum()
    return "".join(out)


TOKEN_CACHE_SIZE = 4096
"""Texts whose tokens (and, separately, whose lexeme sets) are remembered: a recall tokenizes
its turn several times and ranks many of the previous recall's beliefs again, so most calls
repeat; the functions are pure and their cached results immutable, so caching changes no
result. Bounded, so it never grows with the store (the stores index with
:func:`distinct_lexemes`, which is not cached)."""


def tokenize(text: str) -> list[str]:
    """Return the lexemes of ``text`` in order of appearance (duplicates kept)."""
    return list(_tokens(text))


@lru_cache(maxsize=TOKEN_CACHE_SIZE)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_scan(text))


def _scan(text: str) -> list[str]:
    lowered = text.lower()
    if lowered.isascii():
        # No combining mark: the text is its own shadow, and each run is the match itself.
        runs: list[str] = _RUN.findall(lowered)
    else:
        # Runs are found on a shadow of the text (same length) so combining marks join their
        # word; the lexemes themselves are cut from the lowered text.
        runs = [lowered[m.start() : m.end()] for m in _RUN.finditer(_shadow(lowered))]
    return _split_hyphens(runs) if "-" in lowered else runs


def _split_hyphens(runs: list[str]) -> list[str]:
    """Each run, followed by its non-empty parts when it is hyphenated."""
    tokens: list[str] = []
    for run in runs:
        tokens.append(run)
        if "-" in run:
            tokens.extend(part for part in run.split("-") if part)
    return tokens


@lru_cache(maxsize=TOKEN_CACHE_SIZE)
def lexemes(text: str) -> frozenset[str]:
    """Return the distinct lexemes of ``text``."""
    return frozenset(_scan(text))


def distinct_lexemes(text: str) -> tuple[str, ...]:
    """The distinct lexemes of ``text`` in order of first appearance (not cached: for
    indexing many records once each)."""
    return tuple(dict.fromkeys(_scan(text)))


def query_terms(text: str, *, drop_stopwords: bool = True) -> list[str]:
    """Return the distinct lexemes of ``text`` in first-seen order, stopwords removed."""
    seen: dict[str, None] = {}
    for token in _tokens(text):
        if drop_stopwords and token in STOPWORDS:
            continue
        seen.setdefault(token, None)
    return list(seen)


def term_lexemes(terms: Iterable[str]) -> frozenset[str]:
    """Reduce query terms to lexemes; a term with no lexeme contributes nothing."""
    out: set[str] = set()
    for term in terms:
        out.update(_tokens(term))
    return frozenset(out)


def term_lexeme_groups(terms: Iterable[str]) -> tuple[frozenset[str], ...]:
    """Reduce each query term to the set of lexemes a record must hold to match that term.

    This is ``plainto_tsquery`` per term: a record matches a term when it holds every one of the
    term's lexemes, and matches the query when it matches any term. A term with no lexeme is
    dropped (it matches nothing); duplicate groups are kept once, in first-seen order.
    """
    groups: dict[frozenset[str], None] = {}
    for term in terms:
        group = _term_group(term)
        if group:
            groups.setdefault(group, None)
    return tuple(groups)


@lru_cache(maxsize=TOKEN_CACHE_SIZE)
def _term_group(term: str) -> frozenset[str]:
    return frozenset(_tokens(term))


def estimate_tokens(text: str) -> int:
    """Deterministic token estimate used by every budget: one token per four characters."""
    return tokens_for_length(len(text))


def tokens_for_length(length: int) -> int:
    """``estimate_tokens`` of any text of ``length`` characters (it depends on nothing else)."""
    return (length + 3) // 4
