"""A project outside this repository runs ``memory_core.testing`` the documented way.

The test writes a throwaway backend project (its own rootdir and ini, none of this repository's
conftest files), whose conftest loads the plugin and builds ``storage`` through the
``memory_core.storage`` entry point, and runs it in a fresh pytest process.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import memory_core.testing
from memory_core.testing import CONTRACTS, entry_point_storage

CONFTEST = """
import pytest
from memory_core.testing import entry_point_storage

pytest_plugins = ["memory_core.testing.plugin"]


@pytest.fixture
def storage():
    with entry_point_storage("memory") as tier:
        yield tier
"""


def _run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--strict-markers", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _project(tmp_path: Path, contracts: tuple[str, ...]) -> Path:
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    for module in contracts:
        name = module.rsplit(".", 1)[1]
        (tmp_path / f"test_{name}.py").write_text(
            f"from {module} import *  # noqa: F403\n", encoding="utf-8"
        )
    return tmp_path


def test_a_backend_project_runs_the_store_contracts_through_the_plugin(tmp_path: Path) -> None:
    chosen = (
        "memory_core.testing.contracts.memory_store",
        "memory_core.testing.contracts.session_store",
    )
    project = _project(tmp_path, chosen)
    listed = _run(project, "--collect-only")
    collected = sum(1 for line in listed.stdout.splitlines() if "::test_" in line)
    result = _run(project)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    assert summary.startswith(f"{collected} passed"), summary
    assert collected >= 30, listed.stdout


def test_a_broken_backend_fails_the_shipped_suite(tmp_path: Path) -> None:
    project = _project(tmp_path, ("memory_core.testing.contracts.session_store",))
    broken = CONFTEST.replace(
        "        yield tier\n",
        "        tier.sessions.get = lambda principal, session_id: None\n        yield tier\n",
    )
    (project / "conftest.py").write_text(broken, encoding="utf-8")
    result = _run(project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert " failed" in result.stdout.strip().splitlines()[-1]


def test_every_listed_contract_is_a_shipped_module_run_here() -> None:
    package = Path(memory_core.testing.__file__).parent / "contracts"
    shipped = {f"memory_core.testing.contracts.{p.stem}" for p in package.glob("[!_]*.py")}
    assert set(CONTRACTS) == shipped
    here = Path(__file__).parent
    run_here = {
        line.split()[1]
        for test in here.glob("test_*.py")
        for line in test.read_text(encoding="utf-8").splitlines()
        if line.startswith("from memory_core.testing.contracts.")
    }
    assert run_here == shipped


def test_the_entry_point_helper_names_an_uninstalled_backend() -> None:
    from memory_core.errors import StorageUnavailableError

    with (
        pytest.raises(StorageUnavailableError, match="not installed"),
        entry_point_storage("no-such-backend"),
    ):
        pass
