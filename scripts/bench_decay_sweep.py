"""Measure one decay sweep over a principal holding N generated beliefs, on either tier.

A benchmark, not a test: it prints wall-clock timings, which vary between machines and runs.

    uv run python scripts/bench_decay_sweep.py --tier memory --beliefs 100000
    uv run python scripts/bench_decay_sweep.py --tier postgres --beliefs 100000 \\
        --database-url postgresql://postgres@127.0.0.1:5432/test

The beliefs are ``memory_bench.perf.generate_beliefs`` (the recall benchmark's data: a year of
beliefs, 80% ACTIVE user statements, 8% PROVISIONAL inferences, the rest not live), bulk-loaded
(``COPY`` on PostgreSQL). The sweep runs at ``BENCH_NOW`` under the shipped profiles, with
``formation.decay.max_per_sweep`` overlaid by ``--max-per-sweep`` (repeatable); each sweep runs
on a freshly loaded store, so the first sweep's cost is what is measured. The PostgreSQL tier
runs in a temporary schema that is dropped afterwards, and ``ANALYZE`` runs after loading.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta

from memory_bench.perf import BENCH_NOW, BENCH_PRINCIPAL, generate_beliefs, load_beliefs
from memory_core import Belief, FixedClock, InMemoryStorage, SequentialIdFactory, Storage
from memory_core.formation import GovernedMemoryService
from memory_core.profiles import load_profiles


@contextlib.contextmanager
def _tier(
    name: str, url: str
) -> Iterator[tuple[Storage, Callable[[Sequence[Belief]], object] | None, Callable[[], None]]]:
    """(storage, bulk put or None, analyze) of a fresh tier."""
    if name == "memory":
        yield InMemoryStorage(), None, lambda: None
        return
    from sqlalchemy import text

    from memory_store_pg import temporary_storage

    with temporary_storage(url) as storage:

        def analyze() -> None:
            with storage.engine.begin() as connection:
                connection.execute(text(f'ANALYZE "{storage.schema}".memories'))

        yield storage, storage.memories.put_many, analyze


def measure(tier: str, url: str, beliefs: int, window: int, seed: int) -> dict[str, object]:
    """Load ``beliefs`` into a fresh tier and time list_idle and one decay sweep."""
    with _tier(tier, url) as (storage, bulk_put, analyze):
        stored, live, load_seconds = load_beliefs(
            storage, generate_beliefs(BENCH_PRINCIPAL, beliefs, seed=seed), bulk_put=bulk_put
        )
        analyze()
        profiles = load_profiles({"formation": {"decay": {"max_per_sweep": window}}})
        shortest_tau = min(profiles.retrieval.decay_tau_days.model_dump().values())
        cut = BENCH_NOW - timedelta(days=shortest_tau)
        started = time.perf_counter()
        idle = storage.memories.list_idle(BENCH_PRINCIPAL, cut, window)
        list_idle_ms = (time.perf_counter() - started) * 1000
        service = GovernedMemoryService(
            storage=storage,
            clock=FixedClock(BENCH_NOW),
            ids=SequentialIdFactory(namespace="decay-bench"),
            principal=BENCH_PRINCIPAL,
            profiles=profiles,
        )
        started = time.perf_counter()
        result = service.decay()
        sweep_ms = (time.perf_counter() - started) * 1000
        changed = result.decayed + result.retired
        return {
            "tier": tier,
            "beliefs": stored,
            "live": live,
            "max_per_sweep": window,
            "load_seconds": round(load_seconds, 2),
            "list_idle_rows": len(idle),
            "list_idle_ms": round(list_idle_ms, 2),
            "sweep_read": result.read,
            "sweep_decayed": result.decayed,
            "sweep_retired": result.retired,
            "sweep_ms": round(sweep_ms, 2),
            "ms_per_changed_belief": round(sweep_ms / changed, 3) if changed else None,
        }


def main() -> None:
    """Parse the arguments, run each measurement, print one JSON line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", choices=("memory", "postgres"), default="memory")
    parser.add_argument("--beliefs", type=int, default=100_000)
    parser.add_argument("--max-per-sweep", type=int, action="append")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    for window in args.max_per_sweep or [1000]:
        print(json.dumps(measure(args.tier, args.database_url, args.beliefs, window, args.seed)))


if __name__ == "__main__":
    main()
