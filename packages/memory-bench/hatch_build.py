"""Build hook: ship the checked-in corpus files as package data of memory-bench.

The files stay where they are checked in (the repository's ``corpus/``, their single source);
this hook adds them to the build without a second committed copy. A wheel gets them under
``memory_bench/data/`` (read back by ``memory_bench.shipped``); an sdist under ``corpus/``,
which is where the hook finds them when a wheel is built from that sdist. An editable build
ships nothing: the checkout's ``corpus/`` is found directly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface  # type: ignore[import-not-found]

SHIPPED_FILES = (
    "memory-benchmark.v1.json",
    "memory-benchmark.baseline.json",
    "memory-formation.v2.json",
)


class CorpusBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Force-include the corpus files into the wheel (``memory_bench/data``) or sdist."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name == "wheel" and version == "editable":
            return
        root = Path(self.root)
        sources = [root / "corpus", root.parent.parent / "corpus"]
        found = next((s for s in sources if all((s / n).is_file() for n in SHIPPED_FILES)), None)
        if found is None:
            searched = ", ".join(str(s) for s in sources)
            raise FileNotFoundError(f"memory-bench's corpus files are in none of: {searched}")
        target = "memory_bench/data" if self.target_name == "wheel" else "corpus"
        for name in SHIPPED_FILES:
            build_data["force_include"][str(found / name)] = f"{target}/{name}"
