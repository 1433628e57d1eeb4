"""The pre-admission cost ceiling and the zero-price guard."""

from __future__ import annotations

import pytest

from memory_bench.live.ceiling import PRICING_UNAVAILABLE, CostCeiling, PricingUnavailableError


def test_admits_while_spent_plus_per_run_fits() -> None:
    ceiling = CostCeiling(ceiling_usd=0.10, per_run_usd=0.05)
    assert ceiling.admit()
    ceiling.record(0.04, completed=True)
    assert ceiling.admit()  # 0.04 + 0.05 <= 0.10
    ceiling.record(0.04, completed=True)
    assert not ceiling.admit()  # 0.08 + 0.05 > 0.10
    assert ceiling.ceiling_hits == 1
    assert ceiling.runs_admitted == 2


def test_exact_fit_is_admitted() -> None:
    ceiling = CostCeiling(ceiling_usd=0.10, per_run_usd=0.05, spent_usd=0.05)
    assert ceiling.admit()


def test_zero_cost_first_completed_run_aborts() -> None:
    ceiling = CostCeiling()
    ceiling.admit()
    with pytest.raises(PricingUnavailableError, match=PRICING_UNAVAILABLE):
        ceiling.record(0.0, completed=True)


def test_failed_zero_cost_run_does_not_trip_the_guard_but_billed_failure_counts() -> None:
    ceiling = CostCeiling()
    ceiling.record(0.0, completed=False)
    ceiling.record(0.02, completed=False)
    ceiling.record(0.01, completed=True)
    assert ceiling.spent_usd == pytest.approx(0.03)
