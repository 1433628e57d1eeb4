"""A chat-completions server that answers each formation turn by its content, and case files.

``FormationScript`` maps the sentences a ``ProviderExtractor`` sends to the case they came
from and answers with that case's scripted behaviour: support it (reply with its expected
beliefs), reply nothing, reply given candidates or raw text, or fail with an HTTP status or a
stall. Requests arrive one at a time (the extractor is sequential), so the newest recorded
request is the one being answered.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import ChatServer, Reply, reply_error, reply_stall, reply_text

from memory_bench.formation_eval import default_case_path

MODEL = "test-model"


@dataclass
class RoutedChatServer(ChatServer):
    """A ``ChatServer`` whose replies are chosen from the request being answered."""

    route: Callable[[dict[str, Any]], Reply] | None = None

    def _next(self) -> Reply:
        with self._lock:
            payload = self.requests[-1]
        assert self.route is not None, "set route before sending requests"
        return self.route(payload)


def candidates_reply(candidates: Sequence[Mapping[str, str]]) -> Reply:
    """A 200 reply whose text is ``{"candidates": [...]}``."""
    return reply_text(json.dumps({"candidates": list(candidates)}), model=MODEL)


def expected_candidates(case: Mapping[str, Any]) -> list[dict[str, str]]:
    """The first acceptable subject and statement of each expected belief of a positive case."""
    out = []
    for expected in case["expected"]:
        statement = expected["statements"][0]
        retract = any(w in statement for w in ("no longer", "stopped"))
        out.append(
            {
                "belief_type": expected["belief_type"],
                "subject": expected["subjects"][0],
                "statement": statement,
                "polarity": "retract" if retract else "assert",
            }
        )
    return out


Behaviour = Callable[[int], Reply]
"""Given how many times this case was asked before, the reply to send."""


def support(case: Mapping[str, Any]) -> Behaviour:
    return lambda _attempt: candidates_reply(expected_candidates(case))


def nothing() -> Behaviour:
    return lambda _attempt: candidates_reply([])


def raw(text: str) -> Behaviour:
    return lambda _attempt: reply_text(text, model=MODEL)


def fail(status: int, then: Behaviour | None = None, times: int = 1_000_000) -> Behaviour:
    """Answer ``status`` for the first ``times`` attempts, then behave like ``then``."""

    def behave(attempt: int) -> Reply:
        if attempt < times or then is None:
            return reply_error(status)
        return then(attempt)

    return behave


def stall(seconds: float, then: Behaviour | None = None, times: int = 1) -> Behaviour:
    def behave(attempt: int) -> Reply:
        if attempt < times or then is None:
            return reply_stall(seconds)
        return then(attempt)

    return behave


@dataclass
class FormationScript:
    """Per-case behaviours, looked up from the sentences in each request."""

    cases: list[Mapping[str, Any]]
    behaviours: dict[str, Behaviour] = field(default_factory=dict)
    attempts: dict[str, int] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)

    def case_of(self, sent: str) -> str | None:
        lines = [line for line in sent.split("\n") if line]
        for case in self.cases:
            if lines and all(line in case["text"] for line in lines):
                return str(case["id"])
        return None

    def __call__(self, payload: dict[str, Any]) -> Reply:
        sent = payload["messages"][-1]["content"]
        case_id = self.case_of(sent)
        if case_id is None:
            self.unknown.append(sent)
            return reply_error(400, "unknown turn")
        attempt = self.attempts.get(case_id, 0)
        self.attempts[case_id] = attempt + 1
        return self.behaviours.get(case_id, nothing())(attempt)


@pytest.fixture(scope="session")
def full_case_document() -> dict[str, Any]:
    """The checked-in formation case file, parsed."""
    document: dict[str, Any] = json.loads(
        default_case_path(Path(__file__)).read_text(encoding="utf-8")
    )
    return document


@pytest.fixture
def cases21(tmp_path: Path, full_case_document: dict[str, Any]) -> Path:
    """A case file with exactly 21 labeled positive cases (the first 21) and every negative."""
    document = dict(full_case_document)
    document["positive"] = full_case_document["positive"][:21]
    path = tmp_path / "cases" / "memory-formation.v2.json"
    path.parent.mkdir()
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def routed_server() -> Iterator[RoutedChatServer]:
    server = RoutedChatServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def script_for(document: Mapping[str, Any], positives: int, *, supported: int) -> FormationScript:
    """A script supporting the first ``supported`` of the first ``positives`` positive cases."""
    cases = [*document["positive"][:positives], *document["negative"]]
    script = FormationScript(cases=cases)
    for case in document["positive"][:supported]:
        script.behaviours[case["id"]] = support(case)
    return script


class FormationKit:
    """The helpers above, handed to tests as the ``fkit`` fixture."""

    MODEL = MODEL
    RoutedChatServer = RoutedChatServer
    FormationScript = FormationScript
    candidates_reply = staticmethod(candidates_reply)
    expected_candidates = staticmethod(expected_candidates)
    support = staticmethod(support)
    nothing = staticmethod(nothing)
    raw = staticmethod(raw)
    fail = staticmethod(fail)
    stall = staticmethod(stall)
    script_for = staticmethod(script_for)


@pytest.fixture
def fkit() -> FormationKit:
    """Helpers for provider formation evidence tests."""
    return FormationKit()
