"""The benchmark corpus: schema, loader, rules and timeline helpers.

``load_corpus(path)`` returns the parsed :class:`MemoryBenchmarkCorpus` and the sha256 of the
file's bytes, after refusing any corpus that breaks a category, scenario or corpus rule with a
:class:`CorpusError` naming the file, scenario, probe and rule. The timeline helpers lay a
scenario on the fixed clock the way the deterministic driver advances it.
"""

from memory_bench.corpus._errors import (
    CorpusError,
    CorpusFormatError,
    CorpusRuleError,
    CorpusViolation,
)
from memory_bench.corpus._loader import (
    CORPUS_V1_RELATIVE_PATH,
    corpus_digest,
    load_corpus,
    parse_corpus,
)
from memory_bench.corpus._models import (
    PROBE_CATEGORIES,
    AnswerKind,
    BenchmarkProbe,
    BenchmarkScenario,
    BenchmarkSession,
    BenchmarkTurn,
    EvidenceRef,
    LabeledBelief,
    MemoryBenchmarkCorpus,
    ProbeAnswer,
    ProbeCategory,
)
from memory_bench.corpus._rules import (
    CORPUS_V1_TARGETS,
    MIN_PROBES_PER_CATEGORY,
    MIN_PROTECTED_ABSTENTION_SCENARIOS,
    MIN_SCENARIOS,
    TEMPORAL_MIN_SECONDS,
    AuthoringTargets,
    authoring_violations,
    category_rule,
    corpus_violations,
    is_protected_abstention_scenario,
    is_two_scope_transfer_scenario,
    scenario_violations,
    validate_corpus,
)
from memory_bench.corpus._rules_catalog import (
    AUTHORING_RULES,
    COVERAGE_RULES,
    LOADER_RULES,
    CorpusRule,
)
from memory_bench.corpus._timeline import (
    SECONDS_PER_DAY,
    ScenarioTimeline,
    SessionWindow,
    beliefs_by_label,
    cumulative_advance_seconds,
    current_labels,
    label_session_distance,
    scenario_span_seconds,
    scenario_timeline,
    superseded_labels,
)

__all__ = [
    "AUTHORING_RULES",
    "CORPUS_V1_RELATIVE_PATH",
    "CORPUS_V1_TARGETS",
    "COVERAGE_RULES",
    "LOADER_RULES",
    "MIN_PROBES_PER_CATEGORY",
    "MIN_PROTECTED_ABSTENTION_SCENARIOS",
    "MIN_SCENARIOS",
    "PROBE_CATEGORIES",
    "SECONDS_PER_DAY",
    "TEMPORAL_MIN_SECONDS",
    "AnswerKind",
    "AuthoringTargets",
    "BenchmarkProbe",
    "BenchmarkScenario",
    "BenchmarkSession",
    "BenchmarkTurn",
    "CorpusError",
    "CorpusFormatError",
    "CorpusRule",
    "CorpusRuleError",
    "CorpusViolation",
    "EvidenceRef",
    "LabeledBelief",
    "MemoryBenchmarkCorpus",
    "ProbeAnswer",
    "ProbeCategory",
    "ScenarioTimeline",
    "SessionWindow",
    "authoring_violations",
    "beliefs_by_label",
    "category_rule",
    "corpus_digest",
    "corpus_violations",
    "cumulative_advance_seconds",
    "current_labels",
    "is_protected_abstention_scenario",
    "is_two_scope_transfer_scenario",
    "label_session_distance",
    "load_corpus",
    "parse_corpus",
    "scenario_span_seconds",
    "scenario_timeline",
    "scenario_violations",
    "superseded_labels",
    "validate_corpus",
]
