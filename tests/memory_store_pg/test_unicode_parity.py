"""Generated Unicode through record, close and recall: both tiers give identical outcomes.

Texts mix chat sentences with NUL, lone and paired surrogates, format characters (zero-width
space, word joiner, BOM, bidi override), controls, whitespace and arbitrary code points. Each
text is recorded into a fresh session on the in-memory tier and on PostgreSQL (same principal,
same id sequence); the session is closed and the text recalled. The record's outcome (stored
text, or the gate's ``problem``), the consolidation counts, the formed beliefs and the recall
block must be equal on both tiers, and no error other than the gate's may appear.
"""

from __future__ import annotations

import itertools
import unicodedata
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_core import InMemoryStorage, MessageTextError, Principal, Storage
from memory_core.bootstrap import build
from memory_core.text_gate import MAX_MESSAGE_BYTES
from memory_store_pg import PostgresStorage

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

_PIECES = st.sampled_from(
    [
        "I live in Oslo.",
        "My name is Ada.",
        "I prefer tea over coffee.",
        "We decided to ship on Mondays.",
        "\x00",
        "\ud800",
        "\udfff",
        "\ud83d\ude00",  # a UTF-16 pair left unjoined: two surrogate code points
        "\U0001f600",
        "\u200b",
        "\u2060",
        "\ufeff",
        "\u202e",
        "\x07",
        " ",
        "\n",
        "é",
        "東京",
    ]
)
_ANY = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=4)
TEXTS = st.lists(st.one_of(_PIECES, _ANY), min_size=0, max_size=6).map("".join)

_examples = itertools.count()


def _outcome(storage: Storage, principal: Principal, namespace: str, text: str) -> dict[str, Any]:
    app = build(
        storage=storage,
        fixed_clock_at=T0,
        sequential_ids=True,
        id_namespace=namespace,
        principal=principal,
    )
    session = app.sessions.create()
    result: dict[str, Any] = {}
    try:
        event = app.sessions.record_user_message(session.id, text)
    except MessageTextError as refused:
        result["record"] = ("refused", refused.problem)
    else:
        stored = app.events.get(app.principal, event.event_id)
        assert stored == event
        result["record"] = ("stored", stored.payload["text"])
    closure = app.sessions.close(session.id)
    assert closure.consolidation is not None
    result["close"] = asdict(closure.consolidation)
    result["beliefs"] = sorted(
        (b.belief_type.value, b.subject, b.statement, b.scope) for b in app.memory.list_memories()
    )
    query = text if result["record"][0] == "stored" else "Where do I live?"
    recalled = app.memory.recall(query)
    result["recall"] = (recalled.block, recalled.trace.returned_count)
    return result


@settings(max_examples=60, deadline=None, derandomize=True)
@given(text=TEXTS)
@example(text="I live in Oslo\x00. I work at Acme.")  # the poison
@example(text="I live in Oslo\ud800.")
@example(text="\ud83d\ude00 I prefer tea.")
@example(text="\u200b")
@example(text="\u2060 \ufeff\n")
@example(text="I live in \u200bOslo. My name is \u202eAda.")
@example(text="I live in Oslo. " * 4097)  # 65,552 bytes: over the bound
def test_generated_unicode_has_identical_outcomes_on_both_tiers(
    pg_module: PostgresStorage, text: str
) -> None:
    n = next(_examples)
    principal = Principal("tenant-u", f"user-{n}")
    namespace = f"unicode-{n}"
    in_memory = _outcome(InMemoryStorage(), principal, namespace, text)
    on_postgres = _outcome(pg_module, principal, namespace, text)
    assert on_postgres == in_memory
    expected = _expected_problem(text)
    if expected is None:
        assert in_memory["record"] == ("stored", text)  # verbatim
    else:
        assert in_memory["record"] == ("refused", expected)


def _expected_problem(text: str) -> str | None:
    """What the gate must refuse, written from its contract (first problem wins)."""
    if "\x00" in text:
        return "nul"
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        return "surrogate"
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        return "too_large"
    if all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in text):
        return "empty"
    return None
