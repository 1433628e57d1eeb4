"""Atomic, never-overwriting writes for baselines, evidence and metrics files.

Every command that publishes a file calls :func:`prepare_output` before it spends anything (a
model call, a dataset pass, a benchmark run), so a path that exists or a directory that cannot
be written is refused up front rather than after the work; :func:`write_new_text` then writes
the file atomically and never over an existing one. Written files get the ordinary permissions
of a new file (``0o666`` less the process umask), not the temporary file's private ``0o600``.

Errors::

    UsageError (memory_core.errors)
    ├── ArtifactExistsError   the target exists; artifacts are never overwritten
    └── ArtifactWriteError    the target's directory cannot be created or written
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from memory_bench.errors import BenchError
from memory_core.errors import UsageError


class ArtifactExistsError(BenchError, UsageError):
    """The target path already exists; artifacts are never overwritten."""


class ArtifactWriteError(BenchError, UsageError):
    """The target cannot be written: its directory cannot be created, is not a directory, or
    refuses a new file. The message names the path and the operating system's reason."""


def refuse_existing(path: Path) -> None:
    """Raise ``ArtifactExistsError`` when ``path`` exists (checked before any work is spent)."""
    if path.exists():
        raise ArtifactExistsError(
            f"{path} already exists and is never overwritten; remove it explicitly first "
            "or choose another path"
        )


def _directory(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _unwritable(path: Path, exc: OSError) -> ArtifactWriteError:
    reason = exc.strerror or type(exc).__name__
    return ArtifactWriteError(
        f"{path} cannot be written ({reason}: {exc.filename or _directory(path)}); choose an "
        "output path in a directory you can write"
    )


def prepare_output(path: Path) -> Path:
    """Check, before any work, that a new artifact can be written at ``path``.

    ``path`` must not exist. Its directory is created when missing and must accept a new file:
    a temporary file is created in it and removed again.

    Args:
        path: The artifact's target path.

    Returns:
        ``path``.

    Raises:
        ArtifactExistsError: ``path`` exists.
        ArtifactWriteError: The directory cannot be created or written.
    """
    path = Path(path)
    refuse_existing(path)
    directory = _directory(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise _unwritable(path, exc) from exc
    return path


def _new_file_mode() -> int:
    """``0o666`` less the process umask: the mode ``open()`` would give a new file."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_new_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically; refuse if ``path`` exists, even if it appears
    while writing.

    The content is written to a temporary file in the same directory, given the mode a new
    file gets (``0o666`` less the umask), flushed to disk, then hard-linked into place
    (``link`` fails when the target exists).

    Raises:
        ArtifactExistsError: ``path`` exists or appeared while writing.
        ArtifactWriteError: The directory cannot be created or the file cannot be written.
    """
    path = Path(path)
    refuse_existing(path)
    directory = _directory(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise _unwritable(path, exc) from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), _new_file_mode())
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError as exc:
            raise ArtifactExistsError(f"{path} appeared while writing; not overwritten") from exc
    except OSError as exc:
        raise _unwritable(path, exc) from exc
    finally:
        os.unlink(tmp)


__all__ = [
    "ArtifactExistsError",
    "ArtifactWriteError",
    "prepare_output",
    "refuse_existing",
    "write_new_text",
]
