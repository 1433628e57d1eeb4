"""The git checkout a run was built from: its commit and the tracked files that differ from it.

This is the one place git is read. Every artifact names the build it measured through
:func:`memory_bench.provenance.read_provenance`, which takes ``commit`` and ``dirty`` from
here. :func:`read_source_tree` asks git for the working directory's ``HEAD`` and for every
tracked path whose index or working-tree state differs from it (untracked files are not part
of the build and are not listed). A path the recording itself replaces (the baseline being
re-recorded after ``git rm``) is left out, so re-recording from an otherwise clean checkout is
clean.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, kw_only=True)
class SourceTree:
    """What git says about the checkout.

    Attributes:
        commit: ``HEAD``'s commit, or ``None`` outside a git checkout.
        changed: Tracked paths (relative to the checkout's root, sorted) whose staged or
            working-tree content differs from ``commit``.
    """

    commit: str | None
    changed: tuple[str, ...] = ()

    @property
    def clean(self) -> bool:
        """True for a git checkout with no tracked change: the commit names the build."""
        return self.commit is not None and not self.changed

    @property
    def dirty(self) -> bool:
        """True unless the commit names the build: a tracked change, or no checkout at all."""
        return not self.clean

    def describe(self, limit: int = 5) -> str:
        """One line naming why the tree is not clean (empty when it is)."""
        if self.commit is None:
            return "the working directory is not a git checkout, so no commit names the build"
        if not self.changed:
            return ""
        shown = ", ".join(self.changed[:limit])
        more = len(self.changed) - limit
        tail = f" and {more} more" if more > 0 else ""
        return f"{len(self.changed)} tracked file(s) differ from {self.commit[:12]}: {shown}{tail}"


def _git(cwd: Path | None, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


def _status_paths(porcelain: str) -> list[str]:
    """Paths of ``git status --porcelain=v1 -z`` (a rename lists both of its paths)."""
    fields = porcelain.split("\0")
    paths: list[str] = []
    index = 0
    while index < len(fields):
        entry = fields[index]
        index += 1
        if len(entry) < 4:
            continue
        paths.append(entry[3:])
        if entry[0] in "RC":
            paths.append(fields[index])
            index += 1
    return paths


def read_source_tree(cwd: Path | None = None, *, ignore: Iterable[Path] = ()) -> SourceTree:
    """Read the checkout at ``cwd`` (default: the working directory).

    Args:
        cwd: A directory inside the checkout.
        ignore: Files whose change is the recording itself (e.g. the baseline being written
            after its ``git rm``); they are not counted as changes.

    Returns:
        The tree; ``commit`` is ``None`` when git is missing or ``cwd`` is not in a checkout.
    """
    try:
        commit = _git(cwd, "rev-parse", "HEAD").strip()
        root = Path(_git(cwd, "rev-parse", "--show-toplevel").strip()).resolve()
        porcelain = _git(cwd, "status", "--porcelain=v1", "-z", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return SourceTree(commit=None)
    base = (cwd or Path.cwd()).resolve()
    skipped: set[str] = set()
    for path in ignore:
        absolute = (base / path).resolve()
        if absolute.is_relative_to(root):
            skipped.add(absolute.relative_to(root).as_posix())
    changed = sorted({p for p in _status_paths(porcelain) if p not in skipped})
    return SourceTree(commit=commit or None, changed=tuple(changed))


__all__ = ["SourceTree", "read_source_tree"]
