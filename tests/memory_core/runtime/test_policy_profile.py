"""Policy profiles: validation, canonical digest as compiled version, overrides, loading."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from memory_core.errors import ConfigurationError, UsageError
from memory_core.runtime.policy_profile import (
    SHIPPED_POLICY_PROFILES,
    PolicyProfile,
    RunLimits,
    load_policy_profile,
)
from memory_core.runtime.tools import RECALL_EPISODES_TOOL, REMEMBER_TOOL


def test_compiled_version_is_the_sha256_of_the_canonical_json() -> None:
    profile = SHIPPED_POLICY_PROFILES["default"]
    canonical = profile.canonical_json()
    parsed = json.loads(canonical)
    assert parsed["name"] == "default"
    assert canonical == json.dumps(
        parsed, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert profile.compiled_version == "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def test_equal_policies_share_a_version_and_any_change_moves_it() -> None:
    a = PolicyProfile(name="p", enabled_tools=(REMEMBER_TOOL, RECALL_EPISODES_TOOL))
    b = PolicyProfile.model_validate(
        {"enabled_tools": [RECALL_EPISODES_TOOL, REMEMBER_TOOL], "name": "p"}
    )
    assert a.compiled_version == b.compiled_version
    assert a.with_overrides().compiled_version == a.compiled_version
    assert a.with_overrides(limits=RunLimits(max_steps=2)).compiled_version != a.compiled_version
    assert a.with_overrides(enabled_tools=()).compiled_version != a.compiled_version


def test_unknown_keys_tools_and_bad_limits_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="enabled_tools"):
        load_policy_profile({"name": "p", "enabled_tools": ["shell.exec"]})
    with pytest.raises(ConfigurationError, match="colour"):
        load_policy_profile({"name": "p", "colour": "red"})
    with pytest.raises(ConfigurationError, match="max_steps"):
        load_policy_profile({"name": "p", "limits": {"max_steps": 0}})
    with pytest.raises(UsageError, match="max_cost_usd"):
        RunLimits(max_cost_usd=-0.01)


def test_loading_by_name_path_and_default(tmp_path: Path) -> None:
    assert load_policy_profile(None) is SHIPPED_POLICY_PROFILES["default"]
    assert load_policy_profile("no-tools").enabled_tools == ()
    path = tmp_path / "p.yaml"
    path.write_text("name: tight\nlimits:\n  max_steps: 2\n  max_cost_usd: 0.01\n")
    loaded = load_policy_profile(path)
    assert loaded.limits == RunLimits(max_steps=2, max_cost_usd=0.01)
    with pytest.raises(ConfigurationError, match="neither a shipped profile"):
        load_policy_profile("no-such-profile")
