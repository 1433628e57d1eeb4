"""Formation: hazard refusal, candidate extraction, resolution and governed consolidation.

``GovernedMemoryService`` is the one way beliefs enter the store. It screens user turns for
secrets and prompt injections (:mod:`~memory_core.formation.hazards`), extracts candidates
(:class:`DeterministicExtractor`, formation@7, behind the :class:`Extractor` port), optionally
adds the session's established facts (:mod:`~memory_core.formation.established`), applies the
candidate ceiling and durable rejections, resolves each candidate against live beliefs
(:class:`Resolver`: same source, duplicate, conflict, contradiction) and writes the changes in
one unit of work; a conflict is surfaced, not resolved (:mod:`~memory_core.formation.conflicts`).
"""

from memory_core.formation.decay import DecayResult
from memory_core.formation.extractor import (
    USER_STATEMENT_CONFIDENCE,
    Candidate,
    ClauseReading,
    DeterministicExtractor,
    Extractor,
    Turn,
    head_phrase,
    read_clause,
    sentence_forms_nothing,
)
from memory_core.formation.hazards import (
    HAZARD_RULES,
    INJECTION_RULES,
    SECRET_RULES,
    HazardKind,
    HazardRule,
    Refusal,
    ScreenedTurn,
    find_hazards,
    is_hazardous,
    screen_turn,
)
from memory_core.formation.provider import ProviderCounters, ProviderExtractor
from memory_core.formation.resolver import (
    DEFAULT_RULES,
    Ledger,
    Resolution,
    ResolutionRule,
    Resolver,
    belief_key,
)
from memory_core.formation.selection import (
    ExtractorSelection,
    ProviderEvidenceRequiredError,
    ProviderFormationEvidence,
    SelectionAudit,
    SelectionMode,
    SelectionReason,
    select_extractor,
)
from memory_core.formation.service import (
    TRIGGERS,
    ConsolidationResult,
    GovernedMemoryService,
    grounded,
    is_formation_source,
    message_text,
)
from memory_core.formation.usage import UsageResult

__all__ = [
    "DEFAULT_RULES",
    "HAZARD_RULES",
    "INJECTION_RULES",
    "SECRET_RULES",
    "TRIGGERS",
    "USER_STATEMENT_CONFIDENCE",
    "Candidate",
    "ClauseReading",
    "ConsolidationResult",
    "DecayResult",
    "DeterministicExtractor",
    "Extractor",
    "ExtractorSelection",
    "GovernedMemoryService",
    "HazardKind",
    "HazardRule",
    "Ledger",
    "ProviderCounters",
    "ProviderEvidenceRequiredError",
    "ProviderExtractor",
    "ProviderFormationEvidence",
    "Refusal",
    "Resolution",
    "ResolutionRule",
    "Resolver",
    "ScreenedTurn",
    "SelectionAudit",
    "SelectionMode",
    "SelectionReason",
    "Turn",
    "UsageResult",
    "belief_key",
    "find_hazards",
    "grounded",
    "head_phrase",
    "is_formation_source",
    "is_hazardous",
    "message_text",
    "read_clause",
    "screen_turn",
    "select_extractor",
    "sentence_forms_nothing",
]
