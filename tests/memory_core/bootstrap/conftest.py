"""Shared fixtures of the bootstrap tests: the spec's first worked scenario (relocation)."""

from __future__ import annotations

from typing import Any

import pytest

RELOCATION_SCENARIO: dict[str, Any] = {
    "id": "mb-relocation-update-001",
    "title": "Relocation, spouse, team decision, answer style",
    "start_at": "2026-03-02T09:00:00Z",
    "sessions": [
        {
            "id": "s01",
            "turns": [
                {
                    "text": "Hi! Quick context before we start. I live in Seattle. "
                    "I work at Acme Labs as a data engineer."
                },
                {"text": "By the way, I prefer concise answers."},
                {
                    "text": "Can you help me draft a note to my team about the Q2 roadmap?",
                    "advance_seconds": 120,
                },
            ],
        },
        {
            "id": "s02",
            "advance_seconds": 259200,
            "turns": [
                {
                    "text": "My wife is Morgan. She is planning our anniversary trip, "
                    "so I will be offline Friday."
                },
                {"text": "Also, we decided to deploy on Fridays for the rest of the quarter."},
            ],
        },
        {
            "id": "s03",
            "advance_seconds": 3888000,
            "turns": [
                {"text": "Big news! I live in Portland now. The move finished last weekend."},
                {"text": "Still at Acme Labs, working remotely from here."},
            ],
        },
    ],
    "probes": [
        {
            "id": "p01",
            "category": "update",
            "advance_seconds": 86400,
            "question": "Where do I live now?",
            "forbidden_statements": ["User lives in Seattle."],
        }
    ],
}
"""The sessions and first probe of the spec's ``mb-relocation-update-001`` scenario."""


@pytest.fixture
def relocation() -> dict[str, Any]:
    """The relocation scenario."""
    return RELOCATION_SCENARIO
