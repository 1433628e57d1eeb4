"""The named rules a corpus is checked against.

Three families are applied by the loader to every corpus (``category.*``, ``scenario.*`` and
``corpus.*``); the coverage subset of the corpus family can be switched off for a small corpus
(a single inline scenario, an external-dataset sample). The ``authoring.*`` family is the
checked-in corpus's own build brief (at least sixteen scenarios, at most 160 probes, spans,
two-scope transfer) and is checked by the corpus shape gate, never by the loader, so
``--corpus`` accepts any corpus in the same schema.
"""

from __future__ import annotations

from enum import StrEnum


class CorpusRule(StrEnum):
    """Every rule a violation can name; the value is the identifier errors print."""

    # One rule per probe category.
    CATEGORY_SINGLE_HOP = "category.single_hop"
    CATEGORY_MULTI_HOP = "category.multi_hop"
    CATEGORY_TEMPORAL = "category.temporal"
    CATEGORY_UPDATE = "category.update"
    CATEGORY_CORRECTION = "category.correction"
    CATEGORY_PREFERENCE = "category.preference"
    CATEGORY_TRANSFER = "category.transfer"
    CATEGORY_ABSTENTION = "category.abstention"
    # Scenario validators: identifiers are unique, a probe lists each needed label and each
    # forbidden statement once, and every reference resolves.
    SCENARIO_UNIQUE_SESSION_IDS = "scenario.unique_session_ids"
    SCENARIO_UNIQUE_LABELS = "scenario.unique_labels"
    SCENARIO_UNIQUE_PROBE_IDS = "scenario.unique_probe_ids"
    SCENARIO_UNIQUE_NEEDED = "scenario.unique_needed"
    SCENARIO_UNIQUE_FORBIDDEN = "scenario.unique_forbidden_statements"
    SCENARIO_BELIEF_SESSION_RESOLVES = "scenario.belief_session_resolves"
    SCENARIO_SUPERSEDES_RESOLVES = "scenario.supersedes_resolves"
    SCENARIO_NEEDED_RESOLVES = "scenario.needed_resolves"
    SCENARIO_SUPERSEDES_LATER_SESSION = "scenario.supersedes_later_session"
    SCENARIO_EVIDENCE_RESOLVES = "scenario.evidence_resolves"
    # Corpus validators.
    CORPUS_UNIQUE_SCENARIO_IDS = "corpus.unique_scenario_ids"
    CORPUS_ABSTAIN_PHRASE = "corpus.abstain_phrase"
    CORPUS_MIN_SCENARIOS = "corpus.min_scenarios"
    CORPUS_PROBES_PER_CATEGORY = "corpus.probes_per_category"
    CORPUS_PROTECTED_ABSTENTION = "corpus.protected_abstention_scenarios"
    # Authoring rules of the checked-in corpus (never applied by the loader).
    AUTHORING_SCENARIO_COUNT = "authoring.scenario_count"
    AUTHORING_PROBES_PER_SCENARIO = "authoring.probes_per_scenario"
    AUTHORING_PROBE_CAP = "authoring.probe_cap"
    AUTHORING_DISTINCT_START_AT = "authoring.distinct_start_at"
    AUTHORING_TWO_SCOPE_TRANSFER = "authoring.two_scope_transfer"
    AUTHORING_LONG_SPAN = "authoring.long_span"
    AUTHORING_VERY_LONG_SPAN = "authoring.very_long_span"
    AUTHORING_PROTECTED_IN_TURNS = "authoring.protected_in_turns"

    @property
    def family(self) -> str:
        """``category``, ``scenario``, ``corpus`` or ``authoring``."""
        return self.value.split(".", 1)[0]


COVERAGE_RULES: frozenset[CorpusRule] = frozenset(
    {
        CorpusRule.CORPUS_MIN_SCENARIOS,
        CorpusRule.CORPUS_PROBES_PER_CATEGORY,
        CorpusRule.CORPUS_PROTECTED_ABSTENTION,
    }
)
"""Corpus rules about how much the corpus covers; ``coverage=False`` skips exactly these."""

LOADER_RULES: tuple[CorpusRule, ...] = tuple(
    rule for rule in CorpusRule if rule.family != "authoring"
)
"""The rules the loader applies (with coverage on), in declaration order."""

AUTHORING_RULES: tuple[CorpusRule, ...] = tuple(
    rule for rule in CorpusRule if rule.family == "authoring"
)
"""The checked-in corpus's authoring rules, in declaration order."""
