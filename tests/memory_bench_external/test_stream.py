"""Streaming a JSON list in bounded chunks, JSON Lines, the file index and the sample."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_bench_external import DatasetError, _stream
from memory_bench_external._stream import (
    index_file,
    iter_json_lines,
    iter_json_list,
    iter_selected,
    select_sample,
)
from memory_core.errors import UsageError

_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    values=st.lists(_json_values, max_size=8),
    chunk=st.integers(min_value=1, max_value=9),
    indent=st.sampled_from([None, 1]),
)
def test_stream_equals_json_load_at_any_chunk_size(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    values: list[object],
    chunk: int,
    indent: int | None,
) -> None:
    monkeypatch.setattr(_stream, "CHUNK_BYTES", chunk)
    path = tmp_path / "values.json"
    path.write_text(json.dumps(values, indent=indent, ensure_ascii=False), encoding="utf-8")
    assert [value for _, value in iter_json_list(path)] == values


def test_number_split_across_chunks_is_not_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_stream, "CHUNK_BYTES", 3)
    path = tmp_path / "numbers.json"
    path.write_text("[12345678, 2.5e10, 7]", encoding="utf-8")
    assert [value for _, value in iter_json_list(path)] == [12345678, 2.5e10, 7]


def test_byte_order_mark_and_multibyte_text_survive_chunking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_stream, "CHUNK_BYTES", 2)
    path = tmp_path / "bom.json"
    path.write_bytes(
        "\ufeff".encode() + json.dumps([{"t": "café ☕"}], ensure_ascii=False).encode()
    )
    assert [value for _, value in iter_json_list(path)] == [{"t": "café ☕"}]


@pytest.mark.parametrize(
    ("content", "fragment", "record"),
    [
        ("", "the file is empty", None),
        ('{"a": 1}', "expected a JSON list at the top level, found a JSON object", None),
        ('"text"', "expected a JSON list at the top level, found a JSON string", None),
        ('[{"a": 1}, {"b": 2', "truncated JSON", 1),
        ('[{"a": 1}, {"b": 2}', "truncated JSON: the file ends before the list's closing", 2),
        ('[{"a": 1} {"b": 2}]', "expected ',' or ']' after the record", 0),
        ('[{"a": 1},]', "JSON", 1),
        ('[{"a": 1}] x', "after the closing ']'", None),
        ('[{"a": tru}, {"b": 2}, {"c": "' + "x" * 200 + '"}]', "malformed JSON", 0),
    ],
)
def test_malformed_lists_raise_dataset_error(
    tmp_path: Path, content: str, fragment: str, record: int | None
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DatasetError) as caught:
        list(iter_json_list(path))
    assert fragment in str(caught.value)
    assert str(path) in str(caught.value)
    assert caught.value.record == record


def test_non_utf8_file_is_a_dataset_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b'[{"a": "caf\xe9"}]')
    with pytest.raises(DatasetError, match="not UTF-8"):
        list(iter_json_list(path))


def test_missing_file_is_a_dataset_error(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no such file"):
        list(iter_json_list(tmp_path / "absent.json"))


def test_json_lines_skip_blank_lines_and_name_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "users.jsonl"
    path.write_text('{"a": 1}\n\n{"b": 2}\n{"c": \n', encoding="utf-8")
    lines = iter_json_lines(path)
    assert next(lines) == (1, {"a": 1})
    assert next(lines) == (3, {"b": 2})
    with pytest.raises(DatasetError) as caught:
        next(lines)
    assert caught.value.record == 4
    assert "line 4" in str(caught.value)


def test_truncated_last_line_says_truncated(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text('{"a": 1}\n{"b": [1, 2', encoding="utf-8")
    with pytest.raises(DatasetError, match="truncated JSON on the last line"):
        list(iter_json_lines(path))


def test_index_hashes_bytes_and_collects_ids(tmp_path: Path) -> None:
    path = tmp_path / "ids.json"
    path.write_text(json.dumps([{"id": "b"}, {"id": "a"}, {"id": "c"}]), encoding="utf-8")
    index = index_file(path, file_format="json_list", id_key="id")
    assert index.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert index.positions == {0: "b", 1: "a", 2: "c"}


@pytest.mark.parametrize(
    ("records", "fragment", "field"),
    [
        ([{"id": "a"}, [1]], "expected a JSON object, found a list", None),
        ([{"id": "a"}, {"name": "b"}], "missing or not a non-empty string", "id"),
        ([{"id": "a"}, {"id": 7}], "missing or not a non-empty string", "id"),
        ([{"id": "a"}, {"id": "a"}], "duplicate identifier 'a' (also record 0)", "id"),
    ],
)
def test_index_refuses_bad_records(
    tmp_path: Path, records: list[object], fragment: str, field: str | None
) -> None:
    path = tmp_path / "bad_ids.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(DatasetError) as caught:
        index_file(path, file_format="json_list", id_key="id")
    assert fragment in str(caught.value)
    assert caught.value.record == 1
    assert caught.value.field == field


def test_a_json_list_passed_as_json_lines_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "list.jsonl"
    path.write_text(json.dumps([{"uuid": "a"}]) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="a JSON object per line"):
        index_file(path, file_format="json_lines", id_key="uuid")


def test_sample_is_reproducible_sorted_and_order_independent() -> None:
    ids = [f"id-{n:03d}" for n in range(40)]
    shuffled = ids[:]
    random.Random(5).shuffle(shuffled)
    first = select_sample(ids, sample=7, seed=3)
    assert first == select_sample(shuffled, sample=7, seed=3)
    assert first == tuple(sorted(first))
    assert len(set(first)) == 7
    assert first == tuple(sorted(random.Random(3).sample(sorted(ids), 7)))
    assert first != select_sample(ids, sample=7, seed=4)
    assert select_sample(ids, sample=None, seed=0) == tuple(ids)


@pytest.mark.parametrize("sample", [0, -1, 41])
def test_impossible_samples_are_usage_errors(sample: int) -> None:
    with pytest.raises(UsageError, match="--sample"):
        select_sample([f"id-{n}" for n in range(40)], sample=sample, seed=0)


def test_second_pass_reads_only_selected_records_and_stops_early(tmp_path: Path) -> None:
    path = tmp_path / "lines.jsonl"
    # Line 4 is broken; selecting lines 1 and 2 never decodes it.
    path.write_text('{"uuid": "a"}\n{"uuid": "b"}\n{"uuid": "c"}\n{oops\n', encoding="utf-8")
    got = list(iter_selected(path, file_format="json_lines", positions=frozenset({1, 2})))
    assert got == [(1, {"uuid": "a"}), (2, {"uuid": "b"})]
    listed = tmp_path / "list.json"
    listed.write_text('[{"id": "a"}, {"id": "b"}, {"id": "c"}, {oops', encoding="utf-8")
    assert list(iter_selected(listed, file_format="json_list", positions=frozenset({1}))) == [
        (1, {"id": "b"})
    ]
