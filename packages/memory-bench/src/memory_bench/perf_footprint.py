"""Two perf-lane figures that need no loaded store: bytes per belief, and CLI start-up.

``bytes_per_belief`` traces (``tracemalloc``) every allocation made while generated beliefs
are loaded into an empty in-memory tier and reports what the tier still holds per belief after
a collection. ``startup_comparison`` times, in alternation, the deterministic benchmark arm
and a bare ``import memory_cli.app`` as subprocesses of this interpreter.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import tracemalloc
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from memory_bench.perf import BENCH_PRINCIPAL, generate_beliefs, load_beliefs
from memory_bench.perf_compare import Comparison, compare
from memory_core.errors import UsageError
from memory_core.ports import Storage

FOOTPRINT_BEFORE_BYTES: Final = 4256.0
"""Bytes per belief this lane measured at c275455, before issue 19 (20,000 beliefs, seed 0); the
issue asks for at most half of it."""

IMPORT_COMMAND: Final = (sys.executable, "-c", "import memory_cli.app")
DETERMINISTIC_COMMAND: Final = (
    sys.executable,
    "-m",
    "memory_cli.app",
    "eval",
    "memory-benchmark",
    "--deterministic-only",
)


class Footprint(BaseModel):
    """What the in-memory tier holds per belief.

    Attributes:
        beliefs: Beliefs loaded.
        bytes_per_belief: Traced bytes still allocated after loading, per belief.
        total_mib: The same in total, MiB.
        before_bytes: ``FOOTPRINT_BEFORE_BYTES``.
        meets: ``bytes_per_belief <= before_bytes / 2``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    beliefs: int = Field(ge=1)
    bytes_per_belief: float = Field(ge=0)
    total_mib: float = Field(ge=0)
    before_bytes: float
    meets: bool


def bytes_per_belief(storage: Storage, count: int, *, seed: int) -> Footprint:
    """Load ``count`` generated beliefs into the empty ``storage`` under ``tracemalloc``.

    Raises:
        UsageError: ``count`` is below 1.
    """
    if count < 1:
        raise UsageError(f"footprint beliefs must be at least 1, got {count}")
    gc.collect()
    tracemalloc.start()
    try:
        load_beliefs(storage, generate_beliefs(BENCH_PRINCIPAL, count, seed=seed))
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    per = held / count
    return Footprint(
        beliefs=count,
        bytes_per_belief=round(per, 1),
        total_mib=round(held / 2**20, 2),
        before_bytes=FOOTPRINT_BEFORE_BYTES,
        meets=per <= FOOTPRINT_BEFORE_BYTES / 2,
    )


def _run(command: tuple[str, ...]) -> None:
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if done.returncode != 0:
        raise UsageError(
            f"{' '.join(command[1:])} exited {done.returncode}: {done.stderr.decode()[-500:]}"
        )


def startup_comparison(*, rounds: int) -> Comparison:
    """The deterministic arm against ``import memory_cli.app``, one subprocess each per round."""
    return compare(
        "deterministic arm / CLI start-up",
        "cli",
        ("agent eval memory-benchmark --deterministic-only", lambda _: _run(DETERMINISTIC_COMMAND)),
        ("python -c 'import memory_cli.app'", lambda _: _run(IMPORT_COMMAND)),
        rounds=rounds,
        per_round=1,
    )


__all__ = [
    "DETERMINISTIC_COMMAND",
    "FOOTPRINT_BEFORE_BYTES",
    "IMPORT_COMMAND",
    "Footprint",
    "bytes_per_belief",
    "startup_comparison",
]
