"""memory-core's errors are one tree under ``MemoryCoreError``, drawn and exported."""

from __future__ import annotations

import memory_core
from _support.error_tree import drawn_names, error_classes, tree_problems
from memory_core import errors
from memory_core.errors import MemoryCoreError


def test_every_core_error_is_under_the_base_drawn_and_exported() -> None:
    assert tree_problems(memory_core, errors, MemoryCoreError) == []


def test_the_walk_finds_the_errors_defined_outside_errors_py() -> None:
    names = {item.cls.__name__ for item in error_classes(memory_core)}
    assert {"ModelError", "ReplyRejectedError", "ContextOverflowError"} <= names


def test_the_drawing_names_no_class_that_does_not_exist() -> None:
    defined = {item.cls.__name__ for item in error_classes(memory_core)}
    assert drawn_names(errors) - defined == set()
