"""The composition root: ``build(...)`` wires storage, formation, retrieval and the runtime.

Every caller enters here: the benchmark's deterministic arm, the CLI and downstream agents::

    from memory_core import Principal, bootstrap

    app = bootstrap.build(principal=Principal("acme", "user-42"))  # in-memory, wall clock
    session = app.sessions.create(metadata={"project_scope": "orbit-app"})
    app.sessions.record_user_message(session.id, "I live in Portland.")
    app.sessions.close(session.id)                            # formation at the session's scope

``build(storage="postgres")`` resolves the backend through the entry-point group
``memory_core.storage`` (installed by ``memory-store-pg``); the entry point is a callable
``(database_url: str | None) -> Storage`` and the URL comes from ``database_url`` or the
``MEMORY_DATABASE_URL`` environment variable. ``fixed_clock_at`` and ``sequential_ids=True``
make everything the composition writes reproducible byte for byte: under a fixed clock the
retriever's arm-latency timer is a constant zero too, so even the operator tier of recall traces
repeats (pass ``timer=`` to measure real latencies under a fixed clock).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any, Protocol

from memory_core.base.events import EventWriter
from memory_core.base.model import Model, PricedModel
from memory_core.clock import Clock, FixedClock, SystemClock, require_aware
from memory_core.domain import Principal
from memory_core.errors import (
    ConfigurationError,
    StorageUnavailableError,
    UsageError,
)
from memory_core.formation import Extractor, GovernedMemoryService
from memory_core.formation.selection import (
    SelectionAudit,
    SelectionMode,
    default_evidence_dir,
    parse_selection_mode,
    select_extractor,
    selection_mode_from_env,
)
from memory_core.ids import DEFAULT_ID_NAMESPACE, IdFactory, RandomIdFactory, SequentialIdFactory
from memory_core.maintenance import MaintenanceWorker
from memory_core.memory_api import MemoryAPI as MemoryAPI  # re-exported: its old home
from memory_core.ports import EventLog, Storage
from memory_core.profiles import MemoryProfiles, load_profiles
from memory_core.retrieval import MemoryRetriever
from memory_core.runtime.context import ContextBuilder, ContextPlan, load_context_plan
from memory_core.runtime.policy_profile import PolicyProfile, RunLimits, load_policy_profile
from memory_core.runtime.pricing import PRICES_ENV
from memory_core.runtime.run import CompletionHook, RunService
from memory_core.runtime.scripted import FakeModelScript, ScriptedModel
from memory_core.runtime.tools import ToolExecutor
from memory_core.sessions import SessionService
from memory_core.stores.memory import InMemoryStorage
from memory_core.text_gate import MAX_MESSAGE_BYTES

STORAGE_ENTRY_POINT_GROUP = "memory_core.storage"
"""Entry-point group storage backends register under (name -> ``(database_url) -> Storage``)."""
DATABASE_URL_ENV = "MEMORY_DATABASE_URL"
"""Environment variable a backend's database URL is read from when none is passed."""

_BACKEND_PACKAGES = {"postgres": "memory-store-pg"}


class StorageFactory(Protocol):
    """What a ``memory_core.storage`` entry point loads: a callable building the tier."""

    def __call__(self, database_url: str | None, *, upgrade_schema: bool = False) -> Storage:
        """Build the storage tier; with ``upgrade_schema`` apply pending migrations first."""
        ...


def _require_enforceable_cost_limit(model: Model | None, policy: PolicyProfile) -> None:
    """Refuse a model whose price is unknown while the run cost limit is finite.

    An unpriced reply costs ``0.0``, so ``max_cost_usd`` would silently never trigger; the
    refusal comes at build time, before anything is spent, rather than as a run status.
    """
    limit = policy.limits.max_cost_usd
    if model is None or not math.isfinite(limit):
        return
    if isinstance(model, PricedModel) and not model.price_known:
        raise ConfigurationError(
            f"model {model.model_name!r} has no price in the price catalog, so the run cost "
            f"limit (policy {policy.name!r}, max_cost_usd={limit}) cannot be enforced: add "
            f"it to a YAML price file (models: {{{model.model_name}: {{input: <USD per 1M "
            f"tokens>, output: <USD per 1M tokens>}}}}; 0 for a free local model), point "
            f"{PRICES_ENV} at that file (or pass prices=PriceCatalog.load(path)) before "
            "creating the model, or build with limits=RunLimits(max_cost_usd=float('inf')) "
            "to run without a cost limit"
        )


def _require_principal(principal: object) -> None:
    """Refuse anything but a ``Principal``: a plain id string has no tenant to scope by."""
    if isinstance(principal, Principal):
        return
    hint = (
        f"Principal('<tenant>', {principal!r})"
        if isinstance(principal, str)
        else "Principal('<tenant>', '<user id>')"
    )
    raise UsageError(
        f"build(principal=...) takes a memory_core.Principal, got {type(principal).__name__} "
        f"{principal!r}; pass principal={hint} (from memory_core import Principal): every "
        "read and write is scoped to one tenant's principal"
    )


def _zero_timer() -> float:
    """The arm-latency timer of a fixed-clock composition: latencies are always 0.0 ms."""
    return 0.0


def _storage_entry_points(name: str) -> list[EntryPoint]:
    """Installed entry points named ``name`` in the storage group, in a stable order."""
    found = entry_points(group=STORAGE_ENTRY_POINT_GROUP, name=name)
    return sorted(found, key=lambda ep: (ep.value, ep.name))


def resolve_storage(
    name: str, database_url: str | None = None, *, upgrade_schema: bool = False
) -> Storage:
    """Build the named storage tier: ``"memory"`` or a backend from the entry-point group.

    ``upgrade_schema`` asks a database backend to apply its pending migrations first (without
    it, a schema behind the package is refused with ``StorageUnavailableError``).

    Raises:
        UsageError: ``database_url`` was passed for the in-memory tier, or the name is empty.
        StorageUnavailableError: no installed package provides the backend, or it failed to load.
    """
    if not name:
        raise UsageError("storage must name a backend, e.g. 'memory' or 'postgres'")
    if name == "memory":
        if database_url is not None:
            raise UsageError("database_url applies to storage='postgres', not 'memory'")
        return InMemoryStorage()
    package = _BACKEND_PACKAGES.get(name, f"the package providing storage backend {name!r}")
    found = _storage_entry_points(name)
    if not found:
        raise StorageUnavailableError(
            f"storage backend {name!r} is not installed: install {package} "
            f"(e.g. `pip install {package}`), which registers it under the "
            f"{STORAGE_ENTRY_POINT_GROUP!r} entry-point group"
        )
    try:
        factory: StorageFactory = found[0].load()
    except ImportError as exc:
        raise StorageUnavailableError(
            f"storage backend {name!r} is installed but failed to import ({exc}); "
            f"reinstall {package}"
        ) from exc
    url = database_url or os.environ.get(DATABASE_URL_ENV)
    return factory(url, upgrade_schema=True) if upgrade_schema else factory(url)


@dataclass(frozen=True, kw_only=True)
class Composition:
    """Everything ``build`` wired, sharing one storage tier, clock and id factory."""

    storage: Storage
    clock: Clock
    ids: IdFactory
    principal: Principal
    profiles: MemoryProfiles
    plan: ContextPlan
    policy_profile: PolicyProfile
    model: Model | None
    sessions: SessionService
    runs: RunService
    memory: MemoryAPI
    formation_selection: SelectionAudit | None = None
    """Which formation extractor was selected and why (``None`` when one was passed in)."""

    @property
    def events(self) -> EventLog:
        """The event log."""
        return self.storage.events

    def maintenance_factory(self) -> MaintenanceWorker:
        """A new ``MaintenanceWorker`` over this composition (call ``run_once()`` on it)."""
        return MaintenanceWorker(
            storage=self.storage,
            clock=self.clock,
            sessions=self.sessions,
            decayer=self.memory.service,
            profiles=self.profiles,
            formation=self.profiles.formation,
        )

    def advance(self, seconds: float) -> datetime:
        """Move a fixed clock forward and return the new instant.

        Raises:
            UsageError: the composition runs on the wall clock (build without fixed_clock_at).
        """
        if not isinstance(self.clock, FixedClock):
            raise UsageError("advance() needs a fixed clock; build with fixed_clock_at=...")
        return self.clock.advance(seconds)

    def close(self) -> None:
        """Release the storage tier's connections."""
        self.storage.close()


def build(
    *,
    storage: str | Storage = "memory",
    database_url: str | None = None,
    upgrade_schema: bool = False,
    script: FakeModelScript | None = None,
    model: Model | None = None,
    principal: Principal,
    fixed_clock_at: datetime | None = None,
    sequential_ids: bool = False,
    profile_overlay: Path | str | Mapping[str, Any] | None = None,
    limits: RunLimits | None = None,
    enabled_tools: Sequence[str] | None = None,
    policy_profile: PolicyProfile | str | Path | None = None,
    context_plan_overlay: Path | str | Mapping[str, Any] | None = None,
    extractor: Extractor | None = None,
    formation_model: Model | None = None,
    formation_mode: SelectionMode | str | None = None,
    evidence_dir: Path | str | None = None,
    completion_hooks: Sequence[CompletionHook] = (),
    timer: Callable[[], float] | None = None,
    id_namespace: str = DEFAULT_ID_NAMESPACE,
    max_message_bytes: int = MAX_MESSAGE_BYTES,
) -> Composition:
    """Build a composition: the one entry point for the bench, the CLI and downstream agents.

    Args:
        storage: ``"memory"`` (default), a backend name resolved through the
            ``memory_core.storage`` entry-point group (``"postgres"``), or a ``Storage``.
        database_url: URL for a database backend (else ``MEMORY_DATABASE_URL``).
        upgrade_schema: Let a database backend apply its pending migrations first (the
            ``agent db upgrade`` path); without it a schema behind the package is refused.
        script: Answer runs with a ``ScriptedModel`` over this script.
        model: Answer runs with this model (exclusive with ``script``). Without either, memory
            works but ``runs.submit`` refuses to run. A model that reports its price unknown
            (``PricedModel.price_known`` false, e.g. an ``OpenAICompatibleModel`` missing from
            the price catalog) is refused while the policy's ``max_cost_usd`` is finite.
        principal: Whose memory this is (required; there is no default owner): the
            principal of every call that names none, e.g. ``Principal("acme", "user-42")``.
        fixed_clock_at: Run on a ``FixedClock`` starting here (timezone-aware).
        sequential_ids: Use ``SequentialIdFactory`` instead of random UUIDs.
        id_namespace: The sequential ids' namespace (default ``"memory"``, the benchmark's).
            Two sequential-id compositions writing to one storage need different namespaces,
            or they draw the same ids and the second one's writes conflict.
        profile_overlay: A memory-profile overlay (YAML path or mapping) over the shipped one.
        limits: Run limits replacing the policy profile's.
        enabled_tools: Tools replacing the policy profile's (``memory.remember``,
            ``memory.recall_episodes``).
        policy_profile: A shipped profile name, a YAML path or a ``PolicyProfile``; its
            compiled version (after ``limits``/``enabled_tools``) is recorded on every run.
        context_plan_overlay: An overlay over the shipped context plan (``plan.yaml``).
        extractor: An explicit formation extractor; bypasses provider selection.
        formation_model: The model provider-assisted formation would use. Without one,
            formation is deterministic whatever the mode.
        formation_mode: Provider selection ``auto`` (default; ``MEMORY_FORMATION_PROVIDER``),
            ``required`` or ``off``: ``auto`` uses the provider only when bundled evidence for
            the current provider policy version and this model exists.
        evidence_dir: Where bundled evidence lives (default: ``MEMORY_EVIDENCE_DIR`` or the
            nearest ``evidence/`` directory).
        completion_hooks: Callables run after every run completes.
        timer: The seconds counter recall traces' arm latencies are measured with. Default:
            a constant ``0.0`` under ``fixed_clock_at`` (reproducible traces), else
            ``time.perf_counter``.
        max_message_bytes: The input gate's bound on one recorded message or run prompt, in
            UTF-8 bytes (default 64 KiB; see ``memory_core.text_gate``).

    Raises:
        UsageError: conflicting or invalid arguments (a ``principal`` that is not a
            ``Principal``, e.g. a plain string; both script and model, a naive
            ``fixed_clock_at``, an unknown tool or profile key, an ``id_namespace`` without
            ``sequential_ids=True``).
        ConfigurationError: the model's price is unknown, so a finite ``max_cost_usd`` could
            not be enforced (price it in a ``MEMORY_MODEL_PRICES`` file, or lift the limit).
        StorageUnavailableError: the named storage backend is not installed.
        ProviderEvidenceRequiredError: ``formation_mode="required"`` without matching evidence.
    """
    _require_principal(principal)
    if script is not None and model is not None:
        raise UsageError("pass script= or model=, not both")
    clock: Clock = (
        FixedClock(require_aware(fixed_clock_at, "fixed_clock_at"))
        if fixed_clock_at is not None
        else SystemClock()
    )
    if not sequential_ids and id_namespace != DEFAULT_ID_NAMESPACE:
        raise UsageError(
            "id_namespace applies to sequential ids; pass sequential_ids=True with it (random "
            "ids never collide and take no namespace)"
        )
    ids: IdFactory = SequentialIdFactory(id_namespace) if sequential_ids else RandomIdFactory()
    who = principal
    profiles = load_profiles(profile_overlay)
    plan = load_context_plan(context_plan_overlay)
    policy = load_policy_profile(policy_profile).with_overrides(
        limits=limits, enabled_tools=enabled_tools
    )
    chosen_model: Model | None = ScriptedModel(script) if script is not None else model
    _require_enforceable_cost_limit(chosen_model, policy)
    if not isinstance(storage, str) and database_url is not None:
        raise UsageError("database_url applies to a named backend, not a Storage instance")
    if extractor is not None:
        selection: SelectionAudit | None = None
    else:
        if formation_mode is None:
            mode = selection_mode_from_env()
        elif isinstance(formation_mode, SelectionMode):
            mode = formation_mode
        else:
            mode = parse_selection_mode(formation_mode)
        chosen = select_extractor(
            mode,
            model=formation_model,
            evidence_dir=Path(evidence_dir) if evidence_dir is not None else default_evidence_dir(),
        )
        extractor, selection = chosen.extractor, chosen.audit
    context = ContextBuilder(plan, reserved_output_tokens=policy.model.max_output_tokens)
    if timer is None:
        timer = _zero_timer if fixed_clock_at is not None else time.perf_counter

    # Everything that can refuse the arguments ran above: a named backend opens its
    # connections only now, and is closed again if wiring still fails.
    if not isinstance(storage, str):
        return _wire(
            storage,
            clock=clock,
            ids=ids,
            principal=who,
            profiles=profiles,
            plan=plan,
            policy=policy,
            model=chosen_model,
            extractor=extractor,
            selection=selection,
            context=context,
            timer=timer,
            completion_hooks=completion_hooks,
            max_message_bytes=max_message_bytes,
        )
    tier = resolve_storage(storage, database_url, upgrade_schema=upgrade_schema)
    try:
        return _wire(
            tier,
            clock=clock,
            ids=ids,
            principal=who,
            profiles=profiles,
            plan=plan,
            policy=policy,
            model=chosen_model,
            extractor=extractor,
            selection=selection,
            context=context,
            timer=timer,
            completion_hooks=completion_hooks,
            max_message_bytes=max_message_bytes,
        )
    except BaseException:
        tier.close()
        raise


def _wire(
    tier: Storage,
    *,
    clock: Clock,
    ids: IdFactory,
    principal: Principal,
    profiles: MemoryProfiles,
    plan: ContextPlan,
    policy: PolicyProfile,
    model: Model | None,
    extractor: Extractor,
    selection: SelectionAudit | None,
    context: ContextBuilder,
    timer: Callable[[], float],
    completion_hooks: Sequence[CompletionHook],
    max_message_bytes: int,
) -> Composition:
    """Wire the services of a composition over one storage tier."""
    service = GovernedMemoryService(
        storage=tier,
        clock=clock,
        ids=ids,
        principal=principal,
        profiles=profiles,
        extractor=extractor,
    )
    retriever = MemoryRetriever(
        memories=tier.memories,
        traces=tier.traces,
        clock=clock,
        ids=ids,
        profiles=profiles,
        timer=timer,
    )
    writer = EventWriter(events=tier.events, clock=clock, ids=ids)
    sessions = SessionService(
        storage=tier,
        clock=clock,
        ids=ids,
        writer=writer,
        recaller=retriever,
        consolidator=service,
        profiles=profiles,
        snapshot_budget=plan.snapshot,
        principal=principal,
        max_message_bytes=max_message_bytes,
    )
    memory = MemoryAPI(
        service=service,
        retriever=retriever,
        storage=tier,
        principal=principal,
        clock=clock,
        ids=ids,
    )
    # the tool remembers through MemoryAPI, which refuses a closed session
    tools = ToolExecutor(events=tier.events, rememberer=memory, enabled_tools=policy.enabled_tools)
    runs = RunService(
        storage=tier,
        clock=clock,
        ids=ids,
        writer=writer,
        recaller=retriever,
        model=model,
        tools=tools,
        context=context,
        policy=policy,
        principal=principal,
        completion_hooks=completion_hooks,
        usage_recorder=service,
        max_message_bytes=max_message_bytes,
    )
    return Composition(
        storage=tier,
        clock=clock,
        ids=ids,
        principal=principal,
        profiles=profiles,
        plan=plan,
        policy_profile=policy,
        model=model,
        sessions=sessions,
        runs=runs,
        memory=memory,
        formation_selection=selection,
    )
