"""Shared builders for the corpus tests: a small valid inline corpus and the checked-in path.

The inline corpus passes every loader rule, coverage included, with the fewest moving parts:
six scenarios of type A (single_hop, multi_hop, temporal, update, correction, preference over
two general-scope sessions) and six of type B (positive and negative transfer across two
project scopes, and a protected abstention).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
CHECKED_IN_CORPUS = REPO_ROOT / "corpus" / "memory-benchmark.v1.json"

DAY = 86_400

CorpusData = dict[str, Any]


def _scenario_a(n: int) -> dict[str, Any]:
    return {
        "id": f"mb-inline-a-{n:03d}",
        "title": f"Inline type A number {n}",
        "start_at": f"2026-01-{n + 1:02d}T09:00:00Z",
        "sessions": [
            {"id": "s01", "turns": [{"text": "I live in Seattle. I prefer tea."}]},
            {
                "id": "s02",
                "advance_seconds": 40 * DAY,
                "turns": [{"text": "I live in Portland now. My wife is Morgan."}],
            },
        ],
        "beliefs": [
            {
                "label": "home_seattle",
                "session": "s01",
                "belief_type": "user_model_attr",
                "subjects": ["home location"],
                "statements": ["User lives in Seattle."],
            },
            {
                "label": "pref_tea",
                "session": "s01",
                "belief_type": "preference",
                "subjects": ["drink"],
                "statements": ["User prefers tea."],
            },
            {
                "label": "home_portland",
                "session": "s02",
                "supersedes": "home_seattle",
                "belief_type": "user_model_attr",
                "subjects": ["home location"],
                "statements": ["User lives in Portland."],
            },
            {
                "label": "wife_morgan",
                "session": "s02",
                "belief_type": "relationship",
                "subjects": ["wife"],
                "statements": ["User's wife is Morgan."],
            },
        ],
        "probes": [
            {
                "id": "p01",
                "category": "single_hop",
                "question": "Who is my wife?",
                "needed": ["wife_morgan"],
                "answer": {"kind": "exact", "values": ["Morgan"]},
            },
            {
                "id": "p02",
                "category": "multi_hop",
                "question": "Who is my wife and where do we live?",
                "needed": ["wife_morgan", "home_portland"],
                "answer": {"kind": "all_of", "values": ["Morgan", "Portland"]},
            },
            {
                "id": "p03",
                "category": "temporal",
                "question": "What do I like to drink?",
                "needed": ["pref_tea"],
                "answer": {"kind": "alternatives", "values": ["tea"]},
            },
            {
                "id": "p04",
                "category": "update",
                "question": "Where do I live now?",
                "needed": ["home_portland"],
                "answer": {"kind": "alternatives", "values": ["Portland"]},
                "forbidden_statements": ["User lives in Seattle."],
            },
            {
                "id": "p05",
                "category": "correction",
                "question": "Do I still live in Seattle?",
                "needed": ["home_portland"],
                "answer": {"kind": "alternatives", "values": ["no", "Portland"]},
                "forbidden_statements": ["user lives in seattle"],
            },
            {
                "id": "p06",
                "category": "preference",
                "question": "Tea or coffee?",
                "needed": ["pref_tea"],
                "answer": {"kind": "alternatives", "values": ["tea"]},
            },
        ],
    }


def _scenario_b(n: int) -> dict[str, Any]:
    return {
        "id": f"mb-inline-b-{n:03d}",
        "title": f"Inline type B number {n}",
        "start_at": f"2026-02-{n + 1:02d}T09:00:00Z",
        "sessions": [
            {
                "id": "s01",
                "project_scope": "alpha",
                "turns": [{"text": "I prefer tabs. We decided to use Kafka."}],
            },
            {
                "id": "s02",
                "project_scope": "beta",
                "advance_seconds": DAY,
                "turns": [{"text": "The token is api_key=SECRET-ONE-XYZ."}],
            },
        ],
        "beliefs": [
            {
                "label": "pref_tabs",
                "session": "s01",
                "belief_type": "preference",
                "subjects": ["indentation style"],
                "statements": ["User prefers tabs."],
            },
            {
                "label": "decision_kafka",
                "session": "s01",
                "belief_type": "fact",
                "subjects": ["project decision"],
                "statements": ["The team decided to use Kafka."],
            },
        ],
        "protected_statements": ["SECRET-ONE-XYZ"],
        "probes": [
            {
                "id": "p01",
                "category": "transfer",
                "project_scope": "beta",
                "question": "Tabs or spaces?",
                "needed": ["pref_tabs"],
                "answer": {"kind": "alternatives", "values": ["tabs"]},
            },
            {
                "id": "p02",
                "category": "transfer",
                "project_scope": "beta",
                "question": "Which broker did we pick here?",
                "needed": [],
                "answer": {"kind": "abstain", "values": []},
                "forbidden_statements": ["The team decided to use Kafka."],
            },
            {
                "id": "p03",
                "category": "abstention",
                "project_scope": "beta",
                "question": "What is the token?",
                "needed": [],
                "answer": {"kind": "abstain"},
                "forbidden_statements": ["SECRET-ONE-XYZ"],
            },
        ],
    }


def build_inline_corpus() -> CorpusData:
    """A fresh, valid twelve-scenario corpus document (scenarios 0-5 type A, 6-11 type B)."""
    return {
        "schema_version": 1,
        "probe_instruction": "Answer in one line.",
        "abstain_phrase": "I do not have that information.",
        "scenarios": [_scenario_a(n) for n in range(6)] + [_scenario_b(n) for n in range(6)],
    }


@pytest.fixture
def inline_corpus() -> Callable[[], CorpusData]:
    """A factory for fresh copies of the valid inline corpus document."""
    base = build_inline_corpus()
    return lambda: copy.deepcopy(base)


@pytest.fixture
def checked_in_path() -> Path:
    """The checked-in corpus file."""
    return CHECKED_IN_CORPUS
