"""Every test runs under pytest-timeout's default, so a hang fails its test instead of the lane."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

DEFAULT_TIMEOUT_SECONDS = 120.0


def test_the_suite_runs_under_the_configured_default(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.hasplugin("timeout")
    assert float(request.config.getini("timeout")) == DEFAULT_TIMEOUT_SECONDS
    assert request.config.getini("timeout_method") == "signal"


def test_a_hanging_test_fails_at_the_timeout_and_the_session_goes_on(tmp_path: Path) -> None:
    (tmp_path / "test_hang.py").write_text(
        textwrap.dedent(
            """
            import time

            def test_hangs():
                time.sleep(60)

            def test_after():
                assert True
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\ntimeout = 2\n", encoding="utf-8")
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Timeout" in result.stdout
    assert "1 failed, 1 passed" in result.stdout
    assert elapsed < 30
