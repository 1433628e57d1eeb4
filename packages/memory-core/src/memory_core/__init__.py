"""memory-core: governed agent memory.

Form governed beliefs from what users say, consolidate them, recall them into a model's
context with citable short ids, and run their lifecycle. The in-memory storage tier is the
default; ``memory-store-pg`` adds PostgreSQL.

Start at ``build()`` (``memory_core.bootstrap``): it returns a ``Composition`` with
``sessions``, ``runs``, ``memory`` and ``maintenance_factory()`` wired over one storage tier.
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
from memory_core.clock import Clock, FixedClock, SystemClock
from memory_core.domain import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    Event,
    Polarity,
    Principal,
    RecallQuery,
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
from memory_core.ids import (
    DEFAULT_ID_NAMESPACE,
    IdFactory,
    RandomIdFactory,
    SequentialIdFactory,
    short_id,
)
from memory_core.maintenance import MaintenanceReport, MaintenanceWorker
from memory_core.management import BeliefHistory, ForgetReport
from memory_core.memory_api import MemoryAPI
from memory_core.portability import EXPORT_SCHEMA_VERSION, ImportReport
from memory_core.ports import (
    ErasureStore,
    EventLog,
    FormationStateStore,
    MemoryStore,
    SessionStore,
    Storage,
    TraceStore,
)
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
from memory_core.text_gate import MAX_MESSAGE_BYTES, check_message_text
from memory_core.tokenizer import tokenize

if TYPE_CHECKING:
    from memory_core.runtime.openai_compat import OpenAICompatibleModel


def __getattr__(name: str) -> Any:
    """``OpenAICompatibleModel``, imported (with httpx) the first time it is asked for."""
    if name == "OpenAICompatibleModel":
        from memory_core.runtime.openai_compat import OpenAICompatibleModel

        return OpenAICompatibleModel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_ID_NAMESPACE",
    "EXPORT_SCHEMA_VERSION",
    "MAX_MESSAGE_BYTES",
    "AmbiguousIdError",
    "Authority",
    "Belief",
    "BeliefHistory",
    "BeliefStatus",
    "BeliefType",
    "Clock",
    "Composition",
    "ConfigurationError",
    "ConflictError",
    "ConsolidationResult",
    "ContextOverflowError",
    "DuplicateIdError",
    "ErasureStore",
    "Event",
    "EventLog",
    "FakeModelScript",
    "FixedClock",
    "ForgetReport",
    "FormationStateStore",
    "IdFactory",
    "ImportFormatError",
    "ImportReport",
    "InMemoryStorage",
    "InvalidProviderEvidenceError",
    "MaintenanceReport",
    "MaintenanceWorker",
    "MemoryAPI",
    "MemoryCoreError",
    "MemoryProfiles",
    "MemoryStore",
    "MessageTextError",
    "ModelError",
    "NotFoundError",
    "OpenAICompatibleModel",
    "PermanentModelError",
    "Polarity",
    "PolicyProfile",
    "Principal",
    "ProviderEvidenceRequiredError",
    "RandomIdFactory",
    "RecallQuery",
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
    "SequentialIdFactory",
    "Session",
    "SessionClosedError",
    "SessionClosure",
    "SessionKind",
    "SessionKindError",
    "SessionMetadata",
    "SessionService",
    "SessionStore",
    "Storage",
    "StorageError",
    "StorageUnavailableError",
    "SweepReport",
    "SystemClock",
    "TelemetryAttributeError",
    "TraceStore",
    "TransientModelError",
    "Trust",
    "UsageError",
    "build",
    "check_message_text",
    "load_profiles",
    "scope_for_project",
    "short_id",
    "tokenize",
    "visible_scopes",
]
