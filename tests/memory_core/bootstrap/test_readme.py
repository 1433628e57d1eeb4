"""The README's "Use it in your agent" example runs as written and prints the recalled belief."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[3] / "README.md"


def test_the_readme_agent_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Use it in your agent", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None, "the section needs a python example"
    code = match.group(1)
    assert len(code.strip().splitlines()) <= 20
    exec(compile(code, str(README), "exec"), {"__name__": "readme_example"})
    printed = capsys.readouterr().out
    assert printed.startswith("Memory (retrieval@2, in_turn):\n")
    assert re.search(
        r"^\[m:[0-9a-f]{8}\] user_model_attr / home location: User lives in Portland\.$",
        printed,
        re.MULTILINE,
    )
