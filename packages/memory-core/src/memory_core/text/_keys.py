"""Folding and the matching key: the one way memory-core compares two pieces of text."""

from __future__ import annotations

TRAILING_PUNCTUATION = " .!?;:,"
"""What :func:`matching_key` strips from the end of a text.

The PostgreSQL store's subject match index (``memory_store_pg`` migration 0004) spells the same
set in ``rtrim(subject_key, ' .!?;:,')``; a change here is a change to that index."""

LABEL_TRAILING_PUNCTUATION = TRAILING_PUNCTUATION + "…"
"""What :func:`label_key` strips: :data:`TRAILING_PUNCTUATION` and a trailing ellipsis."""


def collapse(text: str) -> str:
    """Collapse runs of whitespace to one space and trim (case kept)."""
    return " ".join(text.split())


def fold(text: str) -> str:
    """Case-folded, whitespace collapsed and trimmed: the form case-blind comparison reads.

    ``fold("  Coffee\\tTime ")`` is ``"coffee time"``. Folding and collapsing commute (no
    character's case fold adds or removes whitespace), so ``fold(collapse(t)) == fold(t)``.
    """
    return " ".join(text.casefold().split())


def matching_key(text: str) -> str:
    """The matching form: :func:`fold`, then trailing :data:`TRAILING_PUNCTUATION` stripped.

    ``"Coffee."``, ``" coffee"`` and ``"COFFEE!"`` share the key ``"coffee"``. It is the
    key of a subject's exact lookup (``MemoryStore.find_by_subject`` on every storage tier),
    of formation's same-statement and same-slot checks, of retrieval's duplicate collapse and
    of the external adapters' statement lookup.
    """
    return fold(text).rstrip(TRAILING_PUNCTUATION)


def label_key(text: str) -> str:
    """:func:`matching_key` that also strips a trailing ellipsis (``…``).

    The evaluation harness compares hand-written labels, forbidden fragments and a model's
    answers with it: a model's answer may trail off in an ellipsis (``I don't know…``), which
    still says the labelled thing. It is a separate key because the stores' subject key must
    stay equal to the PostgreSQL index expression (see :data:`TRAILING_PUNCTUATION`).
    """
    return fold(text).rstrip(LABEL_TRAILING_PUNCTUATION)
