"""Measure one decay sweep over a principal holding N generated beliefs, on either tier.

A benchmark, not a test: it prints wall-clock timings, which vary between machines and runs.

    uv run python scripts/bench_decay_sweep.py --tier memory --beliefs 100000
    uv run python scripts/bench_decay_sweep.py --tier postgres --beliefs 100000 \\
        --database-url postgresql://postgres@127.0.0.1:5432/test

The beliefs are ``memory_bench.perf.generate_beliefs`` (the recall benchmark's data: a year of
beliefs, 80% ACTIVE user statements, 8% PROVISIONAL inferences, the rest not live), bulk-loaded
(``COPY`` on PostgreSQL). The sweep runs at ``BENCH_NOW`` under the shipped profiles, with
``formation.decay.max_per_sweep`` overlaid by ``--max-per-sweep`` (repeatable); each sweep runs
on a freshly loaded store, so the first sweep's cost is what is measured; a second sweep at
the same instant then shows the window moving on to the next eligible rows (the first sweep's
rows were just updated, so they are not eligible again within the interval). The PostgreSQL
tier runs in a temporary schema that is dropped afterwards, and ``ANALYZE`` runs after loading.

``rows_read_per_eligible`` is rows the first sweep read per row it changed (1.0 when the window
holds eligible rows only); ``eligible_total`` counts the generated beliefs the rule admits at
``BENCH_NOW`` (``memory_core.formation.decay.is_eligible``), so ``eligible_total /
max_per_sweep`` sweeps drain them. ``list_principals_ms`` times the maintenance worker's
principal listing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta

from memory_bench.perf import BENCH_NOW, BENCH_PRINCIPAL, generate_beliefs, load_beliefs
from memory_core import Belief, InMemoryStorage, Storage
from memory_core.clock import FixedClock
from memory_core.formation import GovernedMemoryService
from memory_core.formation.decay import idle_cuts, is_eligible
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import load_profiles


@contextlib.contextmanager
def _tier(
    name: str, url: str
) -> Iterator[tuple[Storage, Callable[[Sequence[Belief]], object] | None, Callable[[], None]]]:
    """(storage, bulk put or None, analyze) of a fresh tier."""
    if name == "memory":
        yield InMemoryStorage(), None, lambda: None
        return
    from memory_store_pg import temporary_storage

    with temporary_storage(url) as storage:
        yield storage, storage.memories.put_many, storage.analyze


def measure(tier: str, url: str, beliefs: int, window: int, seed: int) -> dict[str, object]:
    """Load ``beliefs`` into a fresh tier and time list_idle and one decay sweep."""
    with _tier(tier, url) as (storage, bulk_put, analyze):
        profiles = load_profiles({"formation": {"decay": {"max_per_sweep": window}}})
        interval = timedelta(seconds=profiles.formation.scheduled_interval_seconds)
        eligible_total = 0

        def counted(generated: Iterator[Belief]) -> Iterator[Belief]:
            nonlocal eligible_total
            for belief in generated:
                if is_eligible(belief, now=BENCH_NOW, profiles=profiles, interval=interval):
                    eligible_total += 1
                yield belief

        stored, live, load_seconds = load_beliefs(
            storage,
            counted(generate_beliefs(BENCH_PRINCIPAL, beliefs, seed=seed)),
            bulk_put=bulk_put,
        )
        analyze()
        cut, by_type, touched = idle_cuts(now=BENCH_NOW, profiles=profiles, interval=interval)
        started = time.perf_counter()
        idle = storage.memories.list_idle(
            BENCH_PRINCIPAL, cut, window, type_evidence_before=by_type, touched_before=touched
        )
        list_idle_ms = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        principals = storage.memories.list_principals_with_idle(cut, 500)
        list_principals_ms = (time.perf_counter() - started) * 1000
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
        started = time.perf_counter()
        second = service.decay()
        second_ms = (time.perf_counter() - started) * 1000
        return {
            "tier": tier,
            "beliefs": stored,
            "live": live,
            "max_per_sweep": window,
            "load_seconds": round(load_seconds, 2),
            "eligible_total": eligible_total,
            "list_idle_rows": len(idle),
            "list_idle_ms": round(list_idle_ms, 2),
            "list_principals": len(principals),
            "list_principals_ms": round(list_principals_ms, 2),
            "sweep_read": result.read,
            "sweep_decayed": result.decayed,
            "sweep_retired": result.retired,
            "sweep_ms": round(sweep_ms, 2),
            "rows_read_per_eligible": round(result.read / changed, 3) if changed else None,
            "ms_per_changed_belief": round(sweep_ms / changed, 3) if changed else None,
            "second_sweep_read": second.read,
            "second_sweep_changed": second.decayed + second.retired,
            "second_sweep_ms": round(second_ms, 2),
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
