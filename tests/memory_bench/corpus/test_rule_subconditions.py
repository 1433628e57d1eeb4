"""Gate 1: every sub-condition of every category and coverage rule has its own violating case.

``test_corpus_shape_gate`` breaks each rule once; a rule with several sub-conditions (an
abstention probe needs nothing, answers abstain *and* forbids something) would then let every
sub-condition but the broken one be deleted unnoticed. Here each case breaks exactly one
sub-condition of a valid inline corpus and asserts the loader refuses it under that rule alone,
at that scenario and probe, with that sub-condition's detail. The coverage rules are also held
at their boundary: the inline corpus sits exactly on each minimum, one short is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from memory_bench.corpus import (
    LOADER_RULES,
    MIN_PROBES_PER_CATEGORY,
    MIN_PROTECTED_ABSTENTION_SCENARIOS,
    MIN_SCENARIOS,
    TEMPORAL_MIN_SECONDS,
    CorpusRule,
    CorpusRuleError,
    MemoryBenchmarkCorpus,
    corpus_violations,
    cumulative_advance_seconds,
    is_protected_abstention_scenario,
    parse_corpus,
)

pytestmark = pytest.mark.gate("gate.memory.bench_corpus_shape")

CorpusData = dict[str, Any]
Breaker = Callable[[CorpusData], None]

# Scenario indexes in the inline corpus (see conftest): 0-5 are type A, 6-11 type B.
A, B = 0, 6


def _scenario(data: CorpusData, index: int) -> dict[str, Any]:
    scenario: dict[str, Any] = data["scenarios"][index]
    return scenario


def _probe(data: CorpusData, index: int, probe_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in _scenario(data, index)["probes"] if p["id"] == probe_id)
    return found


def _belief(data: CorpusData, index: int, label: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        b for b in _scenario(data, index)["beliefs"] if b["label"] == label
    )
    return found


def _set_probe(index: int, probe_id: str, **fields: Any) -> Breaker:
    def mutate(data: CorpusData) -> None:
        _probe(data, index, probe_id).update(fields)

    return mutate


def _drop_probe_field(index: int, probe_id: str, name: str) -> Breaker:
    def mutate(data: CorpusData) -> None:
        del _probe(data, index, probe_id)[name]

    return mutate


@dataclass(frozen=True)
class Case:
    """One broken sub-condition: the rule it must be refused under, where, and why."""

    id: str
    rule: CorpusRule
    breaker: Breaker
    detail: str
    scenario: int | None
    probe: str | None


def _parse(data: CorpusData) -> MemoryBenchmarkCorpus:
    """The corpus model of ``data``, before any rule is applied."""
    return MemoryBenchmarkCorpus.model_validate(data)


def _temporal_age(data: CorpusData) -> int:
    scenario = _parse(data).scenarios[A]
    return cumulative_advance_seconds(scenario, "s01", "p03")


def _temporal_shortfall(seconds: int) -> Breaker:
    """Make type A's temporal probe ``seconds`` younger than the thirty-day minimum."""

    def mutate(data: CorpusData) -> None:
        age = _temporal_age(data)
        _scenario(data, A)["sessions"][1]["advance_seconds"] += TEMPORAL_MIN_SECONDS - age - seconds

    return mutate


def _superseding_belief_stated_earlier(data: CorpusData) -> None:
    _belief(data, A, "home_seattle")["session"] = "s02"
    _belief(data, A, "home_portland")["session"] = "s01"


def _protected_abstention_off(change: Callable[[dict[str, Any]], None]) -> Breaker:
    """Apply ``change`` to three of the six type B scenarios, leaving three protected ones."""

    def mutate(data: CorpusData) -> None:
        for index in range(B, B + 3):
            change(_scenario(data, index))

    return mutate


def _abstention_forbids_an_unprotected_statement(scenario: dict[str, Any]) -> None:
    abstention = next(p for p in scenario["probes"] if p["id"] == "p03")
    abstention["forbidden_statements"] = ["User has a deploy token."]


def _only_a_transfer_forbids_the_protected_statement(scenario: dict[str, Any]) -> None:
    _abstention_forbids_an_unprotected_statement(scenario)
    transfer = next(p for p in scenario["probes"] if p["id"] == "p02")
    transfer["forbidden_statements"] = [*transfer["forbidden_statements"], "SECRET-ONE-XYZ"]


def _no_protected_statements(scenario: dict[str, Any]) -> None:
    scenario["protected_statements"] = []


def _drop_category_from(count: int, category: str) -> Breaker:
    def mutate(data: CorpusData) -> None:
        for index in range(A, A + count):
            scenario = _scenario(data, index)
            scenario["probes"] = [p for p in scenario["probes"] if p["category"] != category]

    return mutate


CASES: tuple[Case, ...] = (
    # single_hop: exactly one needed belief.
    Case("single_hop.needs_none", CorpusRule.CATEGORY_SINGLE_HOP,
         _set_probe(A, "p01", needed=[]), "exactly one belief; it needs 0", A, "p01"),
    Case("single_hop.needs_two", CorpusRule.CATEGORY_SINGLE_HOP,
         _set_probe(A, "p01", needed=["wife_morgan", "pref_tea"]),
         "exactly one belief; it needs 2", A, "p01"),
    # multi_hop: two or more needed beliefs, and an all_of answer.
    Case("multi_hop.needs_one", CorpusRule.CATEGORY_MULTI_HOP,
         _set_probe(A, "p02", needed=["wife_morgan"]), "two or more beliefs; it needs 1", A, "p02"),
    Case("multi_hop.needs_none", CorpusRule.CATEGORY_MULTI_HOP,
         _set_probe(A, "p02", needed=[]), "two or more beliefs; it needs 0", A, "p02"),
    Case("multi_hop.answer_not_all_of", CorpusRule.CATEGORY_MULTI_HOP,
         _set_probe(A, "p02", answer={"kind": "alternatives", "values": ["Morgan"]}),
         "all_of; it is alternatives", A, "p02"),
    # temporal: at least one needed belief, each at least thirty days old at the probe.
    Case("temporal.needs_none", CorpusRule.CATEGORY_TEMPORAL,
         _set_probe(A, "p03", needed=[]), "a temporal probe needs at least one belief", A, "p03"),
    Case("temporal.one_second_short", CorpusRule.CATEGORY_TEMPORAL,
         _temporal_shortfall(1), f"{TEMPORAL_MIN_SECONDS - 1} seconds old", A, "p03"),
    Case("temporal.second_belief_too_recent", CorpusRule.CATEGORY_TEMPORAL,
         _set_probe(A, "p03", needed=["pref_tea", "wife_morgan"]),
         "needed belief 'wife_morgan' is", A, "p03"),
    # update and correction: exactly one needed belief, superseding one whose statements the
    # probe forbids.
    *(
        case
        for category, probe in (("update", "p04"), ("correction", "p05"))
        for case in (
            Case(f"{category}.needs_two", CorpusRule(f"category.{category}"),
                 _set_probe(A, probe, needed=["home_portland", "wife_morgan"]),
                 "exactly one belief; it needs 2", A, probe),
            Case(f"{category}.needs_none", CorpusRule(f"category.{category}"),
                 _set_probe(A, probe, needed=[]), "exactly one belief; it needs 0", A, probe),
            Case(f"{category}.supersedes_nothing", CorpusRule(f"category.{category}"),
                 _set_probe(A, probe, needed=["wife_morgan"]), "sets no supersedes", A, probe),
            Case(f"{category}.old_statement_not_forbidden", CorpusRule(f"category.{category}"),
                 _set_probe(A, probe, forbidden_statements=["User lives in Boston."]),
                 "must cover the superseded label 'home_seattle'", A, probe),
        )
    ),
    # preference: at least one needed belief, every one a preference.
    Case("preference.needs_none", CorpusRule.CATEGORY_PREFERENCE,
         _set_probe(A, "p06", needed=[]), "a preference probe needs at least one belief", A, "p06"),
    Case("preference.needs_a_non_preference", CorpusRule.CATEGORY_PREFERENCE,
         _set_probe(A, "p06", needed=["wife_morgan"]), "'wife_morgan' has belief_type", A, "p06"),
    Case("preference.second_is_not_a_preference", CorpusRule.CATEGORY_PREFERENCE,
         _set_probe(A, "p06", needed=["pref_tea", "wife_morgan"]),
         "'wife_morgan' has belief_type", A, "p06"),
    # transfer: a project scope; a negative one abstains and forbids; a positive one needs
    # beliefs stated under another scope.
    Case("transfer.no_project_scope", CorpusRule.CATEGORY_TRANSFER,
         _drop_probe_field(B, "p01", "project_scope"), "sets project_scope", B, "p01"),
    Case("transfer.negative_answers", CorpusRule.CATEGORY_TRANSFER,
         _set_probe(B, "p02", answer={"kind": "exact", "values": ["Kafka"]}),
         "a negative transfer", B, "p02"),
    Case("transfer.negative_forbids_nothing", CorpusRule.CATEGORY_TRANSFER,
         _set_probe(B, "p02", forbidden_statements=[]), "a negative transfer", B, "p02"),
    Case("transfer.positive_at_own_scope", CorpusRule.CATEGORY_TRANSFER,
         _set_probe(B, "p01", project_scope="alpha"), "at the probe's own scope", B, "p01"),
    # abstention: needs nothing, answers abstain, forbids at least one statement.
    Case("abstention.needs_a_belief", CorpusRule.CATEGORY_ABSTENTION,
         _set_probe(B, "p03", needed=["pref_tabs"]), "(must need none)", B, "p03"),
    Case("abstention.answers", CorpusRule.CATEGORY_ABSTENTION,
         _set_probe(B, "p03", answer={"kind": "exact", "values": ["no idea"]}),
         "(must be abstain)", B, "p03"),
    Case("abstention.forbids_nothing", CorpusRule.CATEGORY_ABSTENTION,
         _set_probe(B, "p03", forbidden_statements=[]), "it forbids nothing", B, "p03"),
    # Scenario rules with more than one way to break.
    Case("supersedes_later.same_session", CorpusRule.SCENARIO_SUPERSEDES_LATER_SESSION,
         lambda d: _belief(d, A, "home_portland").update(session="s01"),
         "strictly later session", A, None),
    Case("supersedes_later.earlier_session", CorpusRule.SCENARIO_SUPERSEDES_LATER_SESSION,
         _superseding_belief_stated_earlier, "strictly later session", A, None),
    Case("evidence.unknown_session", CorpusRule.SCENARIO_EVIDENCE_RESOLVES,
         _set_probe(A, "p01", evidence=[{"session": "s07"}]), "session 's07'", A, "p01"),
    Case("evidence.turn_one_past_the_end", CorpusRule.SCENARIO_EVIDENCE_RESOLVES,
         _set_probe(A, "p01", evidence=[{"session": "s02", "turn": 1}]),
         "turn 1 of session s02, which has 1 turns", A, "p01"),
    # Coverage rules, one short of each minimum.
    Case("min_scenarios.one_short", CorpusRule.CORPUS_MIN_SCENARIOS,
         lambda d: d["scenarios"].pop(), f"11 scenarios; it needs at least {MIN_SCENARIOS}",
         None, None),
    Case("probes_per_category.one_short", CorpusRule.CORPUS_PROBES_PER_CATEGORY,
         _drop_category_from(4, "single_hop"), "category single_hop has 2 probes", None, None),
    Case("protected_abstention.no_protected_statements", CorpusRule.CORPUS_PROTECTED_ABSTENTION,
         _protected_abstention_off(_no_protected_statements), "3 scenarios", None, None),
    Case("protected_abstention.abstention_forbids_other_text",
         CorpusRule.CORPUS_PROTECTED_ABSTENTION,
         _protected_abstention_off(_abstention_forbids_an_unprotected_statement),
         "3 scenarios", None, None),
    Case("protected_abstention.only_a_transfer_forbids_it", CorpusRule.CORPUS_PROTECTED_ABSTENTION,
         _protected_abstention_off(_only_a_transfer_forbids_the_protected_statement),
         "3 scenarios", None, None),
)  # fmt: skip


def test_every_category_and_coverage_rule_has_sub_condition_cases() -> None:
    covered = {case.rule for case in CASES}
    wanted = {rule for rule in LOADER_RULES if rule.family == "category"} | {
        CorpusRule.CORPUS_MIN_SCENARIOS,
        CorpusRule.CORPUS_PROBES_PER_CATEGORY,
        CorpusRule.CORPUS_PROTECTED_ABSTENTION,
    }
    assert wanted <= covered
    assert len({case.id for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_breaking_one_sub_condition_is_refused_under_its_rule_alone(
    case: Case, inline_corpus: Callable[[], CorpusData]
) -> None:
    data = inline_corpus()
    case.breaker(data)

    found = corpus_violations(_parse(data))
    with pytest.raises(CorpusRuleError) as caught:
        parse_corpus(json.dumps(data))

    assert [v.rule for v in found] == [case.rule], [v.detail for v in found]
    assert caught.value.violations == found
    violation = found[0]
    expected_scenario = None if case.scenario is None else _scenario(data, case.scenario)["id"]
    assert violation.scenario_id == expected_scenario
    assert violation.probe_id == case.probe
    assert case.detail in violation.detail


@pytest.mark.parametrize(
    "case",
    [case for case in CASES if case.id.startswith("protected_abstention.")],
    ids=lambda case: case.id,
)
def test_a_protected_abstention_scenario_needs_all_three_parts(
    case: Case, inline_corpus: Callable[[], CorpusData]
) -> None:
    data = inline_corpus()
    case.breaker(data)
    corpus = _parse(data)

    flags = [is_protected_abstention_scenario(s) for s in corpus.scenarios[B:]]

    assert flags == [False, False, False, True, True, True]


def test_the_protected_statement_is_matched_normalized(
    inline_corpus: Callable[[], CorpusData],
) -> None:
    data = inline_corpus()
    _probe(data, B, "p03")["forbidden_statements"] = ["secret-one-xyz."]

    assert is_protected_abstention_scenario(parse_corpus(json.dumps(data)).scenarios[B])


def test_the_temporal_minimum_is_inclusive(inline_corpus: Callable[[], CorpusData]) -> None:
    data = inline_corpus()
    _temporal_shortfall(0)(data)

    assert _temporal_age(data) == TEMPORAL_MIN_SECONDS
    assert corpus_violations(parse_corpus(json.dumps(data))) == ()


def test_the_inline_corpus_sits_exactly_on_each_coverage_minimum(
    inline_corpus: Callable[[], CorpusData],
) -> None:
    data = inline_corpus()
    _drop_category_from(3, "single_hop")(data)
    for index in range(B, B + 2):
        _no_protected_statements(_scenario(data, index))
    corpus = parse_corpus(json.dumps(data))

    assert len(corpus.scenarios) == MIN_SCENARIOS
    single_hops = sum(p.category == "single_hop" for s in corpus.scenarios for p in s.probes)
    assert single_hops == MIN_PROBES_PER_CATEGORY
    protected = sum(is_protected_abstention_scenario(s) for s in corpus.scenarios)
    assert protected == MIN_PROTECTED_ABSTENTION_SCENARIOS
    assert corpus_violations(corpus) == ()
