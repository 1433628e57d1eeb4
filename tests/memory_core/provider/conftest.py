"""Fixtures for provider formation tests: a model on the 127.0.0.1 chat server, turns, a
governed service, and evidence documents."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import ChatServer, Reply, reply_text

from memory_core import Event, InMemoryStorage, Principal, Session, SessionMetadata, Trust
from memory_core.clock import FixedClock
from memory_core.formation import Turn, screen_turn
from memory_core.formation.selection import ProviderFormationEvidence
from memory_core.ids import SequentialIdFactory
from memory_core.policy import PROVIDER_FORMATION_POLICY
from memory_core.runtime.openai_compat import OpenAICompatibleModel
from memory_core.runtime.pricing import ModelPrice, PriceCatalog

MODEL = "test-model"
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
PRICES = PriceCatalog({MODEL: ModelPrice(input=1.0, output=2.0)})


def candidates(*items: Mapping[str, str]) -> Reply:
    """A 200 reply whose text is ``{"candidates": [...]}``."""
    return reply_text(json.dumps({"candidates": list(items)}), model=MODEL)


def candidate(
    statement: str,
    subject: str,
    belief_type: str = "user_model_attr",
    polarity: str = "assert",
) -> dict[str, str]:
    return {
        "belief_type": belief_type,
        "subject": subject,
        "statement": statement,
        "polarity": polarity,
    }


def turn(text: str, event_id: str = "evt-1") -> Turn:
    """A hazard-screened turn, as the governed service hands it to an extractor."""
    return Turn(event_id=event_id, created_at=START, sentences=screen_turn(text).sentences)


ModelFactory = Callable[..., OpenAICompatibleModel]


@pytest.fixture
def make_model(chat_server: ChatServer) -> Iterator[ModelFactory]:
    """Build models on the test server (no backoff sleeps); closed after the test."""
    built: list[OpenAICompatibleModel] = []

    def factory(**options: Any) -> OpenAICompatibleModel:
        settings: dict[str, Any] = {
            "model": MODEL,
            "base_url": chat_server.base_url,
            "prices": PRICES,
            "sleep": lambda _seconds: None,
            "max_retries": 0,
        }
        settings.update(options)
        model = OpenAICompatibleModel(**settings)
        built.append(model)
        return model

    yield factory
    for model in built:
        model.close()


PRINCIPAL = Principal("tenant-1", "alice")


def open_session(storage: InMemoryStorage, clock: FixedClock, session_id: str = "s-1") -> None:
    storage.sessions.create(
        Session(
            id=session_id,
            tenant_id=PRINCIPAL.tenant_id,
            principal_id=PRINCIPAL.principal_id,
            agent="test-agent",
            metadata=SessionMetadata(),
            opened_at=clock.now(),
            last_activity_at=clock.now(),
        )
    )


def say(
    storage: InMemoryStorage,
    clock: FixedClock,
    ids: SequentialIdFactory,
    text: str,
    session_id: str = "s-1",
) -> Event:
    clock.advance(60)
    return storage.events.append(
        Event(
            event_id=ids.new_id(),
            tenant_id=PRINCIPAL.tenant_id,
            principal_id=PRINCIPAL.principal_id,
            session_id=session_id,
            event_type="user.message.created",
            actor="user",
            trust=Trust.USER,
            payload={"text": text},
            created_at=clock.now(),
        )
    )


def provenance_fields(**overrides: Any) -> dict[str, Any]:
    """The provenance record of an evidence document, with overrides of its fields."""
    fields: dict[str, Any] = {
        "commit": "0123456789abcdef0123456789abcdef01234567",
        "dirty": False,
        "packages": {"memory-core": "0.1.0"},
        "policies": {
            "formation": "formation@7",
            "provider_formation": PROVIDER_FORMATION_POLICY,
            "retrieval": "retrieval@2",
        },
        "inputs": {"case_file": "a" * 64},
        "recorded_at": "2026-03-02T09:00:00Z",
    }
    fields.update(overrides)
    return fields


def evidence_fields(**overrides: Any) -> dict[str, Any]:
    """A passing evidence document (18 of 21 fully supported), with overrides."""
    positives = [f"fp-{n:03d}" for n in range(1, 22)]
    fields: dict[str, Any] = {
        "schema_version": 2,
        "kind": "provider_formation",
        "provenance": provenance_fields(),
        "provider": "openai-compatible",
        "model": MODEL,
        "case_file": "memory-formation.v2.json",
        "positive_cases": 21,
        "fully_supported_positive": 18,
        "minimum_fully_supported": 17,
        "negative_cases": 25,
        "negatives_formed": 0,
        "supported_case_ids": positives[:18],
        "unsupported_case_ids": positives[18:],
        "requests": 25,
        "malformed_replies": 1,
        "hostile_replies": 1,
        "model_errors": 0,
    }
    fields.update(overrides)
    return fields


def write_evidence(directory: Path, name: str | None = None, **overrides: Any) -> Path:
    """Write a (validated) evidence document under its derived name, or ``name``."""
    evidence = ProviderFormationEvidence.model_validate(evidence_fields(**overrides))
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / (name or evidence.file_name)
    path.write_text(evidence.model_dump_json(indent=2), encoding="utf-8")
    return path


def write_raw(directory: Path, name: str, document: Mapping[str, Any] | Sequence[Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


class ProviderKit:
    """The helpers above, handed to tests as the ``kit`` fixture (test modules cannot import
    this conftest)."""

    MODEL = MODEL
    START = START
    PRINCIPAL = PRINCIPAL
    candidates = staticmethod(candidates)
    candidate = staticmethod(candidate)
    turn = staticmethod(turn)
    open_session = staticmethod(open_session)
    say = staticmethod(say)
    evidence_fields = staticmethod(evidence_fields)
    provenance_fields = staticmethod(provenance_fields)
    write_evidence = staticmethod(write_evidence)
    write_raw = staticmethod(write_raw)


@pytest.fixture
def kit() -> ProviderKit:
    """Helpers for provider formation tests."""
    return ProviderKit()
