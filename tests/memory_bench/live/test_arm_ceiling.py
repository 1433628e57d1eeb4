"""Gate 8: the live arm stops before it exceeds its ceiling.

Through a real chat-completions server on 127.0.0.1 with priced replies: a model and policy
whose worst-case run could exceed the USD 0.05 per-run ceiling are refused before any request;
the pre-admission check refuses the run that would cross the ceiling (the shipped USD 4.00, and
a small ceiling), records ``stopped_by="cost_ceiling"`` and publishes nothing; a retry goes
through the same check; a model priced at zero aborts the arm with the exact message.

Every priced test keeps its calls consistent with the static bound: a call never sends more
than the 16,000-token context window, and one run's worst case stays within USD 0.05.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import reply_error, reply_tool_call

from memory_bench.live.arm import default_live_policy_profile
from memory_bench.live.ceiling import (
    INVOCATION_CEILING_USD,
    PER_RUN_CEILING_USD,
    PRICING_UNAVAILABLE,
    CostCeiling,
    RunCostAboveCeilingError,
    worst_case_run_cost_usd,
)
from memory_core.runtime.context import load_context_plan
from memory_core.runtime.openai_compat import OpenAICompatibleModel
from memory_core.runtime.policy_profile import PolicyProfile, RunLimits
from memory_core.runtime.pricing import ModelPrice, PriceCatalog

LiveKit = Any  # the ``live`` fixture (tests/memory_bench/live/conftest.py)

pytestmark = pytest.mark.gate("gate.memory.bench_cost_ceiling")

WINDOW = load_context_plan().context_window_tokens
"""The shipped context window (16,000 tokens): no call sends more."""


def _priced(live: LiveKit, usd_per_call: float, *, steps: int) -> PolicyProfile:
    """Price the reader's calls at ``usd_per_call`` under a policy of ``steps`` steps whose
    worst-case run is USD 0.048 (input priced so a full window costs 0.048 / steps, output
    free): the reader reports the prompt tokens that cost ``usd_per_call``, at most a window."""
    input_price = 0.048 / steps / WINDOW * 1_000_000
    live.prices = PriceCatalog({live.model_name: ModelPrice(input=input_price, output=0.0)})
    live.reader.prompt_tokens = round(usd_per_call * 1_000_000 / input_price)
    live.reader.completion_tokens = 0
    assert live.reader.prompt_tokens <= WINDOW
    profile = default_live_policy_profile().with_overrides(
        limits=RunLimits(max_steps=steps, max_tokens=32_000, max_cost_usd=PER_RUN_CEILING_USD)
    )
    price = live.prices.price(live.model_name)
    assert worst_case_run_cost_usd(profile, price, context_window_tokens=WINDOW) == (
        pytest.approx(0.048)
    )
    return profile


def test_a_call_that_could_cost_usd_1_50_is_refused_before_any_request(
    live: LiveKit, tmp_path: Path
) -> None:
    # One full-window call at this price costs USD 1.50: a single admitted run could spend
    # thirty times the USD 0.05 the admission reserved, and the runtime would notice only after
    # paying for it. The arm refuses the model before it sends anything.
    live.prices = PriceCatalog(
        {live.model_name: ModelPrice(input=1.50 / WINDOW * 1_000_000, output=0.0)}
    )
    built: list[OpenAICompatibleModel] = []
    output = tmp_path / "evidence.json"

    with pytest.raises(RunCostAboveCeilingError, match=r"USD 6\.0000 in one run") as caught:
        live.run(output, model_factory=live.factory(built=built))

    assert "above the live arm's per-run ceiling of USD 0.05" in str(caught.value)
    assert live.server.requests == []
    assert len(built) == 1  # built to learn its name and price, then closed unused
    assert not output.exists()


def test_the_output_reservation_counts_toward_the_bound(live: LiveKit, tmp_path: Path) -> None:
    # Input alone fits (4 x 16,000 x 0.5 = USD 0.032); 4 x 1,024 output tokens at USD 5 per
    # million add USD 0.0205 and cross USD 0.05.
    live.prices = PriceCatalog({live.model_name: ModelPrice(input=0.5, output=5.0)})
    with pytest.raises(RunCostAboveCeilingError, match="1024 max_output_tokens"):
        live.run(tmp_path / "evidence.json")
    assert live.server.requests == []


def test_the_shipped_ceiling_refuses_the_run_that_would_cross_usd_4(
    full_live: LiveKit, tmp_path: Path
) -> None:
    # One step per run and every call a full window at USD 0.048: each run spends just under
    # its USD 0.05 reservation, and after 83 of them spent + 0.05 = 3.984 + 0.05 > 4.00.
    profile = _priced(full_live, 0.048, steps=1)
    ceiling = CostCeiling()
    output = tmp_path / "evidence.json"

    result = full_live.run(output, ceiling=ceiling, policy_profile=profile)

    assert (ceiling.ceiling_usd, ceiling.per_run_usd) == (4.0, 0.05)
    assert (INVOCATION_CEILING_USD, PER_RUN_CEILING_USD) == (4.0, 0.05)
    assert 2 * len(full_live.probes) > 83
    assert result.stopped_by == "cost_ceiling"
    assert result.outcome == "failed"
    assert not output.exists()
    assert len(full_live.server.requests) == 83  # the 84th run was refused before it was sent
    assert ceiling.runs_admitted == 83
    assert ceiling.ceiling_hits == 1
    assert result.total_cost_usd == pytest.approx(83 * 0.048)
    assert result.total_cost_usd <= INVOCATION_CEILING_USD
    assert max(r.with_memory.cost_usd for r in result.rows) <= PER_RUN_CEILING_USD
    assert result.counts is not None and result.counts.ceiling_hits == 1
    assert result.incomplete == []
    assert result.counts.retried_runs == 0
    assert result.failed_conditions[0] == "stopped_by cost_ceiling: the corpus was not completed"
    assert "ceiling_hits 1 != 0" in result.failed_conditions


def test_a_small_ceiling_admits_only_while_spent_plus_the_per_run_ceiling_fits(
    live: LiveKit, tmp_path: Path
) -> None:
    profile = _priced(live, 0.03, steps=1)
    ceiling = CostCeiling(ceiling_usd=0.12)
    output = tmp_path / "evidence.json"

    result = live.run(output, ceiling=ceiling, policy_profile=profile)

    # 0 + .05, .03 + .05 and .06 + .05 fit in .12; .09 + .05 does not.
    assert len(live.server.requests) == 3
    assert ceiling.runs_admitted == 3
    assert result.runs_admitted == 3
    assert result.total_cost_usd == pytest.approx(0.09)
    assert result.stopped_by == "cost_ceiling"
    assert result.cost_ceiling_usd == 0.12
    assert not output.exists()
    assert [(r.scenario_id, r.probe_id) for r in result.rows] == [
        (live.corpus.scenarios[0].id, "p01")
    ]  # the second probe's without-memory arm was never run, so it has no row
    assert result.incomplete == []


def test_a_retry_is_admitted_through_the_same_ceiling_check(live: LiveKit, tmp_path: Path) -> None:
    live.server.enqueue(reply_error(500))  # the first with-memory run fails, unbilled
    ceiling = CostCeiling()

    result = live.run(tmp_path / "evidence.json", ceiling=ceiling)

    assert result.passed, result.diagnostics()
    assert result.counts is not None and result.counts.retried_runs == 1
    assert ceiling.runs_admitted == 2 * len(live.probes) + 1 == len(live.server.requests)
    assert result.runs_admitted == ceiling.runs_admitted


def test_a_retry_the_ceiling_refuses_stops_the_arm_and_keeps_the_billed_cost(
    live: LiveKit, tmp_path: Path
) -> None:
    # Two steps per run, each call at most USD 0.024. The first run makes one billed call of
    # USD 0.021 (a tool call the no-tools policy answers with an error), then its second call
    # fails with a 500: it ended ``failed`` after USD 0.021 was billed. Its retry would need
    # 0.021 + 0.05 <= 0.06, so the ceiling refuses it.
    profile = _priced(live, 0.021, steps=2)
    live.server.enqueue(
        reply_tool_call(
            "memory__remember",
            {"statement": "x"},
            model=live.model_name,
            prompt_tokens=live.reader.prompt_tokens,
            completion_tokens=0,
        ),
        reply_error(500),
    )
    ceiling = CostCeiling(ceiling_usd=0.06)
    output = tmp_path / "evidence.json"

    result = live.run(output, ceiling=ceiling, policy_profile=profile)

    assert len(live.server.requests) == 2  # the two calls of the first attempt, no retry
    assert ceiling.runs_admitted == 1
    assert ceiling.ceiling_hits == 1
    assert result.stopped_by == "cost_ceiling"
    assert result.total_cost_usd == pytest.approx(0.021)
    assert result.counts is not None
    assert result.counts.retried_runs == 0
    assert result.counts.incomplete_runs == 1
    assert result.counts.failure_classes == {"failed:TransientModelError": 1}
    (incomplete,) = result.incomplete
    assert incomplete.arm == "with_memory"
    assert (incomplete.status, incomplete.error_class) == ("failed", "TransientModelError")
    assert incomplete.billed
    assert incomplete.cost_usd == pytest.approx(0.021)
    assert incomplete.attempts == 1
    assert not output.exists()


def test_a_zero_priced_model_aborts_with_the_exact_message(live: LiveKit, tmp_path: Path) -> None:
    live.prices = PriceCatalog({})  # the catalog does not know the model: it costs zero
    output = tmp_path / "evidence.json"

    result = live.run(output)

    assert result.stopped_by == "pricing_unavailable"
    assert result.error == PRICING_UNAVAILABLE == "model pricing unavailable; ceiling unenforceable"
    assert len(live.server.requests) == 1  # the first completed run, then nothing more
    assert result.rows == []
    assert result.outcome == "failed"
    assert not output.exists()
    assert f"error: {PRICING_UNAVAILABLE}" in result.diagnostics()


def test_a_catalog_price_of_zero_aborts_too(live: LiveKit, tmp_path: Path) -> None:
    live.prices = PriceCatalog({live.model_name: ModelPrice(input=0.0, output=0.0)})

    result = live.run(tmp_path / "evidence.json")

    assert (result.stopped_by, result.error) == ("pricing_unavailable", PRICING_UNAVAILABLE)
    assert len(live.server.requests) == 1


def test_zero_cost_failures_before_the_first_completion_do_not_trip_the_guard(
    live: LiveKit, tmp_path: Path
) -> None:
    # Unbilled failures cost zero legitimately; the guard reads the first *completed* run.
    live.server.enqueue(reply_error(400), reply_error(500))
    ceiling = CostCeiling()

    result = live.run(tmp_path / "evidence.json", ceiling=ceiling)

    assert result.stopped_by is None
    assert result.total_cost_usd > 0
    assert len(live.server.requests) == 2 * len(live.probes) + 1  # the 500 was retried


def test_a_policy_that_lets_one_run_outspend_the_reservation_is_refused_before_spending(
    live: LiveKit, tmp_path: Path
) -> None:
    from memory_bench.live.arm import default_live_policy_profile
    from memory_core.errors import UsageError
    from memory_core.runtime.policy_profile import RunLimits

    generous = default_live_policy_profile().with_overrides(
        limits=RunLimits(max_steps=4, max_tokens=32_000, max_cost_usd=0.10)
    )

    with pytest.raises(UsageError, match="above the live arm's per-run ceiling"):
        live.run(tmp_path / "evidence.json", policy_profile=generous)
    assert live.server.requests == []
