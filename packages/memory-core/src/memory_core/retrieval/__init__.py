"""Retrieval: recall a principal's beliefs into a rendered, citable block (retrieval@2).

``MemoryRetriever.recall(RecallRequest)`` runs the candidate arms under the principal and
scope predicates, fuses and scores them with the profile's weights, collapses duplicates,
caps each subject, fits the item and token budgets, renders the block and records a
``RecallTrace``. ``QueryFormer`` turns a user's turn into the terms and subjects the
query-driven arms search for. ``MemoryRetriever.recall_delta`` and
``MemoryRetriever.corrections`` report what changed since a session's frozen snapshot
(``memory_core.retrieval.lifecycle``).
"""

from memory_core.retrieval._lexicon import DEFAULT_FACETS
from memory_core.retrieval.lifecycle import Corrections, render_correction
from memory_core.retrieval.query import FormedQuery, QueryFormer, TermGroup
from memory_core.retrieval.ranking import is_durable, reciprocal_rank_fusion
from memory_core.retrieval.render import render_block, render_header, render_line
from memory_core.retrieval.retriever import MemoryRetriever, RecallRequest, RecallResult
from memory_core.text import Facet

__all__ = [
    "DEFAULT_FACETS",
    "Corrections",
    "Facet",
    "FormedQuery",
    "MemoryRetriever",
    "QueryFormer",
    "RecallRequest",
    "RecallResult",
    "TermGroup",
    "is_durable",
    "reciprocal_rank_fusion",
    "render_block",
    "render_correction",
    "render_header",
    "render_line",
]
