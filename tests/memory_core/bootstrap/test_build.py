"""bootstrap.build: defaults, storage resolution, deterministic knobs, overlays, policies."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from memory_core import InMemoryStorage, Principal, RecallRequest, Storage, bootstrap
from memory_core.bootstrap import build
from memory_core.clock import FixedClock, SystemClock
from memory_core.errors import (
    ConfigurationError,
    ConflictError,
    DuplicateIdError,
    NotFoundError,
    StorageUnavailableError,
    UsageError,
)
from memory_core.ids import RandomIdFactory, SequentialIdFactory, short_id
from memory_core.runtime import (
    RECALL_EPISODES_TOOL,
    SHIPPED_POLICY_PROFILES,
    FakeModelScript,
    RunLimits,
    ScriptedModel,
    ScriptedTurn,
)

OWNER = Principal("tests", "owner")
"""The principal the compositions of this module belong to."""

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_defaults_are_in_memory_wall_clock_random_ids_and_the_default_policy() -> None:
    app = build(principal=OWNER)
    assert isinstance(app.storage, InMemoryStorage)
    assert isinstance(app.clock, SystemClock)
    assert isinstance(app.ids, RandomIdFactory)
    assert app.principal == OWNER
    assert app.policy_profile == SHIPPED_POLICY_PROFILES["default"]
    assert app.model is None
    assert app.events is app.storage.events
    with pytest.raises(UsageError, match="fixed clock"):
        app.advance(1)


def test_build_requires_a_principal_and_has_no_default_owner() -> None:
    with pytest.raises(TypeError, match="principal"):
        build()  # type: ignore[call-arg]


@pytest.mark.parametrize("given", ["user-42", None, ("acme", "user-42"), 42])
def test_build_refuses_what_is_not_a_principal_naming_the_fix(given: object) -> None:
    with pytest.raises(UsageError, match=r"takes a memory_core\.Principal") as caught:
        build(principal=given)  # type: ignore[arg-type]
    assert "pass principal=Principal(" in str(caught.value)
    if isinstance(given, str):
        assert "Principal('<tenant>', 'user-42')" in str(caught.value)


def test_a_string_principal_is_refused_before_any_storage_opens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(bootstrap, "resolve_storage", lambda *a, **k: opened.append("x"))
    with pytest.raises(UsageError):
        build(principal="user-42", storage="postgres")  # type: ignore[arg-type]
    assert opened == []


def test_deterministic_knobs_select_fixed_clock_and_sequential_ids() -> None:
    app = build(
        principal=OWNER,
        fixed_clock_at=T0,
        sequential_ids=True,
        script=FakeModelScript(turns=[ScriptedTurn(text="x")]),
    )
    assert isinstance(app.clock, FixedClock)
    assert isinstance(app.ids, SequentialIdFactory)
    assert isinstance(app.model, ScriptedModel)
    assert app.advance(60) == datetime(2026, 3, 2, 9, 1, tzinfo=UTC)
    with pytest.raises(UsageError, match="timezone-aware"):
        build(principal=OWNER, fixed_clock_at=datetime(2026, 3, 2, 9, 0))
    with pytest.raises(UsageError, match="not both"):
        build(
            principal=OWNER, script=FakeModelScript(turns=[ScriptedTurn(text="x")]), model=app.model
        )


def test_a_missing_storage_backend_names_the_package_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bootstrap, "_storage_entry_points", lambda name: [])
    with pytest.raises(StorageUnavailableError, match="memory-store-pg"):
        build(principal=OWNER, storage="postgres")
    with pytest.raises(StorageUnavailableError, match="'oracle'"):
        build(principal=OWNER, storage="oracle")
    with pytest.raises(UsageError, match="database_url"):
        build(principal=OWNER, storage="memory", database_url="postgresql://127.0.0.1/x")


def test_a_storage_backend_resolves_through_the_entry_point_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    received: list[str | None] = []
    tier = InMemoryStorage()

    def factory(url: str | None) -> Storage:
        received.append(url)
        return tier

    class FakeEntryPoint:
        name = "postgres"
        value = "fake:factory"

        def load(self) -> Any:
            return factory

    seen_names: list[str] = []

    def entry_points(name: str) -> list[EntryPoint]:
        seen_names.append(name)
        return [FakeEntryPoint()]  # type: ignore[list-item]

    monkeypatch.setattr(bootstrap, "_storage_entry_points", entry_points)
    monkeypatch.setenv("MEMORY_DATABASE_URL", "postgresql://127.0.0.1/from-env")
    assert build(principal=OWNER, storage="postgres").storage is tier
    assert (
        build(
            principal=OWNER, storage="postgres", database_url="postgresql://127.0.0.1/arg"
        ).storage
        is tier
    )
    assert seen_names == ["postgres", "postgres"]
    assert received == ["postgresql://127.0.0.1/from-env", "postgresql://127.0.0.1/arg"]
    assert bootstrap.STORAGE_ENTRY_POINT_GROUP == "memory_core.storage"


def test_profile_overlay_reaches_formation_and_retrieval(tmp_path: Path) -> None:
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("retrieval:\n  in_turn:\n    max_items: 1\n")
    app = build(principal=OWNER, profile_overlay=overlay, fixed_clock_at=T0, sequential_ids=True)
    assert app.profiles.retrieval.in_turn.max_items == 1
    assert app.memory.retriever.profiles.retrieval.in_turn.max_items == 1
    session = app.sessions.create()
    for text in ("I live in Seattle.", "I work at Acme Labs.", "I prefer concise answers."):
        app.sessions.record_user_message(session.id, text)
    app.sessions.close(session.id)
    result = app.memory.recall("Where do I live and where do I work?")
    assert result.trace.returned_count == 1
    with pytest.raises(ConfigurationError, match="unknown_knob"):
        build(principal=OWNER, profile_overlay={"retrieval": {"unknown_knob": 1}})


def test_policy_profile_limits_and_tools_compose_into_the_recorded_version(tmp_path: Path) -> None:
    default = build(principal=OWNER)
    assert (
        default.runs.policy.compiled_version == SHIPPED_POLICY_PROFILES["default"].compiled_version
    )
    named = build(principal=OWNER, policy_profile="no-tools")
    assert named.policy_profile.name == "no-tools"
    overridden = build(
        principal=OWNER, limits=RunLimits(max_steps=2), enabled_tools=[RECALL_EPISODES_TOOL]
    )
    assert overridden.policy_profile.limits.max_steps == 2
    assert overridden.policy_profile.enabled_tools == (RECALL_EPISODES_TOOL,)
    assert overridden.policy_profile.compiled_version != default.policy_profile.compiled_version
    with pytest.raises(ConfigurationError, match="unknown tools"):
        build(principal=OWNER, enabled_tools=["shell.exec"])
    with pytest.raises(ConfigurationError, match="neither a shipped profile"):
        build(principal=OWNER, policy_profile="no-such-policy")


def test_memory_api_recall_takes_the_session_scope_and_trace_lookups_are_scoped() -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    session = app.sessions.create(metadata={"project_scope": "veetbot"})
    app.sessions.record_user_message(session.id, "We decided to deploy on Fridays.")
    app.sessions.close(session.id)
    later = app.sessions.create(metadata={"project_scope": "veetbot"})
    result = app.memory.recall("When do we deploy?", session_id=later.id)
    assert "deploy on Fridays" in result.block
    assert app.memory.recall("When do we deploy?").block == ""
    with pytest.raises(UsageError, match="differs"):
        app.memory.recall("deploy", session_id=later.id, project_scope="orbit-app")
    assert app.memory.get_recall_trace(result.trace.trace_id) == result.trace
    with pytest.raises(NotFoundError):
        app.memory.get_recall_trace(
            result.trace.trace_id, principal=Principal("tenant-1", "mallory")
        )


def test_maintenance_expires_operator_traces_and_closes_idle_sessions() -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    idle = app.sessions.create()
    app.sessions.record_user_message(idle.id, "I live in Seattle.")
    worker = app.maintenance_factory()
    assert worker.run_once().sessions_closed == 0
    app.advance(31 * 60)
    report = worker.run_once()
    assert (report.traces_expired, report.sessions_closed) == (0, 1)
    assert not app.sessions.get(idle.id).is_open
    assert any("Seattle" in b.statement for b in app.memory.list_memories())
    app.advance(app.profiles.trace.operator_retention_days * 86400)
    report = worker.run_once()
    assert report.traces_expired == 1  # the idle session's snapshot trace
    assert worker.run_once().traces_expired == 0


def _recall_latencies(app: bootstrap.Composition) -> set[float]:
    session = app.sessions.create()
    app.sessions.record_user_message(session.id, "I live in Portland.")
    app.sessions.close(session.id)
    latencies = app.memory.recall("Where do I live?").trace.arm_latencies_ms
    assert latencies
    return set(latencies.values())


def test_a_fixed_clock_build_records_constant_latencies_unless_a_timer_is_passed() -> None:
    assert _recall_latencies(build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)) == {
        0.0
    }
    ticks = iter(range(1000))
    app = build(
        principal=OWNER, fixed_clock_at=T0, sequential_ids=True, timer=lambda: next(ticks) / 1000
    )
    latencies = _recall_latencies(app)
    # one 1 ms tick per read; recency and lexical are one read (search_keyed), shared equally
    assert 0.5 in latencies
    assert latencies <= {0.5, 1.0}


class _CountingStorage(InMemoryStorage):
    """An in-memory tier standing in for a pooled backend: it records being closed."""

    def __init__(self) -> None:
        super().__init__()
        self.closed = False

    def close(self) -> None:
        self.closed = True


def _counting_backend(monkeypatch: pytest.MonkeyPatch) -> list[_CountingStorage]:
    """Install a ``postgres`` backend whose storages record being closed; return them."""
    created: list[_CountingStorage] = []

    def factory(url: str | None) -> Storage:
        created.append(_CountingStorage())
        return created[-1]

    class FakeEntryPoint:
        name = "postgres"
        value = "fake:factory"

        def load(self) -> Any:
            return factory

    monkeypatch.setattr(bootstrap, "_storage_entry_points", lambda name: [FakeEntryPoint()])
    return created


@pytest.mark.parametrize(
    "failing",
    [
        {"formation_mode": "required"},  # no provider evidence: selection fails
        {"policy_profile": {"name": "wide", "model": {"max_output_tokens": 10**6}}},  # no room
    ],
    ids=["extractor-selection", "context-builder"],
)
def test_a_build_refusing_its_arguments_opens_no_backend_storage(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, failing: dict[str, Any]
) -> None:
    created = _counting_backend(monkeypatch)
    with pytest.raises(UsageError):
        build(principal=OWNER, storage="postgres", evidence_dir=tmp_path, **failing)
    assert created == []


def test_a_build_failing_after_opening_its_backend_closes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    created = _counting_backend(monkeypatch)

    def failing_wiring(**_kwargs: Any) -> None:
        raise RuntimeError("wiring failed")

    monkeypatch.setattr(bootstrap, "SessionService", failing_wiring)
    with pytest.raises(RuntimeError, match="wiring failed"):
        build(principal=OWNER, storage="postgres")
    assert [storage.closed for storage in created] == [True]
    passed_in = _CountingStorage()
    with pytest.raises(RuntimeError, match="wiring failed"):
        build(principal=OWNER, storage=passed_in)
    assert not passed_in.closed  # a Storage the caller passed stays the caller's to close


def test_sequential_compositions_sharing_a_storage_need_their_own_id_namespaces() -> None:
    shared = InMemoryStorage()
    alice, bob = Principal("t", "alice"), Principal("t", "bob")
    first = build(storage=shared, principal=alice, fixed_clock_at=T0, sequential_ids=True)
    same = build(storage=shared, principal=bob, fixed_clock_at=T0, sequential_ids=True)
    first_session = first.sessions.create()
    assert first_session.id == "9e3779b1-b8de-fbc8-318e-7f7c6bb3ac7a"  # the default never moves
    with pytest.raises(ConflictError, match="already exists"):
        same.sessions.create()
    other = build(
        storage=shared,
        principal=bob,
        fixed_clock_at=T0,
        sequential_ids=True,
        id_namespace="bob-worker",
    )
    other_session = other.sessions.create()
    assert short_id(other_session.id) != short_id(first_session.id)
    assert other.sessions.get(other_session.id).is_open
    with pytest.raises(UsageError, match="sequential_ids=True"):
        build(principal=OWNER, id_namespace="bob-worker")


def test_a_namespace_shifts_short_ids_and_keeps_them_distinct() -> None:
    default, named = SequentialIdFactory(), SequentialIdFactory("bob-worker")
    default_shorts = [short_id(default.new_id()) for _ in range(50_000)]
    named_shorts = [short_id(named.new_id()) for _ in range(50_000)]
    assert len(set(named_shorts)) == len(named_shorts)
    assert not set(default_shorts) & set(named_shorts)
    assert SequentialIdFactory("memory").new_id() == SequentialIdFactory().new_id()
    with pytest.raises(UsageError, match="non-empty"):
        SequentialIdFactory("")


def test_a_duplicate_id_error_names_the_record_and_the_shared_store_cause() -> None:
    error = DuplicateIdError("trace", "3c6ef362-c097-99f4-ab9d-6697ff3ec3ef")
    assert isinstance(error, ConflictError)
    assert str(error).startswith("trace 3c6ef362-c097-99f4-ab9d-6697ff3ec3ef already exists; ")
    assert "sequential_ids=True" in str(error) and "id_namespace" in str(error)


@pytest.mark.parametrize(
    "extra",
    [
        {"text": "hello"},
        {"moment": "snapshot"},
        {"session_id": "s1"},
        {"project_scope": "orbit-app"},
        {"principal": Principal("t", "mallory")},
        {"max_items": 1},
        {"max_tokens": 10},
    ],
    ids=lambda extra: next(iter(extra)),
)
def test_recall_refuses_any_field_passed_beside_a_request(extra: dict[str, Any]) -> None:
    app = build(principal=OWNER, fixed_clock_at=T0, sequential_ids=True)
    request = RecallRequest(principal=app.principal, moment="in_turn", text="hello there")
    with pytest.raises(UsageError, match=next(iter(extra))):
        app.memory.recall(request=request, **extra)
    assert app.memory.recall(request=request).trace.principal_id == app.principal.principal_id


def test_the_package_exports_what_its_main_api_takes_and_returns() -> None:
    import memory_core

    api = {
        "RecallRequest", "RecallResult", "ConsolidationResult", "Run", "RunStatus", "RunLimits",
        "FakeModelScript", "ScriptedTurn", "ScriptedModel", "OpenAICompatibleModel",
        "PolicyProfile", "scope_for_project", "visible_scopes", "load_profiles", "MemoryProfiles",
    }  # fmt: skip
    assert api <= set(memory_core.__all__)
    assert all(hasattr(memory_core, name) for name in memory_core.__all__)
