"""The corpus loader: digest semantics and typed errors for malformed files."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memory_bench.corpus import (
    CorpusError,
    CorpusFormatError,
    CorpusRuleError,
    corpus_digest,
    load_corpus,
    parse_corpus,
)
from memory_core.errors import UsageError

CorpusData = dict[str, Any]


def _write_bytes(tmp_path: Path, data: bytes, name: str = "corpus.json") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_load_returns_the_corpus_and_the_sha256_of_the_file_bytes(
    inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    data = json.dumps(inline_corpus(), indent=2).encode("utf-8")
    path = _write_bytes(tmp_path, data)

    corpus, digest = load_corpus(path)

    assert digest == hashlib.sha256(data).hexdigest()
    assert digest == corpus_digest(data)
    assert corpus.scenarios[0].id == "mb-inline-a-000"


def test_the_digest_names_the_bytes_not_the_parsed_document(
    inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    document = inline_corpus()
    compact = _write_bytes(tmp_path, json.dumps(document).encode(), "compact.json")
    indented = _write_bytes(tmp_path, json.dumps(document, indent=4).encode(), "indented.json")

    first, first_digest = load_corpus(compact)
    second, second_digest = load_corpus(indented)

    assert first == second
    assert first_digest != second_digest


def test_the_checked_in_digest_is_stable_across_loads(checked_in_path: Path) -> None:
    _, first = load_corpus(checked_in_path)
    _, second = load_corpus(checked_in_path)

    assert first == second == hashlib.sha256(checked_in_path.read_bytes()).hexdigest()


def test_a_truncated_file_is_refused_naming_the_file_and_position(
    inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    data = json.dumps(inline_corpus()).encode()
    path = _write_bytes(tmp_path, data[: len(data) // 2])

    with pytest.raises(CorpusFormatError) as caught:
        load_corpus(path)

    message = str(caught.value)
    assert message.startswith(f"{path}: not valid JSON at line 1 column ")
    assert "truncated" in message
    assert caught.value.source == str(path)


@pytest.mark.parametrize(
    ("document", "kind"),
    [("[]", "array"), ('"corpus"', "string"), ("42", "number"), ("null", "null")],
)
def test_a_wrong_top_level_shape_is_refused(document: str, kind: str, tmp_path: Path) -> None:
    path = _write_bytes(tmp_path, document.encode())

    with pytest.raises(CorpusFormatError) as caught:
        load_corpus(path)

    message = str(caught.value)
    assert str(path) in message
    assert f"the top level is a JSON {kind}" in message
    assert "schema_version, probe_instruction, abstain_phrase and scenarios" in message


def test_a_missing_field_is_refused_naming_file_scenario_probe_and_field(
    inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    document = inline_corpus()
    del document["scenarios"][7]["probes"][1]["answer"]
    path = _write_bytes(tmp_path, json.dumps(document).encode())

    with pytest.raises(CorpusFormatError) as caught:
        load_corpus(path)

    error = caught.value
    assert error.field == "scenarios[7].probes[1].answer"
    assert error.scenario_id == "mb-inline-b-001"
    assert error.probe_id == "p02"
    assert str(error).startswith(f"{path}: the corpus does not fit the schema (1 problem)")
    assert "scenario mb-inline-b-001 probe p02 field scenarios[7].probes[1].answer" in str(error)
    assert "Field required" in str(error)


def test_a_missing_top_level_field_names_it(
    inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    document = inline_corpus()
    del document["scenarios"]
    path = _write_bytes(tmp_path, json.dumps(document).encode())

    with pytest.raises(CorpusFormatError) as caught:
        load_corpus(path)

    assert caught.value.field == "scenarios"
    assert caught.value.scenario_id is None
    assert "field scenarios: Field required" in str(caught.value)


def test_a_scenario_without_an_id_is_named_by_position(
    inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    document = inline_corpus()
    del document["scenarios"][3]["id"]
    path = _write_bytes(tmp_path, json.dumps(document).encode())

    with pytest.raises(CorpusFormatError) as caught:
        load_corpus(path)

    assert caught.value.scenario_id == "scenarios[3]"
    assert caught.value.field == "scenarios[3].id"


def test_every_schema_problem_is_listed(
    inline_corpus: Callable[[], CorpusData], tmp_path: Path
) -> None:
    document = inline_corpus()
    document["scenarios"][0]["title"] = ""
    document["scenarios"][2]["probes"][0]["question"] = ""
    path = _write_bytes(tmp_path, json.dumps(document).encode())

    with pytest.raises(CorpusFormatError) as caught:
        load_corpus(path)

    message = str(caught.value)
    assert "(2 problems)" in message
    assert "field scenarios[0].title" in message
    assert "scenario mb-inline-a-002 probe p01 field scenarios[2].probes[0].question" in message


def test_a_missing_file_is_a_format_error(tmp_path: Path) -> None:
    path = tmp_path / "absent.json"

    with pytest.raises(CorpusFormatError) as caught:
        load_corpus(path)

    assert str(caught.value).startswith(f"{path}: cannot read the corpus file")
    assert "--corpus" in str(caught.value)


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = _write_bytes(tmp_path, b'{"schema_version": 1, "x": "\xff"}')

    with pytest.raises(CorpusFormatError, match="not UTF-8"):
        load_corpus(path)


def test_a_duplicated_key_is_refused_rather_than_silently_overwritten(tmp_path: Path) -> None:
    path = _write_bytes(tmp_path, b'{"schema_version": 1, "schema_version": 1}')

    with pytest.raises(CorpusFormatError) as caught:
        load_corpus(path)

    assert caught.value.field == "schema_version"
    assert "appears twice" in str(caught.value)


def test_corpus_errors_are_usage_errors() -> None:
    assert issubclass(CorpusError, UsageError)
    assert issubclass(CorpusFormatError, CorpusError)
    assert issubclass(CorpusRuleError, CorpusError)


def test_parse_names_the_given_source(inline_corpus: Callable[[], CorpusData]) -> None:
    document = inline_corpus()
    document["scenarios"][0]["probes"][0]["needed"] = ["ghost"]

    with pytest.raises(CorpusRuleError) as caught:
        parse_corpus(json.dumps(document), source="inline-test")

    assert str(caught.value).startswith("inline-test: the corpus breaks 1 rule")
    assert "scenario mb-inline-a-000 probe p01 rule scenario.needed_resolves" in str(caught.value)


def test_every_violation_is_reported_in_scenario_order(
    inline_corpus: Callable[[], CorpusData],
) -> None:
    document = inline_corpus()
    document["scenarios"][4]["probes"][0]["needed"] = ["ghost"]
    document["scenarios"][1]["probes"][5]["needed"] = ["wife_morgan"]

    with pytest.raises(CorpusRuleError) as caught:
        parse_corpus(json.dumps(document))

    located = [(v.scenario_id, v.probe_id, v.rule.value) for v in caught.value.violations]
    assert located == [
        ("mb-inline-a-001", "p06", "category.preference"),
        ("mb-inline-a-004", "p01", "scenario.needed_resolves"),
    ]
    assert "breaks 2 rules" in str(caught.value)


def test_start_at_is_normalized_to_utc(inline_corpus: Callable[[], CorpusData]) -> None:
    document = inline_corpus()
    document["scenarios"][0]["start_at"] = "2026-01-01T11:00:00+02:00"

    corpus = parse_corpus(json.dumps(document))

    assert corpus.scenarios[0].start_at.isoformat() == "2026-01-01T09:00:00+00:00"


def test_models_are_frozen(inline_corpus: Callable[[], CorpusData]) -> None:
    corpus = parse_corpus(json.dumps(inline_corpus()))

    with pytest.raises(ValueError, match="frozen"):
        corpus.scenarios[0].title = "changed"  # type: ignore[misc]
