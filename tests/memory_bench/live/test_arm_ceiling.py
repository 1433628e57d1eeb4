"""Gate 8: the live arm stops before it exceeds its ceiling.

Through a real chat-completions server on 127.0.0.1 with priced replies: the pre-admission check
refuses the run that would cross the ceiling (the shipped USD 4.00 with expensive prices, and a
small ceiling), records ``stopped_by="cost_ceiling"`` and publishes nothing; a retry goes through
the same check; a model priced at zero aborts the arm with the exact message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import reply_error, reply_tool_call

from memory_bench.live.ceiling import (
    INVOCATION_CEILING_USD,
    PER_RUN_CEILING_USD,
    PRICING_UNAVAILABLE,
    CostCeiling,
)
from memory_core.runtime.pricing import ModelPrice, PriceCatalog

LiveKit = Any  # the ``live`` fixture (tests/memory_bench/live/conftest.py)

pytestmark = pytest.mark.gate("gate.memory.bench_cost_ceiling")


def _priced(live: LiveKit, usd_per_call: float) -> None:
    """Price the reader's 100-input-token calls at ``usd_per_call`` (output tokens free)."""
    live.prices = PriceCatalog(
        {live.model_name: ModelPrice(input=usd_per_call * 1_000_000 / 100, output=0.0)}
    )
    live.reader.completion_tokens = 0


def test_the_shipped_ceiling_refuses_the_run_that_would_cross_usd_4(
    live: LiveKit, tmp_path: Path
) -> None:
    # One call costs USD 1.00: each run blows its own USD 0.05 budget (a runtime-decided
    # termination, never retried), and after four of them spent + 0.05 > 4.00.
    _priced(live, 1.0)
    ceiling = CostCeiling()
    output = tmp_path / "evidence.json"

    result = live.run(output, ceiling=ceiling)

    assert (ceiling.ceiling_usd, ceiling.per_run_usd) == (4.0, 0.05)
    assert (INVOCATION_CEILING_USD, PER_RUN_CEILING_USD) == (4.0, 0.05)
    assert result.stopped_by == "cost_ceiling"
    assert result.outcome == "failed"
    assert not output.exists()
    assert len(live.server.requests) == 4  # the fifth run was refused before it was sent
    assert ceiling.runs_admitted == 4
    assert ceiling.ceiling_hits == 1
    assert result.total_cost_usd == pytest.approx(4.0)
    assert result.counts is not None and result.counts.ceiling_hits == 1
    assert {run.status for run in result.incomplete} == {"budget_exhausted"}
    assert result.counts.retried_runs == 0
    assert result.failed_conditions[0] == "stopped_by cost_ceiling: the corpus was not completed"
    assert "ceiling_hits 1 != 0" in result.failed_conditions


def test_a_small_ceiling_admits_only_while_spent_plus_the_per_run_ceiling_fits(
    live: LiveKit, tmp_path: Path
) -> None:
    _priced(live, 0.03)
    ceiling = CostCeiling(ceiling_usd=0.12)
    output = tmp_path / "evidence.json"

    result = live.run(output, ceiling=ceiling)

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
    # The first run makes one billed call (a tool call the no-tools policy answers with an
    # error), then its second call fails with a 500: it ended ``failed`` after USD 0.03 was
    # billed. Its retry would need 0.03 + 0.05 <= 0.07, so the ceiling refuses it.
    _priced(live, 0.03)
    live.server.enqueue(
        reply_tool_call("memory__remember", {"statement": "x"}, model=live.model_name),
        reply_error(500),
    )
    ceiling = CostCeiling(ceiling_usd=0.07)
    output = tmp_path / "evidence.json"

    result = live.run(output, ceiling=ceiling)

    assert len(live.server.requests) == 2  # the two calls of the first attempt, no retry
    assert ceiling.runs_admitted == 1
    assert ceiling.ceiling_hits == 1
    assert result.stopped_by == "cost_ceiling"
    assert result.total_cost_usd == pytest.approx(0.03)
    assert result.counts is not None
    assert result.counts.retried_runs == 0
    assert result.counts.incomplete_runs == 1
    assert result.counts.failure_classes == {"failed:TransientModelError": 1}
    (incomplete,) = result.incomplete
    assert incomplete.arm == "with_memory"
    assert (incomplete.status, incomplete.error_class) == ("failed", "TransientModelError")
    assert incomplete.billed
    assert incomplete.cost_usd == pytest.approx(0.03)
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
