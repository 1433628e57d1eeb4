"""The retry-once rule, through real HTTP failures injected on a 127.0.0.1 server.

A run that ended without an answer for a reason the runtime suffered (a 429, a 500, a timeout:
``failed``) is asked once more on a fresh composition; the four terminations the runtime decided
on (budget, steps, context overflow, a permanent model error) are kept on the first attempt.
Whatever is still incomplete gets one terminal line (status, error class, billed, cost) and only
the histogram reaches the artifact.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import Reply, reply_error, reply_stall, reply_text, reply_tool_call

import memory_bench.live.arm as arm_module
from memory_bench.driver import prepare_scenario
from memory_bench.live.arm import ARM_ERROR, RUNTIME_DECIDED, live_policy_profile
from memory_bench.live.evidence import load_evidence
from memory_core.runtime.policy_profile import ModelPolicy
from memory_core.runtime.pricing import ModelPrice, PriceCatalog
from memory_core.runtime.run import RunStatus

LiveKit = Any  # the ``live`` fixture (tests/memory_bench/live/conftest.py)


def test_the_four_runtime_decided_terminations_are_exactly_the_spec_s() -> None:
    assert (
        frozenset(
            {"budget_exhausted", "step_exhausted", "context_overflow", "permanent_model_error"}
        )
        == RUNTIME_DECIDED
    )
    assert {status.value for status in RunStatus} - RUNTIME_DECIDED == {"completed", "failed"}


@pytest.mark.gate("gate.memory.bench_evidence_publish")
@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(reply_error(429, "slow down"), id="429"),
        pytest.param(reply_error(500), id="500"),
        pytest.param(reply_error(503), id="503"),
        pytest.param(reply_stall(1.5), id="timeout"),
    ],
)
def test_a_suffered_failure_is_retried_once_and_the_run_still_publishes(
    live: LiveKit, tmp_path: Path, failure: Reply
) -> None:
    live.server.enqueue(failure)
    output = tmp_path / "evidence.json"

    result = live.run(output, model_factory=live.factory(timeout_seconds=0.5))

    assert result.passed, result.diagnostics()
    first_prompt = live.turns()[0]
    assert live.turns().count(first_prompt) == 3  # with memory twice, without memory once
    evidence = load_evidence(output)
    assert evidence.counts.retried_runs == 1
    assert evidence.counts.incomplete_runs == 0
    assert evidence.counts.failure_classes == {}
    retried = evidence.rows[0].with_memory
    assert retried.retried and retried.correct and retried.run_status == "completed"
    assert not evidence.rows[0].without_memory.retried
    assert sum(r.with_memory.retried + r.without_memory.retried for r in evidence.rows) == 1


def test_the_retry_runs_on_a_fresh_composition_at_the_same_instant(
    live: LiveKit, tmp_path: Path
) -> None:
    live.server.enqueue(reply_error(500))

    result = live.run(tmp_path / "evidence.json")

    assert result.passed
    failed, retry = live.server.requests[0], live.server.requests[1]
    # Same prompt, same recalled memory: the fresh composition was built the same way.
    assert failed["messages"] == retry["messages"]
    # The scenario's later probes still read the original composition.
    assert result.rows[1].with_memory.correct and not result.rows[1].with_memory.retried


def test_a_second_failure_is_kept_and_reported_one_line_each(live: LiveKit, tmp_path: Path) -> None:
    live.server.enqueue(reply_error(500), reply_error(502))
    output = tmp_path / "evidence.json"

    result = live.run(output)

    assert not result.passed
    assert not output.exists()
    assert result.counts is not None
    assert (result.counts.retried_runs, result.counts.incomplete_runs) == (1, 1)
    assert result.counts.failure_classes == {"failed:TransientModelError": 1}
    (incomplete,) = result.incomplete
    assert (incomplete.status, incomplete.error_class) == ("failed", "TransientModelError")
    assert (incomplete.billed, incomplete.cost_usd, incomplete.attempts) == (False, 0.0, 2)
    scenario = live.corpus.scenarios[0].id
    line = (
        f"incomplete {scenario}/p01 with_memory: status=failed "
        "error_class=TransientModelError billed=no cost_usd=0.000000 attempts=2"
    )
    assert incomplete.line() == line
    assert line in result.diagnostics()
    assert "incomplete_runs 1 != 0" in result.failed_conditions
    row = result.rows[0].with_memory
    assert (row.answer, row.correct, row.run_status, row.retried) == (None, False, "failed", True)
    # The message (the server's body) is never part of the record.
    assert "scripted failure" not in result.model_dump_json()


@pytest.mark.parametrize(
    ("replies", "status", "error_class", "calls", "billed"),
    [
        pytest.param(
            [reply_error(400, "bad request")],
            "permanent_model_error",
            "PermanentModelError",
            1,
            False,
            id="permanent_model_error",
        ),
        pytest.param(
            [reply_text("Portland", prompt_tokens=40_000, model="live-test-model")],
            "budget_exhausted",
            None,
            1,
            True,
            id="budget_exhausted",
        ),
        pytest.param(
            [
                reply_tool_call("memory__remember", {"statement": "x"}, model="live-test-model")
                for _ in range(4)
            ],
            "step_exhausted",
            None,
            4,
            True,
            id="step_exhausted",
        ),
    ],
)
def test_runtime_decided_terminations_are_not_retried(
    live: LiveKit,
    tmp_path: Path,
    replies: list[Reply],
    status: str,
    error_class: str | None,
    calls: int,
    billed: bool,
) -> None:
    live.server.enqueue(*replies)

    result = live.run(tmp_path / "evidence.json")

    assert len(live.server.requests) == 2 * len(live.probes) - 1 + calls
    first_prompt = live.turns()[0]
    assert live.turns().count(first_prompt) == calls + 1  # + the without-memory arm, once
    assert result.counts is not None
    assert result.counts.retried_runs == 0
    (incomplete,) = result.incomplete
    assert (incomplete.arm, incomplete.status, incomplete.error_class) == (
        "with_memory",
        status,
        error_class,
    )
    assert (incomplete.attempts, incomplete.billed) == (1, billed)
    assert result.counts.failure_classes == {incomplete.failure_class: 1}
    assert not result.passed


def test_context_overflow_is_not_retried_and_sends_nothing(live: LiveKit, tmp_path: Path) -> None:
    # Reserving 15,990 of the 16,000-token window for output leaves no room for any prompt.
    profile = live_policy_profile(model_policy=ModelPolicy(max_output_tokens=15_990))
    # Priced so that four such calls stay inside the per-run ceiling (USD 0.038 at worst).
    live.prices = PriceCatalog({live.model_name: ModelPrice(input=0.1, output=0.5)})

    result = live.run(tmp_path / "evidence.json", policy_profile=profile)

    assert live.server.requests == []
    assert result.counts is not None
    assert result.counts.retried_runs == 0
    assert result.counts.incomplete_runs == 2 * len(live.probes)
    assert result.counts.failure_classes == {
        "context_overflow:ContextOverflowError": 2 * len(live.probes)
    }
    assert {run.attempts for run in result.incomplete} == {1}
    assert result.compiled_policy_version == profile.compiled_version
    assert result.compiled_policy_version != live_policy_profile().compiled_version
    assert not result.passed


def test_an_arm_that_fails_outside_its_run_is_retried_with_the_exception_type(
    live: LiveKit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"n": 0}

    def flaky_prepare(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise ConnectionResetError("storage went away")
        return prepare_scenario(*args, **kwargs)

    monkeypatch.setattr(arm_module, "prepare_scenario", flaky_prepare)

    result = live.run(tmp_path / "evidence.json")

    assert result.passed, result.diagnostics()
    assert result.counts is not None and result.counts.retried_runs == 1
    assert result.rows[0].with_memory.retried


def test_an_arm_failing_outside_its_run_twice_records_the_exception_type(
    live: LiveKit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_prepare(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionResetError("storage went away")

    monkeypatch.setattr(arm_module, "prepare_scenario", broken_prepare)

    result = live.run(tmp_path / "evidence.json")

    assert result.counts is not None
    assert result.counts.incomplete_runs == len(live.probes)  # every with-memory arm
    assert result.counts.retried_runs == len(live.probes)
    assert result.counts.failure_classes == {f"{ARM_ERROR}:ConnectionResetError": len(live.probes)}
    assert "storage went away" not in result.model_dump_json()
    assert len(live.server.requests) == len(live.probes)  # only the without-memory arms ran
