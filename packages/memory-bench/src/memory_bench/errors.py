"""The typed errors memory-bench raises, under one base.

Hierarchy (each class is defined beside the code that raises it, in the module named; every
one is exported from ``memory_bench``)::

    MemoryCoreError (memory_core.errors)
    └── BenchError                      base of every error memory-bench raises on purpose
        ├── ArtifactExistsError         (artifacts) the target path exists; never overwritten
        ├── ArtifactWriteError          (artifacts) the target cannot be written (path, reason)
        ├── BaselineError               (baseline) a baseline file cannot be used
        │   ├── BaselineExistsError     refused to write over an existing baseline
        │   ├── BaselineNotFoundError   the baseline file does not exist
        │   ├── BaselineFormatError     unreadable, not JSON, or not the baseline schema
        │   ├── BaselineRefusedError    the run breaks a structural zero; not recorded
        │   └── BaselineDirtyTreeError  the checkout differs from its commit
        ├── CorpusError                 (corpus) a corpus file or document cannot be used
        │   ├── CorpusFormatError       unreadable, not JSON, or not the corpus schema
        │   └── CorpusRuleError         parses, but breaks a category, scenario or corpus rule
        ├── FormationCaseFileError      (formation_eval) the case file is missing or invalid
        ├── ReportInputError            (html_report) a saved result cannot be rendered
        ├── EvidenceError               (live.evidence) an evidence file is missing, malformed
        │                               or fails its own validation
        ├── RunCostAboveCeilingError    (live.ceiling) one run could cost more than the per-run
        │                               reserve of the invocation ceiling
        ├── PricingUnavailableError     (live.ceiling) a run's cost is unknown or zero, so the
        │                               ceiling cannot be enforced
        └── LocalModelError             (local_model) the local-model lane failed
            ├── BuildError              downloading or building llama-server failed
            ├── ChecksumMismatchError   a part or the assembled GGUF has the wrong sha256
            └── ServerStartError        llama-server exited or never reported healthy

Every class above except ``PricingUnavailableError`` and the local-model lane's is also a
:class:`memory_core.errors.UsageError` (the caller's input is at fault; the CLI exits 2).
"""

from __future__ import annotations

from memory_core.errors import MemoryCoreError


class BenchError(MemoryCoreError):
    """Base class of the errors memory-bench raises deliberately."""


__all__ = ["BenchError"]
