"""The external metrics document: counts and derived ratios, caveats, and nothing of the data."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from memory_bench.provenance import PolicyVersions
from memory_bench.source_tree import SourceTree
from memory_bench_external import (
    ExternalMetrics,
    caveats_for,
    open_halumem,
    open_locomo,
    open_longmemeval,
    run_external,
)
from memory_bench_external.metrics import (
    BASELINE_RANKING,
    COMMON_CAVEATS,
    DATASET_CAVEATS,
    WORDS_RULE,
)
from memory_bench_external.run import MEMORY_RANKING

Records = Callable[[Path], list[dict[str, Any]]]

AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
SOURCE = SourceTree(commit="0123456789abcdef0123456789abcdef01234567")

CONTENT_KEYS = frozenset(
    {
        "text",
        "content",
        "question",
        "answer",
        "adversarial_answer",
        "memory_content",
        "blip_caption",
        "speaker",
        "speaker_a",
        "speaker_b",
        "sample_id",
        "question_id",
        "uuid",
        "persona_info",
        "dia_id",
        "img_url",
        "haystack_session_ids",
        "answer_session_ids",
    }
)
"""Fields whose values are the dataset's own content or identifiers."""


def _strings(value: Any, key: str | None = None) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, key)
    elif isinstance(value, str) and key in CONTENT_KEYS:
        yield value


def _metrics(which: str, path: Path, **options: Any) -> ExternalMetrics:
    opener = {"locomo": open_locomo, "longmemeval": open_longmemeval, "halumem": open_halumem}
    return ExternalMetrics.from_run(
        run_external(opener[which](path, **options)), source=SOURCE, recorded_at=AT
    )


@pytest.fixture
def fixture_paths(
    locomo_fixture: Path, longmemeval_fixture: Path, halumem_fixture: Path
) -> dict[str, Path]:
    return {
        "locomo": locomo_fixture,
        "longmemeval": longmemeval_fixture,
        "halumem": halumem_fixture,
    }


@pytest.mark.parametrize("which", ["locomo", "longmemeval", "halumem"])
def test_the_document_holds_no_dataset_text_identifier_or_path(
    which: str, fixture_paths: dict[str, Path], json_records: Records
) -> None:
    path = fixture_paths[which]
    text = _metrics(which, path).to_json()
    content = {s for s in _strings(json_records(path)) if len(s.strip()) >= 4}
    assert content, "the check must look at something"
    leaked = sorted(s for s in content if s in text)
    assert leaked == []
    assert str(path) not in text and path.name not in text and str(path.parent) not in text


def test_identity_figures_and_derived_ratios(locomo_fixture: Path) -> None:
    metrics = _metrics("locomo", locomo_fixture, sample=1, seed=3, principal_speaker="b")
    assert (metrics.dataset, metrics.license, metrics.arm) == (
        "locomo",
        "CC-BY-NC-4.0",
        "deterministic",
    )
    assert (metrics.population, metrics.sample, metrics.sample_size, metrics.seed) == (2, 1, 1, 3)
    assert metrics.principal_speaker == "b"
    assert metrics.schema_version == 4
    assert metrics.provenance.inputs == {
        "dataset_file": hashlib.sha256(locomo_fixture.read_bytes()).hexdigest()
    }
    assert (metrics.provenance.commit, metrics.provenance.dirty) == (SOURCE.commit, False)
    assert metrics.provenance.recorded_at == AT
    assert metrics.provenance.policies == PolicyVersions.current()
    assert (metrics.benchmark_version, metrics.extractor) == (
        "memory-benchmark@1",
        "DeterministicExtractor",
    )
    assert metrics.ks == [1, 5, 10]
    for arm in (metrics.memory, metrics.raw_turn_bm25):
        figures = arm.recall_at_k
        for k in ("1", "5", "10"):
            expected = round(figures.hits[k] / figures.probes, 4) if figures.probes else None
            assert figures.recall[k] == expected
        assert arm.noise == arm.returned - arm.matched
        assert arm.noise_ratio == (round(arm.noise / arm.returned, 4) if arm.returned else None)
        assert arm.tokens_per_probe == (
            round(arm.tokens / arm.probes_run, 4) if arm.probes_run else None
        )
    assert metrics.memory.probes_run == metrics.raw_turn_bm25.probes_run == metrics.probes.run
    assert metrics.end_to_end is None


def test_halumem_carries_end_to_end_figures(halumem_fixture: Path) -> None:
    metrics = _metrics("halumem", halumem_fixture)
    end_to_end = metrics.end_to_end
    assert end_to_end is not None
    assert "token F1" in end_to_end.match_rule
    assert end_to_end.formation_recall == round(end_to_end.supported / end_to_end.expected, 4)
    assert end_to_end.recall == round(end_to_end.needed_recalled / end_to_end.needed, 4)


def test_caveats_travel_with_the_numbers(longmemeval_fixture: Path) -> None:
    full = _metrics("longmemeval", longmemeval_fixture)
    sampled = _metrics("longmemeval", longmemeval_fixture, sample=2, seed=1)
    assert full.caveats == [*COMMON_CAVEATS, *DATASET_CAVEATS["longmemeval"]]
    assert any("model judge" in c for c in full.caveats)
    assert any("regex-based" in c for c in full.caveats)
    assert any("single-session-assistant" in c and "by design" in c for c in full.caveats)
    assert not any("sampled" in c for c in full.caveats)
    assert any("sampled subset" in c for c in sampled.caveats)
    assert list(caveats_for("locomo", sampled=False))[-3:] == list(DATASET_CAVEATS["locomo"])


def test_the_document_refuses_unknown_fields_and_round_trips(locomo_fixture: Path) -> None:
    metrics = _metrics("locomo", locomo_fixture)
    document = json.loads(metrics.to_json())
    assert ExternalMetrics.model_validate(document) == metrics
    with pytest.raises(ValidationError, match="extra"):
        ExternalMetrics.model_validate({**document, "statements": ["x"]})
    for old_field in ("file_sha256", "policies"):
        with pytest.raises(ValidationError, match="extra"):
            ExternalMetrics.model_validate({**document, old_field: "x"})
    unnamed = {**document, "provenance": {**document["provenance"], "inputs": {}}}
    with pytest.raises(ValidationError, match="dataset_file"):
        ExternalMetrics.model_validate(unnamed)
    assert metrics.to_json().endswith("}\n")


def test_each_arm_states_its_ranking_order_and_words_at_k(locomo_fixture: Path) -> None:
    metrics = _metrics("locomo", locomo_fixture)
    assert metrics.memory.ranking_order == MEMORY_RANKING
    assert metrics.memory.ranking_order.startswith("in-turn recall first")
    assert "question-blind session snapshot" in metrics.memory.ranking_order
    assert metrics.raw_turn_bm25.ranking_order == BASELINE_RANKING
    assert metrics.words_rule == WORDS_RULE
    for arm in (metrics.memory, metrics.raw_turn_bm25):
        words = arm.words_at_k
        assert words.probes == arm.recall_at_k.probes
        assert list(words.words) == list(words.per_probe) == ["1", "5", "10"]
        totals = [words.words[k] for k in ("1", "5", "10")]
        assert totals == sorted(totals) and totals[0] > 0
        for k, total in words.words.items():
            assert words.per_probe[k] == (round(total / words.probes, 4) if words.probes else None)
