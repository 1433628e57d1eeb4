"""The evaluation harness: one function builds every evaluation's composition, through
``bootstrap.build``, reproducibly and never from the environment."""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import memory_bench
import memory_bench_external
from memory_bench import driver, formation_eval, harness
from memory_bench.corpus import load_corpus
from memory_bench.harness import (
    EVAL_PRINCIPAL,
    PROBE_ACK_TEXT,
    PROBE_POLICY_PROFILE,
    PROBE_RUN_LIMITS,
    PROBE_TOOLS,
    build_eval_composition,
)
from memory_bench.live import arm
from memory_bench_external import open_locomo, run_instance
from memory_core import bootstrap
from memory_core.clock import FixedClock
from memory_core.domain import Principal
from memory_core.formation.extractor import DeterministicExtractor
from memory_core.formation.selection import SELECTION_MODE_ENV
from memory_core.ids import SequentialIdFactory
from memory_core.profiles import load_profiles
from memory_core.runtime.policy_profile import load_policy_profile
from memory_core.runtime.scripted import FakeModelScript, ScriptedModel, ScriptedTurn

ROOT = Path(__file__).resolve().parents[3]
START = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
LOCOMO_FIXTURE = ROOT / "tests" / "memory_bench_external" / "fixtures" / "synthetic_locomo.json"


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every ``bootstrap.build`` call made while the test runs: (calling file, arguments)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    real: Callable[..., bootstrap.Composition] = bootstrap.build

    def spy(**kwargs: Any) -> bootstrap.Composition:
        caller = inspect.stack()[1].filename
        calls.append((Path(caller).name, kwargs))
        return real(**kwargs)

    monkeypatch.setattr(bootstrap, "build", spy)
    return calls


def test_the_default_is_the_deterministic_arm_composition() -> None:
    composition = build_eval_composition(START)
    try:
        assert isinstance(composition.clock, FixedClock) and composition.clock.now() == START
        assert isinstance(composition.ids, SequentialIdFactory)
        assert composition.principal == EVAL_PRINCIPAL
        assert composition.formation_selection is None  # an explicit extractor, not selected
        assert isinstance(composition.model, ScriptedModel)
        policy = composition.policy_profile
        expected = load_policy_profile(PROBE_POLICY_PROFILE).with_overrides(
            limits=PROBE_RUN_LIMITS, enabled_tools=PROBE_TOOLS
        )
        assert policy.compiled_version == expected.compiled_version
        assert tuple(policy.enabled_tools) == PROBE_TOOLS
        view = composition.sessions.create(
            principal=EVAL_PRINCIPAL, agent="general", metadata={"project_scope": None}
        )
        run = composition.runs.submit("Where do I live?", view.id, principal=EVAL_PRINCIPAL)
        assert run.completed
        replies = [
            event.payload.get("text")
            for event in composition.events.read_session(EVAL_PRINCIPAL, view.id)
            if event.event_type == "assistant.message.created"
        ]
        assert replies == [PROBE_ACK_TEXT]
    finally:
        composition.close()


def test_two_builds_write_the_same_ids_and_instants() -> None:
    def trail() -> list[tuple[str, datetime]]:
        composition = build_eval_composition(START)
        try:
            view = composition.sessions.create(
                principal=EVAL_PRINCIPAL, agent="general", metadata={"project_scope": None}
            )
            composition.advance(5)
            composition.sessions.record_user_message(
                view.id, "I live in Oslo.", principal=EVAL_PRINCIPAL
            )
            composition.memory.run("session_close", "general", view.id)
            events = composition.events.read_session(EVAL_PRINCIPAL, view.id)
            return [(event.event_id, event.created_at) for event in events]
        finally:
            composition.close()

    first = trail()
    assert first == trail() and len(first) >= 3


def test_formation_is_never_chosen_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # bootstrap.build without an extractor would obey the environment (and refuse here, with
    # no provider evidence); the harness always passes one.
    monkeypatch.setenv(SELECTION_MODE_ENV, "required")
    composition = build_eval_composition(START)
    try:
        assert composition.formation_selection is None
        assert composition.memory.service.policy_version == DeterministicExtractor().policy_version
    finally:
        composition.close()


def test_a_model_policy_principal_namespace_and_profiles_are_used_as_given() -> None:
    model = ScriptedModel(FakeModelScript(turns=[ScriptedTurn(text="Portland")]))
    profile = load_policy_profile("default")
    profiles = load_profiles(
        {
            "formation": {"max_candidates": 3},
            "snapshot": {"async": {"max_items": 2, "max_tokens": 90}},
        }
    )
    who = Principal("formation-eval", "user")
    composition = build_eval_composition(
        START,
        model=model,
        policy_profile=profile,
        principal=who,
        id_namespace="formation-eval",
        profiles=profiles,
    )
    try:
        assert composition.model is model
        assert composition.policy_profile.compiled_version == profile.compiled_version
        assert composition.principal == who
        assert composition.profiles == profiles
        assert composition.ids.new_id() == SequentialIdFactory("formation-eval").new_id()
    finally:
        composition.close()


def test_every_evaluation_builds_through_the_harness(
    built: list[tuple[str, dict[str, Any]]], tmp_path: Path
) -> None:
    corpus, _ = load_corpus(ROOT / "corpus" / "memory-benchmark.v1.json")
    scenario = corpus.scenarios[0]
    driver.run_scenario(scenario)
    deterministic = len(built)

    instance = next(open_locomo(LOCOMO_FIXTURE).iter_instances())
    run_instance(instance)
    external = len(built)

    probe = scenario.probes[0]
    live_model = ScriptedModel(FakeModelScript(turns=[ScriptedTurn(text="Portland")]))
    arm._ask_without_memory(
        probe,
        instant=START,
        model=live_model,
        profile=arm.default_live_policy_profile(),
        prompt=probe.question,
    )
    without_memory = len(built)

    cases = json.loads((ROOT / "corpus" / "memory-formation.v2.json").read_text("utf-8"))
    cases["positive"] = cases["positive"][:21]
    cases["negative"] = cases["negative"][:15]
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases), encoding="utf-8")
    formation_eval.evaluate_formation(formation_eval.load_formation_cases(path))

    assert (deterministic, external - deterministic, without_memory - external) == (1, 1, 1)
    assert len(built) - without_memory == 36  # one composition per formation case
    assert {caller for caller, _ in built} == {"harness.py"}
    for _, kwargs in built:
        assert kwargs["sequential_ids"] is True and kwargs["fixed_clock_at"] is not None
        assert kwargs["extractor"] is not None
    assert built[0][1]["fixed_clock_at"] == scenario.start_at
    assert built[2][1]["model"] is live_model
    assert built[-1][1]["principal"] == Principal("formation-eval", "user")


_WIRING = re.compile(
    r"bootstrap\.build\(|\bbuild\(\s*storage=|GovernedMemoryService\(|InMemoryStorage\(|"
    r"SessionService\(|RunService\(|import build\b"
)


def test_no_evaluation_module_wires_a_composition_by_hand() -> None:
    roots = [Path(memory_bench.__file__).parent, Path(memory_bench_external.__file__).parent]
    offenders = [
        f"{path.name}:{number}"
        for root in roots
        for path in sorted(root.rglob("*.py"))
        if path != Path(harness.__file__)
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if _WIRING.search(line) and not line.lstrip().startswith(("#", '"', "'"))
    ]
    assert offenders == []
