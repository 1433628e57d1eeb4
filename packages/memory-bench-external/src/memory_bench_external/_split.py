"""LoCoMo's fixed development/test partition, by ``sample_id``.

Designs are tuned on **dev** only; **test** is for the operator's figure and never chooses
between designs. The partition is fixed by identifier, not drawn, so it does not depend on the
file's record order, the sample or the seed::

    dev  = conv-26, conv-30, conv-41, conv-42, conv-43
    test = conv-44, conv-47, conv-48, conv-49, conv-50

``--split all`` (the default) runs every conversation of the file. A ``sample_id`` in neither
list (an edited or extended copy of the file) belongs to no named split: ``dev`` and ``test``
leave it out, ``all`` runs it, and either way it is counted as ``unassigned``; a listed
identifier the file lacks is counted as ``missing``. A named split that selects nothing is
refused. ``--sample N --seed S`` then draws from the split's conversations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from memory_core.errors import UsageError

SplitName = Literal["dev", "test", "all"]
"""A split of the LoCoMo partition, or every conversation of the file."""

SPLIT_NAMES: Final[tuple[SplitName, ...]] = ("dev", "test", "all")
"""The accepted split names."""

DEV_SAMPLE_IDS: Final = frozenset({"conv-26", "conv-30", "conv-41", "conv-42", "conv-43"})
"""The development split: the only conversations a design may be tuned on."""

TEST_SAMPLE_IDS: Final = frozenset({"conv-44", "conv-47", "conv-48", "conv-49", "conv-50"})
"""The test split: reported to the operator, never used to choose between designs."""

_LISTED: Final = {"dev": DEV_SAMPLE_IDS, "test": TEST_SAMPLE_IDS}


@dataclass(frozen=True, kw_only=True)
class SplitSelection:
    """Which of a file's conversations a split kept, as counts (no identifier).

    Attributes:
        name: The split asked for.
        in_split: The file's conversations in the split (what ``--sample`` draws from).
        other_split: The file's conversations of the other named split, left out.
        unassigned: The file's conversations in neither list (run only by ``all``).
        missing: Identifiers the split lists that the file lacks (both lists for ``all``).
    """

    name: SplitName
    in_split: int
    other_split: int
    unassigned: int
    missing: int


def select_split(
    ids: Sequence[str], split: str, *, path: Path
) -> tuple[tuple[str, ...], SplitSelection]:
    """The identifiers of ``ids`` in ``split``, and what the choice kept and left out.

    Raises:
        UsageError: ``split`` is not ``dev``, ``test`` or ``all``, or a named split selects no
            conversation of the file at ``path``.
    """
    if split not in SPLIT_NAMES:
        raise UsageError(f"--split must be one of {', '.join(SPLIT_NAMES)}; got {split!r}")
    present = frozenset(ids)
    listed = DEV_SAMPLE_IDS | TEST_SAMPLE_IDS
    unassigned = sum(1 for ident in ids if ident not in listed)
    if split == "all":
        return tuple(ids), SplitSelection(
            name="all",
            in_split=len(ids),
            other_split=0,
            unassigned=unassigned,
            missing=len(listed - present),
        )
    wanted = _LISTED[split]
    other = _LISTED["test" if split == "dev" else "dev"]
    kept = tuple(ident for ident in ids if ident in wanted)
    if not kept:
        raise UsageError(
            f"--split {split} selects no conversation of {path}: the split is the sample_ids "
            f"{', '.join(sorted(wanted))} and the file has none of them; pass the published "
            "locomo10.json, or --split all to run every conversation of this file"
        )
    return kept, SplitSelection(
        name=split,
        in_split=len(kept),
        other_split=sum(1 for ident in ids if ident in other),
        unassigned=unassigned,
        missing=len(wanted - present),
    )
