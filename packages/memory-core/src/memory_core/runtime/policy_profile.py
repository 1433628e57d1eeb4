"""Run limits and policy profiles: the named runtime policy every run records.

A ``PolicyProfile`` names the tools a model may call, the run limits and the model policy. Its
compiled version is the sha256 digest of its canonical JSON form (sorted keys, no whitespace),
so two profiles that behave the same have the same version whatever their source, and any
change to a value changes the version. ``RunService`` records the compiled version on every
``run.started`` and ``run.completed`` event and on the ``Run`` it returns; live evidence
carries it so a published number names exactly the policy that produced it.

Shipped profiles (``SHIPPED_POLICY_PROFILES``): ``default`` enables both memory tools;
``no-tools`` enables none (the model answers from the recalled context alone).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from memory_core._config import validate_document
from memory_core.errors import ConfigurationError, UsageError
from memory_core.runtime.tools import KNOWN_TOOLS

_NAME = re.compile(r"^[a-z][a-z0-9-]{0,63}$")


@dataclass(frozen=True, kw_only=True)
class RunLimits:
    """Hard limits of one run; crossing one ends the run with a typed terminal status.

    Attributes:
        max_steps: Model calls per run; a run still calling tools after this many ends
            ``step_exhausted``.
        max_tokens: Input plus output tokens over all calls of the run; crossing it (or a
            call whose estimated input alone would cross it) ends the run ``budget_exhausted``.
        max_cost_usd: Cost over all calls of the run; crossing it ends ``budget_exhausted``.
    """

    max_steps: int = 8
    max_tokens: int = 32_000
    max_cost_usd: float = 0.05

    def __post_init__(self) -> None:
        if self.max_steps < 1:
            raise UsageError(f"RunLimits.max_steps must be >= 1, got {self.max_steps}")
        if self.max_tokens < 1:
            raise UsageError(f"RunLimits.max_tokens must be >= 1, got {self.max_tokens}")
        if self.max_cost_usd < 0:
            raise UsageError(f"RunLimits.max_cost_usd must be >= 0, got {self.max_cost_usd}")


class ModelPolicy(BaseModel):
    """How the runtime treats the model.

    Attributes:
        max_output_tokens: Tokens reserved for the model's reply; the context builder keeps
            the prompt within the context window minus this reservation. (Retrying transient
            failures is the model adapter's job; a transient error reaching a run ends it
            ``failed``.)
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_output_tokens: int = Field(default=1024, ge=1)


class PolicyProfile(BaseModel):
    """A named runtime policy: enabled tools, run limits and model policy."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str = ""
    enabled_tools: tuple[str, ...] = ()
    limits: RunLimits = RunLimits()
    model: ModelPolicy = ModelPolicy()

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        if not _NAME.match(value):
            raise ValueError(f"policy profile name {value!r} must match {_NAME.pattern}")
        return value

    @field_validator("enabled_tools")
    @classmethod
    def _check_tools(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [tool for tool in value if tool not in KNOWN_TOOLS]
        if unknown:
            raise ValueError(f"unknown tools {unknown}; known tools are {sorted(KNOWN_TOOLS)}")
        if len(set(value)) != len(value):
            raise ValueError(f"enabled_tools lists a tool twice: {list(value)}")
        return tuple(sorted(value))

    def canonical_json(self) -> str:
        """The canonical form the compiled version digests: sorted keys, no whitespace."""
        return json.dumps(
            self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )

    @property
    def digest(self) -> str:
        """The sha256 hex digest of the canonical JSON form."""
        return hashlib.sha256(self.canonical_json().encode("utf-8")).hexdigest()

    @property
    def compiled_version(self) -> str:
        """``sha256:<digest>`` of the canonical form: the version recorded on every run."""
        return f"sha256:{self.digest}"

    def with_overrides(
        self, *, limits: RunLimits | None = None, enabled_tools: Sequence[str] | None = None
    ) -> PolicyProfile:
        """Return this profile with limits and/or tools replaced (and revalidated).

        The result keeps the name but, being a different policy, has a different compiled
        version whenever a value changed.
        """
        data = self.model_dump()
        if limits is not None:
            data["limits"] = limits
        if enabled_tools is not None:
            data["enabled_tools"] = tuple(enabled_tools)
        return _validate(data, f"policy profile {self.name!r} with overrides")


SHIPPED_POLICY_PROFILES: Mapping[str, PolicyProfile] = {
    "default": PolicyProfile(
        name="default",
        description="Both memory tools enabled; USD 0.05 and 8 model calls per run.",
        enabled_tools=tuple(sorted(KNOWN_TOOLS)),
    ),
    "no-tools": PolicyProfile(
        name="no-tools",
        description="No tools: the model answers from the recalled context alone.",
        enabled_tools=(),
        limits=RunLimits(max_steps=1),
    ),
}
"""The named policies shipped with memory-core."""

DEFAULT_POLICY_PROFILE = "default"
"""The profile ``bootstrap.build`` uses when none is named."""


def _validate(data: Mapping[str, Any], source: str) -> PolicyProfile:
    return validate_document(PolicyProfile, data, source=source, what="policy profile")


def load_policy_profile(
    profile: PolicyProfile | str | Path | Mapping[str, Any] | None = None,
) -> PolicyProfile:
    """Resolve a policy profile from a shipped name, a YAML file, a mapping or an instance.

    ``None`` selects the shipped ``default`` profile. A string is a shipped name when it is
    one, else a path to a YAML file holding one profile.

    Raises:
        ConfigurationError: the name is unknown and no such file exists, or the document is
            invalid (unknown key, bad value, unknown tool).
    """
    if profile is None:
        return SHIPPED_POLICY_PROFILES[DEFAULT_POLICY_PROFILE]
    if isinstance(profile, PolicyProfile):
        return profile
    if isinstance(profile, Mapping):
        return _validate(profile, "policy profile mapping")
    if isinstance(profile, str) and profile in SHIPPED_POLICY_PROFILES:
        return SHIPPED_POLICY_PROFILES[profile]
    path = Path(profile)
    if not path.is_file():
        raise ConfigurationError(
            f"policy profile {str(profile)!r} is neither a shipped profile "
            f"({', '.join(sorted(SHIPPED_POLICY_PROFILES))}) nor a YAML file"
        )
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ConfigurationError(f"{path}: not valid YAML ({exc})") from exc
    if not isinstance(data, Mapping):
        raise ConfigurationError(f"{path}: a policy profile must be a mapping")
    return _validate(data, str(path))
