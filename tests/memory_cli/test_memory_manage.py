"""``agent memory list|show|history|forget|export|import``, ``--version`` and the output rule."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory_cli import main
from memory_core import Principal, build
from memory_core.bootstrap import Composition

ALICE = Principal("acme", "alice")


@pytest.fixture
def app(postgres_url: str) -> Iterator[tuple[Composition, str]]:
    """A composition on a fresh PostgreSQL schema holding two beliefs, and its schema's URL."""
    from memory_store_pg import temporary_storage

    with temporary_storage(postgres_url) as storage:
        assert storage.schema is not None
        separator = "&" if "?" in postgres_url else "?"
        url = f"{postgres_url}{separator}options=-csearch_path%3D{storage.schema}"
        composition = build(
            storage=storage,
            principal=ALICE,
            fixed_clock_at=datetime(2026, 3, 2, 9, tzinfo=UTC),
            sequential_ids=True,
        )
        chat = composition.sessions.create(metadata={})
        composition.sessions.record_user_message(chat.id, "I live in Seattle.")
        composition.sessions.record_user_message(chat.id, "I prefer concise answers.")
        composition.sessions.close(chat.id)
        yield composition, url


def _cmd(url: str, *words: str, who: str = "alice") -> list[str]:
    return ["memory", *words, "--tenant", "acme", "--principal", who, "--url", url]


def _terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)


def _seattle(composition: Composition) -> str:
    return next(b for b in composition.memory.list_memories() if "Seattle" in b.statement).id


@pytest.mark.postgres
def test_list_prints_json_when_piped_and_a_table_on_a_terminal(
    app: tuple[Composition, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    composition, url = app
    assert main(_cmd(url, "list")) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [b["statement"] for b in listed] == [
        b.statement for b in composition.memory.list_memories()
    ]
    _terminal(monkeypatch)
    assert main(_cmd(url, "list")) == 0
    table = capsys.readouterr().out
    assert "2 beliefs of acme/alice" in table
    assert composition.memory.get(_seattle(composition)).short_id in table
    assert "┃" in table or "|" in table
    with pytest.raises(json.JSONDecodeError):
        json.loads(table)
    assert main([*_cmd(url, "list"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == listed


@pytest.mark.postgres
def test_show_and_history_take_a_short_id(
    app: tuple[Composition, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    composition, url = app
    belief = composition.memory.get(_seattle(composition))
    assert main(_cmd(url, "show", f"m:{belief.short_id}")) == 0
    assert json.loads(capsys.readouterr().out)["id"] == belief.id
    assert main(_cmd(url, "history", belief.short_id)) == 0
    history = json.loads(capsys.readouterr().out)
    assert [b["id"] for b in history["lineage"]] == [belief.id]
    assert [e["event_type"] for e in history["events"]] == ["memory.formed"]
    assert history["sources"][0]["payload"]["text"] == "I live in Seattle."
    _terminal(monkeypatch)
    assert main(_cmd(url, "history", belief.short_id)) == 0
    out = capsys.readouterr().out
    assert "lineage (oldest first)" in out and "memory.formed" in out


@pytest.mark.postgres
def test_an_unknown_id_is_a_one_line_usage_error(
    app: tuple[Composition, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, url = app
    assert main(_cmd(url, "show", "ffffffff")) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no belief ffffffff") and err.count("\n") == 1
    assert main(_cmd(url, "show", "not-an-id!")) == 2


@pytest.mark.postgres
def test_forget_needs_confirm_then_erases(
    app: tuple[Composition, str], capsys: pytest.CaptureFixture[str]
) -> None:
    composition, url = app
    belief_id = _seattle(composition)
    assert main(_cmd(url, "forget", belief_id)) == 2
    assert "--confirm" in capsys.readouterr().err
    assert composition.memory.get(belief_id).id == belief_id
    assert main([*_cmd(url, "forget", belief_id[:8]), "--confirm"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["erased_belief_ids"] == [belief_id]
    assert len(report["redacted_event_ids"]) == 1
    assert main(_cmd(url, "list")) == 0
    assert "Seattle" not in capsys.readouterr().out


@pytest.mark.postgres
def test_export_then_import_into_another_principal(
    app: tuple[Composition, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    composition, url = app
    assert main(_cmd(url, "export")) == 0
    exported = capsys.readouterr().out
    assert json.loads(exported.splitlines()[0])["schema_version"] == 1
    target = tmp_path / "alice.jsonl"
    assert main([*_cmd(url, "export"), "--output", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == exported
    # the ids are taken by alice in this store: import under bob refuses (exit 1), writes nothing
    assert main(_cmd(url, "import", str(target), who="bob")) == 1
    assert "already exists" in capsys.readouterr().err
    assert composition.memory.list_memories(principal=Principal("acme", "bob")) == []
    composition.memory.forget_principal(ALICE)
    assert main(_cmd(url, "import", str(target), who="bob")) == 0
    assert json.loads(capsys.readouterr().out) == {
        "file": str(target),
        "beliefs": 2,
        "rejections": 0,
    }
    imported = composition.memory.list_memories(principal=Principal("acme", "bob"))
    assert sorted(b.statement for b in imported) == [
        "User lives in Seattle.",
        "User prefers concise answers.",
    ]


@pytest.mark.postgres
def test_a_malformed_import_names_the_line_and_field_and_exits_2(
    app: tuple[Composition, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    composition, url = app
    assert main(_cmd(url, "export")) == 0
    lines = capsys.readouterr().out.splitlines()
    broken = json.loads(lines[1])
    broken["belief"]["confidence"] = "very"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], json.dumps(broken), *lines[2:]]), encoding="utf-8")
    composition.memory.forget_principal(ALICE)
    assert main(_cmd(url, "import", str(bad))) == 2
    err = capsys.readouterr().err
    assert "line 2, field belief.confidence" in err and "nothing was imported" in err
    assert composition.memory.list_memories() == []
    assert main(_cmd(url, "import", str(tmp_path / "missing.jsonl"))) == 2


def test_storage_errors_exit_1_and_a_missing_url_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(_cmd("postgresql://postgres@127.0.0.1:1/test", "list")) == 1
    err = capsys.readouterr().err
    assert "is unavailable" in err and err.count("\n") == 1
    monkeypatch.delenv("MEMORY_DATABASE_URL", raising=False)
    assert main(["memory", "list", "--tenant", "acme", "--principal", "alice"]) == 2


def test_the_principal_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["memory", "list", "--principal", "alice"])
    assert caught.value.code == 2
    assert "--tenant" in capsys.readouterr().err


def test_version_names_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("agent: memory-cli ") and "memory-core " in out
    assert out.count("\n") == 1


def test_gates_prints_json_when_piped_and_a_table_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from memory_bench.gates import GATES

    assert main(["gates"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [g["gate"] for g in listed] == [g.id for g in GATES]
    _terminal(monkeypatch)
    assert main(["gates"]) == 0
    assert "Registered gates" in capsys.readouterr().out
    assert main(["gates", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == listed
