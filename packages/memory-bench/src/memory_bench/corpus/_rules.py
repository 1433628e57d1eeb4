"""The category rules, scenario validators, corpus validators and authoring rules.

Every check is a pure function from models to :class:`CorpusViolation` values, listed in
scenario order, then probe order, then rule order, so the error a loader raises is the same on
every run. :func:`validate_corpus` raises :class:`CorpusRuleError` naming every violation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import assert_never

from memory_bench.corpus._errors import CorpusRuleError, CorpusViolation
from memory_bench.corpus._models import (
    PROBE_CATEGORIES,
    BenchmarkProbe,
    BenchmarkScenario,
    LabeledBelief,
    MemoryBenchmarkCorpus,
    ProbeCategory,
)
from memory_bench.corpus._rules_catalog import COVERAGE_RULES, CorpusRule
from memory_bench.corpus._timeline import (
    SECONDS_PER_DAY,
    ScenarioTimeline,
    beliefs_by_label,
    scenario_timeline,
)
from memory_core.text import label_key

MIN_SCENARIOS = 12
"""Corpus validator: at least this many scenarios."""
MIN_PROBES_PER_CATEGORY = 3
"""Corpus validator: at least this many probes in every category."""
MIN_PROTECTED_ABSTENTION_SCENARIOS = 4
"""Corpus validator: scenarios with protected statements and an abstention probe forbidding one."""
TEMPORAL_MIN_SECONDS = 30 * SECONDS_PER_DAY
"""Temporal rule: a needed belief is at least this old when the probe is asked."""

_CATEGORY_RULES: dict[ProbeCategory, CorpusRule] = {
    "single_hop": CorpusRule.CATEGORY_SINGLE_HOP,
    "multi_hop": CorpusRule.CATEGORY_MULTI_HOP,
    "temporal": CorpusRule.CATEGORY_TEMPORAL,
    "update": CorpusRule.CATEGORY_UPDATE,
    "correction": CorpusRule.CATEGORY_CORRECTION,
    "preference": CorpusRule.CATEGORY_PREFERENCE,
    "transfer": CorpusRule.CATEGORY_TRANSFER,
    "abstention": CorpusRule.CATEGORY_ABSTENTION,
}


def category_rule(category: ProbeCategory) -> CorpusRule:
    """Return the rule that checks probes of ``category``."""
    return _CATEGORY_RULES[category]


def is_protected_abstention_scenario(scenario: BenchmarkScenario) -> bool:
    """True when the scenario has protected statements and an abstention probe whose forbidden
    statements include one of them (compared normalized)."""
    protected = {label_key(text) for text in scenario.protected_statements}
    if not protected:
        return False
    return any(
        probe.category == "abstention"
        and protected.intersection(label_key(text) for text in probe.forbidden_statements)
        for probe in scenario.probes
    )


def scenario_violations(scenario: BenchmarkScenario) -> tuple[CorpusViolation, ...]:
    """Check one scenario's identifiers, references and every probe's category rule."""
    found: list[CorpusViolation] = []

    def add(rule: CorpusRule, detail: str, probe_id: str | None = None) -> None:
        found.append(
            CorpusViolation(rule=rule, scenario_id=scenario.id, probe_id=probe_id, detail=detail)
        )

    for kind, rule, ids in (
        ("session id", CorpusRule.SCENARIO_UNIQUE_SESSION_IDS, [s.id for s in scenario.sessions]),
        ("belief label", CorpusRule.SCENARIO_UNIQUE_LABELS, [b.label for b in scenario.beliefs]),
        ("probe id", CorpusRule.SCENARIO_UNIQUE_PROBE_IDS, [p.id for p in scenario.probes]),
    ):
        for duplicate in _duplicates(ids):
            add(rule, f"{kind} {duplicate!r} is used more than once; give each its own")

    session_index: dict[str, int] = {}
    for index, session in enumerate(scenario.sessions):
        session_index.setdefault(session.id, index)
    labels = beliefs_by_label(scenario)

    for belief in scenario.beliefs:
        if belief.session not in session_index:
            add(
                CorpusRule.SCENARIO_BELIEF_SESSION_RESOLVES,
                f"belief {belief.label!r} names session {belief.session!r}, which the scenario "
                f"does not have; name one of {sorted(session_index)}",
            )
        if belief.supersedes is None:
            continue
        target = labels.get(belief.supersedes)
        if target is None:
            add(
                CorpusRule.SCENARIO_SUPERSEDES_RESOLVES,
                f"belief {belief.label!r} supersedes {belief.supersedes!r}, which no belief "
                "in the scenario is labeled",
            )
            continue
        own = session_index.get(belief.session)
        theirs = session_index.get(target.session)
        if own is not None and theirs is not None and own <= theirs:
            add(
                CorpusRule.SCENARIO_SUPERSEDES_LATER_SESSION,
                f"belief {belief.label!r} (session {belief.session}) supersedes "
                f"{target.label!r} (session {target.session}); a superseding belief must be "
                "stated in a strictly later session",
            )

    timeline = scenario_timeline(scenario)
    turn_counts = {session.id: len(session.turns) for session in scenario.sessions}
    for probe in scenario.probes:
        # Each needed label and each forbidden statement counts once in a probe's arithmetic
        # (needed_total, needed_recalled, forbidden renders), so a repeat would double it.
        for duplicate in _duplicates(probe.needed):
            add(
                CorpusRule.SCENARIO_UNIQUE_NEEDED,
                f"needed label {duplicate!r} is listed more than once; list each label once",
                probe.id,
            )
        for duplicate in _duplicates(label_key(text) for text in probe.forbidden_statements):
            add(
                CorpusRule.SCENARIO_UNIQUE_FORBIDDEN,
                f"forbidden statement {duplicate!r} is listed more than once (compared "
                "normalized); list each statement once",
                probe.id,
            )
        for label in probe.needed:
            if label not in labels:
                add(
                    CorpusRule.SCENARIO_NEEDED_RESOLVES,
                    f"needed label {label!r} names no belief in the scenario",
                    probe.id,
                )
        for ref in probe.evidence:
            if ref.session not in turn_counts:
                add(
                    CorpusRule.SCENARIO_EVIDENCE_RESOLVES,
                    f"evidence names session {ref.session!r}, which the scenario does not have",
                    probe.id,
                )
            elif ref.turn is not None and ref.turn >= turn_counts[ref.session]:
                add(
                    CorpusRule.SCENARIO_EVIDENCE_RESOLVES,
                    f"evidence names turn {ref.turn} of session {ref.session}, which has "
                    f"{turn_counts[ref.session]} turns (turn indexes start at 0)",
                    probe.id,
                )
        detail = _category_problem(probe, labels, session_index, scenario, timeline)
        if detail is not None:
            add(category_rule(probe.category), detail, probe.id)
    return tuple(found)


def corpus_violations(
    corpus: MemoryBenchmarkCorpus, *, coverage: bool = True
) -> tuple[CorpusViolation, ...]:
    """Check a whole corpus: every scenario, then the corpus validators.

    Args:
        corpus: The parsed corpus.
        coverage: Apply the coverage rules (twelve scenarios, three probes per category, four
            protected-abstention scenarios). Switch off only for a deliberately small corpus.
    """
    found: list[CorpusViolation] = []
    for scenario in corpus.scenarios:
        found.extend(scenario_violations(scenario))

    def add(rule: CorpusRule, detail: str) -> None:
        if coverage or rule not in COVERAGE_RULES:
            found.append(CorpusViolation(rule=rule, scenario_id=None, probe_id=None, detail=detail))

    for duplicate in _duplicates(scenario.id for scenario in corpus.scenarios):
        add(
            CorpusRule.CORPUS_UNIQUE_SCENARIO_IDS,
            f"scenario id {duplicate!r} is used more than once; give each scenario its own",
        )
    if not label_key(corpus.abstain_phrase):
        add(
            CorpusRule.CORPUS_ABSTAIN_PHRASE,
            "abstain_phrase is empty once normalized; give the exact reply that means "
            "'I do not know'",
        )
    if len(corpus.scenarios) < MIN_SCENARIOS:
        add(
            CorpusRule.CORPUS_MIN_SCENARIOS,
            f"the corpus has {len(corpus.scenarios)} scenarios; it needs at least {MIN_SCENARIOS}",
        )
    per_category = Counter(probe.category for s in corpus.scenarios for probe in s.probes)
    for category in PROBE_CATEGORIES:
        if per_category[category] < MIN_PROBES_PER_CATEGORY:
            add(
                CorpusRule.CORPUS_PROBES_PER_CATEGORY,
                f"category {category} has {per_category[category]} probes; every "
                f"category needs at least {MIN_PROBES_PER_CATEGORY}",
            )
    protected = sum(1 for s in corpus.scenarios if is_protected_abstention_scenario(s))
    if protected < MIN_PROTECTED_ABSTENTION_SCENARIOS:
        add(
            CorpusRule.CORPUS_PROTECTED_ABSTENTION,
            f"{protected} scenarios carry protected_statements with an abstention probe whose "
            f"forbidden_statements include one; at least {MIN_PROTECTED_ABSTENTION_SCENARIOS} "
            "must",
        )
    return tuple(found)


def validate_corpus(
    corpus: MemoryBenchmarkCorpus, *, source: str = "<corpus>", coverage: bool = True
) -> None:
    """Refuse a corpus that breaks any category, scenario or corpus rule.

    Args:
        corpus: The parsed corpus.
        source: The file (or label) to name in the error.
        coverage: Apply the coverage rules; see :func:`corpus_violations`.

    Raises:
        CorpusRuleError: Naming every violation: its scenario, probe and rule.
    """
    violations = corpus_violations(corpus, coverage=coverage)
    if violations:
        raise CorpusRuleError(source, violations)


@dataclass(frozen=True, kw_only=True)
class AuthoringTargets:
    """The checked-in corpus's build brief, as numbers.

    Attributes:
        scenarios: At least this many scenarios (sixteen was corpus v1's first cut; the corpus
            grows past it under the raised probe cap).
        min_probes_per_scenario: Every scenario has at least this many probes.
        max_probes_per_scenario: And at most this many.
        probe_cap: The corpus has at most this many probes in all. Spec open question 2 names
            this cap as the thing to raise once the deterministic arm proves fast enough; it was
            eighty, and it is 160 because the arm's wall time grows far more slowly than the
            corpus (a tenfold corpus costs about 2.75 times the wall time).
        two_scope_transfer_scenarios: At least this many scenarios use two project scopes and
            carry both a positive and a negative transfer probe.
        long_span_days: A long scenario spans at least this many days.
        long_span_scenarios: At least this many scenarios are long.
        very_long_span_days: A very long scenario spans more than this many days.
        very_long_span_scenarios: At least this many scenarios are very long.
    """

    scenarios: int = 16
    min_probes_per_scenario: int = 3
    max_probes_per_scenario: int = 5
    probe_cap: int = 160
    two_scope_transfer_scenarios: int = 4
    long_span_days: int = 45
    long_span_scenarios: int = 4
    very_long_span_days: int = 90
    very_long_span_scenarios: int = 1


CORPUS_V1_TARGETS = AuthoringTargets()
"""The authoring targets of ``memory-benchmark.v1.json``."""


def is_two_scope_transfer_scenario(scenario: BenchmarkScenario) -> bool:
    """True when the sessions use at least two project scopes and the probes include a positive
    transfer (needed labels) and a negative one (abstain)."""
    scopes = {s.project_scope for s in scenario.sessions if s.project_scope is not None}
    transfers = [p for p in scenario.probes if p.category == "transfer"]
    positive = any(p.needed for p in transfers)
    negative = any(not p.needed and p.answer.kind == "abstain" for p in transfers)
    return len(scopes) >= 2 and positive and negative


def authoring_violations(
    corpus: MemoryBenchmarkCorpus, targets: AuthoringTargets = CORPUS_V1_TARGETS
) -> tuple[CorpusViolation, ...]:
    """Check the checked-in corpus's authoring rules (never applied by the loader)."""
    found: list[CorpusViolation] = []

    def add(rule: CorpusRule, detail: str, scenario_id: str | None = None) -> None:
        found.append(
            CorpusViolation(rule=rule, scenario_id=scenario_id, probe_id=None, detail=detail)
        )

    seen_start: dict[object, str] = {}
    for scenario in corpus.scenarios:
        count = len(scenario.probes)
        if not targets.min_probes_per_scenario <= count <= targets.max_probes_per_scenario:
            add(
                CorpusRule.AUTHORING_PROBES_PER_SCENARIO,
                f"{count} probes; a scenario carries {targets.min_probes_per_scenario} to "
                f"{targets.max_probes_per_scenario}",
                scenario.id,
            )
        earlier = seen_start.setdefault(scenario.start_at, scenario.id)
        if earlier != scenario.id:
            add(
                CorpusRule.AUTHORING_DISTINCT_START_AT,
                f"start_at {scenario.start_at.isoformat()} is also {earlier}'s; give every "
                "scenario its own",
                scenario.id,
            )
        turn_text = "\n".join(t.text for s in scenario.sessions for t in s.turns).casefold()
        for fragment in scenario.protected_statements:
            if fragment.casefold() not in turn_text:
                add(
                    CorpusRule.AUTHORING_PROTECTED_IN_TURNS,
                    f"protected statement {fragment!r} appears in no turn, so nothing tests "
                    "that it never forms",
                    scenario.id,
                )
    if len(corpus.scenarios) < targets.scenarios:
        add(
            CorpusRule.AUTHORING_SCENARIO_COUNT,
            f"{len(corpus.scenarios)} scenarios; the corpus is built with at least "
            f"{targets.scenarios}",
        )
    total = sum(len(s.probes) for s in corpus.scenarios)
    if total > targets.probe_cap:
        add(CorpusRule.AUTHORING_PROBE_CAP, f"{total} probes; the cap is {targets.probe_cap}")
    two_scope = sum(1 for s in corpus.scenarios if is_two_scope_transfer_scenario(s))
    if two_scope < targets.two_scope_transfer_scenarios:
        add(
            CorpusRule.AUTHORING_TWO_SCOPE_TRANSFER,
            f"{two_scope} scenarios use two project scopes with a positive and a negative "
            f"transfer probe; at least {targets.two_scope_transfer_scenarios} must",
        )
    spans = [scenario_timeline(s).span_seconds for s in corpus.scenarios]
    long_count = sum(1 for span in spans if span >= targets.long_span_days * SECONDS_PER_DAY)
    if long_count < targets.long_span_scenarios:
        add(
            CorpusRule.AUTHORING_LONG_SPAN,
            f"{long_count} scenarios span {targets.long_span_days} days or more; at least "
            f"{targets.long_span_scenarios} must",
        )
    very_long = sum(1 for span in spans if span > targets.very_long_span_days * SECONDS_PER_DAY)
    if very_long < targets.very_long_span_scenarios:
        add(
            CorpusRule.AUTHORING_VERY_LONG_SPAN,
            f"{very_long} scenarios span more than {targets.very_long_span_days} days; at "
            f"least {targets.very_long_span_scenarios} must",
        )
    return tuple(found)


def _category_problem(
    probe: BenchmarkProbe,
    labels: dict[str, LabeledBelief],
    session_index: dict[str, int],
    scenario: BenchmarkScenario,
    timeline: ScenarioTimeline,
) -> str | None:
    """Return what breaks the probe's category rule, or ``None`` when it holds.

    Needed labels that do not resolve are reported by the reference rule and skipped here.
    """
    needed = list(dict.fromkeys(probe.needed))
    resolved = [labels[label] for label in needed if label in labels]
    category = probe.category
    match category:
        case "single_hop":
            if len(needed) != 1:
                return f"a single_hop probe needs exactly one belief; it needs {len(needed)}"
            return None
        case "multi_hop":
            if len(needed) < 2:
                return f"a multi_hop probe needs two or more beliefs; it needs {len(needed)}"
            if probe.answer.kind != "all_of":
                return f"a multi_hop answer is all_of; it is {probe.answer.kind}"
            return None
        case "temporal":
            if not needed:
                return "a temporal probe needs at least one belief"
            probe_offset = timeline.probe_offset(probe.id)
            for belief in resolved:
                if belief.session not in session_index:
                    continue
                age = probe_offset - timeline.session(belief.session).closed_offset
                if age < TEMPORAL_MIN_SECONDS:
                    return (
                        f"needed belief {belief.label!r} is {age} seconds old at the probe "
                        f"(from the close of session {belief.session}); a temporal probe "
                        f"needs at least {TEMPORAL_MIN_SECONDS} (thirty days): raise the "
                        "advance_seconds between them"
                    )
            return None
        case "update" | "correction":
            return _update_problem(probe, needed, resolved, labels)
        case "preference":
            if not needed:
                return (
                    "a preference probe needs at least one belief, and every belief it needs "
                    "is a preference"
                )
            for belief in resolved:
                if belief.belief_type != "preference":
                    return (
                        f"needed belief {belief.label!r} has belief_type "
                        f"{belief.belief_type!s}; every belief a preference probe needs is a "
                        "preference"
                    )
            return None
        case "transfer":
            return _transfer_problem(probe, needed, resolved, scenario)
        case "abstention":
            problems = []
            if needed:
                problems.append(f"it needs {needed} (must need none)")
            if probe.answer.kind != "abstain":
                problems.append(f"its answer is {probe.answer.kind} (must be abstain)")
            if not probe.forbidden_statements:
                problems.append("it forbids nothing (must forbid at least one statement)")
            return "an abstention probe is wrong: " + "; ".join(problems) if problems else None
        case _:
            assert_never(category)


def _update_problem(
    probe: BenchmarkProbe,
    needed: list[str],
    resolved: list[LabeledBelief],
    labels: dict[str, LabeledBelief],
) -> str | None:
    name = probe.category
    if len(needed) != 1:
        return f"an {name} probe needs exactly one belief; it needs {len(needed)}"
    if not resolved:
        return None
    belief = resolved[0]
    if belief.supersedes is None:
        return f"needed belief {belief.label!r} sets no supersedes; an {name} probe needs one"
    old = labels.get(belief.supersedes)
    if old is None:
        return None
    forbidden = {label_key(text) for text in probe.forbidden_statements}
    missing = [text for text in old.statements if label_key(text) not in forbidden]
    if missing:
        return f"forbidden_statements must cover the superseded label {old.label!r}; add {missing}"
    return None


def _transfer_problem(
    probe: BenchmarkProbe,
    needed: list[str],
    resolved: list[LabeledBelief],
    scenario: BenchmarkScenario,
) -> str | None:
    if probe.project_scope is None:
        return "a transfer probe sets project_scope"
    if not needed:
        if probe.answer.kind != "abstain" or not probe.forbidden_statements:
            return (
                "a transfer probe that needs nothing is a negative transfer: its answer is "
                "abstain and it forbids at least one statement"
            )
        return None
    scopes = {session.id: session.project_scope for session in scenario.sessions}
    for belief in resolved:
        if belief.session in scopes and scopes[belief.session] == probe.project_scope:
            return (
                f"needed belief {belief.label!r} is stated in session {belief.session} at the "
                f"probe's own scope {probe.project_scope!r}; a positive transfer needs beliefs "
                "stated under a different scope"
            )
    return None


def _duplicates(values: Iterable[str]) -> list[str]:
    counts = Counter(values)
    return [value for value, count in counts.items() if count > 1]
