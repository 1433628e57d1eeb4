"""The loading skeleton the three adapters share: index, sample, parse the selected records.

:func:`open_dataset` makes the first pass (hash, syntax check, identifiers) and picks the
sample; the :class:`DatasetSource` it returns parses the selected records on demand, one at a
time, so a run can hold one instance in memory rather than the whole sample.
:meth:`DatasetSource.load` materializes every selected instance at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memory_bench_external._errors import RecordUnit
from memory_bench_external._fields import RecordContext
from memory_bench_external._split import SplitName, SplitSelection, select_split
from memory_bench_external._stream import (
    FileFormat,
    index_file,
    iter_selected,
    select_sample,
)
from memory_bench_external._types import (
    DatasetName,
    ExternalDataset,
    ExternalInstance,
    PrincipalSpeaker,
)
from memory_core.errors import UsageError

RecordParser = Callable[[RecordContext, dict[str, object]], ExternalInstance]
"""Maps one decoded record to an instance, raising ``DatasetError`` through the context."""


@dataclass(frozen=True, kw_only=True)
class DatasetSource:
    """A dataset file, indexed and sampled, whose selected instances are parsed on demand.

    The header fields identify the run exactly as :class:`ExternalDataset` does; ``path`` is
    kept for reading only and is never part of a metrics document.

    Attributes:
        dataset: Which dataset.
        license: The dataset's license (SPDX-style).
        sha256: Hex sha256 of the file's bytes (first pass).
        population: Instances in the file.
        sample: The requested sample size, or ``None`` for every instance.
        seed: The sampling seed.
        principal_speaker: LoCoMo's chosen principal speaker; ``None`` elsewhere.
        split: LoCoMo's dev/test split and what it kept; ``None`` elsewhere.
        path: The operator's file.
        file_format: JSON list or JSON Lines.
        selected: Selected record position -> the record's stable identifier.
        parse: Maps one selected record to an instance.
    """

    dataset: DatasetName
    license: str
    sha256: str
    population: int
    sample: int | None
    seed: int
    principal_speaker: PrincipalSpeaker | None = None
    split: SplitSelection | None = None
    path: Path
    file_format: FileFormat
    selected: dict[int, str]
    parse: RecordParser

    def iter_instances(self) -> Iterator[ExternalInstance]:
        """Parse and yield the selected instances one at a time, in file order.

        Raises:
            DatasetError: A selected record is unreadable as the dataset.
        """
        unit: RecordUnit = "record" if self.file_format == "json_list" else "line"
        positions = frozenset(self.selected)
        for position, record in iter_selected(
            self.path, file_format=self.file_format, positions=positions
        ):
            context = RecordContext(
                path=self.path, position=position, unit=unit, record_id=self.selected[position]
            )
            yield self.parse(context, record)

    def load(self) -> ExternalDataset:
        """Parse every selected instance into one :class:`ExternalDataset` (sorted by id).

        Raises:
            DatasetError: A selected record is unreadable as the dataset.
        """
        instances = sorted(self.iter_instances(), key=lambda instance: instance.instance_id)
        return ExternalDataset(
            dataset=self.dataset,
            license=self.license,
            sha256=self.sha256,
            population=self.population,
            sample=self.sample,
            seed=self.seed,
            principal_speaker=self.principal_speaker,
            instances=tuple(instances),
        )


def open_dataset(
    path: Path | str,
    *,
    dataset: DatasetName,
    license: str,
    file_format: FileFormat,
    id_key: str,
    sample: int | None,
    seed: int,
    parse: RecordParser,
    principal_speaker: PrincipalSpeaker | None = None,
    split: SplitName | None = None,
) -> DatasetSource:
    """Make the first pass over ``path`` and select the sample; parse nothing yet.

    With ``split`` (LoCoMo) the sample is drawn from that split's instances only
    (:mod:`memory_bench_external._split`).

    Raises:
        DatasetError: The file is unreadable as the dataset (syntax, shape, identifiers).
        UsageError: The sample size is impossible, or the split selects no instance.
    """
    if sample is not None and sample < 1:
        raise UsageError(f"--sample must be at least 1, got {sample}")
    file_path = Path(path)
    index = index_file(file_path, file_format=file_format, id_key=id_key)
    pool: tuple[str, ...] = tuple(index.positions.values())
    selection: SplitSelection | None = None
    if split is not None:
        pool, selection = select_split(pool, split, path=file_path)
    within = "in the file" if selection is None else f"of --split {selection.name} in the file"
    chosen = frozenset(select_sample(pool, sample=sample, seed=seed, within=within))
    return DatasetSource(
        dataset=dataset,
        license=license,
        sha256=index.sha256,
        population=len(index.positions),
        sample=sample,
        seed=seed,
        principal_speaker=principal_speaker,
        split=selection,
        path=file_path,
        file_format=file_format,
        selected={pos: ident for pos, ident in index.positions.items() if ident in chosen},
        parse=parse,
    )
