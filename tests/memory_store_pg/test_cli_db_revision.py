"""``agent db upgrade --revision``: an unknown revision is one line and exit 2, no traceback."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memory_cli.app import main
from memory_store_pg import head_revision

pytestmark = pytest.mark.postgres


def test_an_unknown_revision_is_a_one_line_usage_error(
    empty_schema: str, schema_url: Callable[[str], str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "upgrade", "--url", schema_url(empty_schema), "--revision", "9999"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: cannot upgrade to revision '9999'")
    assert f"the newest, {head_revision()}" in captured.err
    assert captured.err.count("\n") == 1
    assert "Traceback" not in captured.err
