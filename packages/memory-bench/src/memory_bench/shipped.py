"""Where the benchmark's checked-in files are found: the checkout first, then the install.

The corpus, its baseline and the formation case file are checked in under ``corpus/`` at the
repository root (their single source) and shipped in the wheel as ``memory_bench/data/``
(``hatch_build.py`` copies them at build time). Run inside a checkout, a command reads
``corpus/<name>`` relative to the working directory, as it always has; anywhere else it reads
the installed copy, which is byte for byte the file it was built from (same sha256, so the
shipped baseline still matches the shipped corpus).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

CORPUS_DIR = Path("corpus")
"""The checked-in files' folder, relative to the repository root."""

CORPUS_V1 = "memory-benchmark.v1.json"
BASELINE = "memory-benchmark.baseline.json"
FORMATION_CASES = "memory-formation.v2.json"
SHIPPED_FILES: tuple[str, ...] = (CORPUS_V1, BASELINE, FORMATION_CASES)
"""The files the wheel ships under ``memory_bench/data``."""


def shipped_file(name: str) -> Path | None:
    """The installed copy of a shipped file, or ``None`` (a source checkout ships none)."""
    if name not in SHIPPED_FILES:
        raise ValueError(f"{name!r} is not shipped; the shipped files are {SHIPPED_FILES}")
    candidate = resources.files("memory_bench").joinpath("data", name)
    return Path(str(candidate)) if candidate.is_file() else None


def corpus_file(name: str, cwd: Path | None = None) -> Path:
    """``corpus/<name>`` under the working directory if it is there, else the installed copy.

    When neither exists the relative path is returned, so the caller's "not found" message
    names the file the user can pass instead.
    """
    local = (cwd or Path.cwd()) / CORPUS_DIR / name
    if local.is_file():
        return CORPUS_DIR / name if cwd is None else local
    installed = shipped_file(name)
    return installed if installed is not None else CORPUS_DIR / name


__all__ = [
    "BASELINE",
    "CORPUS_DIR",
    "CORPUS_V1",
    "FORMATION_CASES",
    "SHIPPED_FILES",
    "corpus_file",
    "shipped_file",
]
