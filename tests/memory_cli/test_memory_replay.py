"""``agent memory replay``: opt-in re-derivation that never resurrects a rejection (gate 19)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from memory_cli import main
from memory_core import BeliefStatus, Principal, build
from memory_core.bootstrap import Composition

ALICE = Principal("acme", "alice")
GATE = pytest.mark.gate("gate.memory.rederive_opt_in")


@pytest.fixture
def app(postgres_url: str) -> Iterator[tuple[Composition, str]]:
    """A composition on a fresh PostgreSQL schema, and a URL that reaches the same schema."""
    from memory_store_pg import temporary_storage

    with temporary_storage(postgres_url) as storage:
        assert storage.schema is not None
        separator = "&" if "?" in postgres_url else "?"
        url = f"{postgres_url}{separator}options=-csearch_path%3D{storage.schema}"
        yield (
            build(
                storage=storage,
                principal=ALICE,
                fixed_clock_at=datetime(2026, 3, 2, 9, tzinfo=UTC),
                sequential_ids=True,
            ),
            url,
        )


def _replay(url: str, session_id: str, *extra: str) -> list[str]:
    return [
        "memory", "replay", "--session", session_id, "--principal", "alice",
        "--tenant", "acme", "--url", url, *extra,
    ]  # fmt: skip


@GATE
def test_replay_refuses_without_confirmation(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(_replay("postgresql://nowhere.invalid/db", "session-1"))
    assert status == 2
    assert "--confirm" in capsys.readouterr().err


@GATE
def test_confirmed_replay_reconsolidates_without_resurrecting_a_rejection(
    app: tuple[Composition, str], capsys: pytest.CaptureFixture[str]
) -> None:
    composition, url = app
    chat = composition.sessions.create(metadata={})
    composition.sessions.record_user_message(chat.id, "I live in Seattle. I use Vim every day.")
    composition.sessions.close(chat.id)
    formed = {b.statement: b for b in composition.memory.list_memories()}
    vim = next(b for s, b in formed.items() if "Vim" in s)
    home = next(b for s, b in formed.items() if "Seattle" in s)
    composition.memory.reject(vim.id, reason="not true")

    status = main(_replay(url, chat.id, "--confirm"))

    assert status == 0
    record = json.loads(capsys.readouterr().out)
    assert record["trigger"] == "replay"
    assert record["proposed"] >= 2  # re-read from watermark zero: both candidates again
    assert record["committed"] == 0
    assert record["rejected"] >= 1
    after = composition.memory.list_memories()
    live_vim = [b for b in after if "Vim" in b.statement and b.is_live]
    assert live_vim == []
    assert composition.memory.list_memories()  # the store still holds the session's beliefs
    by_id = {b.id: b for b in after}
    assert by_id[vim.id].status is BeliefStatus.REJECTED
    assert by_id[home.id].is_live


def test_replay_of_an_unknown_session_is_a_usage_error(
    app: tuple[Composition, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _composition, url = app
    assert main(_replay(url, "no-such-session", "--confirm")) == 2
    assert "no-such-session" in capsys.readouterr().err


def test_unreachable_server_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(_replay("postgresql://postgres@127.0.0.1:1/none", "s", "--confirm"))
    assert status == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip()


@GATE
def test_replay_from_watermark_zero_reapplies_rejections_on_the_in_memory_tier() -> None:
    app = build(
        principal=ALICE, fixed_clock_at=datetime(2026, 3, 2, 9, tzinfo=UTC), sequential_ids=True
    )
    chat = app.sessions.create(metadata={})
    app.sessions.record_user_message(chat.id, "I live in Seattle. I use Vim every day.")
    app.sessions.close(chat.id)
    vim = next(b for b in app.memory.list_memories() if "Vim" in b.statement)
    app.memory.reject(vim.id)

    result = app.memory.replay(chat.id)

    assert result.proposed >= 2
    assert result.committed == 0
    assert result.rejected >= 1
    assert not [b for b in app.memory.list_memories() if "Vim" in b.statement and b.is_live]
