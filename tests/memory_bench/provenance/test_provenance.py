"""The provenance record: read from git and the installed packages, one spelling everywhere."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import pytest
from _support.git_checkout import git, head, make_checkout
from pydantic import ValidationError

from memory_bench.provenance import (
    NOT_INSTALLED,
    PolicyVersions,
    Provenance,
    package_versions,
    read_provenance,
)
from memory_core.errors import UsageError
from memory_core.policy import (
    DETERMINISTIC_FORMATION_POLICY,
    PROVIDER_FORMATION_POLICY,
    RETRIEVAL_POLICY,
)
from memory_core.provenance import WORKSPACE_PACKAGES

AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
DIGEST = "c" * 64


def test_a_committed_checkout_is_clean(tmp_path: Path) -> None:
    checkout = make_checkout(tmp_path / "repo")
    record = read_provenance(inputs={"corpus": DIGEST}, recorded_at=AT, cwd=checkout)
    assert record.commit == head(checkout)
    assert record.dirty is False
    assert record.clean
    assert record.inputs == {"corpus": DIGEST}
    assert record.recorded_at == AT


def test_a_modified_tracked_file_makes_the_tree_dirty(tmp_path: Path) -> None:
    checkout = make_checkout(tmp_path / "repo", {"a.py": "a\n"})
    (checkout / "a.py").write_text("edited\n", encoding="utf-8")
    record = read_provenance(inputs={}, recorded_at=AT, cwd=checkout)
    assert record.commit == head(checkout)
    assert record.dirty is True
    assert not record.clean
    assert "+dirty" not in record.model_dump_json()
    assert record.describe() == f"{head(checkout)[:12]} (dirty)"


def test_a_staged_change_is_dirty_and_an_ignored_recording_is_not(tmp_path: Path) -> None:
    checkout = make_checkout(tmp_path / "repo", {"baseline.json": "{}\n"})
    git(checkout, "rm", "-q", "baseline.json")
    assert read_provenance(inputs={}, recorded_at=AT, cwd=checkout).dirty is True
    kept = read_provenance(inputs={}, recorded_at=AT, cwd=checkout, ignore=[Path("baseline.json")])
    assert kept.dirty is False


def test_outside_git_there_is_no_commit_and_the_tree_counts_as_dirty(tmp_path: Path) -> None:
    record = read_provenance(inputs={"dataset_file": DIGEST}, recorded_at=AT, cwd=tmp_path)
    assert record.commit is None
    assert record.dirty is True
    assert record.describe() == "no git checkout"


def test_packages_are_the_five_workspace_packages_as_installed() -> None:
    versions = package_versions()
    assert tuple(versions) == WORKSPACE_PACKAGES
    assert len(versions) == 5
    for name in ("memory-core", "memory-bench", "memory-bench-external", "memory-cli"):
        assert versions[name] == metadata.version(name)
    assert all(version and version != NOT_INSTALLED for version in versions.values())


def test_policies_are_the_installed_versions_under_one_spelling(tmp_path: Path) -> None:
    record = read_provenance(inputs={}, recorded_at=AT, cwd=tmp_path)
    assert record.policies.model_dump() == {
        "formation": DETERMINISTIC_FORMATION_POLICY,
        "provider_formation": PROVIDER_FORMATION_POLICY,
        "retrieval": RETRIEVAL_POLICY,
    }


def test_a_naive_instant_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="timezone-aware"):
        read_provenance(inputs={}, recorded_at=datetime(2026, 5, 1), cwd=tmp_path)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("commit", "abc123"),
        ("commit", "abc123+dirty"),
        ("inputs", {"corpus": "not-a-digest"}),
        ("inputs", {"elsewhere": DIGEST}),
        ("build_ref", "abc"),
    ],
)
def test_the_record_is_strict(field: str, value: object) -> None:
    document = {
        "commit": "a" * 40,
        "dirty": False,
        "packages": {},
        "policies": PolicyVersions.current().model_dump(),
        "inputs": {"corpus": DIGEST},
        "recorded_at": AT.isoformat(),
        field: value,
    }
    with pytest.raises(ValidationError):
        Provenance.model_validate(document)
