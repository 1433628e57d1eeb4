"""memory-bench-external's errors are one tree under ``ExternalBenchError``, drawn and exported."""

from __future__ import annotations

from _support.error_tree import drawn_names, error_classes, tree_problems

import memory_bench_external
from memory_bench_external import errors
from memory_bench_external.errors import ExternalBenchError
from memory_core.errors import UsageError


def test_every_external_error_is_under_the_base_drawn_and_exported() -> None:
    assert tree_problems(memory_bench_external, errors, ExternalBenchError) == []


def test_the_walk_finds_the_dataset_and_date_errors() -> None:
    names = {item.cls.__name__ for item in error_classes(memory_bench_external)}
    assert {"DatasetError", "DateFormatError", "ExternalBenchError"} <= names


def test_the_drawing_names_no_class_that_does_not_exist() -> None:
    defined = {item.cls.__name__ for item in error_classes(memory_bench_external)}
    assert drawn_names(errors) - defined == {"MemoryCoreError"}


def test_the_rebase_keeps_the_dataset_error_a_usage_error_and_dates_a_value_error() -> None:
    assert issubclass(memory_bench_external.DatasetError, UsageError)
    assert issubclass(memory_bench_external.DateFormatError, ValueError)
