"""memory-bench's errors are one tree under ``BenchError``, drawn and exported."""

from __future__ import annotations

from _support.error_tree import drawn_names, error_classes, tree_problems

import memory_bench
from memory_bench import errors
from memory_bench.errors import BenchError
from memory_core.errors import UsageError


def test_every_bench_error_is_under_the_base_drawn_and_exported() -> None:
    assert tree_problems(memory_bench, errors, BenchError) == []


def test_the_walk_finds_the_errors_of_every_module() -> None:
    modules = {item.module for item in error_classes(memory_bench) if item.public}
    assert {
        "memory_bench.artifacts",
        "memory_bench.baseline",
        "memory_bench.corpus._errors",
        "memory_bench.formation_eval",
        "memory_bench.html_report._documents",
        "memory_bench.live.ceiling",
        "memory_bench.live.evidence",
        "memory_bench.local_model",
    } <= modules


def test_the_drawing_names_no_class_that_does_not_exist() -> None:
    defined = {item.cls.__name__ for item in error_classes(memory_bench)}
    assert drawn_names(errors) - defined == {"MemoryCoreError"}


def test_the_rebase_keeps_every_usage_error_a_usage_error() -> None:
    usage = {
        item.cls.__name__
        for item in error_classes(memory_bench)
        if issubclass(item.cls, UsageError)
    }
    public = {item.cls.__name__ for item in error_classes(memory_bench) if item.public}
    # A failed build, a corrupt download or a dead server is not the caller's input.
    assert public - usage == {
        "BenchError",
        "PricingUnavailableError",
        "LocalModelError",
        "BuildError",
        "ChecksumMismatchError",
        "ServerStartError",
    }
