"""Memory profiles as configuration.

``profiles.yaml`` beside this module is the shipped document; it validates to exactly the
default models below (a test asserts it). An operator overlay file is deep-merged over it and
validated again, so an unknown key or a bad value is refused with a ``ConfigurationError`` that
names the file and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from memory_core._config import load_with_overlay
from memory_core.errors import ConfigurationError


class _Profile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RankingWeights(_Profile):
    """Coefficients of the additive retrieval score."""

    match: float = Field(default=1.0, ge=0)
    confidence: float = Field(default=0.5, gt=0)
    reinforce: float = Field(default=0.25, ge=0)
    authority: float = Field(default=0.25, gt=0)
    scope: float = Field(default=0.1, ge=0)
    utility: float = Field(default=0.1, ge=0)


class LifecycleWeights(_Profile):
    """Multipliers of the score by lifecycle status."""

    active: float = Field(default=1.0, gt=0, le=1)
    provisional: float = Field(default=0.6, gt=0, le=1)


class DecayTauDays(_Profile):
    """Time constant, in days, of each belief type's evidence clock.

    The decay sweep reads a belief as idle once its last evidence is at least its type's tau
    old; ranking multiplies the reinforce term by ``exp(-age_days / tau)``. Durable types fade
    more slowly than facts.
    """

    fact: float = Field(default=30.0, gt=0)
    preference: float = Field(default=180.0, gt=0)
    relationship: float = Field(default=180.0, gt=0)
    user_model_attr: float = Field(default=365.0, gt=0)
    procedure_pointer: float = Field(default=90.0, gt=0)

    def for_type(self, belief_type: str) -> float:
        """The tau of ``belief_type`` (a ``BeliefType`` value)."""
        value: float = getattr(self, str(belief_type))
        return value


class DecayProfile(_Profile):
    """The decay sweep: how much an idle belief loses per sweep, and when it retires."""

    floor_confidence: float = Field(default=0.3, ge=0, le=1)
    """A belief whose confidence falls below this is retired."""
    step: float = Field(default=0.1, gt=0, le=1)
    """Confidence an eligible belief loses per sweep."""
    max_per_sweep: int = Field(default=1000, ge=1)
    """Idle beliefs one sweep reads (least recently evidenced first) per principal."""


class UsageProfile(_Profile):
    """How citing (or not citing) a recalled belief moves its utility; never its confidence."""

    cited_utility_delta: float = Field(default=0.1, gt=0, le=1)
    """Utility a cited belief gains (ceiling 1)."""
    uncited_utility_delta: float = Field(default=0.02, ge=0, le=1)
    """Utility a returned-but-uncited belief loses (floor -1)."""


class Budget(_Profile):
    """An item and token budget for one recall."""

    max_items: int = Field(ge=1)
    max_tokens: int = Field(ge=1)


def _not_in_this_build(value: bool, knob: str, what: str) -> bool:
    if value:
        raise ValueError(
            f"{what} is not part of this build, so {knob} cannot be turned on; set it to false "
            "or remove the key from the overlay"
        )
    return value


class RetrievalProfile(_Profile):
    """Knobs of ``MemoryRetriever``."""

    semantic_enabled: bool = False
    """The semantic (embedding) arm; it is out of this milestone, so ``true`` is refused."""
    reciprocal_rank_fusion_k: int = Field(default=60, ge=1)
    durable_item_share: float = Field(default=0.5, ge=0, le=1)
    per_subject_cap: int = Field(default=2, ge=1)
    in_turn: Budget = Budget(max_items=8, max_tokens=400)
    ranking_weights: RankingWeights = RankingWeights()
    lifecycle_weights: LifecycleWeights = LifecycleWeights()
    decay_tau_days: DecayTauDays = DecayTauDays()
    stale_penalty: float = Field(default=0.5, ge=0)
    """Subtracted from the score of an expired or retired row (as-of / include-superseded)."""
    near_duplicate_penalty: float = Field(default=0.15, ge=0)
    """Subtracted from a near duplicate of a higher-scored candidate (floored at 0)."""
    usage: UsageProfile = UsageProfile()

    @field_validator("semantic_enabled")
    @classmethod
    def _semantic_off(cls, value: bool) -> bool:
        return _not_in_this_build(value, "semantic_enabled", "the semantic retrieval arm")


class FormationProfile(_Profile):
    """Knobs of ``GovernedMemoryService`` formation."""

    session_boundary_enabled: bool = True
    """False short-circuits the closed-session consolidation and the idle sweep."""
    established_facts_enabled: bool = False
    """Formation reads the window's last working-state update and forms its validated facts at
    ``AFFIRMED`` authority (``memory_core.formation.established``)."""
    max_candidates: int = Field(default=32, ge=1)
    scheduled_enabled: bool = True
    """The maintenance worker runs the decay sweep (false: never)."""
    scheduled_interval_seconds: int = Field(default=86_400, ge=1)
    """Cadence of the decay sweep, and the guard against decaying one belief twice in it."""
    decay: DecayProfile = DecayProfile()


class SnapshotProfiles(_Profile):
    """Snapshot budgets of non-interactive sessions (the interactive one is in plan.yaml).

    ``SessionService.create`` recalls the snapshot of a session whose ``metadata.kind`` is
    ``async`` (a background or scheduled run) or ``child`` (a sub-agent session) within the
    budget of that kind.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    async_: Budget = Field(default=Budget(max_items=12, max_tokens=600), alias="async")
    child: Budget = Budget(max_items=6, max_tokens=300)


class TraceProfile(_Profile):
    """Retention of the two trace tiers."""

    operator_retention_days: int = Field(default=30, ge=1)
    user_retention_days: int = Field(default=365, ge=1)


class MemoryProfiles(_Profile):
    """The whole memory profile document."""

    retrieval: RetrievalProfile = RetrievalProfile()
    formation: FormationProfile = FormationProfile()
    snapshot: SnapshotProfiles = SnapshotProfiles()
    trace: TraceProfile = TraceProfile()


def shipped_document() -> dict[str, Any]:
    """The shipped ``profiles.yaml`` as parsed YAML."""
    text = resources.files("memory_core").joinpath("profiles.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        raise ConfigurationError("memory_core/profiles.yaml: top level must be a mapping")
    return data


def load_profiles(overlay: Path | str | Mapping[str, Any] | None = None) -> MemoryProfiles:
    """Load the shipped profiles, with an operator overlay (a YAML path or a mapping) merged over.

    Raises:
        ConfigurationError: the overlay file is missing or malformed, or a key is unknown.
    """
    return load_with_overlay(
        MemoryProfiles,
        shipped_document(),
        overlay,
        shipped_source="memory_core/profiles.yaml",
        what="memory profile",
    )
