"""A malformed working-state payload is a typed error naming the entry and field."""

from __future__ import annotations

from typing import Any

import pytest

from memory_core import UsageError
from memory_core.base.working_state import Fact, WorkingState


@pytest.mark.parametrize(
    ("facts", "names"),
    [
        (["just text"], "facts[0] must be an object"),
        ([{"source_event_ids": ["e1"]}], "facts[0].statement must be a string"),
        (
            [
                {"statement": "ok", "source_event_ids": []},
                {"statement": "x", "source_event_ids": 3},
            ],
            "facts[1].source_event_ids must be a list",
        ),
        ([{"statement": "x", "source_event_ids": [1]}], "facts[0].source_event_ids"),
        ("not a list", "needs a 'facts' list"),
    ],
)
def test_a_malformed_entry_is_refused_with_its_place(facts: Any, names: str) -> None:
    with pytest.raises(UsageError, match=names.replace("[", r"\[").replace("]", r"\]")):
        WorkingState.from_payload("s1", {"facts": facts})


def test_a_fact_without_sources_is_read_as_empty_provenance() -> None:
    state = WorkingState.from_payload("s1", {"facts": [{"statement": "Dinner is at eight."}]})
    assert state.facts == (Fact(statement="Dinner is at eight.", source_event_ids=()),)
