"""The size-measurement generator produces files the adapters read, at small scale."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from memory_bench_external import (
    load_halumem,
    load_locomo,
    load_longmemeval,
    run_raw_turn_baseline,
)


def test_generated_locomo_has_the_requested_shape(
    dataset_generator: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "gen_locomo.json"
    shape = dataset_generator.LocomoShape(conversations=2, sessions=6, turns=60, questions=40)
    with path.open("w", encoding="utf-8") as out:
        dataset_generator.write_locomo(out, shape)
    dataset = load_locomo(path)
    assert dataset.population == 2
    assert sum(len(i.sessions) for i in dataset.instances) == 6
    assert sum(len(s.turns) for i in dataset.instances for s in i.sessions) == 60
    assert len(dataset.probes) == 40
    assert any(t.image_caption for i in dataset.instances for s in i.sessions for t in s.turns)
    run_raw_turn_baseline(dataset.instances)


def test_generated_longmemeval_has_the_requested_shape(
    dataset_generator: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "gen_lme.json"
    shape = dataset_generator.LongMemEvalShape(
        instances=4, sessions=5, turns=4, user_chars=40, assistant_chars=80
    )
    with path.open("w", encoding="utf-8") as out:
        dataset_generator.write_longmemeval(out, shape)
    dataset = load_longmemeval(path, sample=3, seed=2)
    assert dataset.population == 4 and len(dataset.instances) == 3
    assert all(len(i.sessions) == 5 for i in dataset.instances)
    assert all(len(s.turns) == 4 for i in dataset.instances for s in i.sessions)
    assert all(p.evidence or p.abstention for p in dataset.probes)


def test_generated_halumem_has_the_requested_shape(
    dataset_generator: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "gen_halumem.jsonl"
    shape = dataset_generator.HaluMemShape(
        users=2, sessions=3, pairs=2, memory_points=3, questions=2
    )
    with path.open("w", encoding="utf-8") as out:
        dataset_generator.write_halumem(out, shape)
    dataset = load_halumem(path)
    assert dataset.population == 2
    assert sum(len(i.beliefs) for i in dataset.instances) == 18
    assert len(dataset.probes) == 12
    assert dataset.evidence.unknown == 0


def test_command_line_writes_a_scaled_file(dataset_generator: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "scaled.json"
    assert dataset_generator.main(["locomo", str(path), "--scale", "0.1"]) == 0
    dataset = load_locomo(path)
    assert dataset.population == 1
    assert len(dataset.probes) == 199
