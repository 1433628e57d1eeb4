"""The maintenance worker runs the decay sweep on ``scheduled_enabled`` and its interval."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memory_core import Authority, Belief, BeliefStatus, BeliefType
from memory_core.bootstrap import Composition, build
from memory_core.domain import Principal

OWNER = Principal("tests", "owner")

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = 86_400


def _app(overlay: dict[str, Any] | None = None) -> tuple[Composition, Belief]:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True, profile_overlay=overlay)
    belief = app.storage.memories.put(
        Belief(
            id="inferred-fact-0001",
            tenant_id=app.principal.tenant_id,
            principal_id=app.principal.principal_id,
            belief_type=BeliefType.FACT,
            subject="build tool",
            statement="The project builds with Bazel.",
            scope="general",
            status=BeliefStatus.ACTIVE,
            authority=Authority.INFERRED,
            confidence=0.7,
            source_event_ids=("event-1",),
            valid_from=T0,
            last_evidence_at=T0,
            created_at=T0,
            updated_at=T0,
            consolidation_policy_version="formation@6",
        )
    )
    app.advance(31 * DAY)
    return app, belief


@pytest.mark.gate("gate.memory.decay_lifecycle")
@pytest.mark.gate("gate.memory.profiles_wired")
def test_the_worker_sweeps_once_per_interval_and_reports_the_counts() -> None:
    app, belief = _app()
    worker = app.maintenance_factory()
    first = worker.run_once()
    assert (first.decay_sweeps, first.beliefs_decayed, first.beliefs_retired) == (1, 1, 0)
    assert (worker.run_once().decay_sweeps, worker.run_once().beliefs_decayed) == (0, 0)
    app.advance(DAY)
    assert worker.run_once().beliefs_decayed == 1
    current = app.storage.memories.get(app.principal, belief.id)
    assert current is not None
    assert current.confidence == pytest.approx(0.5)


@pytest.mark.gate("gate.memory.profiles_wired")
def test_scheduled_interval_seconds_sets_the_cadence() -> None:
    app, _ = _app({"formation": {"scheduled_interval_seconds": 3600}})
    worker = app.maintenance_factory()
    assert worker.run_once().beliefs_decayed == 1
    app.advance(3599)
    assert worker.run_once().decay_sweeps == 0
    app.advance(1)
    assert worker.run_once().beliefs_decayed == 1


@pytest.mark.gate("gate.memory.profiles_wired")
def test_scheduled_enabled_false_never_sweeps() -> None:
    app, belief = _app({"formation": {"scheduled_enabled": False}})
    worker = app.maintenance_factory()
    for _ in range(3):
        report = worker.run_once()
        assert (report.decay_sweeps, report.beliefs_decayed, report.beliefs_retired) == (0, 0, 0)
        app.advance(DAY)
    assert app.storage.memories.get(app.principal, belief.id) == belief
