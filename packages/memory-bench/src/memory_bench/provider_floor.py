"""Gate 20's floor, stated once and derived from the case file it is measured on.

Gate 20 (gate.memory.provider_positive_coverage_v2) publishes provider formation evidence only
when at least the eighty-per-cent floor of the case file's labeled positive cases is fully
supported. The floor is a function of the case file (:func:`positive_coverage_floor`), never a
number written down: the README's figure, the run's diagnostics and the evidence validator all
come from :func:`memory_core.formation.selection.minimum_fully_supported` over the same count,
and a test holds the README to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memory_bench.formation_eval import LoadedCases, default_case_path, load_formation_cases
from memory_core.formation.selection import minimum_fully_supported

GATE_20_RULE = "at least the 80% floor of the case file's labeled positive cases fully supported"
"""Gate 20's rule in words; the numbers come from :func:`positive_coverage_floor`."""


@dataclass(frozen=True, kw_only=True)
class PositiveCoverageFloor:
    """How many of a case file's positive cases gate 20 needs fully supported.

    Attributes:
        case_file: The case file's name.
        positive_cases: Its labeled positive cases.
        minimum_fully_supported: The eighty-per-cent floor of ``positive_cases``.
    """

    case_file: str
    positive_cases: int
    minimum_fully_supported: int

    @property
    def statement(self) -> str:
        """``"<floor> of <positives>"``, as the README states it."""
        return f"{self.minimum_fully_supported} of {self.positive_cases}"


def positive_coverage_floor(cases: LoadedCases | Path | None = None) -> PositiveCoverageFloor:
    """Gate 20's floor for ``cases`` (a loaded case file, a path, or the checked-in file).

    Raises:
        FormationCaseFileError: The case file is missing or invalid.
    """
    loaded = (
        cases
        if isinstance(cases, LoadedCases)
        else load_formation_cases(cases if cases is not None else default_case_path())
    )
    positives = len(loaded.cases.positive)
    return PositiveCoverageFloor(
        case_file=loaded.path.name,
        positive_cases=positives,
        minimum_fully_supported=minimum_fully_supported(positives),
    )


__all__ = ["GATE_20_RULE", "PositiveCoverageFloor", "positive_coverage_floor"]
