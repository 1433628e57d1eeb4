"""Gate 8 with a server that stops reporting usage: an unknown cost is never counted as free.

Before issue 22 a reply without ``usage`` was priced at zero tokens: as the first run it read
as "pricing unavailable", and as any later run it was silently admitted as free, so the
ceiling arithmetic no longer bounded what was spent. Now any run with an unknown cost stops
the arm (``stopped_by="pricing_unavailable"``, :data:`COST_UNKNOWN`) and nothing is published.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import Reply

from memory_bench.live.ceiling import COST_UNKNOWN, CostCeiling, PricingUnavailableError

LiveKit = Any  # the ``live`` fixture (tests/memory_bench/live/conftest.py)

pytestmark = pytest.mark.gate("gate.memory.bench_cost_ceiling")


def test_the_ceiling_refuses_an_unknown_cost_even_after_priced_runs() -> None:
    gauge = CostCeiling()
    gauge.record(0.001, completed=True)
    gauge.record(0.001, completed=True)
    with pytest.raises(PricingUnavailableError, match="no token usage"):
        gauge.record(0.0, completed=True, cost_known=False, usage_reported=False)


def test_a_later_reply_without_usage_stops_the_arm(live: LiveKit, tmp_path: Path) -> None:
    reader = live.reader

    def answer(payload: dict[str, Any]) -> Reply:
        reply: Reply = reader(payload)
        if len(live.server.requests) > 4:  # the first four calls are metered, then none
            del reply.body["usage"]
        return reply

    live.server.responder = answer
    output = tmp_path / "evidence.json"
    result = live.run(output)
    assert (result.outcome, result.stopped_by, result.error) == (
        "failed",
        "pricing_unavailable",
        COST_UNKNOWN,
    )
    assert len(live.server.requests) == 5  # it stopped at the first unmetered run
    assert not output.exists()
