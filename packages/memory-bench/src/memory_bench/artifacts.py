"""Atomic, never-overwriting writes for baselines, evidence and metrics files."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from memory_core.errors import UsageError


class ArtifactExistsError(UsageError):
    """The target path already exists; artifacts are never overwritten."""


def refuse_existing(path: Path) -> None:
    """Raise ``ArtifactExistsError`` when ``path`` exists (checked before any work is spent)."""
    if path.exists():
        raise ArtifactExistsError(
            f"{path} already exists and is never overwritten; remove it explicitly first "
            "or choose another path"
        )


def write_new_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically; refuse if ``path`` exists, even if it appears
    while writing. The content is written to a temporary file in the same directory, flushed
    to disk, then hard-linked into place (``link`` fails when the target exists)."""
    refuse_existing(path)
    directory = path.parent if str(path.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError as exc:
            raise ArtifactExistsError(f"{path} appeared while writing; not overwritten") from exc
    finally:
        os.unlink(tmp)
