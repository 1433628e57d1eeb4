"""``agent db upgrade``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memory_cli.app import main
from memory_store_pg import head_revision

pytestmark = pytest.mark.postgres


@pytest.fixture
def empty_schema_url(empty_schema: str, schema_url: Callable[[str], str]) -> str:
    return schema_url(empty_schema)


def test_upgrade_migrates_then_reports_nothing_to_do(
    empty_schema_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "upgrade", "--url", empty_schema_url]) == 0
    assert f"upgraded: empty -> {head_revision()}" in capsys.readouterr().out

    assert main(["db", "upgrade", "--url", empty_schema_url]) == 0
    assert f"already at {head_revision()}; nothing to do" in capsys.readouterr().out


def test_upgrade_reads_the_url_from_the_environment(
    empty_schema_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_DATABASE_URL", empty_schema_url)
    assert main(["db", "upgrade"]) == 0
    assert "upgraded" in capsys.readouterr().out


def test_an_unreachable_server_is_one_line_on_stderr_and_exit_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["db", "upgrade", "--url", "postgresql://postgres@127.0.0.1:1/test"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("error: ")
    assert "127.0.0.1:1/test is unavailable" in captured.err
    assert captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


def test_no_url_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMORY_DATABASE_URL", raising=False)
    assert main(["db", "upgrade"]) == 2
    assert "MEMORY_DATABASE_URL" in capsys.readouterr().err
