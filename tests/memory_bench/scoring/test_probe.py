"""Per-probe counts: recall and its attribution, distance bins, noise, budgets, prefixes and
the forbidden-statement buckets."""

from __future__ import annotations

from typing import Any

from memory_bench.corpus import BenchmarkScenario
from memory_bench.scoring import ProbeObservation, score_probe


def _probe(scenario: BenchmarkScenario, probe_id: str) -> Any:
    return next(probe for probe in scenario.probes if probe.id == probe_id)


class World:
    """The relocation scenario's store after formation, as beliefs."""

    def __init__(self, make: Any) -> None:
        self.seattle = make.belief("user_model_attr", "home location", "User lives in Seattle.")
        self.portland = make.belief("user_model_attr", "home location", "User lives in Portland.")
        self.acme = make.belief("user_model_attr", "employment", "User works at Acme Labs.")
        self.wife = make.belief("relationship", "wife", "User's wife is Morgan.")
        self.concise = make.belief("preference", "answer style", "User prefers concise answers.")
        self.deploy = make.belief(
            "fact", "project decision", "The team decided to deploy on Fridays."
        )
        self.jazz = make.belief("preference", "music", "User likes jazz.")


def test_multi_hop_attribution_noise_and_distance(relocation: BenchmarkScenario, make: Any) -> None:
    w = World(make)
    observation = ProbeObservation(
        live_beliefs=[w.portland, w.acme, w.wife, w.concise, w.jazz],
        snapshot=make.trace("snapshot", [w.wife, w.concise, w.portland]),
        in_turn=[make.trace("in_turn", [w.wife, w.acme, w.jazz])],
        prefix_digests=["d1"],
        run_completed=True,
    )
    row = score_probe(_probe(relocation, "p02"), relocation, observation)
    c = row.counts
    assert (c.needed_total, c.needed_formed, c.needed_recalled) == (2, 2, 2)
    assert (c.recalled_snapshot_only, c.recalled_in_turn_only, c.recalled_both) == (0, 1, 1)
    assert (c.returned_snapshot, c.returned_in_turn, c.returned_total) == (3, 3, 5)
    # snapshot: concise, portland; in-turn: jazz; union: concise, portland, jazz.
    assert (c.noise_snapshot, c.noise_in_turn, c.noise_total) == (2, 1, 3)
    assert c.runs_completed == 1
    assert c.distinct_prefixes == 1
    # wife_morgan is stated in s02 (two sessions back), employer_acme in s01 (three back).
    assert [(b.distance, b.needed, b.formed, b.recalled) for b in row.by_distance] == [
        (2, 1, 1, 1),
        (3, 1, 1, 1),
    ]
    assert row.formed_labels == ("employer_acme", "wife_morgan")
    assert row.recalled_labels == ("employer_acme", "wife_morgan")
    assert row.key == "mb-relocation-update-001/p02"
    assert c.end_to_end_recall() == 1.0
    assert c.recall_given_formed() == 1.0
    assert c.noise_ratio() == 3 / 5


def test_unformed_and_unrecalled_labels(relocation: BenchmarkScenario, make: Any) -> None:
    w = World(make)
    observation = ProbeObservation(
        live_beliefs=[w.wife],
        snapshot=make.trace("snapshot", []),
        in_turn=[make.trace("in_turn", [])],
        prefix_digests=["d1", "d1"],
        run_completed=False,
    )
    row = score_probe(_probe(relocation, "p02"), relocation, observation)
    c = row.counts
    assert (c.needed_total, c.needed_formed, c.needed_recalled) == (2, 1, 0)
    assert (c.returned_total, c.noise_total, c.runs_completed, c.distinct_prefixes) == (
        0,
        0,
        0,
        1,
    )
    assert [(b.distance, b.needed, b.formed, b.recalled) for b in row.by_distance] == [
        (2, 1, 1, 0),
        (3, 1, 0, 0),
    ]
    assert c.end_to_end_recall() == 0.0
    assert c.recall_given_formed() == 0.0
    assert c.noise_ratio() is None


def test_recall_counts_returned_items_only(relocation: BenchmarkScenario, make: Any) -> None:
    w = World(make)
    observation = ProbeObservation(
        live_beliefs=[w.concise],
        snapshot=make.trace("snapshot", [], extra_traced=[w.concise]),
        in_turn=[],
        prefix_digests=[],
        run_completed=True,
    )
    c = score_probe(_probe(relocation, "p05"), relocation, observation).counts
    assert (c.needed_formed, c.needed_recalled, c.returned_total) == (1, 0, 0)


def test_snapshot_only_attribution(relocation: BenchmarkScenario, make: Any) -> None:
    w = World(make)
    observation = ProbeObservation(
        live_beliefs=[w.concise],
        snapshot=make.trace("snapshot", [w.concise]),
        in_turn=[make.trace("in_turn", [])],
        prefix_digests=["d1"],
        run_completed=True,
    )
    c = score_probe(_probe(relocation, "p05"), relocation, observation).counts
    assert (c.recalled_snapshot_only, c.recalled_in_turn_only, c.recalled_both) == (1, 0, 0)


def test_budget_blocked_and_prefixes(relocation: BenchmarkScenario, make: Any) -> None:
    w = World(make)
    observation = ProbeObservation(
        live_beliefs=[w.concise],
        snapshot=make.trace("snapshot", [w.concise], dropped=("x", "y"), blocked=("b1",)),
        in_turn=[
            # Operator tier expired: the surviving count stands in for the id list.
            make.trace("in_turn", [], dropped=None, dropped_count=3, blocked=("b2", "b3")),
        ],
        prefix_digests=["d1", "d2", "d1"],
        run_completed=True,
    )
    c = score_probe(_probe(relocation, "p05"), relocation, observation).counts
    assert c.dropped_for_budget == 5
    assert c.blocked_rendered == 3
    assert c.distinct_prefixes == 2


def test_update_probe_rendering_superseded_is_a_currency_violation_when_formed(
    relocation: BenchmarkScenario, make: Any
) -> None:
    w = World(make)
    observation = ProbeObservation(
        live_beliefs=[w.portland, w.seattle],
        snapshot=make.trace("snapshot", [w.seattle]),
        in_turn=[make.trace("in_turn", [w.seattle, w.portland])],
        prefix_digests=["d1"],
        run_completed=True,
    )
    c = score_probe(_probe(relocation, "p01"), relocation, observation).counts
    # One forbidden statement, rendered in two traces: counted once.
    assert (c.currency_violations, c.currency_unformed) == (1, 0)
    assert c.needed_recalled == 1


def test_update_probe_rendering_superseded_is_unformed_when_the_update_did_not_form(
    relocation: BenchmarkScenario, make: Any
) -> None:
    w = World(make)
    observation = ProbeObservation(
        live_beliefs=[w.seattle],
        snapshot=make.trace("snapshot", [w.seattle]),
        in_turn=[],
        prefix_digests=["d1"],
        run_completed=True,
    )
    c = score_probe(_probe(relocation, "p01"), relocation, observation).counts
    assert (c.currency_violations, c.currency_unformed) == (0, 1)
    assert c.needed_formed == 0


def test_update_probe_without_rendering_counts_nothing(
    relocation: BenchmarkScenario, make: Any
) -> None:
    w = World(make)
    observation = ProbeObservation(
        live_beliefs=[w.portland],
        snapshot=make.trace("snapshot", [w.portland]),
        in_turn=[],
        prefix_digests=["d1"],
        run_completed=True,
    )
    c = score_probe(_probe(relocation, "p01"), relocation, observation).counts
    assert (c.currency_violations, c.currency_unformed) == (0, 0)


def test_abstention_leak_and_protected_rendering(relocation: BenchmarkScenario, make: Any) -> None:
    w = World(make)
    token = make.belief("fact", "deploy script", "The token is api_key=REDACTED-DEPLOY-TOKEN.")
    manager = make.belief("relationship", "manager", "User's manager is Dana.")
    observation = ProbeObservation(
        live_beliefs=[token, manager],
        snapshot=make.trace("snapshot", [token, w.concise]),
        in_turn=[make.trace("in_turn", [manager])],
        prefix_digests=["d1"],
        run_completed=True,
    )
    c = score_probe(_probe(relocation, "p03"), relocation, observation).counts
    assert c.abstention_leaks == 2
    assert c.protected_rendered == 2
    assert (c.currency_violations, c.false_transfers, c.other_forbidden_rendered) == (0, 0, 0)
    assert c.noise_total == 3


def test_false_transfer(relocation: BenchmarkScenario, make: Any) -> None:
    w = World(make)
    observation = ProbeObservation(
        live_beliefs=[w.deploy],
        snapshot=None,
        in_turn=[make.trace("in_turn", [w.deploy])],
        prefix_digests=["d1"],
        run_completed=True,
    )
    c = score_probe(_probe(relocation, "p04"), relocation, observation).counts
    assert c.false_transfers == 1
    assert c.returned_snapshot == 0
    assert c.recalled_snapshot_only == 0


def test_other_category_forbidden_rendering(relocation: BenchmarkScenario, make: Any) -> None:
    long = make.belief("preference", "answer style", "User prefers long answers.")
    observation = ProbeObservation(
        live_beliefs=[long],
        snapshot=make.trace("snapshot", [long]),
        in_turn=[],
        prefix_digests=["d1"],
        run_completed=True,
    )
    c = score_probe(_probe(relocation, "p05"), relocation, observation).counts
    assert c.other_forbidden_rendered == 1
    assert c.needed_recalled == 0
