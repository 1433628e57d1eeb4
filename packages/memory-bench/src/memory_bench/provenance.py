"""Build the provenance record every artifact writer embeds (the one place it is built).

:func:`read_provenance` reads the checkout with :func:`memory_bench.source_tree.
read_source_tree` (the one place git is read), the installed versions of the workspace
packages with :mod:`importlib.metadata`, and the policy versions of :mod:`memory_core.policy`,
and stamps the inputs' digests and the instant the caller gives. :func:`provenance_of` does the
same from a :class:`~memory_bench.source_tree.SourceTree` already read, for a caller that
checked the tree first (the baseline's clean-tree rule) or a test that fixes it.

The model itself, :class:`~memory_core.provenance.Provenance`, lives in the core (provider
formation evidence is re-validated at startup there) and is re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from importlib import metadata
from pathlib import Path

from memory_bench.source_tree import SourceTree, read_source_tree
from memory_core.clock import require_aware
from memory_core.provenance import (
    WORKSPACE_PACKAGES,
    InputName,
    PolicyVersions,
    Provenance,
)

NOT_INSTALLED = "not-installed"
"""The version recorded for a workspace package that is not installed (e.g. memory-store-pg,
an optional extra)."""


LEGACY_DIRTY_SUFFIX = "+dirty"
"""How files written before the provenance record marked a dirty build: appended to
``build_ref``."""


def legacy_build_ref(build_ref: str) -> tuple[str | None, bool]:
    """``(commit, dirty)`` of an older file's ``build_ref``, for reading it into a record.

    A 40-hex commit, optionally with the ``+dirty`` suffix, gives that commit; anything else
    (``unknown``, a tag, a short hash) names no commit, and a build no commit names counts as
    dirty.
    """
    ref, suffix, _ = build_ref.partition(LEGACY_DIRTY_SUFFIX)
    commit = ref if len(ref) == 40 and all(ch in "0123456789abcdef" for ch in ref) else None
    return commit, bool(suffix) or commit is None


def package_versions() -> dict[str, str]:
    """The installed version of each workspace package, in layer order."""
    versions: dict[str, str] = {}
    for name in WORKSPACE_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = NOT_INSTALLED
    return versions


def provenance_of(
    source: SourceTree,
    *,
    inputs: Mapping[InputName, str],
    recorded_at: datetime,
    policies: PolicyVersions | None = None,
) -> Provenance:
    """The record of a build ``source`` describes.

    Args:
        source: The checkout as :func:`~memory_bench.source_tree.read_source_tree` read it.
        inputs: The sha256 of each input file, by role.
        recorded_at: The instant of the record (timezone-aware).
        policies: The policy versions in force (default: the installed ones).
    """
    return Provenance(
        commit=source.commit,
        dirty=source.dirty,
        packages=package_versions(),
        policies=policies if policies is not None else PolicyVersions.current(),
        inputs=dict(inputs),
        recorded_at=require_aware(recorded_at, "recorded_at"),
    )


def read_provenance(
    *,
    inputs: Mapping[InputName, str],
    recorded_at: datetime,
    cwd: Path | None = None,
    ignore: Iterable[Path] = (),
    policies: PolicyVersions | None = None,
) -> Provenance:
    """Read the checkout at ``cwd`` (default: the working directory) and build the record.

    Args:
        inputs: The sha256 of each input file, by role.
        recorded_at: The instant of the record (timezone-aware).
        cwd: A directory inside the checkout.
        ignore: Files whose change is the recording itself (see ``read_source_tree``).
        policies: The policy versions in force (default: the installed ones).
    """
    return provenance_of(
        read_source_tree(cwd, ignore=ignore),
        inputs=inputs,
        recorded_at=recorded_at,
        policies=policies,
    )


__all__ = [
    "LEGACY_DIRTY_SUFFIX",
    "NOT_INSTALLED",
    "PolicyVersions",
    "Provenance",
    "legacy_build_ref",
    "package_versions",
    "provenance_of",
    "read_provenance",
]
