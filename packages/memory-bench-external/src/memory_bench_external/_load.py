"""The loading skeleton the three adapters share: index, sample, parse the selected records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memory_bench_external._errors import RecordUnit
from memory_bench_external._fields import RecordContext
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


def load_dataset(
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
) -> ExternalDataset:
    """Read ``path`` in two passes and map the sampled records with ``parse``.

    Raises:
        DatasetError: The file is unreadable as the dataset.
        UsageError: The sample size is impossible.
    """
    if sample is not None and sample < 1:
        raise UsageError(f"--sample must be at least 1, got {sample}")
    file_path = Path(path)
    index = index_file(file_path, file_format=file_format, id_key=id_key)
    chosen = frozenset(select_sample(list(index.positions.values()), sample=sample, seed=seed))
    positions = frozenset(pos for pos, ident in index.positions.items() if ident in chosen)
    unit: RecordUnit = "record" if file_format == "json_list" else "line"
    instances: list[ExternalInstance] = []
    for position, record in iter_selected(file_path, file_format=file_format, positions=positions):
        context = RecordContext(
            path=file_path, position=position, unit=unit, record_id=index.positions[position]
        )
        instances.append(parse(context, record))
    instances.sort(key=lambda instance: instance.instance_id)
    return ExternalDataset(
        dataset=dataset,
        license=license,
        sha256=index.sha256,
        population=len(index.positions),
        sample=sample,
        seed=seed,
        principal_speaker=principal_speaker,
        instances=tuple(instances),
    )
