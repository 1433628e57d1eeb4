"""Where a scenario sits on the fixed clock, and which labels are current.

The driver advances the clock before each session, before each turn and before each probe,
cumulatively and in order; maintenance runs after the last session. Every instant below is that
same arithmetic, in whole seconds from ``start_at``, so the validators and the driver agree on
the timeline without running anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from memory_bench.corpus._models import BenchmarkScenario, LabeledBelief

SECONDS_PER_DAY = 86_400


@dataclass(frozen=True, kw_only=True)
class SessionWindow:
    """A session's place on the clock.

    Attributes:
        session_id: The session's identifier.
        index: Its 0-based position in the scenario.
        project_scope: Its project scope, ``None`` for the general scope.
        opened_offset: Seconds from ``start_at`` once the session's own advance has happened.
        closed_offset: Seconds from ``start_at`` after its last turn: the instant it is
            consolidated, which is when the beliefs it states can first exist.
    """

    session_id: str
    index: int
    project_scope: str | None
    opened_offset: int
    closed_offset: int


@dataclass(frozen=True, kw_only=True)
class ScenarioTimeline:
    """Every session window and probe instant of one scenario, in whole seconds.

    Attributes:
        start_at: The scenario's starting instant.
        sessions: The session windows, in scenario order.
        probe_offsets: ``(probe_id, seconds from start_at)`` in probe order.
    """

    start_at: datetime
    sessions: tuple[SessionWindow, ...]
    probe_offsets: tuple[tuple[str, int], ...]

    def session(self, session_id: str) -> SessionWindow:
        """Return the window of ``session_id``.

        Raises:
            KeyError: The scenario has no such session.
        """
        for window in self.sessions:
            if window.session_id == session_id:
                return window
        raise KeyError(session_id)

    def probe_offset(self, probe_id: str) -> int:
        """Return the seconds from ``start_at`` at which ``probe_id`` is asked.

        Raises:
            KeyError: The scenario has no such probe.
        """
        for candidate, offset in self.probe_offsets:
            if candidate == probe_id:
                return offset
        raise KeyError(probe_id)

    def at(self, offset: int) -> datetime:
        """Return the instant ``offset`` seconds after ``start_at``."""
        return self.start_at + timedelta(seconds=offset)

    @property
    def last_session_offset(self) -> int:
        """Seconds from ``start_at`` to the close of the last session."""
        return self.sessions[-1].closed_offset if self.sessions else 0

    @property
    def span_seconds(self) -> int:
        """Seconds from ``start_at`` to the last instant the scenario reaches (its last probe,
        or the close of its last session when it has no probe)."""
        last_probe = self.probe_offsets[-1][1] if self.probe_offsets else 0
        return max(self.last_session_offset, last_probe)


def scenario_timeline(scenario: BenchmarkScenario) -> ScenarioTimeline:
    """Lay out ``scenario`` on the clock exactly as the driver advances it."""
    offset = 0
    windows: list[SessionWindow] = []
    for index, session in enumerate(scenario.sessions):
        offset += session.advance_seconds
        opened = offset
        for turn in session.turns:
            offset += turn.advance_seconds
        windows.append(
            SessionWindow(
                session_id=session.id,
                index=index,
                project_scope=session.project_scope,
                opened_offset=opened,
                closed_offset=offset,
            )
        )
    probes: list[tuple[str, int]] = []
    for probe in scenario.probes:
        offset += probe.advance_seconds
        probes.append((probe.id, offset))
    return ScenarioTimeline(
        start_at=scenario.start_at, sessions=tuple(windows), probe_offsets=tuple(probes)
    )


def cumulative_advance_seconds(scenario: BenchmarkScenario, session_id: str, probe_id: str) -> int:
    """Seconds the clock advances from the close of ``session_id`` to the asking of ``probe_id``.

    This is the age a belief stated in that session has when the probe reads it: every later
    session's and turn's advance, plus every probe advance up to and including the probe's own
    (probe advances accumulate in probe order). The temporal category requires at least
    thirty days of it.

    Raises:
        KeyError: The scenario has no such session or probe.
    """
    timeline = scenario_timeline(scenario)
    return timeline.probe_offset(probe_id) - timeline.session(session_id).closed_offset


def scenario_span_seconds(scenario: BenchmarkScenario) -> int:
    """Seconds from ``start_at`` to the last probe (or the last session close, if later)."""
    return scenario_timeline(scenario).span_seconds


def beliefs_by_label(scenario: BenchmarkScenario) -> dict[str, LabeledBelief]:
    """Map each label to its belief (the first one, should a label repeat)."""
    mapping: dict[str, LabeledBelief] = {}
    for belief in scenario.beliefs:
        mapping.setdefault(belief.label, belief)
    return mapping


def superseded_labels(scenario: BenchmarkScenario) -> tuple[str, ...]:
    """Labels some later label supersedes, in belief declaration order."""
    targets = {belief.supersedes for belief in scenario.beliefs if belief.supersedes is not None}
    return _in_declaration_order(scenario.beliefs, targets)


def current_labels(scenario: BenchmarkScenario) -> tuple[str, ...]:
    """Labels no later label supersedes (the formation metric's ``expected``), in declaration
    order."""
    targets = {belief.supersedes for belief in scenario.beliefs if belief.supersedes is not None}
    return _in_declaration_order(
        scenario.beliefs, {b.label for b in scenario.beliefs if b.label not in targets}
    )


def label_session_distance(scenario: BenchmarkScenario, label: str) -> int:
    """How many sessions back ``label`` is stated, seen from the probes: the last session is 1.

    Raises:
        KeyError: The label, or the session it names, does not exist in the scenario.
    """
    belief = beliefs_by_label(scenario)[label]
    window = scenario_timeline(scenario).session(belief.session)
    return len(scenario.sessions) - window.index


def _in_declaration_order(beliefs: Iterable[LabeledBelief], wanted: set[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for belief in beliefs:
        if belief.label in wanted:
            seen.setdefault(belief.label, None)
    return tuple(seen)
