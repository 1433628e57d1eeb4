"""Text as memory-core compares and inflects it: folding, the matching key, English word forms.

One module, so every package compares text the same way:

* :func:`collapse` and :func:`fold` (case fold + whitespace collapse): the case-blind form a
  subject is compared in (recall's subject arm, the per-subject cap);
* :func:`matching_key` (:func:`fold`, trailing :data:`TRAILING_PUNCTUATION` stripped): the
  one matching key (a subject's exact lookup on every storage tier, formation's same-statement
  checks, retrieval's duplicate collapse, the benchmarks' statement lookup);
  :func:`label_key` is its one variant, for evaluation labels and model answers (it also
  strips a trailing ellipsis);
* English word forms over one irregular-verb table (:data:`IRREGULAR_VERBS`; the extractor's
  past-form recognition lists are still its own, see :mod:`memory_core.text._forms`):
  conjugation for formation (:func:`third_person`, :func:`undo_third_person`, :func:`gerund`,
  :func:`irregular_past`, :func:`past_tense`) and base forms and inflections for retrieval's
  query expansion (:func:`base_forms`, :func:`inflections`, :func:`variants`,
  :func:`same_word`);
* relative time anchored to a clock (:func:`take_time`, :func:`resolve_time`,
  :func:`resolve_span`): formation dates what a turn says (``yesterday`` -> ``on
  2026-01-04``), retrieval reads the days a question asks about;
* the facet word table (:data:`FACETS`): the aspects beliefs are filed under and the words
  naming each, read by retrieval's query expansion and formation's preference subjects.

The lexeme itself (what a store indexes) is the tokenizer's (:mod:`memory_core.tokenizer`).
The benchmarks' answer scorer keeps its own Porter stemmer: it reproduces the published
LoCoMo/SQuAD token F1, which must not move with memory-core's word forms.
"""

from memory_core.text._facets import FACETS, QUERY_FACETS, SUBJECT_FACETS, Facet, word_list
from memory_core.text._forms import (
    IRREGULAR_PLURALS,
    IRREGULAR_VERBS,
    IrregularVerb,
    Reader,
    base_forms,
    derived_bases,
    gerund,
    gerund_base,
    indefinite_article,
    inflections,
    irregular_past,
    irregular_past_base,
    past_tense,
    same_word,
    third_person,
    undo_third_person,
    variants,
)
from memory_core.text._keys import (
    LABEL_TRAILING_PUNCTUATION,
    TRAILING_PUNCTUATION,
    collapse,
    fold,
    label_key,
    matching_key,
)
from memory_core.text._time import (
    MONTHS,
    WEEKDAYS,
    Span,
    TimePhrase,
    month_span,
    resolve_deadlines,
    resolve_span,
    resolve_time,
    take_time,
    year_span,
)

__all__ = [
    "FACETS",
    "IRREGULAR_PLURALS",
    "IRREGULAR_VERBS",
    "LABEL_TRAILING_PUNCTUATION",
    "MONTHS",
    "QUERY_FACETS",
    "SUBJECT_FACETS",
    "TRAILING_PUNCTUATION",
    "WEEKDAYS",
    "Facet",
    "IrregularVerb",
    "Reader",
    "Span",
    "TimePhrase",
    "base_forms",
    "collapse",
    "derived_bases",
    "fold",
    "gerund",
    "gerund_base",
    "indefinite_article",
    "inflections",
    "irregular_past",
    "irregular_past_base",
    "label_key",
    "matching_key",
    "month_span",
    "past_tense",
    "resolve_deadlines",
    "resolve_span",
    "resolve_time",
    "same_word",
    "take_time",
    "third_person",
    "undo_third_person",
    "variants",
    "word_list",
    "year_span",
]
