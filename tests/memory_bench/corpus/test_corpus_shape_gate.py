"""Gate 1, gate.memory.bench_corpus_shape: the corpus is shaped as declared.

The checked-in corpus loads and satisfies every loader rule and every authoring rule; a corpus
breaking any one rule (built from a small valid inline corpus, one variant per rule) is refused
with an error naming that rule, its scenario and its probe; a corpus breaking a field constraint
of the schema is refused naming the field.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memory_bench.corpus import (
    AUTHORING_RULES,
    CORPUS_V1_TARGETS,
    LOADER_RULES,
    PROBE_CATEGORIES,
    SECONDS_PER_DAY,
    CorpusFormatError,
    CorpusRule,
    CorpusRuleError,
    MemoryBenchmarkCorpus,
    authoring_violations,
    corpus_violations,
    is_protected_abstention_scenario,
    is_two_scope_transfer_scenario,
    load_corpus,
    parse_corpus,
    scenario_span_seconds,
)

GATE = pytest.mark.gate("gate.memory.bench_corpus_shape")

CorpusData = dict[str, Any]


def _scenario(data: CorpusData, index: int) -> dict[str, Any]:
    scenario: dict[str, Any] = data["scenarios"][index]
    return scenario


def _probe(data: CorpusData, scenario: int, probe_id: str) -> dict[str, Any]:
    for probe in _scenario(data, scenario)["probes"]:
        if probe["id"] == probe_id:
            result: dict[str, Any] = probe
            return result
    raise KeyError(probe_id)


def _belief(data: CorpusData, scenario: int, label: str) -> dict[str, Any]:
    for belief in _scenario(data, scenario)["beliefs"]:
        if belief["label"] == label:
            result: dict[str, Any] = belief
            return result
    raise KeyError(label)


# Scenario indexes in the inline corpus: 0-5 are type A, 6-11 type B.
A, B = 0, 6


def _break_single_hop(d: CorpusData) -> None:
    _probe(d, A, "p01")["needed"] = ["wife_morgan", "pref_tea"]


def _break_multi_hop(d: CorpusData) -> None:
    _probe(d, A, "p02")["answer"] = {"kind": "alternatives", "values": ["Morgan"]}


def _break_temporal(d: CorpusData) -> None:
    _scenario(d, A)["sessions"][1]["advance_seconds"] = 29 * SECONDS_PER_DAY


def _break_update(d: CorpusData) -> None:
    _probe(d, A, "p04")["forbidden_statements"] = ["User lives in Portland."]


def _break_correction(d: CorpusData) -> None:
    _probe(d, A, "p05")["needed"] = ["wife_morgan"]


def _break_preference(d: CorpusData) -> None:
    _probe(d, A, "p06")["needed"] = ["wife_morgan"]


def _break_transfer(d: CorpusData) -> None:
    _probe(d, B, "p01")["project_scope"] = "alpha"


def _break_abstention(d: CorpusData) -> None:
    _probe(d, B, "p03")["answer"] = {"kind": "exact", "values": ["no idea"]}


def _break_unique_session_ids(d: CorpusData) -> None:
    _scenario(d, A)["sessions"].append({"id": "s02", "turns": [{"text": "Hello again."}]})


def _break_unique_labels(d: CorpusData) -> None:
    _scenario(d, A)["beliefs"].append(dict(_belief(d, A, "pref_tea")))


def _break_unique_probe_ids(d: CorpusData) -> None:
    _probe(d, A, "p06")["id"] = "p05"


def _break_unique_needed(d: CorpusData) -> None:
    # The category rule reads the distinct labels, so only the uniqueness rule sees this.
    _probe(d, A, "p02")["needed"] = ["wife_morgan", "home_portland", "wife_morgan"]


def _break_unique_forbidden(d: CorpusData) -> None:
    # The same statement twice, differing only in case and trailing punctuation.
    _probe(d, A, "p04")["forbidden_statements"] = [
        "User lives in Seattle.",
        "user lives in seattle",
    ]


def _break_belief_session(d: CorpusData) -> None:
    _belief(d, B, "decision_kafka")["session"] = "s09"


def _break_supersedes_resolves(d: CorpusData) -> None:
    _belief(d, A, "home_portland")["supersedes"] = "home_boston"


def _break_needed_resolves(d: CorpusData) -> None:
    _probe(d, A, "p01")["needed"] = ["ghost_label"]


def _break_supersedes_later(d: CorpusData) -> None:
    _belief(d, A, "home_portland")["session"] = "s01"


def _break_evidence_resolves(d: CorpusData) -> None:
    _probe(d, A, "p01")["evidence"] = [{"session": "s02", "turn": 5}]


def _break_unique_scenario_ids(d: CorpusData) -> None:
    _scenario(d, A + 1)["id"] = _scenario(d, A)["id"]


def _break_abstain_phrase(d: CorpusData) -> None:
    d["abstain_phrase"] = "  ?  "


def _break_min_scenarios(d: CorpusData) -> None:
    del d["scenarios"][A]


def _break_probes_per_category(d: CorpusData) -> None:
    for index in range(A, A + 4):
        scenario = _scenario(d, index)
        scenario["probes"] = [p for p in scenario["probes"] if p["category"] != "single_hop"]


def _break_protected_abstention(d: CorpusData) -> None:
    for index in range(B, B + 3):
        del _scenario(d, index)["protected_statements"]


RULE_BREAKERS: dict[CorpusRule, Callable[[CorpusData], None]] = {
    CorpusRule.CATEGORY_SINGLE_HOP: _break_single_hop,
    CorpusRule.CATEGORY_MULTI_HOP: _break_multi_hop,
    CorpusRule.CATEGORY_TEMPORAL: _break_temporal,
    CorpusRule.CATEGORY_UPDATE: _break_update,
    CorpusRule.CATEGORY_CORRECTION: _break_correction,
    CorpusRule.CATEGORY_PREFERENCE: _break_preference,
    CorpusRule.CATEGORY_TRANSFER: _break_transfer,
    CorpusRule.CATEGORY_ABSTENTION: _break_abstention,
    CorpusRule.SCENARIO_UNIQUE_SESSION_IDS: _break_unique_session_ids,
    CorpusRule.SCENARIO_UNIQUE_LABELS: _break_unique_labels,
    CorpusRule.SCENARIO_UNIQUE_PROBE_IDS: _break_unique_probe_ids,
    CorpusRule.SCENARIO_UNIQUE_NEEDED: _break_unique_needed,
    CorpusRule.SCENARIO_UNIQUE_FORBIDDEN: _break_unique_forbidden,
    CorpusRule.SCENARIO_BELIEF_SESSION_RESOLVES: _break_belief_session,
    CorpusRule.SCENARIO_SUPERSEDES_RESOLVES: _break_supersedes_resolves,
    CorpusRule.SCENARIO_NEEDED_RESOLVES: _break_needed_resolves,
    CorpusRule.SCENARIO_SUPERSEDES_LATER_SESSION: _break_supersedes_later,
    CorpusRule.SCENARIO_EVIDENCE_RESOLVES: _break_evidence_resolves,
    CorpusRule.CORPUS_UNIQUE_SCENARIO_IDS: _break_unique_scenario_ids,
    CorpusRule.CORPUS_ABSTAIN_PHRASE: _break_abstain_phrase,
    CorpusRule.CORPUS_MIN_SCENARIOS: _break_min_scenarios,
    CorpusRule.CORPUS_PROBES_PER_CATEGORY: _break_probes_per_category,
    CorpusRule.CORPUS_PROTECTED_ABSTENTION: _break_protected_abstention,
}

# Where each broken rule is reported: (scenario index or None, probe id or None).
RULE_LOCATIONS: dict[CorpusRule, tuple[int | None, str | None]] = {
    CorpusRule.CATEGORY_SINGLE_HOP: (A, "p01"),
    CorpusRule.CATEGORY_MULTI_HOP: (A, "p02"),
    CorpusRule.CATEGORY_TEMPORAL: (A, "p03"),
    CorpusRule.CATEGORY_UPDATE: (A, "p04"),
    CorpusRule.CATEGORY_CORRECTION: (A, "p05"),
    CorpusRule.CATEGORY_PREFERENCE: (A, "p06"),
    CorpusRule.CATEGORY_TRANSFER: (B, "p01"),
    CorpusRule.CATEGORY_ABSTENTION: (B, "p03"),
    CorpusRule.SCENARIO_UNIQUE_SESSION_IDS: (A, None),
    CorpusRule.SCENARIO_UNIQUE_LABELS: (A, None),
    CorpusRule.SCENARIO_UNIQUE_PROBE_IDS: (A, None),
    CorpusRule.SCENARIO_UNIQUE_NEEDED: (A, "p02"),
    CorpusRule.SCENARIO_UNIQUE_FORBIDDEN: (A, "p04"),
    CorpusRule.SCENARIO_BELIEF_SESSION_RESOLVES: (B, None),
    CorpusRule.SCENARIO_SUPERSEDES_RESOLVES: (A, None),
    CorpusRule.SCENARIO_NEEDED_RESOLVES: (A, "p01"),
    CorpusRule.SCENARIO_SUPERSEDES_LATER_SESSION: (A, None),
    CorpusRule.SCENARIO_EVIDENCE_RESOLVES: (A, "p01"),
    CorpusRule.CORPUS_UNIQUE_SCENARIO_IDS: (None, None),
    CorpusRule.CORPUS_ABSTAIN_PHRASE: (None, None),
    CorpusRule.CORPUS_MIN_SCENARIOS: (None, None),
    CorpusRule.CORPUS_PROBES_PER_CATEGORY: (None, None),
    CorpusRule.CORPUS_PROTECTED_ABSTENTION: (None, None),
}


def _write(tmp_path: Path, data: CorpusData) -> Path:
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@GATE
def test_checked_in_corpus_loads_and_satisfies_every_rule(checked_in_path: Path) -> None:
    corpus, digest = load_corpus(checked_in_path)

    assert len(digest) == 64
    assert corpus_violations(corpus) == ()
    assert authoring_violations(corpus) == ()


@GATE
def test_checked_in_corpus_has_the_declared_coverage(checked_in_path: Path) -> None:
    corpus, _ = load_corpus(checked_in_path)
    probes = [probe for scenario in corpus.scenarios for probe in scenario.probes]
    per_category = Counter(probe.category for probe in probes)
    spans = [scenario_span_seconds(scenario) for scenario in corpus.scenarios]

    assert len(corpus.scenarios) >= 16
    assert all(len(scenario.sessions) >= 2 for scenario in corpus.scenarios)
    assert all(3 <= len(scenario.probes) <= 5 for scenario in corpus.scenarios)
    # Spec open question 2: the cap of eighty is the thing raised, and the corpus is past it.
    assert 80 < len(probes) <= 160
    assert all(per_category[category] >= 3 for category in PROBE_CATEGORIES)
    assert sum(is_protected_abstention_scenario(s) for s in corpus.scenarios) >= 4
    assert sum(is_two_scope_transfer_scenario(s) for s in corpus.scenarios) >= 4
    assert sum(span >= 45 * SECONDS_PER_DAY for span in spans) >= 4
    assert sum(span > 90 * SECONDS_PER_DAY for span in spans) >= 1
    assert len({scenario.start_at for scenario in corpus.scenarios}) == len(corpus.scenarios)


@GATE
def test_every_loader_rule_has_a_violating_variant() -> None:
    assert set(RULE_BREAKERS) == set(LOADER_RULES)
    assert set(RULE_LOCATIONS) == set(LOADER_RULES)


@GATE
def test_the_inline_corpus_is_valid(
    inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    corpus, _ = load_corpus(_write(tmp_path, inline_corpus()))

    assert len(corpus.scenarios) == 12


@GATE
@pytest.mark.parametrize("rule", LOADER_RULES, ids=lambda rule: rule.value)
def test_a_corpus_breaking_a_rule_is_refused_naming_it(
    rule: CorpusRule, inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    data = inline_corpus()
    RULE_BREAKERS[rule](data)
    path = _write(tmp_path, data)

    with pytest.raises(CorpusRuleError) as caught:
        load_corpus(path)

    error = caught.value
    assert error.rules == (rule,)
    scenario_index, probe_id = RULE_LOCATIONS[rule]
    violation = error.violations[0]
    expected_scenario = None if scenario_index is None else _scenario(data, scenario_index)["id"]
    assert violation.scenario_id == expected_scenario
    assert violation.probe_id == probe_id
    message = str(error)
    assert str(path) in message
    assert f"rule {rule.value}" in message
    if expected_scenario is not None:
        assert f"scenario {expected_scenario}" in message
    if probe_id is not None:
        assert f"probe {probe_id}" in message


@GATE
@pytest.mark.parametrize(
    "rule",
    [
        CorpusRule.CORPUS_MIN_SCENARIOS,
        CorpusRule.CORPUS_PROBES_PER_CATEGORY,
        CorpusRule.CORPUS_PROTECTED_ABSTENTION,
    ],
    ids=lambda rule: rule.value,
)
def test_coverage_rules_are_the_only_ones_switched_off_for_a_small_corpus(
    rule: CorpusRule, inline_corpus: Callable[[], CorpusData]
) -> None:
    data = inline_corpus()
    RULE_BREAKERS[rule](data)

    corpus = parse_corpus(json.dumps(data), coverage=False)

    assert corpus_violations(corpus, coverage=False) == ()
    assert rule in {v.rule for v in corpus_violations(corpus)}


def _set(path: str, value: Any) -> Callable[[CorpusData], None]:
    """A mutation that sets a dotted/indexed path (``scenarios.0.id``) to ``value``."""

    def mutate(data: CorpusData) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        if last.isdigit():
            node[int(last)] = value
        else:
            node[last] = value

    return mutate


def _delete(path: str) -> Callable[[CorpusData], None]:
    def mutate(data: CorpusData) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        del node[last]

    return mutate


def _seven_probes(data: CorpusData) -> None:
    probes = _scenario(data, A)["probes"]
    probes.append(dict(probes[-1], id="p07"))


SCHEMA_BREAKERS: dict[str, tuple[Callable[[CorpusData], None], str, str | None]] = {
    # case id: (mutation, reported field, reported probe id)
    "schema_version": (_set("schema_version", 2), "schema_version", None),
    "scenario_id_pattern": (_set("scenarios.0.id", "Bad_ID"), "scenarios[0].id", None),
    "naive_start_at": (
        _set("scenarios.0.start_at", "2026-01-01T09:00:00"),
        "scenarios[0].start_at",
        None,
    ),
    "one_session": (
        lambda d: _scenario(d, A)["sessions"].pop(),
        "scenarios[0].sessions",
        None,
    ),
    "session_id_pattern": (
        _set("scenarios.0.sessions.0.id", "session-1"),
        "scenarios[0].sessions[0].id",
        None,
    ),
    "project_scope_pattern": (
        _set("scenarios.6.sessions.0.project_scope", "Alpha"),
        "scenarios[6].sessions[0].project_scope",
        None,
    ),
    "negative_session_advance": (
        _set("scenarios.0.sessions.1.advance_seconds", -1),
        "scenarios[0].sessions[1].advance_seconds",
        None,
    ),
    "no_turns": (_set("scenarios.0.sessions.0.turns", []), "scenarios[0].sessions[0].turns", None),
    "empty_turn_text": (
        _set("scenarios.0.sessions.0.turns.0.text", ""),
        "scenarios[0].sessions[0].turns[0].text",
        None,
    ),
    "negative_turn_advance": (
        _set("scenarios.0.sessions.0.turns.0.advance_seconds", -5),
        "scenarios[0].sessions[0].turns[0].advance_seconds",
        None,
    ),
    "label_pattern": (
        _set("scenarios.0.beliefs.0.label", "Home-Seattle"),
        "scenarios[0].beliefs[0].label",
        None,
    ),
    "no_probes": (_set("scenarios.0.probes", []), "scenarios[0].probes", None),
    "seven_probes": (_seven_probes, "scenarios[0].probes", None),
    "probe_id_pattern": (
        _set("scenarios.0.probes.0.id", "probe1"),
        "scenarios[0].probes[0].id",
        "probe1",
    ),
    "unknown_category": (
        _set("scenarios.0.probes.0.category", "trivia"),
        "scenarios[0].probes[0].category",
        "p01",
    ),
    "negative_probe_advance": (
        _set("scenarios.0.probes.0.advance_seconds", -1),
        "scenarios[0].probes[0].advance_seconds",
        "p01",
    ),
    "exact_with_two_values": (
        _set("scenarios.0.probes.0.answer", {"kind": "exact", "values": ["a", "b"]}),
        "scenarios[0].probes[0].answer",
        "p01",
    ),
    "alternatives_without_values": (
        _set("scenarios.0.probes.2.answer", {"kind": "alternatives", "values": []}),
        "scenarios[0].probes[2].answer",
        "p03",
    ),
    "all_of_with_one_value": (
        _set("scenarios.0.probes.1.answer", {"kind": "all_of", "values": ["Morgan"]}),
        "scenarios[0].probes[1].answer",
        "p02",
    ),
    "abstain_with_a_value": (
        _set("scenarios.6.probes.2.answer", {"kind": "abstain", "values": ["x"]}),
        "scenarios[6].probes[2].answer",
        "p03",
    ),
    "unknown_answer_kind": (
        _set("scenarios.0.probes.0.answer", {"kind": "fuzzy", "values": ["a"]}),
        "scenarios[0].probes[0].answer.kind",
        "p01",
    ),
    "needed_label_pattern": (
        _set("scenarios.0.probes.0.needed", ["Wife"]),
        "scenarios[0].probes[0].needed[0]",
        "p01",
    ),
    "unknown_probe_field": (
        _set("scenarios.0.probes.0.colour", "blue"),
        "scenarios[0].probes[0].colour",
        "p01",
    ),
    "missing_question": (
        _delete("scenarios.0.probes.0.question"),
        "scenarios[0].probes[0].question",
        "p01",
    ),
    "evidence_negative_turn": (
        _set("scenarios.0.probes.0.evidence", [{"session": "s01", "turn": -1}]),
        "scenarios[0].probes[0].evidence[0].turn",
        "p01",
    ),
    "unknown_belief_field": (
        _set("scenarios.0.beliefs.0.confidence", 0.9),
        "scenarios[0].beliefs[0].confidence",
        None,
    ),
    "missing_abstain_phrase": (_delete("abstain_phrase"), "abstain_phrase", None),
}


@GATE
@pytest.mark.parametrize("case", sorted(SCHEMA_BREAKERS))
def test_a_corpus_breaking_the_schema_is_refused_naming_the_field(
    case: str, inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    mutate, field, probe_id = SCHEMA_BREAKERS[case]
    data = inline_corpus()
    mutate(data)
    path = _write(tmp_path, data)

    with pytest.raises(CorpusFormatError) as caught:
        load_corpus(path)

    error = caught.value
    assert error.field == field
    assert error.probe_id == probe_id
    assert str(path) in str(error)
    assert f"field {field}" in str(error)
    if field.startswith("scenarios["):
        index = int(field.split("[", 1)[1].split("]", 1)[0])
        assert error.scenario_id == _scenario(data, index)["id"]
        assert f"scenario {error.scenario_id}" in str(error)
    else:
        assert error.scenario_id is None


def _checked_in_data(path: Path) -> CorpusData:
    data: CorpusData = json.loads(path.read_text(encoding="utf-8"))
    return data


def _by_id(data: CorpusData, scenario_id: str) -> dict[str, Any]:
    for scenario in data["scenarios"]:
        if scenario["id"] == scenario_id:
            result: dict[str, Any] = scenario
            return result
    raise KeyError(scenario_id)


def _author_scenario_count(d: CorpusData) -> None:
    # The count is a minimum: keep one scenario fewer than it.
    del d["scenarios"][CORPUS_V1_TARGETS.scenarios - 1 :]


def _author_probes_per_scenario(d: CorpusData) -> None:
    scenario = _by_id(d, "mb-relocation-update-001")
    scenario["probes"] = scenario["probes"][:2]


def _with_probe_total(d: CorpusData, total: int) -> None:
    """Append copies of the first scenario (renamed, trimmed) until the corpus has ``total``
    probes; the count is raised, never lowered."""
    scenarios = d["scenarios"]
    current = sum(len(scenario["probes"]) for scenario in scenarios)
    assert current <= total, f"the corpus already has {current} probes, more than {total}"
    serial = 900
    while current < total:
        filler = copy.deepcopy(scenarios[0])
        filler["id"] = f"mb-probe-cap-filler-{serial:03d}"
        filler["probes"] = filler["probes"][: total - current]
        scenarios.append(filler)
        current += len(filler["probes"])
        serial += 1


def _author_probe_cap(d: CorpusData) -> None:
    _with_probe_total(d, CORPUS_V1_TARGETS.probe_cap + 1)


def _author_distinct_start_at(d: CorpusData) -> None:
    d["scenarios"][1]["start_at"] = d["scenarios"][0]["start_at"]


def _author_two_scope_transfer(d: CorpusData) -> None:
    for scenario in d["scenarios"]:
        scopes = {s.get("project_scope") for s in scenario["sessions"]} - {None}
        if len(scopes) >= 2:
            scenario["probes"] = [p for p in scenario["probes"] if p["needed"]]


def _author_long_span(d: CorpusData) -> None:
    for scenario in d["scenarios"]:
        for session in scenario["sessions"]:
            session["advance_seconds"] = min(session.get("advance_seconds", 0), SECONDS_PER_DAY)
        for probe in scenario["probes"]:
            probe["advance_seconds"] = min(probe.get("advance_seconds", 0), 40 * SECONDS_PER_DAY)


def _author_very_long_span(d: CorpusData) -> None:
    # At most a day per session and fifteen days per probe keeps every scenario (at most nine
    # sessions and five probes) under ninety days.
    for scenario in d["scenarios"]:
        for session in scenario["sessions"]:
            session["advance_seconds"] = min(session.get("advance_seconds", 0), SECONDS_PER_DAY)
        for probe in scenario["probes"]:
            probe["advance_seconds"] = min(probe.get("advance_seconds", 0), 15 * SECONDS_PER_DAY)


def _author_protected_in_turns(d: CorpusData) -> None:
    scenario = _by_id(d, "mb-project-transfer-protected-001")
    scenario["protected_statements"].append("never-said-token-123")


AUTHORING_BREAKERS: dict[CorpusRule, Callable[[CorpusData], None]] = {
    CorpusRule.AUTHORING_SCENARIO_COUNT: _author_scenario_count,
    CorpusRule.AUTHORING_PROBES_PER_SCENARIO: _author_probes_per_scenario,
    CorpusRule.AUTHORING_PROBE_CAP: _author_probe_cap,
    CorpusRule.AUTHORING_DISTINCT_START_AT: _author_distinct_start_at,
    CorpusRule.AUTHORING_TWO_SCOPE_TRANSFER: _author_two_scope_transfer,
    CorpusRule.AUTHORING_LONG_SPAN: _author_long_span,
    CorpusRule.AUTHORING_VERY_LONG_SPAN: _author_very_long_span,
    CorpusRule.AUTHORING_PROTECTED_IN_TURNS: _author_protected_in_turns,
}


@GATE
@pytest.mark.parametrize("rule", AUTHORING_RULES, ids=lambda rule: rule.value)
def test_a_corpus_breaking_an_authoring_rule_is_flagged(
    rule: CorpusRule, checked_in_path: Path
) -> None:
    data = _checked_in_data(checked_in_path)
    AUTHORING_BREAKERS[rule](data)

    corpus = MemoryBenchmarkCorpus.model_validate(data)

    assert rule in {violation.rule for violation in authoring_violations(corpus)}


@GATE
def test_every_authoring_rule_has_a_violating_variant() -> None:
    assert set(AUTHORING_BREAKERS) == set(AUTHORING_RULES)


def _authoring_rules(data: CorpusData) -> set[CorpusRule]:
    corpus = MemoryBenchmarkCorpus.model_validate(data)
    return {violation.rule for violation in authoring_violations(corpus)}


@GATE
def test_the_scenario_count_is_a_minimum_held_at_its_boundary(checked_in_path: Path) -> None:
    at_minimum = _checked_in_data(checked_in_path)
    del at_minimum["scenarios"][CORPUS_V1_TARGETS.scenarios :]
    one_short = _checked_in_data(checked_in_path)
    del one_short["scenarios"][CORPUS_V1_TARGETS.scenarios - 1 :]

    assert CorpusRule.AUTHORING_SCENARIO_COUNT not in _authoring_rules(at_minimum)
    assert CorpusRule.AUTHORING_SCENARIO_COUNT in _authoring_rules(one_short)


@GATE
def test_the_probe_cap_is_raised_past_eighty_and_held_at_its_boundary(
    checked_in_path: Path,
) -> None:
    at_cap = _checked_in_data(checked_in_path)
    _with_probe_total(at_cap, CORPUS_V1_TARGETS.probe_cap)
    one_over = _checked_in_data(checked_in_path)
    _with_probe_total(one_over, CORPUS_V1_TARGETS.probe_cap + 1)

    assert CORPUS_V1_TARGETS.probe_cap > 80
    assert CorpusRule.AUTHORING_PROBE_CAP not in _authoring_rules(at_cap)
    assert CorpusRule.AUTHORING_PROBE_CAP in _authoring_rules(one_over)
