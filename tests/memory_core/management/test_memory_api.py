"""MemoryAPI management: get by short id, history, forget, forget_principal (every tier)."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

import pytest

from memory_core import (
    AmbiguousIdError,
    Belief,
    BeliefStatus,
    Composition,
    ImportFormatError,
    NotFoundError,
    Principal,
    Storage,
    UsageError,
)
from memory_core.base.events import EventType
from memory_core.bootstrap import build
from memory_core.management import REDACTED_PAYLOAD

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALICE = Principal("acme", "alice")
BOB = Principal("acme", "bob")


def _app(storage: Storage, principal: Principal = ALICE, namespace: str = "memory") -> Composition:
    return build(
        storage=storage,
        principal=principal,
        fixed_clock_at=T0,
        sequential_ids=True,
        id_namespace=namespace,
    )


def _say(app: Composition, *texts: str) -> str:
    """One session saying ``texts``, a minute after the last: later sessions are later
    instants, so a change of mind supersedes (an unordered one would conflict)."""
    app.advance(60)
    session = app.sessions.create()
    for text in texts:
        app.sessions.record_user_message(session.id, text)
    app.sessions.close(session.id)
    return session.id


def _one(app: Composition, word: str) -> Belief:
    hits = [b for b in app.memory.list_memories() if word in b.statement]
    assert len(hits) == 1, hits
    return hits[0]


def test_get_takes_the_full_id_or_the_short_id_recall_cites(storage: Storage) -> None:
    app = _app(storage)
    _say(app, "I live in Portland.")
    belief = _one(app, "Portland")
    assert app.memory.get(belief.id) == belief
    assert app.memory.get(belief.short_id) == belief
    assert app.memory.get(belief.short_id.upper()) == belief
    assert app.memory.get(belief.short_id[:5]) == belief
    cited = app.memory.recall("Where do I live?").block
    assert f"[m:{belief.short_id}]" in cited
    assert app.memory.get(f"m:{belief.short_id}") == belief
    assert app.memory.get(f"[m:{belief.short_id}]") == belief


def test_a_short_id_fitting_several_beliefs_is_an_ambiguity_error(storage: Storage) -> None:
    app = _app(storage)
    _say(app, "I live in Portland.")
    belief = _one(app, "Portland")
    twin = belief.model_copy(update={"id": belief.short_id + "-0000-4000-8000-00000000beef"})
    storage.memories.put(twin)
    with pytest.raises(AmbiguousIdError, match="fits 2 beliefs") as caught:
        app.memory.get(belief.short_id)
    assert set(caught.value.candidates) == {belief.id, twin.id}
    with pytest.raises(AmbiguousIdError):
        app.memory.reject(belief.short_id)
    assert app.memory.get(belief.id) == belief  # the full id is never ambiguous


def test_get_refuses_a_non_id_and_hides_other_principals(storage: Storage) -> None:
    app = _app(storage)
    _say(app, "I live in Portland.")
    belief = _one(app, "Portland")
    with pytest.raises(UsageError, match="short id"):
        app.memory.get("Portland")
    with pytest.raises(UsageError, match="short id"):
        app.memory.get(belief.short_id[:3])
    with pytest.raises(NotFoundError, match="no belief"):
        app.memory.get(belief.short_id, principal=BOB)
    with pytest.raises(NotFoundError):
        app.memory.history(belief.id, principal=BOB)
    with pytest.raises(NotFoundError):
        app.memory.forget(belief.id, principal=BOB)
    assert app.memory.get(belief.id) == belief


def test_reject_accepts_the_short_id_the_model_cites(storage: Storage) -> None:
    app = _app(storage)
    _say(app, "I live in Portland.")
    belief = _one(app, "Portland")
    rejected = app.memory.reject(belief.short_id, reason="wrong city")
    assert rejected.id == belief.id
    assert rejected.status is BeliefStatus.REJECTED


def test_history_shows_the_lineage_events_sources_and_rejection(storage: Storage) -> None:
    app = _app(storage)
    _say(app, "I live in Seattle.")
    seattle = _one(app, "Seattle")
    _say(app, "I moved to Portland.")
    portland = _one(app, "Portland")
    app.memory.reject(portland.short_id, reason="not yet")
    history = app.memory.history(seattle.short_id)
    assert [b.id for b in history.lineage] == [seattle.id, portland.id]
    assert history.belief.status is BeliefStatus.SUPERSEDED
    kinds = [e.event_type for e in history.events]
    assert kinds == ["memory.formed", "memory.formed", "memory.superseded"]
    assert [e.event_id for e in history.sources] == list(seattle.source_event_ids)
    assert history.sources[0].payload["text"] == "I live in Seattle."
    assert history.rejection is None
    later = app.memory.history(portland.id)
    assert [b.id for b in later.lineage] == [seattle.id, portland.id]
    assert "memory.rejected" in [e.event_type for e in later.events]
    assert later.rejection is not None and later.rejection.reason == "not yet"


def test_forget_erases_the_belief_and_its_text_and_it_never_returns(storage: Storage) -> None:
    app = _app(storage)
    first = _say(app, "I live in Portland.")
    belief = _one(app, "Portland")
    recalled = app.memory.recall("Where do I live?")
    assert belief.id in recalled.trace.returned
    report = app.memory.forget(belief.short_id)
    assert report.erased_belief_ids == (belief.id,)
    assert report.redacted_event_ids == belief.source_event_ids
    assert report.redacted_traces >= 1
    # gone from every read, on this tier
    assert app.memory.list_memories() == []
    with pytest.raises(NotFoundError, match="forgotten"):
        app.memory.get(belief.short_id)
    assert "Portland" not in app.memory.recall("Where do I live?").block
    source = app.events.get(ALICE, belief.source_event_ids[0])
    assert source is not None and source.payload == REDACTED_PAYLOAD
    trace = app.memory.get_recall_trace(recalled.trace.trace_id)
    assert all(b.id != belief.id for b in trace.beliefs)
    rejections = storage.formation.rejections(ALICE)
    assert len(rejections) == 1
    assert "Portland" not in rejections[0].model_dump_json()
    audit = app.events.page(ALICE, event_types=[EventType.MEMORY_FORGOTTEN])
    assert [e.payload["belief_id"] for e in audit] == [belief.id]
    assert "Portland" not in audit[0].model_dump_json()
    # stated again in a new session, and the old session replayed: it does not come back
    again = _say(app, "I live in Portland.")
    result = app.memory.replay(first)
    replayed_again = app.memory.replay(again)
    assert replayed_again.rejected == 1
    assert result.committed == 0
    assert app.memory.list_memories() == []


def test_forget_takes_the_same_statement_in_other_scopes_with_it(storage: Storage) -> None:
    app = _app(storage)
    for project in ("orbit-app", "atlas-app"):
        session = app.sessions.create(metadata={"project_scope": project})
        app.sessions.record_user_message(session.id, "We decided to deploy on Fridays.")
        app.sessions.close(session.id)
    copies = [b for b in app.memory.list_memories() if "Fridays" in b.statement]
    assert len(copies) == 2
    report = app.memory.forget(copies[0].id)
    assert set(report.erased_belief_ids) == {b.id for b in copies}
    assert [b for b in app.memory.list_memories() if "Fridays" in b.statement] == []


def test_forget_principal_empties_every_table_of_one_principal(storage: Storage) -> None:
    app = _app(storage)
    _say(app, "I live in Portland.")
    app.memory.recall("Where do I live?")
    bob = _app(storage, BOB, namespace="bob")
    _say(bob, "I live in Lisbon.")
    counts = app.memory.forget_principal(ALICE)
    assert counts["memories"] == 1
    assert counts["sessions"] == 1
    assert counts["events"] > 0
    assert counts["recall_traces"] > 0
    assert counts["formation_watermarks"] == 1
    assert app.memory.list_memories() == []
    assert app.events.page(ALICE) == []
    assert [b.statement for b in bob.memory.list_memories()] == ["User lives in Lisbon."]
    with pytest.raises(UsageError, match="needs a Principal"):
        app.memory.forget_principal("alice")  # type: ignore[arg-type]


def test_management_logs_ids_and_counts_never_the_text(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    app = _app(storage)
    _say(app, "I live in Quokkaville.", "I prefer concise answers.")
    lines = list(app.memory.export_jsonl())
    belief = _one(app, "Quokkaville")
    with caplog.at_level(logging.DEBUG, logger="memory_core"):
        app.memory.forget(belief.short_id)
        app.memory.forget_principal(ALICE)
        app.memory.import_jsonl(lines)
        record = json.loads(lines[1])
        record["belief"]["confidence"] = "Quokkaville"
        broken = [lines[0], json.dumps(record), *lines[2:]]
        with pytest.raises(ImportFormatError):
            app.memory.import_jsonl(broken)
    logged = [r.getMessage() for r in caplog.records if r.name.startswith("memory_core.")]
    assert any(f"forgot belief {belief.id}" in m for m in logged)
    assert any("erased every record of a principal" in m for m in logged)
    assert any("imported 2 beliefs" in m for m in logged)
    assert any("import refused: line 2" in m for m in logged)
    for message in logged:
        assert "Quokkaville" not in message and "concise" not in message
