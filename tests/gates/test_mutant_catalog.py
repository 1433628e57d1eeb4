"""The mutation lane's catalog stays applicable: every mutant edits code that exists, once, and
names gate tests that exist (``nox -s mutants`` runs them; this only keeps the list honest)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _support.mutants import MUTANTS, ROOT, Edit, Mutant, apply_edits, pytest_command, restore

from memory_bench.gates import GATES_BY_ID


def test_mutant_ids_are_unique_and_name_implemented_gates() -> None:
    assert len({m.id for m in MUTANTS}) == len(MUTANTS)
    for mutant in MUTANTS:
        assert GATES_BY_ID[mutant.gate].implemented, mutant.id


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.id)
def test_each_mutant_applies_to_the_current_source_and_restores_it(
    mutant: Mutant, tmp_path: Path
) -> None:
    for edit in mutant.edits:
        target = tmp_path / edit.path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / edit.path, target)
    before = {e.path: (tmp_path / e.path).read_text(encoding="utf-8") for e in mutant.edits}
    originals = apply_edits(tmp_path, mutant.edits)
    for edit in mutant.edits:
        assert (tmp_path / edit.path).read_text(encoding="utf-8") != before[edit.path]
    restore(originals)
    for edit in mutant.edits:
        assert (tmp_path / edit.path).read_text(encoding="utf-8") == before[edit.path]
    for test in mutant.tests:
        assert (ROOT / test.split("::")[0]).exists(), test
    command = pytest_command(mutant.tests, mutant.keyword)
    assert command[command.index("gate") - 1] == "-m"


def test_a_stale_mutation_is_refused(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="expected 1 occurrence"):
        apply_edits(tmp_path, (Edit(path="m.py", find="y = 2", replace="y = 3"),))


def test_the_audit_mutants_are_in_the_lane() -> None:
    ids = {m.id for m in MUTANTS}
    assert {
        "rules.abstention_forbids_nothing",
        "rules.abstention_needs_beliefs",
        "rules.multi_hop_one_belief",
        "rules.negative_transfer_forbids_nothing",
        "rules.preference_needs_nothing",
        "evidence.minimum_lift_rounds_down",
        "rejection.remember_skips_rejections",
        "hazards.screen_deleted",
    } <= ids
