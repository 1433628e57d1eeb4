"""gate.memory.profiles_wired: the ``snapshot.async`` and ``snapshot.child`` knobs.

A session's kind (``metadata.kind``) picks the budget of the snapshot recalled when it opens:
``interactive`` (the default) takes the context plan's, ``async`` and ``child`` take their
memory profile. Each overlay test changes one knob and watches the snapshot of that kind, and
only that kind, change; they run on every storage tier.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from memory_core import (
    Composition,
    Principal,
    Session,
    SessionKind,
    SessionKindError,
    SessionMetadata,
    Storage,
    UsageError,
)
from memory_core.bootstrap import build

GATE = pytest.mark.gate("gate.memory.profiles_wired")
OWNER = Principal("tests", "owner")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
FACTS = (
    "I prefer concise answers.",
    "I live in Seattle.",
    "I work at Acme Labs.",
    "I prefer tea over coffee.",
)


def seeded(storage: Storage | str = "memory", **overlays: Any) -> Composition:
    """A composition over ``storage`` whose principal holds four durable beliefs."""
    app = build(
        storage=storage, principal=OWNER, fixed_clock_at=T0, sequential_ids=True, **overlays
    )
    seed = app.sessions.create()
    for text in FACTS:
        app.sessions.record_user_message(seed.id, text)
    app.sessions.close(seed.id)
    assert len(app.memory.list_memories()) == len(FACTS)
    return app


def snapshot_size(app: Composition, kind: str | None) -> tuple[int, int]:
    """(items, rendered tokens) of the snapshot of a new session of ``kind`` (None: unset)."""
    metadata: Mapping[str, Any] = {} if kind is None else {"kind": kind}
    session = app.sessions.create(metadata=metadata)
    trace = app.memory.get_recall_trace(session.snapshot_id or "")
    assert trace.moment == "snapshot"
    return trace.returned_count, trace.rendered_tokens


@GATE
@pytest.mark.parametrize("kind", ["async", "child"])
def test_overlay_snapshot_max_items_of_a_kind_caps_only_that_kind(
    storage: Storage, kind: str
) -> None:
    app = seeded(storage, profile_overlay={"snapshot": {kind: {"max_items": 1}}})
    other = "child" if kind == "async" else "async"
    assert snapshot_size(app, kind)[0] == 1
    # the other non-interactive kind and the interactive one keep their budgets
    assert snapshot_size(app, other)[0] == len(FACTS)
    assert snapshot_size(app, "interactive")[0] == len(FACTS)
    assert snapshot_size(app, None)[0] == len(FACTS)


@GATE
@pytest.mark.parametrize("kind", ["async", "child"])
def test_overlay_snapshot_max_tokens_of_a_kind_bounds_only_that_kind(
    storage: Storage, kind: str
) -> None:
    # the full block, measured over a tier of its own (the same on every tier)
    items, tokens = snapshot_size(seeded(), kind)
    assert items == len(FACTS)
    # a budget a little under the full block leaves at least one belief out
    app = seeded(storage, profile_overlay={"snapshot": {kind: {"max_tokens": tokens - 1}}})
    tight_items, tight_tokens = snapshot_size(app, kind)
    assert 0 < tight_items < items
    assert tight_tokens <= tokens - 1
    assert snapshot_size(app, "interactive") == (items, tokens)


@GATE
def test_the_shipped_child_budget_is_smaller_than_the_interactive_one() -> None:
    # six items: with more durable beliefs than that, a child session sees fewer than the
    # interactive session (twelve) of the same principal
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    seed = app.sessions.create()
    for index in range(8):
        app.sessions.record_user_message(seed.id, f"I prefer option {index} for task {index}.")
    app.sessions.close(seed.id)
    held = len(app.memory.list_memories())
    assert held > 6
    assert snapshot_size(app, "child")[0] == 6
    assert snapshot_size(app, "async")[0] == min(held, 12)
    assert snapshot_size(app, None)[0] == min(held, 12)


@GATE
def test_the_interactive_kind_follows_the_context_plan_not_the_profiles() -> None:
    app = seeded(
        context_plan_overlay={"snapshot": {"max_items": 2}},
        profile_overlay={"snapshot": {"async": {"max_items": 3}, "child": {"max_items": 1}}},
    )
    assert snapshot_size(app, None)[0] == 2
    assert snapshot_size(app, "interactive")[0] == 2
    assert snapshot_size(app, "async")[0] == 3
    assert snapshot_size(app, "child")[0] == 1


@pytest.mark.parametrize("kind", list(SessionKind))
def test_a_sessions_kind_is_recorded_and_read_back(storage: Storage, kind: SessionKind) -> None:
    app = build(storage=storage, principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create(metadata={"project_scope": "orbit-app", "kind": kind.value})
    assert session.metadata.kind is kind
    loaded = app.sessions.get(session.id)
    assert loaded == session
    assert loaded.metadata.kind is kind
    assert loaded.metadata.project_scope == "orbit-app"
    opened = app.events.read_session(OWNER, session.id)[-1]
    assert opened.event_type == "session.opened"
    assert opened.payload["kind"] == kind.value
    assert app.sessions.snapshot_budget(kind) == (
        app.plan.snapshot
        if kind is SessionKind.INTERACTIVE
        else getattr(app.profiles.snapshot, "async_" if kind is SessionKind.ASYNC else "child")
    )


def test_a_session_without_a_kind_is_interactive() -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    assert app.sessions.create().metadata.kind is SessionKind.INTERACTIVE
    assert app.sessions.create(metadata={"project_scope": None}).metadata.kind == "interactive"
    assert SessionMetadata().kind is SessionKind.INTERACTIVE


@pytest.mark.parametrize("kind", ["batch", "Child", "", 3, None])
def test_an_unknown_kind_is_refused_and_nothing_is_written(storage: Storage, kind: Any) -> None:
    app = build(storage=storage, principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    before = app.events.page(OWNER, limit=1000)
    with pytest.raises(SessionKindError) as raised:
        app.sessions.create(metadata={"kind": kind})
    assert isinstance(raised.value, UsageError)
    message = str(raised.value)
    assert "metadata.kind" in message
    assert repr(kind) in message
    assert "interactive, async, child" in message
    assert raised.value.kind == kind
    assert app.events.page(OWNER, limit=1000) == before
    assert app.storage.memories.head_position(OWNER) == 0


def test_the_domain_model_refuses_an_unknown_kind() -> None:
    with pytest.raises(ValidationError) as raised:
        SessionMetadata.model_validate({"kind": "batch"})
    assert "kind" in str(raised.value)
    with pytest.raises(ValidationError):
        Session.model_validate(
            {
                "id": "s-1",
                "tenant_id": "t",
                "principal_id": "p",
                "agent": "general",
                "metadata": {"kind": "sub-agent"},
                "opened_at": T0,
                "last_activity_at": T0,
            }
        )
