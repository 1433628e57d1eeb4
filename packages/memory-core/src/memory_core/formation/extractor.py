"""The extractor port and the deterministic extractor, under their historical import path.

The port lives in :mod:`memory_core.formation.port`; the deterministic extractor in the
:mod:`memory_core.formation.deterministic` package.
"""

from __future__ import annotations

from memory_core.formation.deterministic import (
    ClauseReading,
    DeterministicExtractor,
    head_phrase,
    read_clause,
    sentence_forms_nothing,
)
from memory_core.formation.port import USER_STATEMENT_CONFIDENCE, Candidate, Extractor, Turn

__all__ = [
    "USER_STATEMENT_CONFIDENCE",
    "Candidate",
    "ClauseReading",
    "DeterministicExtractor",
    "Extractor",
    "Turn",
    "head_phrase",
    "read_clause",
    "sentence_forms_nothing",
]
