"""Gate 20's floor is stated in one place: derived from the case file, and the README's figure
and the gate's title agree with it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from memory_bench.gates import GATES_BY_ID
from memory_bench.provider_floor import GATE_20_RULE, positive_coverage_floor

ROOT = Path(__file__).resolve().parents[2]
GATE_20 = "gate.memory.provider_positive_coverage_v2"

pytestmark = pytest.mark.gate(GATE_20)


def test_the_readme_states_the_floor_the_case_file_implies() -> None:
    floor = positive_coverage_floor(ROOT / "corpus" / "memory-formation.v2.json")
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    stated = re.findall(r"(\d+) of the (\d+) in `corpus/memory-formation\.v2\.json`", readme)
    assert stated == [(str(floor.minimum_fully_supported), str(floor.positive_cases))]
    assert floor.statement == "32 of 40"


def test_no_other_figure_for_the_floor_is_written_down() -> None:
    # The spec's historical "17 of 21" is a 21-case file's floor, not the checked-in file's.
    title = GATES_BY_ID[GATE_20].title
    assert not re.search(r"\d+ of \d+", title), title
    assert "80% floor of the case file's positive cases" in title
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "17 of 21" not in readme
    assert "80% floor of the case file's" in GATE_20_RULE


def test_the_floor_follows_the_case_file(tmp_path: Path) -> None:
    document = json.loads((ROOT / "corpus" / "memory-formation.v2.json").read_text("utf-8"))
    document["positive"] = document["positive"][:21]
    path = tmp_path / "memory-formation.v2.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert positive_coverage_floor(path).statement == "17 of 21"
