"""The checked-in baseline, its exact comparison, and its write-once file handling.

A baseline records what one deterministic run measured together with everything that makes
two runs comparable: the benchmark version, the extractor name, and the provenance record
(:class:`~memory_core.provenance.Provenance`, built by :func:`memory_bench.provenance.
provenance_of`) whose ``inputs.corpus`` digest and ``policies`` (formation, provider formation,
retrieval) are compared. The record's ``commit``, ``dirty``, ``packages`` and ``recorded_at``
name the build and are never compared.

Schema 2 embeds the record under ``provenance``. A schema 1 file (``corpus_digest``,
``formation_policy``, ``provider_formation_policy``, ``retrieval_policy``, ``build_ref`` with
its ``+dirty`` suffix, ``recorded_at`` at the top level) is still read: :func:`load_baseline`
lifts it into schema 2 (``commit`` and ``dirty`` from ``build_ref``; ``packages`` empty, since
schema 1 never recorded them).

Comparison sorts every difference into exactly one of five lists:

``drift``
    The runs are not comparable: a provenance field differs, or a structural count that is a
    function of the corpus (scenarios, probes, expected beliefs, needed total, a category's
    probe count or needed total, a distance bin's population, the set of probe or scenario
    rows) differs. When anything drifted the other lists are left empty: counts of two
    different corpora are not better or worse than each other.
``regressions``
    A higher-is-better count fell or a lower-is-better count rose, in any compared row: the
    aggregate, a category's sums, a scenario's formation row or a probe's row. Rows count one
    by one, so a fall in one row is a regression even when another row rises by as much and
    the sums hold. Also a probe that lost a recalled or a formed label, and a distance bin
    (aggregate or per probe) whose ``formed`` or ``recalled`` fell.
``improvements``
    The mirror image; reported, never required.
``shifts``
    An attribution count (snapshot-only, in-turn-only, both) moved: where recall happened, not
    how much of it.
``changes``
    Any other difference (a neutral count such as ``returned_*`` or ``formed``); it is neither
    better nor worse, but it still makes the baseline stale.

``no_regression`` holds when there is no drift and no regression; ``current`` holds only when
all five lists are empty, i.e. the run equals the baseline exactly.

Errors::

    UsageError (memory_core.errors)
    └── BaselineError             the baseline file cannot be used
        ├── BaselineExistsError   writing would replace an existing file (delete it first)
        ├── BaselineNotFoundError the file does not exist
        ├── BaselineFormatError   the file is unreadable, not JSON, or not a baseline
        ├── BaselineRefusedError  the run breaks a structural zero and is never recorded
        └── BaselineDirtyTreeError the checkout differs from its commit and no reason was given

:func:`record_baseline` is the one way a run becomes a baseline: it refuses a run whose
structural zeros do not hold, and a checkout whose tracked files differ from its commit
unless the caller says why (the reason is recorded in the baseline as ``dirty_reason``),
before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final, Literal, TypeVar

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from memory_bench.artifacts import ArtifactExistsError, ArtifactWriteError, write_new_text
from memory_bench.errors import BenchError
from memory_bench.metrics import (
    CategoryMetrics,
    DeterministicMetrics,
    DeterministicRun,
    DistanceBin,
    FormationCounts,
    ProbeCounts,
    ProbeMetrics,
    ScenarioMetrics,
)
from memory_bench.provenance import legacy_build_ref, provenance_of
from memory_bench.source_tree import SourceTree
from memory_core.errors import UsageError
from memory_core.provenance import PolicyVersions, Provenance

BASELINE_SCHEMA_VERSION: Final = 2
"""Version of the baseline file format (2: the provenance record under ``provenance``)."""

HIGHER_IS_BETTER: Final[frozenset[str]] = frozenset(
    {"supported", "needed_formed", "needed_recalled", "runs_completed"}
)
"""Counts whose fall is a regression."""

LOWER_IS_BETTER: Final[frozenset[str]] = frozenset(
    {
        "fabricated",
        "stale_live",
        "noise_total",
        "dropped_for_budget",
        "dropped_for_ceiling",
        "blocked_rendered",
        "currency_violations",
        "abstention_leaks",
        "false_transfers",
        "policy_failures",
        "distinct_prefixes",
        "max_distinct_prefixes_per_probe",
        "other_forbidden_rendered",
        "protected_rendered",
    }
)
"""Counts whose rise is a regression. Beyond the spec's list this holds the two counts this
implementation adds for the same hazards: ``other_forbidden_rendered`` (a forbidden statement
rendered on a probe of another category) and ``protected_rendered`` (a protected fragment in a
trace)."""

ATTRIBUTION: Final[frozenset[str]] = frozenset(
    {"recalled_snapshot_only", "recalled_in_turn_only", "recalled_both"}
)
"""Counts that partition ``needed_recalled`` by moment; a move is a shift."""

STRUCTURAL: Final[frozenset[str]] = frozenset({"scenarios", "probes", "expected", "needed_total"})
"""Counts that are a function of the corpus; a difference is drift."""


def _comparable(baseline: Baseline) -> dict[str, str]:
    """What must be equal for two runs to be compared, keyed by the run's field names."""
    policies = baseline.provenance.policies
    return {
        "benchmark_version": baseline.benchmark_version,
        "corpus_digest": baseline.corpus_digest,
        "formation_policy": policies.formation,
        "provider_formation_policy": policies.provider_formation,
        "retrieval_policy": policies.retrieval,
        "extractor": baseline.extractor,
    }


class BaselineError(BenchError, UsageError):
    """A baseline file cannot be used; the message names the path and what to do."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


class BaselineExistsError(BaselineError):
    """Refused to write over an existing baseline; re-recording deletes the file first."""


class BaselineNotFoundError(BaselineError):
    """The baseline file does not exist."""


class BaselineFormatError(BaselineError):
    """The baseline file is unreadable, is not JSON, or does not fit the baseline schema."""


class BaselineRefusedError(BaselineError):
    """The run breaks a structural zero (a protected fragment formed or rendered, a currency
    violation, a false transfer, an abstention leak), so it is not recorded as a baseline.

    Attributes:
        failures: The failing counts, ``name=value`` each.
    """

    def __init__(self, path: Path, failures: tuple[str, ...]) -> None:
        super().__init__(
            path,
            "the structural zeros do not hold (" + ", ".join(failures) + "); "
            "fix formation or retrieval before recording a baseline",
        )
        self.failures = failures


class BaselineDirtyTreeError(BaselineError):
    """The checkout's tracked files differ from its commit (or it is no git checkout), so the
    build reference would not name what was measured; commit first, or give a reason.

    Attributes:
        source: The checkout as git reported it.
    """

    def __init__(self, path: Path, source: SourceTree) -> None:
        super().__init__(
            path,
            f"refusing to record a baseline from a dirty tree: {source.describe()}; commit "
            "the change and record again, or pass --dirty-reason TEXT saying why this "
            "recording cannot come from a clean commit (the reason is recorded)",
        )
        self.source = source


class Baseline(BaseModel):
    """The recorded fixed point a deterministic run is compared against exactly.

    One row per probe without trace identifiers, one formation row per scenario, and the
    aggregate; counts only, no ratio and no belief statement. ``provenance`` names the build,
    packages, policies and corpus digest. ``dirty_reason`` is set only for a recording the
    caller excused from the clean-tree rule, and is absent from the file otherwise.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: Literal[2] = 2
    benchmark_version: str = Field(min_length=1)
    extractor: str = Field(min_length=1)
    provenance: Provenance
    dirty_reason: str | None = Field(default=None, min_length=1)
    metrics: DeterministicMetrics
    scenarios: tuple[ScenarioMetrics, ...]
    probes: tuple[ProbeMetrics, ...]

    @model_validator(mode="after")
    def _names_its_corpus(self) -> Baseline:
        if "corpus" not in self.provenance.inputs:
            raise ValueError("provenance.inputs.corpus: a baseline names its corpus digest")
        return self

    @property
    def corpus_digest(self) -> str:
        """The sha256 of the corpus the run read (``provenance.inputs.corpus``)."""
        return self.provenance.inputs["corpus"]

    @property
    def recorded_at(self) -> datetime:
        """When the baseline was recorded (``provenance.recorded_at``)."""
        return self.provenance.recorded_at

    @classmethod
    def from_run(
        cls,
        run: DeterministicRun,
        *,
        source: SourceTree,
        recorded_at: datetime,
        dirty_reason: str | None = None,
    ) -> Baseline:
        """Record ``run`` as a baseline of the build ``source`` describes, at ``recorded_at``."""
        return cls(
            benchmark_version=run.benchmark_version,
            extractor=run.extractor,
            provenance=provenance_of(
                source,
                inputs={"corpus": run.corpus_digest},
                recorded_at=recorded_at,
                policies=PolicyVersions(
                    formation=run.formation_policy,
                    provider_formation=run.provider_formation_policy,
                    retrieval=run.retrieval_policy,
                ),
            ),
            dirty_reason=dirty_reason,
            metrics=run.metrics,
            scenarios=run.scenarios,
            probes=run.probes,
        )

    def to_json(self) -> str:
        """The file text: indented JSON in field order, with a trailing newline (without
        ``dirty_reason`` when none was given)."""
        exclude = {"dirty_reason"} if self.dirty_reason is None else None
        return self.model_dump_json(indent=2, exclude=exclude) + "\n"


class BaselineV1(BaseModel):
    """A schema 1 baseline file, read only to be lifted into schema 2 (:meth:`upgrade`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: Literal[1]
    benchmark_version: str = Field(min_length=1)
    corpus_digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    formation_policy: str = Field(min_length=1)
    provider_formation_policy: str = Field(min_length=1)
    retrieval_policy: str = Field(min_length=1)
    extractor: str = Field(min_length=1)
    build_ref: str = Field(min_length=1)
    dirty_reason: str | None = Field(default=None, min_length=1)
    recorded_at: AwareDatetime
    metrics: DeterministicMetrics
    scenarios: tuple[ScenarioMetrics, ...]
    probes: tuple[ProbeMetrics, ...]

    def upgrade(self) -> Baseline:
        """The same baseline in schema 2.

        ``build_ref`` becomes ``commit`` (``null`` when it is not a 40-hex commit, e.g.
        ``unknown``) and ``dirty`` (its ``+dirty`` suffix, or no commit at all); ``packages``
        is empty, since schema 1 did not record them.
        """
        commit, dirty = legacy_build_ref(self.build_ref)
        return Baseline(
            benchmark_version=self.benchmark_version,
            extractor=self.extractor,
            provenance=Provenance(
                commit=commit,
                dirty=dirty,
                packages={},
                policies=PolicyVersions(
                    formation=self.formation_policy,
                    provider_formation=self.provider_formation_policy,
                    retrieval=self.retrieval_policy,
                ),
                inputs={"corpus": self.corpus_digest},
                recorded_at=self.recorded_at,
            ),
            dirty_reason=self.dirty_reason,
            metrics=self.metrics,
            scenarios=self.scenarios,
            probes=self.probes,
        )


class Difference(BaseModel):
    """One compared value that differs: where, and the baseline and current values."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    baseline: int | str | None
    current: int | str | None


class BaselineComparison(BaseModel):
    """The five-way sort of every difference between a baseline and a run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    drift: tuple[Difference, ...] = ()
    regressions: tuple[Difference, ...] = ()
    improvements: tuple[Difference, ...] = ()
    shifts: tuple[Difference, ...] = ()
    changes: tuple[Difference, ...] = ()

    @property
    def no_regression(self) -> bool:
        """No drift and no regression: the guard a refactor must pass."""
        return not self.drift and not self.regressions

    @property
    def current(self) -> bool:
        """No difference at all: the run equals the baseline exactly."""
        return not (
            self.drift or self.regressions or self.improvements or self.shifts or self.changes
        )


@dataclass
class _Sorter:
    drift: list[Difference]
    regressions: list[Difference]
    improvements: list[Difference]
    shifts: list[Difference]
    changes: list[Difference]

    def directional(self, key: str, field: str, old: int, new: int) -> None:
        if old == new:
            return
        diff = Difference(key=key, baseline=old, current=new)
        if field in STRUCTURAL:
            self.drift.append(diff)
        elif field in ATTRIBUTION:
            self.shifts.append(diff)
        elif field in HIGHER_IS_BETTER:
            (self.improvements if new > old else self.regressions).append(diff)
        elif field in LOWER_IS_BETTER:
            (self.regressions if new > old else self.improvements).append(diff)
        else:
            self.changes.append(diff)

    def neutral(self, key: str, old: int | str | None, new: int | str | None) -> None:
        if old != new:
            self.changes.append(Difference(key=key, baseline=old, current=new))

    def counts(
        self, prefix: str, old: FormationCounts | ProbeCounts, new: FormationCounts | ProbeCounts
    ) -> None:
        for field in type(old).model_fields:
            self.directional(f"{prefix}.{field}", field, getattr(old, field), getattr(new, field))

    def labels(self, key: str, old: tuple[str, ...], new: tuple[str, ...]) -> None:
        """A lost label is a regression and a gained one an improvement, whatever the counts."""
        for label in sorted(set(old) - set(new)):
            self.regressions.append(Difference(key=f"{key}.{label}", baseline=label, current=None))
        for label in sorted(set(new) - set(old)):
            self.improvements.append(Difference(key=f"{key}.{label}", baseline=None, current=label))


_Row = TypeVar("_Row", CategoryMetrics, ScenarioMetrics)


def _keyed(rows: tuple[_Row, ...], key: str) -> dict[str, _Row]:
    return {str(getattr(row, key)): row for row in rows}


def _compare_distance(
    sorter: _Sorter, prefix: str, old: tuple[DistanceBin, ...], new: tuple[DistanceBin, ...]
) -> None:
    before = {item.distance: item for item in old}
    after = {item.distance: item for item in new}
    for distance in sorted(before.keys() | after.keys()):
        key = f"{prefix}.distance_{distance}"
        a, b = before.get(distance), after.get(distance)
        if a is None or b is None or a.needed != b.needed:
            sorter.drift.append(
                Difference(
                    key=f"{key}.needed",
                    baseline=None if a is None else a.needed,
                    current=None if b is None else b.needed,
                )
            )
            continue
        for field in ("formed", "recalled"):
            old_value, new_value = getattr(a, field), getattr(b, field)
            if old_value != new_value:
                diff = Difference(key=f"{key}.{field}", baseline=old_value, current=new_value)
                (sorter.improvements if new_value > old_value else sorter.regressions).append(diff)


def _compare_categories(
    sorter: _Sorter, old: tuple[CategoryMetrics, ...], new: tuple[CategoryMetrics, ...]
) -> None:
    before, after = _keyed(old, "category"), _keyed(new, "category")
    for category in sorted(before.keys() | after.keys()):
        a, b = before.get(category), after.get(category)
        key = f"category.{category}"
        if a is None or b is None:
            sorter.drift.append(
                Difference(
                    key=f"{key}.probes",
                    baseline=None if a is None else a.probes,
                    current=None if b is None else b.probes,
                )
            )
            continue
        sorter.directional(f"{key}.probes", "probes", a.probes, b.probes)
        sorter.counts(key, a.counts, b.counts)


def _compare_probes(
    sorter: _Sorter, old: tuple[ProbeMetrics, ...], new: tuple[ProbeMetrics, ...]
) -> None:
    before = {row.key: row for row in old}
    after = {row.key: row for row in new}
    for name in sorted(before.keys() | after.keys()):
        a, b = before.get(name), after.get(name)
        key = f"probe.{name}"
        if a is None or b is None:
            sorter.drift.append(
                Difference(
                    key=key,
                    baseline=None if a is None else a.category,
                    current=None if b is None else b.category,
                )
            )
            continue
        if a.category != b.category:
            sorter.drift.append(
                Difference(key=f"{key}.category", baseline=a.category, current=b.category)
            )
            continue
        sorter.counts(key, a.counts, b.counts)
        sorter.labels(f"{key}.recalled_label", a.recalled_labels, b.recalled_labels)
        sorter.labels(f"{key}.formed_label", a.formed_labels, b.formed_labels)
        _compare_distance(sorter, key, a.by_distance, b.by_distance)


def _compare_scenarios(
    sorter: _Sorter, old: tuple[ScenarioMetrics, ...], new: tuple[ScenarioMetrics, ...]
) -> None:
    before, after = _keyed(old, "scenario_id"), _keyed(new, "scenario_id")
    for name in sorted(before.keys() | after.keys()):
        a, b = before.get(name), after.get(name)
        key = f"scenario.{name}"
        if a is None or b is None:
            sorter.drift.append(
                Difference(
                    key=key,
                    baseline=None if a is None else name,
                    current=None if b is None else name,
                )
            )
            continue
        sorter.counts(key, a.formation, b.formation)


def compare_to_baseline(baseline: Baseline, run: DeterministicRun) -> BaselineComparison:
    """Sort every difference between ``baseline`` and ``run`` (see the module docstring).

    Of the provenance record only the corpus digest and the policy versions are compared (a
    difference is drift); its commit, dirty flag, package versions and recording instant are
    never compared, and neither is the storage tier the run used.
    """
    sorter = _Sorter([], [], [], [], [])
    for field, old in _comparable(baseline).items():
        new = getattr(run, field)
        if old != new:
            sorter.drift.append(Difference(key=field, baseline=old, current=new))
    a, b = baseline.metrics, run.metrics
    sorter.directional("aggregate.scenarios", "scenarios", a.scenarios, b.scenarios)
    sorter.directional("aggregate.probes", "probes", a.probes, b.probes)
    sorter.counts("aggregate.formation", a.formation, b.formation)
    sorter.counts("aggregate.retrieval", a.retrieval, b.retrieval)
    sorter.directional(
        "aggregate.max_distinct_prefixes_per_probe",
        "max_distinct_prefixes_per_probe",
        a.max_distinct_prefixes_per_probe,
        b.max_distinct_prefixes_per_probe,
    )
    _compare_distance(sorter, "aggregate", a.by_distance, b.by_distance)
    _compare_categories(sorter, a.by_category, b.by_category)
    _compare_scenarios(sorter, baseline.scenarios, run.scenarios)
    _compare_probes(sorter, baseline.probes, run.probes)
    if sorter.drift:
        return BaselineComparison(drift=tuple(sorter.drift))
    return BaselineComparison(
        regressions=tuple(sorter.regressions),
        improvements=tuple(sorter.improvements),
        shifts=tuple(sorter.shifts),
        changes=tuple(sorter.changes),
    )


def write_baseline(baseline: Baseline, path: Path) -> Path:
    """Write ``baseline`` to ``path`` atomically, refusing a path that already exists.

    The text is written to a temporary file beside ``path`` and hard-linked into place (see
    :func:`memory_bench.artifacts.write_new_text`), so the file appears complete or not at all
    and an existing file is never replaced. Re-recording is an explicit delete followed by
    this write.

    Raises:
        BaselineExistsError: ``path`` exists (or appeared while writing).
        BaselineError: the file cannot be written.
    """
    path = Path(path)
    try:
        write_new_text(path, baseline.to_json())
    except ArtifactExistsError as exc:
        raise BaselineExistsError(
            path,
            "a baseline already exists here and is never overwritten; re-recording is an "
            "explicit removal (git rm or rm) followed by a fresh --write-baseline",
        ) from exc
    except ArtifactWriteError as exc:
        raise BaselineError(path, f"cannot write the baseline: {exc}") from exc
    return path


def record_baseline(
    run: DeterministicRun,
    path: Path,
    *,
    source: SourceTree,
    recorded_at: datetime,
    dirty_reason: str | None = None,
) -> Path:
    """Record ``run`` as the baseline at ``path``, refusing a run that breaks a structural zero
    and a dirty checkout the caller gave no reason for.

    Args:
        run: A deterministic run.
        path: Where the baseline is written (never over an existing file).
        source: The checkout the run was built from (:func:`memory_bench.source_tree.
            read_source_tree`, with ``path`` ignored).
        recorded_at: The recording instant (timezone-aware).
        dirty_reason: Why a checkout that is not clean may be recorded all the same; recorded
            in the baseline. Refused for a clean checkout, which needs no excuse.

    Returns:
        ``path``, written.

    Raises:
        BaselineDirtyTreeError: ``source`` is not clean and no reason was given.
        BaselineError: a reason was given for a clean checkout, or the file cannot be written.
        BaselineRefusedError: a structural zero does not hold (nothing is written).
        BaselineExistsError: ``path`` exists (or appeared while writing).
    """
    path = Path(path)
    reason = check_source_tree(path, source, dirty_reason)
    failures = run.metrics.structural_zero_failures()
    if failures:
        raise BaselineRefusedError(path, failures)
    baseline = Baseline.from_run(run, source=source, recorded_at=recorded_at, dirty_reason=reason)
    return write_baseline(baseline, path)


def check_source_tree(path: Path, source: SourceTree, dirty_reason: str | None) -> str | None:
    """The reason to record (stripped), after refusing a dirty tree without one.

    Raises:
        BaselineDirtyTreeError: ``source`` is not clean and ``dirty_reason`` is blank.
        BaselineError: ``dirty_reason`` is given for a clean checkout.
    """
    reason = (dirty_reason or "").strip() or None
    if source.clean and reason is not None:
        raise BaselineError(
            path,
            f"the checkout is clean at {source.commit}; drop --dirty-reason (it would "
            "record an excuse for nothing)",
        )
    if not source.clean and reason is None:
        raise BaselineDirtyTreeError(path, source)
    return reason


def load_baseline(path: Path) -> Baseline:
    """Read and validate a baseline file; a schema 1 file is lifted into schema 2.

    Raises:
        BaselineNotFoundError: the file does not exist.
        BaselineFormatError: it is unreadable, not JSON, or does not fit the schema.
    """
    path = Path(path)
    if not path.is_file():
        raise BaselineNotFoundError(
            path,
            "no baseline file here; record one with `agent eval memory-benchmark "
            "--deterministic-only --write-baseline PATH` or pass --baseline",
        )
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BaselineFormatError(path, f"cannot read the baseline: {exc.strerror}") from exc
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineFormatError(
            path, f"not JSON (line {exc.lineno} column {exc.colno}): {exc.msg}"
        ) from exc
    if not isinstance(document, Mapping):
        raise BaselineFormatError(path, "a baseline is a JSON object")
    try:
        if document.get("schema_version") == 1:
            return BaselineV1.model_validate(document).upgrade()
        return Baseline.model_validate(document)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "<document>"
        raise BaselineFormatError(
            path,
            f"not a memory-benchmark baseline: {where}: {first['msg']} "
            f"({exc.error_count()} error(s)); re-record it rather than editing it by hand",
        ) from exc


__all__ = [
    "ATTRIBUTION",
    "BASELINE_SCHEMA_VERSION",
    "HIGHER_IS_BETTER",
    "LOWER_IS_BETTER",
    "STRUCTURAL",
    "Baseline",
    "BaselineComparison",
    "BaselineDirtyTreeError",
    "BaselineError",
    "BaselineExistsError",
    "BaselineFormatError",
    "BaselineNotFoundError",
    "BaselineRefusedError",
    "BaselineV1",
    "Difference",
    "check_source_tree",
    "compare_to_baseline",
    "load_baseline",
    "record_baseline",
    "write_baseline",
]
