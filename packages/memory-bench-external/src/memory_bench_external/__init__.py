"""memory_bench_external: LongMemEval, LoCoMo and HaluMem, read from the operator's local copy.

The adapters (:func:`load_longmemeval`, :func:`load_locomo`, :func:`load_halumem`) stream the
file at the path the operator names, select ``--sample N --seed S`` instances reproducibly and
map them into dataset-neutral values (:class:`ExternalDataset` of :class:`ExternalInstance`):
sessions of turns marked principal or not, labeled beliefs where the dataset has them, and
probes with categories, gold answers, abstention and evidence references. A file that cannot
be read as the dataset raises :class:`DatasetError` naming the file, record and field; every
error the package raises on purpose is an :class:`ExternalBenchError` (the tree is drawn in
:mod:`memory_bench_external.errors`).

:mod:`memory_bench_external.scoring` holds token F1 (the datasets' published metric) and
evidence-provenance recall@k; :mod:`memory_bench_external.baseline` the BM25 raw-turn baseline.
:func:`run_external` drives an opened dataset (:func:`open_longmemeval`, :func:`open_locomo`,
:func:`open_halumem`, which parse instances on demand) through real formation and retrieval
beside the baseline, and :class:`ExternalMetrics` is the metrics document that leaves the run.
LoCoMo's fixed dev/test partition by ``sample_id`` (:data:`DEV_SAMPLE_IDS`,
:data:`TEST_SAMPLE_IDS`) is chosen with ``open_locomo(..., split="dev")``.
No dataset is ever part of this package or its repository.
"""

from memory_bench.corpus import ProbeCategory
from memory_bench_external._dates import DateFormatError
from memory_bench_external._errors import DatasetError
from memory_bench_external._load import DatasetSource
from memory_bench_external._split import (
    DEV_SAMPLE_IDS,
    TEST_SAMPLE_IDS,
    SplitName,
    SplitSelection,
)
from memory_bench_external._types import (
    DatasetName,
    EvidenceTally,
    ExternalBelief,
    ExternalDataset,
    ExternalEvidence,
    ExternalInstance,
    ExternalProbe,
    ExternalSession,
    ExternalTurn,
    F1Mode,
    PrincipalSpeaker,
    ProbeExclusion,
)
from memory_bench_external.baseline import (
    BaselineProbe,
    BaselineResult,
    RawTurnIndex,
    RetrievedTurn,
    baseline_probes,
    run_raw_turn_baseline,
    summarize_baseline,
)
from memory_bench_external.errors import ExternalBenchError
from memory_bench_external.halumem import load_halumem, open_halumem
from memory_bench_external.locomo import load_locomo, open_locomo
from memory_bench_external.longmemeval import load_longmemeval, open_longmemeval
from memory_bench_external.metrics import ExternalMetrics, caveats_for
from memory_bench_external.run import (
    ExternalRun,
    FormationTally,
    InstanceResult,
    LabelTally,
    MemoryProbe,
    RunProgress,
    run_external,
    run_instance,
)
from memory_bench_external.scoring import (
    DEFAULT_KS,
    F1_CORRECT,
    AnswerScore,
    ProbeProvenance,
    Provenance,
    ProvenanceSummary,
    RecallAtK,
    answer_f1,
    count_words,
    is_correct,
    matching_items,
    normalize_answer,
    probe_f1,
    provenance_hit,
    score_answer,
    score_probe,
    summarize,
    token_f1,
)

__all__ = [
    "DEFAULT_KS",
    "DEV_SAMPLE_IDS",
    "F1_CORRECT",
    "TEST_SAMPLE_IDS",
    "AnswerScore",
    "BaselineProbe",
    "BaselineResult",
    "DatasetError",
    "DatasetName",
    "DatasetSource",
    "DateFormatError",
    "EvidenceTally",
    "ExternalBelief",
    "ExternalBenchError",
    "ExternalDataset",
    "ExternalEvidence",
    "ExternalInstance",
    "ExternalMetrics",
    "ExternalProbe",
    "ExternalRun",
    "ExternalSession",
    "ExternalTurn",
    "F1Mode",
    "FormationTally",
    "InstanceResult",
    "LabelTally",
    "MemoryProbe",
    "PrincipalSpeaker",
    "ProbeCategory",
    "ProbeExclusion",
    "ProbeProvenance",
    "Provenance",
    "ProvenanceSummary",
    "RawTurnIndex",
    "RecallAtK",
    "RetrievedTurn",
    "RunProgress",
    "SplitName",
    "SplitSelection",
    "answer_f1",
    "baseline_probes",
    "caveats_for",
    "count_words",
    "is_correct",
    "load_halumem",
    "load_locomo",
    "load_longmemeval",
    "matching_items",
    "normalize_answer",
    "open_halumem",
    "open_locomo",
    "open_longmemeval",
    "probe_f1",
    "provenance_hit",
    "run_external",
    "run_instance",
    "run_raw_turn_baseline",
    "score_answer",
    "score_probe",
    "summarize",
    "summarize_baseline",
    "token_f1",
]
