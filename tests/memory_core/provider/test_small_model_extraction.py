"""Provider extraction a small model can satisfy (issue 22), on the 127.0.0.1 chat server:
the response format, the first-person rewrite, dropping a malformed candidate, truncation."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support.chat_server import ChatServer, reply_error, reply_text

from memory_core.formation.provider import (
    CANDIDATE_SCHEMA,
    ProviderExtractor,
    ReplyRejection,
)
from memory_core.runtime.scripted import FakeModelScript, ScriptedModel, ScriptedTurn

Kit = Any
ModelFactory = Any

_GOOD = {
    "belief_type": "user_model_attr",
    "subject": "home location",
    "statement": "User lives in Oslo.",
    "polarity": "assert",
}


def _reply(*items: Any, **options: Any) -> Any:
    return reply_text(json.dumps({"candidates": list(items)}), model="test-model", **options)


def test_the_candidate_schema_is_sent_as_the_response_format(
    chat_server: ChatServer, make_model: ModelFactory, kit: Kit
) -> None:
    chat_server.enqueue(_reply(_GOOD))
    ProviderExtractor(model=make_model()).extract(kit.turn("I live in Oslo."))
    sent = chat_server.requests[0]["response_format"]
    assert sent["type"] == "json_schema"
    assert sent["json_schema"]["schema"] == CANDIDATE_SCHEMA
    assert sent["json_schema"]["strict"] is True
    items = CANDIDATE_SCHEMA["properties"]["candidates"]["items"]
    assert sorted(items["required"]) == sorted(items["properties"]) == sorted(_GOOD)


def test_a_server_refusing_the_schema_gets_json_mode_then_none(
    chat_server: ChatServer, make_model: ModelFactory, kit: Kit
) -> None:
    chat_server.enqueue(
        reply_error(400, "response_format json_schema unsupported"),
        reply_error(400, "response_format unsupported"),
        _reply(_GOOD),
        _reply(_GOOD),
    )
    model = make_model()
    extractor = ProviderExtractor(model=model)
    assert len(extractor.extract(kit.turn("I live in Oslo."))) == 1
    formats = [r.get("response_format", {}).get("type") for r in chat_server.requests]
    assert formats == ["json_schema", "json_object", None]
    assert model.structured_output_mode == "off"
    extractor.extract(kit.turn("I live in Oslo.", "evt-2"))  # the mode found is kept
    assert "response_format" not in chat_server.requests[3]
    assert extractor.counters.replies_accepted == 2


@pytest.mark.parametrize(("mode", "wire"), [("json_object", "json_object"), ("off", None)])
def test_the_response_format_is_configurable(
    chat_server: ChatServer, make_model: ModelFactory, kit: Kit, mode: str, wire: str | None
) -> None:
    chat_server.enqueue(reply_error(400, "nope"))
    extractor = ProviderExtractor(model=make_model(structured_output=mode))
    assert extractor.extract(kit.turn("I live in Oslo.")) == []
    assert len(chat_server.requests) == 1  # configured: no fallback
    assert chat_server.requests[0].get("response_format", {}).get("type") == wire


def test_a_model_without_structured_output_is_asked_plainly(kit: Kit) -> None:
    model = ScriptedModel(
        FakeModelScript(turns=[ScriptedTurn(text=json.dumps({"candidates": []}))])
    )
    assert ProviderExtractor(model=model).extract(kit.turn("I live in Oslo.")) == []
    assert len(model.calls) == 1


def test_a_first_person_statement_is_rewritten_before_the_rules_run(
    chat_server: ChatServer, make_model: ModelFactory, kit: Kit
) -> None:
    chat_server.enqueue(
        _reply(
            {**_GOOD, "statement": "I live in Oslo."},
            {
                "belief_type": "relationship",
                "subject": "my wife",
                "statement": "My wife is Morgan.",
                "polarity": "assert",
            },
        )
    )
    extractor = ProviderExtractor(model=make_model())
    found = extractor.extract(kit.turn("I live in Oslo. My wife is Morgan."))
    assert [(c.subject, c.statement) for c in found] == [
        ("home location", "User lives in Oslo."),
        ("wife", "User's wife is Morgan."),
    ]
    assert extractor.counters.statements_rewritten == 2


def test_a_malformed_candidate_is_dropped_and_the_rest_kept(
    chat_server: ChatServer, make_model: ModelFactory, kit: Kit
) -> None:
    chat_server.enqueue(_reply(_GOOD, {**_GOOD, "belief_type": "event"}))
    extractor = ProviderExtractor(model=make_model())
    assert [c.statement for c in extractor.extract(kit.turn("I live in Oslo."))] == [
        "User lives in Oslo."
    ]
    counters = extractor.counters
    assert (counters.replies_accepted, counters.candidates_dropped) == (1, 1)
    assert counters.dropped == (("belief_type", 1),)
    assert counters.rejections == ()


def test_whole_reply_rejection_is_still_available(
    chat_server: ChatServer, make_model: ModelFactory, kit: Kit
) -> None:
    chat_server.enqueue(_reply(_GOOD, {**_GOOD, "belief_type": "event"}))
    extractor = ProviderExtractor(model=make_model(), drop_malformed=False)
    assert extractor.extract(kit.turn("I live in Oslo.")) == []
    assert extractor.counters.rejections == (("belief_type", 1),)


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ({**_GOOD, "belief_type": "event", "subject": "password is hunter2"}, "hazard"),
        ({**_GOOD, "belief_type": "event", "statement": "User's manager is Dana."}, "ungrounded"),
        ({**_GOOD, "statement": "User lives in Oslo since 2019"}, "ungrounded"),
    ],
)
def test_a_malformed_candidate_that_is_also_hostile_rejects_the_whole_reply(
    chat_server: ChatServer,
    make_model: ModelFactory,
    kit: Kit,
    bad: dict[str, str],
    reason: str,
) -> None:
    chat_server.enqueue(_reply(_GOOD, bad))
    extractor = ProviderExtractor(model=make_model())
    assert extractor.extract(kit.turn("I live in Oslo.")) == []
    assert extractor.counters.rejections == ((reason, 1),)
    assert extractor.counters.hostile_replies == 1


def test_a_reply_of_only_malformed_candidates_is_rejected(
    chat_server: ChatServer, make_model: ModelFactory, kit: Kit
) -> None:
    chat_server.enqueue(_reply({**_GOOD, "belief_type": "event"}, {**_GOOD, "subject": " "}))
    extractor = ProviderExtractor(model=make_model())
    assert extractor.extract(kit.turn("I live in Oslo.")) == []
    assert extractor.counters.malformed_replies == 1


def test_a_truncated_reply_is_its_own_rejection(
    chat_server: ChatServer, make_model: ModelFactory, kit: Kit
) -> None:
    chat_server.enqueue(
        reply_text('{"candidates": [{"belief_type": "user_m', finish_reason="length")
    )
    extractor = ProviderExtractor(model=make_model())
    assert extractor.extract(kit.turn("I live in Oslo.")) == []
    counters = extractor.counters
    assert counters.rejections == ((ReplyRejection.TRUNCATED.value, 1),)
    assert counters.malformed_replies == 1
    assert counters.output_tokens == 10  # billed all the same


def test_a_reply_without_usage_leaves_the_cost_unknown(
    chat_server: ChatServer, make_model: ModelFactory, kit: Kit
) -> None:
    chat_server.enqueue(_reply(_GOOD, usage=False), _reply(_GOOD))
    extractor = ProviderExtractor(model=make_model())
    extractor.extract(kit.turn("I live in Oslo."))
    extractor.extract(kit.turn("I live in Oslo.", "evt-2"))
    assert extractor.counters.cost_known is False
    assert extractor.counters.input_tokens > 100  # the estimate, plus the reported 100
