"""What every external metrics document says in words: its rules and its caveats.

The rules (how the baseline retrieves, how each arm ranks, how provenance recall@k and
words@k are counted, how labels are matched) and the caveats (common, per dataset, per
sample and LoCoMo split) travel inside the document, beside the numbers they qualify.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_bench_external._split import SplitName, SplitSelection
from memory_bench_external._types import DatasetName
from memory_bench_external.scoring import F1_CORRECT

BASELINE_METHOD = (
    "BM25 (bm25s, Lucene scoring) over the principal's raw turns, one document per turn, "
    "tokenized with the platform tokenizer without stopwords; top max(k) turns per probe"
)
"""How the raw-turn baseline retrieves."""

BASELINE_RANKING = (
    "BM25 score, highest first; equal scores in dataset order; a turn sharing no lexeme with "
    "the question is never returned"
)
"""The order the baseline's returned turns are read in by recall@k and words@k."""

WORDS_RULE = (
    "words_at_k: the whitespace-separated words of the first k returned items (memory: each "
    "belief's statement; baseline: each turn's text with its image caption), summed over the "
    "probes recall_at_k counts, with the mean per probe"
)
"""How words@k is counted, stated in the document."""

PROVENANCE_RULE = (
    "a probe is a hit at k when one of the first k returned items was formed from (memory: "
    "some source_event_id is the event appended for) an evidence turn, or, for evidence known "
    "only at session granularity, from any turn of the evidence session; each arm's items are "
    "read in its ranking_order (memory: in-turn recall first, then the question-blind session "
    "snapshot)"
)
"""The evidence-provenance recall@k rule, stated in the document."""

LABEL_MATCH_RULE = (
    f"a belief matches a labeled memory point when the normalized, Porter-stemmed token F1 of "
    f"the two statements is at least {F1_CORRECT}"
)
"""How end-to-end figures match beliefs to labeled memory points."""

COMMON_CAVEATS: tuple[str, ...] = (
    "deterministic arm: the extractor is the deterministic, regex-based baseline extractor "
    "and the model is a scripted one-turn reply, so these figures measure formation and "
    "retrieval, not answer correctness",
    "published figures for these datasets use a model judge over generated answers; these "
    "figures use none and are not comparable with them",
    "dataset dates are read as UTC and drive a fixed clock; an instant earlier than the clock "
    "is clamped to a zero advance and counted",
    "every probe is asked in a fresh session after the instance's last session was "
    "consolidated and maintenance ran once",
)
"""Caveats every external metrics document carries."""

DATASET_CAVEATS: dict[DatasetName, tuple[str, ...]] = {
    "longmemeval": (
        "single-session-assistant probes are reported separately and score zero by design: "
        "their evidence is an assistant turn and formation never reads assistant turns",
        "abstention (_abs) probes count tokens and returned items but not recall@k",
        "evidence is the has_answer turns of the answer sessions (turn granularity), or the "
        "answer session when it marks none",
    ),
    "locomo": (
        "only the principal speaker's turns are formation sources and indexed by the baseline; "
        "the other speaker's turns are recorded as non-source messages",
        "only questions whose evidence lies in the principal's turns are scored; the others "
        "are counted under exclusions, as are questions with no usable evidence id",
        "adversarial (category 5) questions are abstention probes: they count tokens and "
        "returned items but not recall@k",
    ),
    "halumem": (
        "questions are asked after the user's last session, not after the session the dataset "
        "attaches them to, so an update made in a later session may stand between a question "
        "and its evidence",
        "evidence is matched to memory points by text and is known at session granularity",
        "end-to-end figures match beliefs to memory points by statement token F1, a "
        "deterministic stand-in for the judge the published figures use",
        "Memory Boundary questions are abstention probes: they count tokens and returned items "
        "but not recall@k",
    ),
}
"""Caveats specific to each dataset."""


SPLIT_CAVEATS: dict[SplitName, str] = {
    "dev": "dev split: the conversations designs are tuned on",
    "test": "test split: the operator's figure; never use it to choose between designs",
    "all": "all conversations: dev and test together, so not a held-out figure",
}
"""The caveat each LoCoMo split carries."""


def split_caveats(split: SplitSelection) -> tuple[str, ...]:
    """What a split's figures mean, and what the file lacked or added to the partition."""
    found = [SPLIT_CAVEATS[split.name]]
    if split.missing:
        lists = "dev and test lists" if split.name == "all" else f"{split.name} split"
        found.append(
            f"{split.missing} conversation(s) the {lists} name are absent from the file, so "
            "the figures are not over the whole partition"
        )
    if split.unassigned:
        kept = "run" if split.name == "all" else "left out"
        found.append(
            f"{split.unassigned} conversation(s) of the file are in neither dev nor test ({kept})"
        )
    return tuple(found)


def caveats_for(
    dataset: DatasetName, *, sampled: bool, split: SplitSelection | None = None
) -> Sequence[str]:
    """The caveats a document about ``dataset`` carries (``sampled``: a subset was run;
    ``split``: LoCoMo's split and what it kept)."""
    sample = (
        ("the figures are over a sampled subset of the file's instances (see sample, seed)",)
        if sampled
        else ()
    )
    chosen = split_caveats(split) if split is not None else ()
    return (*COMMON_CAVEATS, *sample, *chosen, *DATASET_CAVEATS[dataset])
