"""The shipped corpus files: found in the checkout first, then in the install; one source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from memory_bench.shipped import SHIPPED_FILES, corpus_file, shipped_file

REPO = Path(__file__).resolve().parents[3]


def test_the_build_hook_ships_exactly_the_files_the_runtime_reads() -> None:
    hook = (REPO / "packages" / "memory-bench" / "hatch_build.py").read_text(encoding="utf-8")
    assigned = next(
        node.value
        for node in ast.walk(ast.parse(hook))
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "SHIPPED_FILES" for t in node.targets)
    )
    assert ast.literal_eval(assigned) == SHIPPED_FILES
    for name in SHIPPED_FILES:
        assert (REPO / "corpus" / name).is_file()


def test_the_checkout_corpus_wins_and_keeps_its_relative_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(REPO)
    for name in SHIPPED_FILES:
        assert corpus_file(name) == Path("corpus") / name


def test_without_a_checkout_the_installed_copy_or_the_relative_path_is_returned(
    tmp_path: Path,
) -> None:
    for name in SHIPPED_FILES:
        installed = shipped_file(name)
        expected = installed if installed is not None else Path("corpus") / name
        assert corpus_file(name, cwd=tmp_path) == expected
    local = tmp_path / "corpus"
    local.mkdir()
    (local / SHIPPED_FILES[0]).write_text("{}", encoding="utf-8")
    assert corpus_file(SHIPPED_FILES[0], cwd=tmp_path) == local / SHIPPED_FILES[0]


def test_only_the_shipped_names_are_looked_up() -> None:
    with pytest.raises(ValueError, match="not shipped"):
        shipped_file("secrets.json")
