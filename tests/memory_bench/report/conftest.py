"""Fixtures of the report tests: the fixed results (see ``regenerate_fixtures.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support.report_figures import DETERMINISTIC, EXTERNAL


@pytest.fixture
def deterministic_document() -> dict[str, Any]:
    """The fixed deterministic result (see ``regenerate_fixtures.py``)."""
    data: dict[str, Any] = json.loads(DETERMINISTIC.read_text(encoding="utf-8"))
    return data


@pytest.fixture
def external_document() -> dict[str, Any]:
    """The fixed external metrics (the synthetic LoCoMo fixture's)."""
    data: dict[str, Any] = json.loads(EXTERNAL.read_text(encoding="utf-8"))
    return data
