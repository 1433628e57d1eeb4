"""Validation of a provider-extraction reply (see :mod:`memory_core.formation.provider`).

:func:`read_reply` decodes a reply, rewrites first-person statements to the stored form
(:func:`~memory_core.formation.third_person.third_person`), and holds every candidate to the
deterministic path's rules; :func:`parse_reply` is the same with any malformed candidate
rejecting the whole reply. A rejection is a :class:`ReplyRejectedError` carrying a
:class:`ReplyRejection` code, never the reply's text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from memory_core.domain import BeliefType, Polarity
from memory_core.errors import MemoryCoreError
from memory_core.formation._text import split_sentences
from memory_core.formation.hazards import is_hazardous
from memory_core.formation.resolver import GROUNDING_FILLER, content_words
from memory_core.formation.service import grounded
from memory_core.formation.third_person import third_person
from memory_core.text import collapse, matching_key

DROP_MALFORMED_CANDIDATES = True
"""Whether a malformed candidate is dropped and the rest of its reply kept (a hostile candidate
always rejects the whole reply). The choice, its safety argument and its figures are in
:mod:`memory_core.formation.provider`."""

MAX_CANDIDATES_PER_REPLY = 16
"""A reply proposing more candidates than this is malformed."""

MAX_NOVEL_CONTENT_WORDS = 3
"""A statement may add at most this many content words the turn does not contain (after a
crude suffix strip): room for a paraphrase (``hate`` -> ``dislikes``, ``going with`` ->
``decided to use``), none for an invented clause."""

MAX_SUBJECT_CHARS = 60
MAX_SUBJECT_WORDS = 6
MAX_STATEMENT_CHARS = 300


class ReplyRejection(StrEnum):
    """Why a reply formed nothing (reason codes; the reply's text is never kept)."""

    NOT_JSON = "not_json"
    """The reply is not one JSON object."""
    TRUNCATED = "truncated"
    """The reply was cut at the output-token limit (``finish_reason`` length)."""
    SCHEMA = "schema"
    """The object is not ``{"candidates": [...]}`` with exactly the four string fields."""
    TOO_MANY = "too_many"
    """More than :data:`MAX_CANDIDATES_PER_REPLY` candidates."""
    BELIEF_TYPE = "belief_type"
    """A belief type or polarity outside its enum."""
    SUBJECT = "subject"
    """An empty, overlong or multi-line subject."""
    STATEMENT = "statement"
    """A statement that is not one third-person sentence ending with a period."""
    TYPE_RULE = "type_rule"
    """A ``The team ...`` statement on a type other than ``fact``."""
    RETRACTION = "retraction"
    """A retraction whose statement does not say that something stopped."""
    HAZARD = "hazard"
    """A subject or statement matching a secret or injection rule (hostile)."""
    UNGROUNDED = "ungrounded"
    """A statement naming something the turn does not say (hostile)."""

    @property
    def hostile(self) -> bool:
        """True for a reply that tried to plant content, not merely a malformed one."""
        return self in (ReplyRejection.HAZARD, ReplyRejection.UNGROUNDED)


class ReplyRejectedError(MemoryCoreError, ValueError):
    """A model reply failed validation; ``reason`` says which rule (no reply text kept)."""

    def __init__(self, reason: ReplyRejection, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason


@dataclass(frozen=True, kw_only=True)
class ProposedCandidate:
    """One validated candidate of a reply, before provenance is attached."""

    belief_type: BeliefType
    subject: str
    statement: str
    polarity: Polarity


_SUBJECT_OWNER = re.compile(r"^(?:my|user's|the user's)\s+(?=\S)")
_FENCE = re.compile(r"^```(?:json|JSON)?[ \t]*\n(?P<body>.*)\n```$", re.DOTALL)
_FIELDS = frozenset({"belief_type", "subject", "statement", "polarity"})
_STATEMENT = re.compile(r"^(?P<lead>User's|User|The team)\s+\S.*\.$")
_RETRACTION_MARKER = re.compile(
    r"\b(?:no\s+longer|not|never|stopped|quit|gave\s+up|anymore)\b|n't\b", re.IGNORECASE
)


def _reject(reason: ReplyRejection, detail: str) -> ReplyRejectedError:
    return ReplyRejectedError(reason, detail)


def _decode(text: str) -> Mapping[str, Any]:
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced is not None:
        body = fenced.group("body").strip()
    try:
        document = json.loads(body)
    except ValueError as exc:
        raise _reject(ReplyRejection.NOT_JSON, "the reply is not valid JSON") from exc
    if not isinstance(document, dict):
        raise _reject(ReplyRejection.NOT_JSON, "the reply is not a JSON object")
    return document


def _field(item: Mapping[str, Any], name: str) -> str:
    value = item[name]
    if not isinstance(value, str):
        raise _reject(ReplyRejection.SCHEMA, f"candidate field {name!r} is not a string")
    return value


_E = TypeVar("_E", bound=StrEnum)


def _enum_value(kind: type[_E], raw: str, name: str) -> _E:
    try:
        return kind(raw.strip())
    except ValueError as exc:
        raise _reject(ReplyRejection.BELIEF_TYPE, f"{name} is not one of the enum") from exc


_SUFFIXES = ("ing", "ed", "es", "s", "e")


def _stem(word: str) -> str:
    bare = word.removesuffix("'s").removesuffix("’s")
    for suffix in _SUFFIXES:
        if bare.endswith(suffix) and len(bare) - len(suffix) >= 3:
            return bare[: -len(suffix)]
    return bare


def _stems(text: str) -> frozenset[str]:
    return frozenset(_stem(t) for t in content_words(text, filler=GROUNDING_FILLER))


def novel_content_words(statement: str, source_text: str) -> list[str]:
    """The statement's content words (suffix-stripped) that the source does not contain,
    sorted."""
    return sorted(_stems(statement) - _stems(source_text))


def _proposal(item: object, source_text: str) -> ProposedCandidate:
    if not isinstance(item, dict) or set(item) != _FIELDS:
        raise _reject(
            ReplyRejection.SCHEMA,
            "a candidate must be an object with exactly belief_type, subject, statement, polarity",
        )
    belief_type = _enum_value(BeliefType, _field(item, "belief_type"), "belief_type")
    polarity = _enum_value(Polarity, _field(item, "polarity"), "polarity")
    raw_subject = _field(item, "subject")
    raw_statement = _field(item, "statement")
    if "\n" in raw_subject or "\r" in raw_subject:
        raise _reject(ReplyRejection.SUBJECT, "the subject spans lines")
    subject = _SUBJECT_OWNER.sub("", collapse(raw_subject).rstrip(" .").casefold())
    if (
        not subject
        or len(subject) > MAX_SUBJECT_CHARS
        or len(subject.split(" ")) > MAX_SUBJECT_WORDS
    ):
        raise _reject(ReplyRejection.SUBJECT, "the subject is empty or too long")
    if "\n" in raw_statement or "\r" in raw_statement:
        raise _reject(ReplyRejection.STATEMENT, "the statement spans lines")
    statement = third_person(collapse(raw_statement))
    lead = _STATEMENT.match(statement)
    if lead is None or len(statement) > MAX_STATEMENT_CHARS or len(split_sentences(statement)) != 1:
        raise _reject(
            ReplyRejection.STATEMENT,
            "the statement is not one sentence starting 'User'/'User's'/'The team' and "
            "ending with a period",
        )
    if lead.group("lead") == "The team" and belief_type is not BeliefType.FACT:
        raise _reject(ReplyRejection.TYPE_RULE, "a 'The team' statement must be a fact")
    if polarity is Polarity.RETRACT and not _RETRACTION_MARKER.search(statement):
        raise _reject(ReplyRejection.RETRACTION, "a retraction must say what no longer holds")
    if is_hazardous(subject) or is_hazardous(statement):
        raise _reject(ReplyRejection.HAZARD, "a candidate matches a hazard rule")
    if not grounded(statement, source_text):
        raise _reject(ReplyRejection.UNGROUNDED, "a statement is not grounded in the turn")
    if len(novel_content_words(statement, source_text)) > MAX_NOVEL_CONTENT_WORDS:
        raise _reject(ReplyRejection.UNGROUNDED, "a statement adds words the turn does not say")
    return ProposedCandidate(
        belief_type=belief_type, subject=subject, statement=statement, polarity=polarity
    )


@dataclass(frozen=True, kw_only=True)
class ReadReply:
    """A validated reply: its candidates, the malformed candidates dropped from it, and how many
    statements were rewritten from the first person."""

    candidates: tuple[ProposedCandidate, ...]
    dropped: tuple[ReplyRejection, ...] = ()
    rewritten: int = 0


def _screen_dropped(item: object, source_text: str) -> None:
    """A malformed candidate is dropped only if nothing in it is hostile: any string field
    matching a hazard rule, or a statement not grounded in the turn, rejects the whole reply."""
    if not isinstance(item, dict):
        return
    texts = [value for value in item.values() if isinstance(value, str)]
    if any(is_hazardous(text) for text in texts):
        raise _reject(ReplyRejection.HAZARD, "a dropped candidate matches a hazard rule")
    statement = item.get("statement")
    rewritten = third_person(collapse(statement)) if isinstance(statement, str) else ""
    if rewritten.strip() and not grounded(rewritten, source_text):
        raise _reject(ReplyRejection.UNGROUNDED, "a dropped candidate is not grounded")


def read_reply(
    text: str | None, source_text: str, *, drop_malformed: bool | None = None
) -> ReadReply:
    """Validate a model reply against the provider formation schema and rules.

    Statements are rewritten from the first person (:func:`third_person`) before any rule
    runs. A document-level defect (not JSON, not ``{"candidates": [...]}``, too many
    candidates) and any hostile candidate (a hazard, an ungrounded statement, including inside
    a malformed candidate) reject the whole reply. A malformed candidate is dropped when
    ``drop_malformed`` (default :data:`DROP_MALFORMED_CANDIDATES`) and the rest kept; a reply
    whose every candidate is malformed is rejected.

    Args:
        text: The reply's text (``None`` when the model sent none).
        source_text: The sentences the model was shown; statements must be grounded in them.
        drop_malformed: Drop malformed candidates instead of rejecting the whole reply.

    Returns:
        The candidates, in reply order, duplicates (same normalized type, subject, statement
        and polarity) dropped, with what was dropped and rewritten.

    Raises:
        ReplyRejectedError: The whole reply is rejected; ``reason`` says why.
    """
    partial = DROP_MALFORMED_CANDIDATES if drop_malformed is None else drop_malformed
    if text is None:
        raise _reject(ReplyRejection.NOT_JSON, "the reply carries no text")
    document = _decode(text)
    items = document.get("candidates")
    if set(document) != {"candidates"} or not isinstance(items, list):
        raise _reject(ReplyRejection.SCHEMA, 'the reply must be {"candidates": [...]} only')
    if len(items) > MAX_CANDIDATES_PER_REPLY:
        raise _reject(ReplyRejection.TOO_MANY, f"more than {MAX_CANDIDATES_PER_REPLY} candidates")
    seen: set[tuple[str, str, str, str]] = set()
    out: list[ProposedCandidate] = []
    dropped: list[ReplyRejection] = []
    rewritten = 0
    for item in items:
        try:
            proposal = _proposal(item, source_text)
        except ReplyRejectedError as exc:
            if exc.reason.hostile or not partial:
                raise
            _screen_dropped(item, source_text)
            dropped.append(exc.reason)
            continue
        key = (
            proposal.belief_type.value,
            matching_key(proposal.subject),
            matching_key(proposal.statement),
            proposal.polarity.value,
        )
        if key not in seen:
            seen.add(key)
            out.append(proposal)
            rewritten += int(proposal.statement != collapse(str(item["statement"])))
    if dropped and not out:
        raise _reject(dropped[0], "every candidate of the reply is malformed")
    return ReadReply(candidates=tuple(out), dropped=tuple(dropped), rewritten=rewritten)


def parse_reply(text: str | None, source_text: str) -> list[ProposedCandidate]:
    """Validate a reply whole: :func:`read_reply` with any malformed candidate rejecting it.

    Raises:
        ReplyRejectedError: Any rule failed; the whole reply is rejected.
    """
    return list(read_reply(text, source_text, drop_malformed=False).candidates)


__all__ = [
    "DROP_MALFORMED_CANDIDATES",
    "MAX_CANDIDATES_PER_REPLY",
    "MAX_NOVEL_CONTENT_WORDS",
    "MAX_STATEMENT_CHARS",
    "MAX_SUBJECT_CHARS",
    "MAX_SUBJECT_WORDS",
    "ProposedCandidate",
    "ReadReply",
    "ReplyRejectedError",
    "ReplyRejection",
    "novel_content_words",
    "parse_reply",
    "read_reply",
]
