"""memory-bench: the yardstick for memory-core.

A checked-in multi-session corpus driven through real formation and retrieval under a fixed
clock (:func:`run_deterministic_benchmark`), integer metrics compared exactly to a checked-in
baseline (:func:`compare_to_baseline`), the live arm with its cost ceiling and self-validating
evidence (:func:`run_live_benchmark`), and the formation evaluation
(:func:`evaluate_formation`). Every one of them, and the external adapters, runs in a
composition built by the one evaluation harness (:func:`build_eval_composition`, through
``memory_core.bootstrap.build``). The ``agent eval`` commands are thin wrappers over these.

Every error it raises on purpose is a :class:`BenchError`; the tree is drawn in
:mod:`memory_bench.errors`.
"""

from memory_bench.artifacts import ArtifactExistsError, ArtifactWriteError
from memory_bench.baseline import (
    Baseline,
    BaselineComparison,
    BaselineDirtyTreeError,
    BaselineError,
    BaselineExistsError,
    BaselineFormatError,
    BaselineNotFoundError,
    BaselineRefusedError,
    compare_to_baseline,
    load_baseline,
    record_baseline,
)
from memory_bench.corpus import (
    CorpusError,
    CorpusFormatError,
    CorpusRuleError,
    MemoryBenchmarkCorpus,
    load_corpus,
)
from memory_bench.driver import run_deterministic_benchmark
from memory_bench.errors import BenchError
from memory_bench.formation_eval import ExpectedBelief, FormationCaseFileError, evaluate_formation
from memory_bench.gates import GATES, Gate
from memory_bench.harness import build_eval_composition
from memory_bench.html_report import ReportInputError
from memory_bench.live import MemoryBenchmarkEvidence, run_live_benchmark
from memory_bench.live.ceiling import PricingUnavailableError, RunCostAboveCeilingError
from memory_bench.live.evidence import EvidenceError
from memory_bench.local_model import (
    BuildError,
    ChecksumMismatchError,
    LocalModelError,
    ServerStartError,
)
from memory_bench.metrics import DeterministicRun

__all__ = [
    "GATES",
    "ArtifactExistsError",
    "ArtifactWriteError",
    "Baseline",
    "BaselineComparison",
    "BaselineDirtyTreeError",
    "BaselineError",
    "BaselineExistsError",
    "BaselineFormatError",
    "BaselineNotFoundError",
    "BaselineRefusedError",
    "BenchError",
    "BuildError",
    "ChecksumMismatchError",
    "CorpusError",
    "CorpusFormatError",
    "CorpusRuleError",
    "DeterministicRun",
    "EvidenceError",
    "ExpectedBelief",
    "FormationCaseFileError",
    "Gate",
    "LocalModelError",
    "MemoryBenchmarkCorpus",
    "MemoryBenchmarkEvidence",
    "PricingUnavailableError",
    "ReportInputError",
    "RunCostAboveCeilingError",
    "ServerStartError",
    "build_eval_composition",
    "compare_to_baseline",
    "evaluate_formation",
    "load_baseline",
    "load_corpus",
    "record_baseline",
    "run_deterministic_benchmark",
    "run_live_benchmark",
]
