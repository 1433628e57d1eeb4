"""The BM25 raw-turn baseline over the principal's turns."""

from __future__ import annotations

from pathlib import Path

from memory_bench_external import (
    RawTurnIndex,
    load_halumem,
    load_locomo,
    load_longmemeval,
    run_raw_turn_baseline,
)
from memory_core.tokenizer import estimate_tokens


def test_index_holds_principal_turns_only(locomo_fixture: Path) -> None:
    conv = load_locomo(locomo_fixture).instances[0]
    index = RawTurnIndex(conv)
    principal_turns = sum(t.is_principal for s in conv.sessions for t in s.turns)
    assert index.size == principal_turns == 7
    # Tobias's marathon is never returned: he is not the principal.
    assert all(
        conv.turn(hit.turn_id) is not None and conv.turn(hit.turn_id).is_principal  # type: ignore[union-attr]
        for hit in index.search("marathon half Lisbon", k=10)
    )
    assert index.search("marathon Lisbon", k=10) == ()


def test_search_ranks_by_bm25_and_breaks_ties_by_dataset_order(locomo_fixture: Path) -> None:
    index = RawTurnIndex(load_locomo(locomo_fixture).instances[0])
    hits = index.search("Where does Orla live now, Tallinn?", k=10)
    # Both turns hold "tallinn" once among six lexemes: equal scores, dataset order decides.
    assert [h.turn_id for h in hits] == ["D2:2", "D2:5"]
    assert hits[0].score == hits[1].score > 0
    assert [h.rank for h in hits] == [1, 2]
    ranked = index.search("Maeve in Tallinn", k=10)
    assert [h.turn_id for h in ranked] == ["D2:5", "D2:2"]
    assert ranked[0].score > ranked[1].score
    assert index.search("Tallinn", k=1)[0].turn_id == "D2:2"
    assert index.search("the of and", k=5) == ()


def test_longmemeval_baseline_never_sees_assistant_turns(longmemeval_fixture: Path) -> None:
    result = run_raw_turn_baseline(load_longmemeval(longmemeval_fixture).instances)
    rows = {row.outcome.probe_id: row for row in result.probes}
    assert rows["7c6b5a49"].outcome.first_hit is None  # the evidence is an assistant turn
    assert rows["f1a2b3c4"].outcome.first_hit == 1
    assert result.summary.separately.probes == 1
    assert result.summary.separately.at(10) == 0
    assert result.summary.overall.probes == 3
    assert result.summary.overall.hits == ((1, 3), (5, 3), (10, 3))


def test_tokens_are_the_rendered_block(halumem_fixture: Path) -> None:
    result = run_raw_turn_baseline(load_halumem(halumem_fixture).instances)
    for row in result.probes:
        assert row.outcome.tokens == estimate_tokens(row.block)
        assert len(row.retrieved) <= result.k == 10
        assert (row.block == "") == (not row.retrieved)
    assert result.summary.tokens == sum(row.outcome.tokens for row in result.probes)


def test_excluded_probes_are_not_run_and_runs_are_deterministic(locomo_fixture: Path) -> None:
    dataset = load_locomo(locomo_fixture)
    first = run_raw_turn_baseline(dataset.instances)
    scored = [p for p in dataset.probes if p.scored]
    assert len(first.probes) == len(scored) == 8
    assert first == run_raw_turn_baseline(load_locomo(locomo_fixture).instances)
    assert first.summary.overall.probes == 7  # the adversarial probe counts tokens only
