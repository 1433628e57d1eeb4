"""Shared helpers for the external-dataset adapter tests.

The fixtures under ``fixtures/`` are invented, tiny and shaped like the published files; they
carry the quirks the adapters must survive (integer answers, compound and malformed evidence
ids, image turns, string booleans, date keys for absent sessions).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
"""The synthetic fixture files."""

LOCOMO_FIXTURE = FIXTURES / "synthetic_locomo.json"
LONGMEMEVAL_FIXTURE = FIXTURES / "synthetic_longmemeval.json"
HALUMEM_FIXTURE = FIXTURES / "synthetic_halumem.jsonl"


@pytest.fixture
def locomo_fixture() -> Path:
    """The synthetic LoCoMo file."""
    return LOCOMO_FIXTURE


@pytest.fixture
def longmemeval_fixture() -> Path:
    """The synthetic LongMemEval file."""
    return LONGMEMEVAL_FIXTURE


@pytest.fixture
def halumem_fixture() -> Path:
    """The synthetic HaluMem file."""
    return HALUMEM_FIXTURE


@pytest.fixture
def json_records() -> Callable[[Path], list[dict[str, object]]]:
    """Read a fixture's records (a JSON list, or JSON Lines for ``.jsonl``) as plain data."""

    def read(path: Path) -> list[dict[str, object]]:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".jsonl":
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        records = json.loads(text)
        assert isinstance(records, list)
        return records

    return read


@pytest.fixture
def write_records(tmp_path: Path) -> Callable[..., Path]:
    """Write records to ``tmp_path/name`` as a JSON list, or JSON Lines when it ends ``.jsonl``."""

    def write(name: str, records: list[dict[str, object]]) -> Path:
        path = tmp_path / name
        if path.suffix == ".jsonl":
            path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        else:
            path.write_text(json.dumps(records), encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="session")
def dataset_generator() -> ModuleType:
    """The generator script beside these tests, imported from its path."""
    path = Path(__file__).parent / "dataset_generator.py"
    spec = importlib.util.spec_from_file_location("_external_dataset_generator", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
