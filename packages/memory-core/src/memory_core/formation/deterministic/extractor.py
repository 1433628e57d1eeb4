"""The deterministic extractor: sentences to clauses to candidates."""

from __future__ import annotations

import re

from memory_core.domain import Polarity
from memory_core.formation._text import split_clauses
from memory_core.formation.deterministic.answers import answer_readings
from memory_core.formation.deterministic.conversation import _LISTENER
from memory_core.formation.deterministic.phrases import _Proposal
from memory_core.formation.deterministic.reading import (
    ClauseReading,
    _read,
    _reading,
    _resolve_pronoun,
)
from memory_core.formation.deterministic.screening import (
    _DEPENDENT_PARTICIPLE,
    _SARCASM,
    _normalize_clause,
    _supply_subject,
    sentence_forms_nothing,
)
from memory_core.formation.port import Candidate, Turn
from memory_core.policy import DETERMINISTIC_FORMATION_POLICY

_JOINT_HEAD = re.compile(r"^(?:my|our)\s+(?:\w+\s+)?\w+$|^[A-Z][a-z]+$", re.IGNORECASE)


def _rejoin_joint_subject(clauses: list[str]) -> list[str]:
    """``My sister and I are driving`` splits before ``I``; put the joint subject back when
    the verb agrees with it, or when the partner is named (``My wife Ingrid and I ...``), so
    the clause is read as a whole, not as the user's alone."""
    out: list[str] = []
    for clause in clauses:
        joint = out and _JOINT_HEAD.match(out[-1])
        named = joint and re.match(r"^(?:my|our)\s+\w+\s+[A-Z]", out[-1], re.IGNORECASE)
        if joint and (named or re.match(r"^I\s+(?:are|were)\b", clause)):
            out[-1] = f"{out[-1]} and {clause}"
        else:
            out.append(clause)
    return out


class DeterministicExtractor:
    """Pattern-based extraction of first-person statements (``formation@7``)."""

    @property
    def policy_version(self) -> str:
        """``formation@7``."""
        return DETERMINISTIC_FORMATION_POLICY

    def extract(self, turn: Turn) -> list[Candidate]:
        """Return the candidates of ``turn``'s sentences, in order, without duplicates."""
        seen: set[tuple[str, str, str, str]] = set()
        out: list[Candidate] = []
        previous: list[_Proposal] = []
        for sentence in turn.sentences:
            if sentence_forms_nothing(sentence) or _SARCASM.match(sentence):
                previous = []
                continue
            user_opens = False
            clauses = _rejoin_joint_subject(split_clauses(sentence))
            for index, clause in enumerate(clauses):
                text = _normalize_clause(clause)
                # An elided subject is the user's when the sentence opens with the user (or
                # with nothing): ``My wife lives in Oslo, originally from Bergen`` is not.
                if index == 0:
                    if _DEPENDENT_PARTICIPLE.match(sentence) is None:
                        text = _supply_subject(text)
                    user_opens = re.match(r"^I\b", text) is not None
                elif user_opens:
                    text = _supply_subject(text)
                proposals = _read(text) if text else []
                if not proposals and previous:
                    proposals = [(p, Polarity.ASSERT) for p in _resolve_pronoun(text, previous)]
                previous = [p for p, polarity in proposals if polarity is Polarity.ASSERT]
                for reading in (
                    _reading(p, polarity, turn.created_at) for p, polarity in proposals
                ):
                    # Nothing forms about the listener (``User loves your turtles.``).
                    if _LISTENER.search(reading.statement):
                        continue
                    key = (
                        reading.belief_type.value,
                        reading.subject,
                        reading.statement.casefold(),
                        reading.polarity.value,
                    )
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append(
                        Candidate(
                            belief_type=reading.belief_type,
                            subject=reading.subject,
                            statement=reading.statement,
                            polarity=reading.polarity,
                            exclusive=reading.exclusive,
                            retracts=reading.retracts,
                            source_event_ids=(turn.event_id,),
                            evidence_at=turn.created_at,
                            confidence=reading.confidence,
                        )
                    )
        if not out and turn.prompt and turn.sentences:
            out = [
                _candidate(_reading(p, Polarity.ASSERT), turn)
                for p in answer_readings(turn.prompt, turn.sentences[0])
            ]
        return out


def _candidate(reading: ClauseReading, turn: Turn) -> Candidate:
    return Candidate(
        belief_type=reading.belief_type,
        subject=reading.subject,
        statement=reading.statement,
        polarity=reading.polarity,
        exclusive=reading.exclusive,
        retracts=reading.retracts,
        source_event_ids=(turn.event_id,),
        evidence_at=turn.created_at,
        confidence=reading.confidence,
    )
