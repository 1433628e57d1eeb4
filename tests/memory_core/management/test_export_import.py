"""Export and import of one principal's memory as JSON Lines (every tier as the target)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from memory_core import (
    Composition,
    DuplicateIdError,
    ImportFormatError,
    InMemoryStorage,
    Principal,
    Storage,
)
from memory_core.bootstrap import build
from memory_core.portability import EXPORT_SCHEMA_VERSION

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALICE = Principal("acme", "alice")
CAROL = Principal("other-tenant", "carol")
QUESTIONS = ("Where do I live?", "How should answers be?", "deploy Fridays", "Who is Morgan?")


def _source() -> Composition:
    app = build(storage=InMemoryStorage(), principal=ALICE, fixed_clock_at=T0, sequential_ids=True)
    for project, texts in (
        (None, ("I live in Seattle.", "I prefer concise answers.", "My wife is Morgan.")),
        ("orbit-app", ("We decided to deploy on Fridays.", "I moved to Portland.")),
    ):
        session = app.sessions.create(metadata={"project_scope": project})
        for text in texts:
            app.sessions.record_user_message(session.id, text)
        app.sessions.close(session.id)
    morgan = next(b for b in app.memory.list_memories() if "Morgan" in b.statement)
    app.memory.reject(morgan.short_id, reason="private")
    return app


def _target(storage: Storage, principal: Principal = ALICE) -> Composition:
    return build(
        storage=storage,
        principal=principal,
        fixed_clock_at=T0,
        sequential_ids=True,
        id_namespace="target",
    )


def _recall(app: Composition, project: str | None) -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for question in QUESTIONS:
        result = app.memory.recall(question, project_scope=project)
        out.append((result.block, result.trace.returned))
    return out


def test_import_into_an_empty_store_gives_identical_recall(storage: Storage) -> None:
    source = _source()
    lines = list(source.memory.export_jsonl())
    header = json.loads(lines[0])
    assert header["schema_version"] == EXPORT_SCHEMA_VERSION
    assert header["beliefs"] == len(source.memory.list_memories())
    assert header["rejections"] == 1
    target = _target(storage)
    report = target.memory.import_jsonl(lines)
    assert (report.beliefs, report.rejections) == (header["beliefs"], 1)
    for project in (None, "orbit-app"):
        assert _recall(target, project) == _recall(source, project)
    strip = [b.model_copy(update={"store_position": 0}) for b in source.memory.list_memories()]
    assert [b.model_copy(update={"store_position": 0}) for b in target.memory.list_memories()] == (
        strip
    )
    assert storage.formation.rejections(ALICE) == source.storage.formation.rejections(ALICE)


def test_import_reowns_the_records_to_the_importing_principal(storage: Storage) -> None:
    source = _source()
    target = _target(storage, CAROL)
    target.memory.import_jsonl(source.memory.export_jsonl())
    owned = target.memory.list_memories()
    assert owned and {b.principal for b in owned} == {CAROL}
    assert {r.principal_id for r in storage.formation.rejections(CAROL)} == {"carol"}
    assert storage.memories.list_beliefs(ALICE) == []


def test_a_forgotten_statement_stays_forgotten_across_export_and_import(
    storage: Storage,
) -> None:
    source = _source()
    seattle = next(b for b in source.memory.list_memories() if "Seattle" in b.statement)
    source.memory.forget(seattle.short_id)
    target = _target(storage, CAROL)
    target.memory.import_jsonl(source.memory.export_jsonl())
    session = target.sessions.create()
    target.sessions.record_user_message(session.id, "I live in Seattle.")
    closure = target.sessions.close(session.id)
    assert closure.consolidation is not None and closure.consolidation.rejected == 1
    assert not any("Seattle" in b.statement for b in target.memory.list_memories())


def _corrupt(lines: list[str], index: int, path: tuple[str, ...], value: object) -> list[str]:
    data = json.loads(lines[index])
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return [*lines[:index], json.dumps(data), *lines[index + 1 :]]


def _malformed(lines: list[str]) -> list[tuple[list[str], int, str]]:
    """(lines, the line number the error names, the field it names)."""
    return [
        ([*lines[:2], "{not json", *lines[3:]], 3, "-"),
        (_corrupt(lines, 2, ("belief", "confidence"), 2.5), 3, "belief.confidence"),
        (_corrupt(lines, 1, ("belief", "status"), "GONE"), 2, "belief.status"),
        (_corrupt(lines, 2, ("belief", "invented"), 1), 3, "belief.invented"),
        (_corrupt(lines, 3, ("kind",), "note"), 4, "kind"),
        (_corrupt(lines, 0, ("schema_version",), 99), 1, "schema_version"),
        (_corrupt(lines, 2, ("belief", "principal_id"), "mallory"), 3, "belief.principal_id"),
        (lines[1:], 1, "kind"),
        (lines[:-1], 1, "rejections"),
        ([], 1, "kind"),
    ]


def test_a_malformed_line_is_a_typed_error_naming_line_and_field_and_writes_nothing(
    storage: Storage,
) -> None:
    lines = list(_source().memory.export_jsonl())
    target = _target(storage)
    for bad, line, field in _malformed(lines):
        with pytest.raises(ImportFormatError) as caught:
            target.memory.import_jsonl(bad)
        assert (caught.value.line, caught.value.field) == (line, field), str(caught.value)
        assert f"line {line}, field {field}" in str(caught.value)
        assert "nothing was imported" in str(caught.value)
        assert target.memory.list_memories() == []
        assert storage.formation.rejections(ALICE) == []


def test_an_import_meeting_a_stored_id_writes_nothing(storage: Storage) -> None:
    lines = list(_source().memory.export_jsonl())
    target = _target(storage)
    last_belief = lines[-2]  # the export ends with its one rejection
    one = json.dumps({**json.loads(lines[0]), "beliefs": 1, "rejections": 0})
    target.memory.import_jsonl([one, last_belief])
    assert len(target.memory.list_memories()) == 1
    with pytest.raises(DuplicateIdError):
        target.memory.import_jsonl(lines)
    assert len(target.memory.list_memories()) == 1
    assert storage.formation.rejections(ALICE) == []
