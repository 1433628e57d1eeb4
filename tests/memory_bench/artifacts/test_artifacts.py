"""Artifact files: refused up front when they cannot be written, written atomically, never
over an existing file, with the permissions of an ordinary new file."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_bench.artifacts import (
    ArtifactExistsError,
    ArtifactWriteError,
    prepare_output,
    write_new_text,
)
from memory_core.errors import UsageError


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def test_prepare_output_creates_the_missing_directory_and_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "evidence.json"
    assert prepare_output(target) == target
    assert target.parent.is_dir()
    assert list(target.parent.iterdir()) == []  # the probe file was removed


def test_prepare_output_refuses_an_existing_path(tmp_path: Path) -> None:
    target = tmp_path / "evidence.json"
    target.write_text("operator's file")
    with pytest.raises(ArtifactExistsError, match="never overwritten"):
        prepare_output(target)
    assert target.read_text() == "operator's file"


@pytest.mark.parametrize("depth", [1, 2])
def test_prepare_output_refuses_a_directory_that_cannot_be_made(tmp_path: Path, depth: int) -> None:
    # A regular file where a directory should be: no user, root included, can write there.
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    target = blocker.joinpath(*(["sub"] * (depth - 1)), "evidence.json")
    with pytest.raises(ArtifactWriteError, match="cannot be written") as caught:
        prepare_output(target)
    assert isinstance(caught.value, UsageError)  # exit 2 on the command line
    assert str(target) in str(caught.value)


def test_write_new_text_maps_an_os_error_to_a_typed_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ArtifactWriteError, match="cannot be written"):
        write_new_text(blocker / "evidence.json", "{}")


def test_written_files_get_the_mode_of_an_ordinary_new_file(
    tmp_path: Path, umask_022: None
) -> None:
    target = tmp_path / "evidence.json"
    write_new_text(target, "{}\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644  # not mkstemp's private 0o600
    assert target.read_text() == "{}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["evidence.json"]


def test_write_new_text_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "evidence.json"
    write_new_text(target, "first")
    with pytest.raises(ArtifactExistsError):
        write_new_text(target, "second")
    assert target.read_text() == "first"
