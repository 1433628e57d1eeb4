"""The provenance record every published artifact embeds under one key, ``provenance``.

One model, one spelling of each field, whatever the artifact (the deterministic baseline, live
evidence, provider formation evidence, external metrics):

``commit``
    The git commit the build came from (40 lowercase hex digits), ``null`` when the run was not
    made from a git checkout.
``dirty``
    ``false`` only for a git checkout whose tracked files equal ``commit``; ``true`` when a
    tracked file differs, and when there is no checkout to compare with (``commit`` is
    ``null``), since then nothing vouches that the build is a commit.
``packages``
    The installed version of each workspace package (``memory-core`` ... ``memory-cli``).
``policies``
    The ``formation``, ``provider_formation`` and ``retrieval`` policy versions in force.
``inputs``
    The sha256 of each input file the artifact was computed from, by role: ``corpus`` (the
    benchmark corpus), ``case_file`` (the formation case file), ``dataset_file`` (an external
    dataset's local file).
``recorded_at``
    When the record was made (timezone-aware).

The model lives in the core, not in the bench, because provider formation evidence is
re-validated by startup selection (:mod:`memory_core.formation.selection`), which cannot import
the bench. It only describes the record; reading git and the installed package versions is the
bench's job (``memory_bench.provenance.read_provenance``), so production code never runs git.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from memory_core.policy import (
    DETERMINISTIC_FORMATION_POLICY,
    PROVIDER_FORMATION_POLICY,
    RETRIEVAL_POLICY,
)

WORKSPACE_PACKAGES: Final[tuple[str, ...]] = (
    "memory-core",
    "memory-store-pg",
    "memory-bench",
    "memory-bench-external",
    "memory-cli",
)
"""The distributions whose versions a record names, in layer order."""

InputName = Literal["corpus", "case_file", "dataset_file"]
"""The role of an input file in :attr:`Provenance.inputs`."""

Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
"""A lowercase hex sha256."""


class PolicyVersions(BaseModel):
    """The policy versions a run was made under, one field per policy."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    formation: str = Field(pattern=r"^formation@\d+$")
    provider_formation: str = Field(pattern=r"^formation@\d+$")
    retrieval: str = Field(pattern=r"^retrieval@\d+$")

    @classmethod
    def current(cls) -> PolicyVersions:
        """The versions of :mod:`memory_core.policy` as installed."""
        return cls(
            formation=DETERMINISTIC_FORMATION_POLICY,
            provider_formation=PROVIDER_FORMATION_POLICY,
            retrieval=RETRIEVAL_POLICY,
        )


class Provenance(BaseModel):
    """Where an artifact came from: build, packages, policies, inputs and instant."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    commit: str | None = Field(pattern=r"^[0-9a-f]{40}$")
    dirty: bool
    packages: dict[str, str]
    policies: PolicyVersions
    inputs: dict[InputName, Sha256]
    recorded_at: AwareDatetime

    @property
    def clean(self) -> bool:
        """True when ``commit`` names the build exactly (a checkout with no tracked change)."""
        return self.commit is not None and not self.dirty

    def describe(self) -> str:
        """One line naming the build: the short commit, ``dirty`` when it is, or no checkout."""
        if self.commit is None:
            return "no git checkout"
        return f"{self.commit[:12]}{' (dirty)' if self.dirty else ''}"


__all__ = ["WORKSPACE_PACKAGES", "InputName", "PolicyVersions", "Provenance", "Sha256"]
