"""The evaluation harness: the one function every evaluation builds its composition with.

Every evaluation runs in a composition of its own, built by :func:`build_eval_composition`
and through nothing but :func:`memory_core.bootstrap.build`::

    bootstrap.build(storage=..., database_url=...,
                    script=<the one-turn acknowledgement> | model=<the real model>,
                    principal=EVAL_PRINCIPAL, fixed_clock_at=start, sequential_ids=True,
                    id_namespace=..., profile_overlay=<the profiles, whole>,
                    policy_profile=PROBE_POLICY_PROFILE, enabled_tools=PROBE_TOOLS,
                    limits=PROBE_RUN_LIMITS            # or the policy profile given, as given
                    extractor=<the extractor given, else a fresh DeterministicExtractor>)

Who builds with it:

============================  =================================================================
deterministic arm             ``driver.prepare_scenario``: a scenario's storage (in memory or a
                              fresh database schema), the scripted acknowledgement, the probe
                              policy, the extractor factory's extractor
live arm, with memory         ``driver.prepare_scenario`` with the real model and the live
                              policy profile
live arm, without memory      ``live.arm``: the real model and the live policy profile, in memory
external adapters             ``memory_bench_external.run``: as the deterministic arm, in memory,
                              the clock at the instance's first date
formation evaluation          ``formation_eval``: its own principal and id namespace, the case
                              run's profiles and extractor; no run is ever submitted
============================  =================================================================

Every composition is reproducible byte for byte: a fixed clock, sequential ids, and an
extractor that is never chosen from the environment (formation is deterministic unless the
caller passes another extractor).
"""

from __future__ import annotations

from datetime import datetime

from memory_core import bootstrap
from memory_core.base.model import Model
from memory_core.domain import Principal
from memory_core.formation.extractor import DeterministicExtractor, Extractor
from memory_core.ids import DEFAULT_ID_NAMESPACE
from memory_core.ports import Storage
from memory_core.profiles import MemoryProfiles
from memory_core.runtime.policy_profile import PolicyProfile, RunLimits
from memory_core.runtime.scripted import FakeModelScript, ScriptedTurn

EVAL_PRINCIPAL = Principal("memory-benchmark", "eval-user")
"""The one principal every scenario's (and external instance's) sessions and probes belong to."""

PROBE_ACK_TEXT = "Noted."
"""The scripted model's one unconditional reply (answer correctness is the live arm's job)."""

PROBE_TOOLS: tuple[str, ...] = ()
"""Tools enabled on probe runs: none, so the model's context carries no tool specifications and
nothing a probe does can write to memory."""

PROBE_RUN_LIMITS = RunLimits(max_steps=4, max_tokens=32_000, max_cost_usd=0.05)
"""Limits of one probe run (the per-run cost ceiling of the live arm)."""

PROBE_POLICY_PROFILE = "no-tools"
"""The shipped runtime policy profile probe runs use."""


def acknowledgement_script() -> FakeModelScript:
    """The deterministic arm's model: one scripted reply, :data:`PROBE_ACK_TEXT`, repeated."""
    return FakeModelScript(turns=[ScriptedTurn(text=PROBE_ACK_TEXT)], on_exhausted="repeat_last")


def build_eval_composition(
    start: datetime,
    *,
    storage: str | Storage = "memory",
    database_url: str | None = None,
    model: Model | None = None,
    policy_profile: PolicyProfile | None = None,
    extractor: Extractor | None = None,
    principal: Principal = EVAL_PRINCIPAL,
    id_namespace: str = DEFAULT_ID_NAMESPACE,
    profiles: MemoryProfiles | None = None,
) -> bootstrap.Composition:
    """Build an evaluation's composition through ``bootstrap.build``.

    Args:
        start: Where the fixed clock starts (timezone-aware).
        storage: ``"memory"``, a backend name, or a fresh ``Storage`` of the evaluation's own.
        database_url: URL for a named database backend.
        model: Answer runs with this model (the live arm's); ``None`` answers every run with
            :func:`acknowledgement_script`.
        policy_profile: The runtime policy of runs, used as given; ``None`` is the probe policy
            (:data:`PROBE_POLICY_PROFILE` with :data:`PROBE_TOOLS` and
            :data:`PROBE_RUN_LIMITS`).
        extractor: The formation extractor; ``None`` is a fresh ``DeterministicExtractor``
            (never a provider chosen from the environment).
        principal: The composition's default principal.
        id_namespace: The sequential ids' namespace.
        profiles: Memory profiles replacing the shipped ones whole (``None``: the shipped ones).

    Raises:
        UsageError: ``bootstrap.build`` refused the arguments (a naive ``start``,
            ``database_url`` beside a ``Storage``).
        ConfigurationError: the model's price is unknown under a finite run cost limit.
        StorageUnavailableError: the named storage backend is not installed.
    """
    probe_policy = policy_profile is None
    return bootstrap.build(
        storage=storage,
        database_url=database_url,
        script=acknowledgement_script() if model is None else None,
        model=model,
        principal=principal,
        fixed_clock_at=start,
        sequential_ids=True,
        id_namespace=id_namespace,
        profile_overlay=(
            None if profiles is None else profiles.model_dump(mode="json", by_alias=True)
        ),
        enabled_tools=PROBE_TOOLS if probe_policy else None,
        limits=PROBE_RUN_LIMITS if probe_policy else None,
        policy_profile=PROBE_POLICY_PROFILE if policy_profile is None else policy_profile,
        extractor=extractor if extractor is not None else DeterministicExtractor(),
    )


__all__ = [
    "EVAL_PRINCIPAL",
    "PROBE_ACK_TEXT",
    "PROBE_POLICY_PROFILE",
    "PROBE_RUN_LIMITS",
    "PROBE_TOOLS",
    "acknowledgement_script",
    "build_eval_composition",
]
