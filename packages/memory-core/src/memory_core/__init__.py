"""memory-core: governed agent memory.

Form governed beliefs from what users say, consolidate them, recall them into a model's
context with citable short ids, and run their lifecycle. The in-memory storage tier is the
default; ``memory-store-pg`` adds PostgreSQL.

Start at ``build()`` (``memory_core.bootstrap``): it returns a ``Composition`` with
``sessions``, ``runs``, ``memory`` and ``maintenance_factory()`` wired over one storage tier.

``__all__`` is what a user of the package needs: the entry point and what it returns, the
domain records, the results of the API's calls, the run and model types a composition takes,
the memory profiles, the storage a composition may be given, and the whole error tree
(:mod:`memory_core.errors`). Everything else (clocks, id factories, storage ports, the
tokenizer, the text gate, formation, retrieval and runtime internals) is imported from its
own module; text comparison and English word forms (fold, the matching key, base forms, the
facet word table) from the public :mod:`memory_core.text`.
"""

from typing import TYPE_CHECKING, Any

from memory_core.base.model import (
    ModelError,
    PermanentModelError,
    ReplyTimeoutError,
    ScriptExhaustedError,
    TransientModelError,
)
from memory_core.bootstrap import Composition, build
from memory_core.domain import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    Polarity,
    Principal,
    RecallTrace,
    Rejection,
    Session,
    SessionKind,
    SessionMetadata,
    Trust,
    scope_for_project,
    visible_scopes,
)
from memory_core.errors import (
    AmbiguousIdError,
    ConfigurationError,
    ConflictError,
    DuplicateIdError,
    ImportFormatError,
    MemoryCoreError,
    MessageTextError,
    NotFoundError,
    RunError,
    SessionClosedError,
    SessionKindError,
    StorageError,
    StorageUnavailableError,
    UsageError,
)
from memory_core.formation import ConsolidationResult
from memory_core.formation.provider_reply import ReplyRejectedError
from memory_core.formation.selection import (
    InvalidProviderEvidenceError,
    ProviderEvidenceRequiredError,
)
from memory_core.maintenance import MaintenanceReport
from memory_core.management import BeliefHistory, ForgetReport
from memory_core.memory_api import MemoryAPI
from memory_core.portability import ImportReport
from memory_core.ports import Storage
from memory_core.profiles import MemoryProfiles, load_profiles
from memory_core.retrieval import RecallRequest, RecallResult
from memory_core.runtime import (
    ContextOverflowError,
    FakeModelScript,
    PolicyProfile,
    Run,
    RunLimits,
    RunStatus,
    ScriptedModel,
    ScriptedTurn,
)
from memory_core.sessions import SessionClosure, SessionService, SweepReport
from memory_core.stores import InMemoryStorage
from memory_core.telemetry import TelemetryAttributeError

if TYPE_CHECKING:
    from memory_core.runtime.openai_compat import OpenAICompatibleModel


def __getattr__(name: str) -> Any:
    """``OpenAICompatibleModel``, imported (with httpx) the first time it is asked for."""
    if name == "OpenAICompatibleModel":
        from memory_core.runtime.openai_compat import OpenAICompatibleModel

        return OpenAICompatibleModel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AmbiguousIdError",
    "Authority",
    "Belief",
    "BeliefHistory",
    "BeliefStatus",
    "BeliefType",
    "Composition",
    "ConfigurationError",
    "ConflictError",
    "ConsolidationResult",
    "ContextOverflowError",
    "DuplicateIdError",
    "Event",
    "FakeModelScript",
    "ForgetReport",
    "ImportFormatError",
    "ImportReport",
    "InMemoryStorage",
    "InvalidProviderEvidenceError",
    "MaintenanceReport",
    "MemoryAPI",
    "MemoryCoreError",
    "MemoryProfiles",
    "MessageTextError",
    "ModelError",
    "NotFoundError",
    "OpenAICompatibleModel",
    "PermanentModelError",
    "Polarity",
    "PolicyProfile",
    "Principal",
    "ProviderEvidenceRequiredError",
    "RecallRequest",
    "RecallResult",
    "RecallTrace",
    "Rejection",
    "ReplyRejectedError",
    "ReplyTimeoutError",
    "Run",
    "RunError",
    "RunLimits",
    "RunStatus",
    "ScriptExhaustedError",
    "ScriptedModel",
    "ScriptedTurn",
    "Session",
    "SessionClosedError",
    "SessionClosure",
    "SessionKind",
    "SessionKindError",
    "SessionMetadata",
    "SessionService",
    "Storage",
    "StorageError",
    "StorageUnavailableError",
    "SweepReport",
    "TelemetryAttributeError",
    "TransientModelError",
    "Trust",
    "UsageError",
    "build",
    "load_profiles",
    "scope_for_project",
    "visible_scopes",
]
