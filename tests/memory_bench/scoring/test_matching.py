"""Matching rules: labels, protected fragments and rendered forbidden statements."""

from __future__ import annotations

from typing import Any

import pytest

from memory_bench.corpus import BenchmarkScenario
from memory_bench.scoring import (
    contains_protected,
    forbidden_bucket,
    has_protected,
    matched_labels,
    matches_label,
    renders_forbidden,
)


@pytest.mark.parametrize(
    ("forbidden", "statement", "rendered"),
    [
        ("User lives in Seattle.", "User lives in Seattle.", True),
        ("User lives in Seattle.", "user   lives in SEATTLE", True),
        ("User lives in Seattle.", "User lives in Seattle now.", True),
        ("User lives in Seattle.", "User lives in Portland.", False),
        ("manager is Dana", "User's manager is Dana.", True),
        ("manager is Dan", "User's manager is Dana.", False),
        ("User has an Apple Watch.", "User no longer uses an Apple Watch.", False),
        ("REDACTED-DEPLOY-TOKEN", "The token is api_key=REDACTED-DEPLOY-TOKEN.", True),
        ("Seattle", "User lives in Seattleville.", False),
        ("   ", "anything", False),
    ],
)
def test_renders_forbidden(forbidden: str, statement: str, rendered: bool) -> None:
    assert renders_forbidden(forbidden, statement) is rendered


@pytest.mark.parametrize(
    ("text", "fragment", "contained"),
    [
        ("api_key=REDACTED-DEPLOY-TOKEN;", "REDACTED-DEPLOY-TOKEN", True),
        ("api_key=redacted-deploy-tokens", "REDACTED-DEPLOY-TOKEN", True),
        ("User's manager  is\tDana.", "manager is Dana", True),
        ("User's manager is Dan.", "manager is Dana", False),
        ("anything", "  ", False),
    ],
)
def test_contains_protected_is_a_folded_substring(
    text: str, fragment: str, contained: bool
) -> None:
    assert contains_protected(text, fragment) is contained


def test_has_protected_checks_subject_and_statement(make: Any) -> None:
    in_subject = make.belief("fact", "token REDACTED-DEPLOY-TOKEN", "User has a token.")
    in_statement = make.belief("fact", "deploy", "The key is REDACTED-DEPLOY-TOKEN.")
    clean = make.belief("fact", "deploy", "The team deploys on Fridays.")
    fragments = ["REDACTED-DEPLOY-TOKEN"]
    assert has_protected(in_subject, fragments)
    assert has_protected(in_statement, fragments)
    assert not has_protected(clean, fragments)
    assert not has_protected(in_statement, [])


def test_label_match_uses_type_subject_and_statement(
    relocation: BenchmarkScenario, make: Any
) -> None:
    labels = {label.label: label for label in relocation.beliefs}
    portland = make.belief("user_model_attr", "home location", "User lives in Portland.")
    assert matches_label(labels["home_portland"], portland)
    assert not matches_label(labels["home_seattle"], portland)
    wrong_type = make.belief("fact", "home location", "User lives in Portland.")
    assert not matches_label(labels["home_portland"], wrong_type)
    wrong_subject = make.belief("user_model_attr", "employment", "User lives in Portland.")
    assert not matches_label(labels["home_portland"], wrong_subject)
    assert matched_labels(relocation.beliefs, portland) == ("home_portland",)


@pytest.mark.parametrize(
    ("category", "formed", "bucket"),
    [
        ("update", True, "currency_violations"),
        ("update", False, "currency_unformed"),
        ("correction", True, "currency_violations"),
        ("correction", False, "currency_unformed"),
        ("abstention", False, "abstention_leaks"),
        ("transfer", True, "false_transfers"),
        ("single_hop", True, "other_forbidden_rendered"),
        ("multi_hop", True, "other_forbidden_rendered"),
        ("temporal", True, "other_forbidden_rendered"),
        ("preference", True, "other_forbidden_rendered"),
    ],
)
def test_forbidden_bucket(category: Any, formed: bool, bucket: str) -> None:
    assert forbidden_bucket(category, superseding_formed=formed) == bucket
