"""The repository holds no copy of any public dataset, by name, by size, or by shape.

The licenses of LoCoMo (CC BY-NC) and HaluMem (CC BY-NC-ND) bind only as long as the data
stays on the operator's machine; the adapters are tested against invented fixtures instead.

"The repository" is what git would commit: tracked files and untracked files that are not
ignored (``git add -A`` would pick those up). A dataset an operator keeps in an ignored
directory (``/local/``, say) is on their machine, not in the repository, and does not fail
the check.
"""

from __future__ import annotations

import fnmatch
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

DATASET_NAME_PATTERNS = ("locomo10*.json", "longmemeval_*.json", "halumem-*.jsonl")
"""File names the published datasets ship under (matched case-insensitively)."""

MAX_JSON_BYTES = 1_000_000
"""No JSON or JSON Lines file in the repository may be this large (the smallest dataset file,
LoCoMo, is about 2.8 MB)."""

SHAPE_MARKERS = ('"haystack_sessions"', '"session_1_date_time"', '"memory_points"')
"""Keys only a dataset-shaped file carries (LongMemEval, LoCoMo, HaluMem)."""

FIXTURE_DIR = Path(__file__).resolve().parent / "fixtures"
MAX_FIXTURE_BYTES = 64_000


def repository_files(root: Path) -> list[Path]:
    """The files git would commit in the checkout at ``root``: tracked, plus untracked files
    that are not ignored, sorted (a tracked file deleted from the disk is skipped)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    relative = sorted({Path(name) for name in listed.split("\0") if name})
    return [root / path for path in relative if (root / path).is_file()]


def dataset_like_files(root: Path) -> list[str]:
    """Every file git would commit under ``root`` that looks like a vendored dataset, with
    the reason."""
    found: list[str] = []
    for path in repository_files(root):
        relative = path.relative_to(root)
        name = path.name
        lowered = name.lower()
        if any(fnmatch.fnmatch(lowered, pattern) for pattern in DATASET_NAME_PATTERNS):
            found.append(f"{relative}: named like a published dataset file")
            continue
        if not lowered.endswith((".json", ".jsonl")):
            continue
        size = path.stat().st_size
        if size > MAX_JSON_BYTES:
            found.append(f"{relative}: {size} bytes of JSON (limit {MAX_JSON_BYTES})")
            continue
        with path.open("rb") as stream:
            head = stream.read(65_536).decode("utf-8", errors="replace")
        if any(marker in head for marker in SHAPE_MARKERS):
            is_fixture = path.parent.resolve() == FIXTURE_DIR and name.startswith("synthetic_")
            if not is_fixture or size > MAX_FIXTURE_BYTES:
                found.append(f"{relative}: shaped like a dataset file outside the fixtures")
    return found


@pytest.mark.gate("gate.memory.bench_external_adapters")
def test_repository_contains_no_dataset_file() -> None:
    assert dataset_like_files(REPO_ROOT) == []


def _git_checkout(root: Path) -> Path:
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


@pytest.mark.parametrize(
    ("relative", "content", "reason"),
    [
        ("data/locomo10.json", "[]", "named like a published dataset file"),
        ("x/LongMemEval_S_cleaned.json", "[]", "named like a published dataset file"),
        ("HaluMem-Medium.jsonl", "", "named like a published dataset file"),
        ("corpus/big.json", "[" + "0," * 600_000 + "0]", "bytes of JSON"),
        ("notes/sample.json", '[{"haystack_sessions": []}]', "shaped like a dataset file"),
        ("notes/users.jsonl", '{"sessions": [{"memory_points": []}]}\n', "shaped like"),
    ],
)
def test_the_check_catches_a_planted_dataset(
    tmp_path: Path, relative: str, content: str, reason: str
) -> None:
    root = _git_checkout(tmp_path)
    (root / "ok.json").write_text('{"schema_version": 1}', encoding="utf-8")
    planted = root / relative
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_text(content, encoding="utf-8")
    (found,) = dataset_like_files(root)  # untracked and not ignored: git add -A would add it
    assert found.startswith(str(Path(relative)))
    assert reason in found


def test_the_check_reads_tracked_files_too(tmp_path: Path) -> None:
    root = _git_checkout(tmp_path)
    (root / "locomo10.json").write_text("[]", encoding="utf-8")
    subprocess.run(["git", "add", "locomo10.json"], cwd=root, check=True)
    assert dataset_like_files(root) == ["locomo10.json: named like a published dataset file"]


def test_files_git_ignores_are_not_in_the_repository(tmp_path: Path) -> None:
    # An operator's local copy in an ignored directory, and a virtualenv, stay off the check.
    root = _git_checkout(tmp_path)
    (root / ".gitignore").write_text(".venv/\n/local/\n", encoding="utf-8")
    for relative in (".venv/lib/locomo10.json", "local/HaluMem-Medium.jsonl"):
        planted = root / relative
        planted.parent.mkdir(parents=True)
        planted.write_text("[]", encoding="utf-8")
    assert dataset_like_files(root) == []
