"""What git says about the checkout a baseline is recorded from."""

from __future__ import annotations

from pathlib import Path

from _support.git_checkout import git, head, make_checkout

from memory_bench.source_tree import SourceTree, read_source_tree


def test_a_committed_checkout_is_clean_and_named_by_its_commit(tmp_path: Path) -> None:
    checkout = make_checkout(tmp_path / "repo")
    tree = read_source_tree(checkout)
    assert tree == SourceTree(commit=head(checkout), changed=())
    assert tree.clean
    assert tree.dirty is False
    assert tree.describe() == ""


def test_modified_staged_and_deleted_tracked_files_are_changes(tmp_path: Path) -> None:
    checkout = make_checkout(tmp_path / "repo", {"a.py": "a\n", "b.py": "b\n", "c.py": "c\n"})
    (checkout / "a.py").write_text("changed\n", encoding="utf-8")
    (checkout / "b.py").write_text("staged\n", encoding="utf-8")
    git(checkout, "add", "b.py")
    git(checkout, "rm", "-q", "c.py")
    (checkout / "untracked.txt").write_text("not part of the build\n", encoding="utf-8")
    tree = read_source_tree(checkout)
    assert tree.changed == ("a.py", "b.py", "c.py")
    assert not tree.clean
    assert tree.dirty is True
    assert "3 tracked file(s) differ" in tree.describe()


def test_a_rename_names_both_paths(tmp_path: Path) -> None:
    checkout = make_checkout(tmp_path / "repo", {"old.py": "x\n"})
    git(checkout, "mv", "old.py", "new.py")
    assert read_source_tree(checkout).changed == ("new.py", "old.py")


def test_the_file_being_re_recorded_is_not_a_change(tmp_path: Path) -> None:
    files = {"corpus/baseline.json": "{}\n", "corpus/v1.json": "[]\n"}
    checkout = make_checkout(tmp_path / "repo", files)
    git(checkout, "rm", "-q", "corpus/baseline.json")
    assert read_source_tree(checkout).changed == ("corpus/baseline.json",)
    tree = read_source_tree(checkout, ignore=[Path("corpus/baseline.json")])
    assert tree.clean
    nested = read_source_tree(checkout / "corpus", ignore=[Path("baseline.json")])
    assert nested.clean


def test_outside_a_checkout_nothing_names_the_build(tmp_path: Path) -> None:
    tree = read_source_tree(tmp_path)
    assert tree == SourceTree(commit=None)
    assert not tree.clean
    assert tree.dirty is True
    assert "not a git checkout" in tree.describe()
