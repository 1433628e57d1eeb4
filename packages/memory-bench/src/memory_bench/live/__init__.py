"""The live arm: a real model, with vs without memory, under a hard cost ceiling.

Only :class:`MemoryBenchmarkEvidence` that passed every publication condition can exist; see
:mod:`memory_bench.live.evidence`.
"""

from memory_bench.live.answers import AnswerScore, score_answer
from memory_bench.live.arm import LiveBenchmarkResult, run_live_benchmark
from memory_bench.live.ceiling import CostCeiling, PricingUnavailableError
from memory_bench.live.evidence import MemoryBenchmarkEvidence, load_evidence, write_evidence

__all__ = [
    "AnswerScore",
    "CostCeiling",
    "LiveBenchmarkResult",
    "MemoryBenchmarkEvidence",
    "PricingUnavailableError",
    "load_evidence",
    "run_live_benchmark",
    "score_answer",
    "write_evidence",
]
