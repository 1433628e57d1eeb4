"""Cached text keys of the recall hot path: pure functions of strings that recur across recalls.

A recall folds each candidate's subject several times (near duplicates, the per-subject cap,
the named-subject match) and keys each statement for the duplicate collapse, and the same
subjects and statements come back recall after recall. The results are immutable strings, so
caching changes no answer.
"""

from __future__ import annotations

from functools import lru_cache

from memory_core.text import fold, matching_key

TEXT_KEY_CACHE_SIZE = 16384
"""Entries kept per cached key function."""


@lru_cache(maxsize=TEXT_KEY_CACHE_SIZE)
def fold_subject(subject: str) -> str:
    """``text.fold(subject)``, cached."""
    return fold(subject)


@lru_cache(maxsize=TEXT_KEY_CACHE_SIZE)
def statement_key(statement: str) -> str:
    """``text.matching_key(statement)``, cached."""
    return matching_key(statement)


__all__ = ["TEXT_KEY_CACHE_SIZE", "fold_subject", "statement_key"]
