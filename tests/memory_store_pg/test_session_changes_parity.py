"""The mid-session flow (delta and corrections) is field-identical on both tiers.

The deterministic arm opens a fresh session per probe, so it never exercises the recall delta
or the correction lines; this runs the gates' real mid-session flow on the in-memory tier and on
PostgreSQL and compares what the model was sent, every recall trace, every event and every
belief, field by field.
"""

from __future__ import annotations

from typing import Any

import pytest
from _support.session_changes import ALICE, HOUR, compose, remember_mid_session, retire

from memory_core import InMemoryStorage, Storage
from memory_core.runtime.scripted import ScriptedModel
from memory_store_pg import temporary_storage

pytestmark = pytest.mark.postgres


def _flow(storage: Storage) -> dict[str, Any]:
    app = compose(storage)
    mid = remember_mid_session(app)
    app.advance(60)
    runs = [app.runs.submit("Where do I live?", mid.session.id)]
    app.advance(HOUR)
    retire(app, next(b for b in app.memory.list_memories() if "concise" in b.statement))
    runs.append(app.runs.submit("Any plans for the weekend?", mid.session.id))
    assert all(run.completed for run in runs)
    model = app.model
    assert isinstance(model, ScriptedModel)
    events = app.events.page(ALICE, limit=10_000)
    trace_ids = [str(e.payload["trace_id"]) for e in events if e.event_type == "memory.recalled"]
    return {
        "sent": [[(m.role, m.content) for m in call.messages] for call in model.calls],
        "traces": [app.memory.get_recall_trace(t).model_dump(mode="json") for t in trace_ids],
        "events": [e.model_dump(mode="json") for e in events],
        "beliefs": [b.model_dump(mode="json") for b in app.memory.list_memories()],
        "runs": [(r.trace_ids, r.prefix_digest) for r in runs],
    }


def test_the_delta_and_correction_flow_is_identical_on_both_tiers(postgres_url: str) -> None:
    memory = _flow(InMemoryStorage())
    with temporary_storage(postgres_url) as pg:
        postgres = _flow(pg)
    moments = [t["moment"] for t in memory["traces"]]
    assert moments.count("delta") == 2  # the flow exercised what it is here to compare
    assert any("correction: " in content for call in memory["sent"] for _, content in call)
    for part in ("sent", "traces", "events", "beliefs", "runs"):
        assert memory[part] == postgres[part], part
