"""A throwaway git checkout for tests of what a recording says about its source tree."""

from __future__ import annotations

import subprocess
from pathlib import Path

_IDENTITY = ("-c", "user.name=test", "-c", "user.email=test@example.invalid")


def git(checkout: Path, *args: str) -> str:
    """Run git in ``checkout`` with a fixed identity; returns stdout."""
    return subprocess.run(
        ["git", *_IDENTITY, *args], cwd=checkout, capture_output=True, text=True, check=True
    ).stdout


def make_checkout(root: Path, files: dict[str, str] | None = None) -> Path:
    """A git repository at ``root`` with ``files`` (default: one README) in one commit."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    for name, text in (files or {"README.md": "checkout\n"}).items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    return root


def head(checkout: Path) -> str:
    """The checkout's ``HEAD`` commit."""
    return git(checkout, "rev-parse", "HEAD").strip()
