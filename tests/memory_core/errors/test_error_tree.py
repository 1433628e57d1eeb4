"""memory-core's errors are one tree under ``MemoryCoreError``, drawn and exported."""

from __future__ import annotations

from _support.error_tree import drawn_names, error_classes, tree_problems

import memory_core
from memory_core import errors
from memory_core.errors import MemoryCoreError

SHIPPED_TESTS = ("memory_core.testing",)
"""The shipped contract suite: its exceptions (``Boom``, ``Rollback``) are test doubles the
tests raise to force a rollback, not errors memory-core raises."""


def test_every_core_error_is_under_the_base_drawn_and_exported() -> None:
    assert tree_problems(memory_core, errors, MemoryCoreError, exclude=SHIPPED_TESTS) == []


def test_the_walk_finds_the_errors_defined_outside_errors_py() -> None:
    names = {item.cls.__name__ for item in error_classes(memory_core, exclude=SHIPPED_TESTS)}
    assert {"ModelError", "ReplyRejectedError", "ContextOverflowError"} <= names


def test_the_drawing_names_no_class_that_does_not_exist() -> None:
    defined = {item.cls.__name__ for item in error_classes(memory_core, exclude=SHIPPED_TESTS)}
    assert drawn_names(errors) - defined == set()


def test_the_walk_would_see_the_shipped_suites_test_doubles() -> None:
    names = {item.cls.__name__ for item in error_classes(memory_core)}
    assert {"Boom", "Rollback"} <= names
