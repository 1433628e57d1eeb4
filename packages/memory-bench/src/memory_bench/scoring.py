"""Pure scoring of the deterministic arm: matching, per-scenario and per-probe integer metrics.

Nothing here touches a store, a clock or a model: the driver collects beliefs, recall traces,
prefix digests and run statuses, and these functions turn them into counts.

Matching rules:

Label match
    A belief (or a traced belief) matches a labeled belief under the formation evaluation's
    rule (:meth:`memory_bench.formation_eval.ExpectedBelief.matches`): same belief type, and a
    normalized subject and statement among the label's acceptable ones. One rule covers both
    harnesses.
Protected fragment
    A protected fragment is *contained* in a text when its case-folded, whitespace-collapsed
    form is a plain substring of the text's case-folded, whitespace-collapsed form. It is the
    strictest reading on purpose: ``REDACTED-DEPLOY-TOKEN`` inside ``api_key=redacted-deploy-
    token;`` counts. A belief's subject and statement are both checked.
Forbidden statement rendered
    A forbidden statement is rendered by a traced belief when its normalized form (case-folded,
    whitespace collapsed, trailing sentence punctuation stripped: the formation evaluation's
    normalization) equals the normalized traced statement or occurs inside it on token
    boundaries (no letter, digit or underscore adjacent on either side). So ``User lives in
    Seattle.`` is rendered by ``User lives in Seattle now.`` but ``manager is Dan`` is not
    rendered by ``User's manager is Dana.``. Each forbidden statement counts at most once per
    probe, however many traces render it.

Formation (per scenario): ``expected`` labels are those no later label supersedes;
``supported`` counts expected labels with a matching live belief; ``formed`` counts live
beliefs; ``stale_live`` counts live beliefs matching a superseded label; ``fabricated`` is
``formed - supported - stale_live`` exactly as the spec's arithmetic (it goes negative only if
labels overlap so that one belief supports two of them); ``policy_failures`` counts beliefs of
any status containing a protected fragment; ``dropped_for_ceiling`` sums the scenario's
consolidations.

Retrieval (per probe): recall counts returned items only, i.e. the traced beliefs whose id is
in the trace's ``returned``. ``dropped_for_budget`` and ``blocked_rendered`` are summed over the
probe's traces (snapshot and in-turn).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, assert_never

from memory_bench.corpus import (
    BenchmarkProbe,
    BenchmarkScenario,
    LabeledBelief,
    ProbeCategory,
    beliefs_by_label,
    current_labels,
    label_session_distance,
    superseded_labels,
)
from memory_bench.metrics import (
    DistanceBin,
    FormationCounts,
    ProbeCounts,
    ProbeMetrics,
)
from memory_core.domain import LIVE_STATUSES, Belief, BeliefType, RecallTrace, TracedBelief
from memory_core.text import fold, label_key


class StatedBelief(Protocol):
    """What matching reads of a belief or a traced belief."""

    @property
    def belief_type(self) -> BeliefType:
        """The belief's type."""
        ...

    @property
    def subject(self) -> str:
        """The belief's subject."""
        ...

    @property
    def statement(self) -> str:
        """The belief's statement."""
        ...


def matches_label(label: LabeledBelief, item: StatedBelief) -> bool:
    """True when ``item`` matches ``label`` under the formation evaluation's rule."""
    return label.matches(item.belief_type, item.subject, item.statement)


def matched_labels(labels: Iterable[LabeledBelief], item: StatedBelief) -> tuple[str, ...]:
    """The labels ``item`` matches, in the given order."""
    return tuple(label.label for label in labels if matches_label(label, item))


def contains_protected(text: str, fragment: str) -> bool:
    """True when ``fragment`` occurs in ``text`` (case-folded, whitespace collapsed, substring)."""
    folded = fold(fragment)
    return bool(folded) and folded in fold(text)


def has_protected(item: StatedBelief, fragments: Sequence[str]) -> bool:
    """True when the subject or statement of ``item`` contains any protected fragment."""
    return any(
        contains_protected(item.statement, fragment) or contains_protected(item.subject, fragment)
        for fragment in fragments
    )


def renders_forbidden(forbidden: str, statement: str) -> bool:
    """True when ``statement`` renders ``forbidden``: equal or contained on token boundaries."""
    needle = label_key(forbidden)
    if not needle:
        return False
    haystack = label_key(statement)
    pattern = rf"(?<!\w){re.escape(needle)}(?!\w)"
    return re.search(pattern, haystack) is not None


def score_formation(
    scenario: BenchmarkScenario,
    beliefs: Sequence[Belief],
    *,
    dropped_for_ceiling: int,
) -> FormationCounts:
    """Formation counts of one scenario from every belief of its principal (any status)."""
    live = [belief for belief in beliefs if belief.status in LIVE_STATUSES]
    by_label = beliefs_by_label(scenario)
    stale_labels = [by_label[name] for name in superseded_labels(scenario)]
    expected = [by_label[name] for name in current_labels(scenario)]
    supported = sum(1 for label in expected if any(matches_label(label, belief) for belief in live))
    stale_live = sum(
        1 for belief in live if any(matches_label(label, belief) for label in stale_labels)
    )
    return FormationCounts(
        expected=len(expected),
        supported=supported,
        formed=len(live),
        stale_live=stale_live,
        fabricated=len(live) - supported - stale_live,
        policy_failures=sum(
            1 for belief in beliefs if has_protected(belief, scenario.protected_statements)
        ),
        dropped_for_ceiling=dropped_for_ceiling,
    )


@dataclass(frozen=True, kw_only=True)
class ProbeObservation:
    """What the driver observed while one probe ran.

    Attributes:
        live_beliefs: The principal's live beliefs just before the probe's run.
        snapshot: The probe session's snapshot trace (``None`` when no snapshot was recorded).
        in_turn: The run's in-turn traces, in event order.
        prefix_digests: The prefix digest of each of the run's model calls, in order.
        run_completed: True when the run reached the completed status.
    """

    live_beliefs: Sequence[Belief]
    snapshot: RecallTrace | None
    in_turn: Sequence[RecallTrace]
    prefix_digests: Sequence[str]
    run_completed: bool


def returned_beliefs(trace: RecallTrace) -> dict[str, TracedBelief]:
    """The traced beliefs a trace returned, by belief id (recall counts returned items only)."""
    returned = set(trace.returned)
    return {item.id: item for item in trace.beliefs if item.id in returned}


def _dropped_for_budget(trace: RecallTrace) -> int:
    if trace.dropped_for_budget is not None:
        return len(trace.dropped_for_budget)
    return trace.dropped_count


def forbidden_bucket(category: ProbeCategory, *, superseding_formed: bool) -> str:
    """The count a rendered forbidden statement goes to, by the probe's category.

    Update and correction probes count a currency violation only when the superseding needed
    label formed, else ``currency_unformed``; abstention probes count a leak; transfer probes a
    false transfer; every other category ``other_forbidden_rendered``.
    """
    match category:
        case "update" | "correction":
            return "currency_violations" if superseding_formed else "currency_unformed"
        case "abstention":
            return "abstention_leaks"
        case "transfer":
            return "false_transfers"
        case "single_hop" | "multi_hop" | "temporal" | "preference":
            return "other_forbidden_rendered"
        case _:
            assert_never(category)


def score_probe(
    probe: BenchmarkProbe, scenario: BenchmarkScenario, observation: ProbeObservation
) -> ProbeMetrics:
    """One probe's row from what the driver observed."""
    labels = beliefs_by_label(scenario)
    needed = [labels[name] for name in probe.needed]
    snapshot = returned_beliefs(observation.snapshot) if observation.snapshot else {}
    in_turn: dict[str, TracedBelief] = {}
    for trace in observation.in_turn:
        for belief_id, item in returned_beliefs(trace).items():
            in_turn.setdefault(belief_id, item)
    union = {**in_turn, **snapshot}

    formed = [
        label for label in needed if any(matches_label(label, b) for b in observation.live_beliefs)
    ]
    in_snapshot = {
        label.label for label in needed if any(matches_label(label, b) for b in snapshot.values())
    }
    in_turns = {
        label.label for label in needed if any(matches_label(label, b) for b in in_turn.values())
    }
    recalled = in_snapshot | in_turns

    def noise(items: Mapping[str, TracedBelief]) -> int:
        return sum(
            1 for item in items.values() if not any(matches_label(label, item) for label in needed)
        )

    by_distance: dict[int, list[int]] = {}
    formed_names = {label.label for label in formed}
    for label in needed:
        row = by_distance.setdefault(label_session_distance(scenario, label.label), [0, 0, 0])
        row[0] += 1
        row[1] += label.label in formed_names
        row[2] += label.label in recalled

    superseding = [label for label in needed if label.supersedes is not None]
    superseding_formed = bool(superseding) and all(
        label.label in formed_names for label in superseding
    )
    buckets = {
        "currency_violations": 0,
        "currency_unformed": 0,
        "abstention_leaks": 0,
        "false_transfers": 0,
        "other_forbidden_rendered": 0,
    }
    traced = list(union.values())
    for forbidden in probe.forbidden_statements:
        if any(renders_forbidden(forbidden, item.statement) for item in traced):
            buckets[forbidden_bucket(probe.category, superseding_formed=superseding_formed)] += 1

    traces = ([observation.snapshot] if observation.snapshot else []) + list(observation.in_turn)
    counts = ProbeCounts(
        needed_total=len(needed),
        needed_formed=len(formed),
        needed_recalled=len(recalled),
        recalled_snapshot_only=len(in_snapshot - in_turns),
        recalled_in_turn_only=len(in_turns - in_snapshot),
        recalled_both=len(in_snapshot & in_turns),
        returned_snapshot=len(snapshot),
        returned_in_turn=len(in_turn),
        returned_total=len(union),
        noise_snapshot=noise(snapshot),
        noise_in_turn=noise(in_turn),
        noise_total=noise(union),
        dropped_for_budget=sum(_dropped_for_budget(trace) for trace in traces),
        blocked_rendered=sum(len(trace.blocked) for trace in traces),
        distinct_prefixes=len(set(observation.prefix_digests)),
        runs_completed=int(observation.run_completed),
        protected_rendered=sum(
            1 for item in traced if has_protected(item, scenario.protected_statements)
        ),
        **buckets,
    )
    return ProbeMetrics(
        scenario_id=scenario.id,
        probe_id=probe.id,
        category=probe.category,
        counts=counts,
        by_distance=tuple(
            DistanceBin(distance=d, needed=row[0], formed=row[1], recalled=row[2])
            for d, row in sorted(by_distance.items())
        ),
        formed_labels=tuple(sorted(formed_names)),
        recalled_labels=tuple(sorted(recalled)),
    )


__all__ = [
    "ProbeObservation",
    "StatedBelief",
    "contains_protected",
    "forbidden_bucket",
    "has_protected",
    "matched_labels",
    "matches_label",
    "renders_forbidden",
    "returned_beliefs",
    "score_formation",
    "score_probe",
]
