"""HaluMem (CC BY-NC-ND 4.0): ``HaluMem-Medium.jsonl``, ``HaluMem-Long.jsonl``.

JSON Lines, one user per line, read line by line. The user is the principal; assistant turns
are non-source messages. Memory points become labeled beliefs; a point whose ``is_update`` is
``"True"`` supersedes the earlier points its ``original_memories`` name (matched by normalized
text; an unmatched name is counted, not fatal). Questions become probes asked after their
session; their evidence (``{memory_content, memory_type}``) is matched by text to the memory
points, so a probe knows the labels it needs and, at session granularity, where they were
stated. ``Memory Boundary`` questions ask about what was never said and are abstention probes.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Final

from memory_bench.corpus import ProbeCategory
from memory_bench_external._dates import parse_halumem_datetime
from memory_bench_external._fields import RecordContext, join
from memory_bench_external._load import DatasetSource, open_dataset
from memory_bench_external._types import (
    EvidenceTally,
    ExternalBelief,
    ExternalDataset,
    ExternalEvidence,
    ExternalInstance,
    ExternalProbe,
    ExternalSession,
    ExternalTurn,
)
from memory_core.domain import BeliefType
from memory_core.text import fold, matching_key

LICENSE: Final = "CC-BY-NC-ND-4.0"
"""HaluMem's license."""

CATEGORY_BY_TYPE: Final[dict[str, ProbeCategory]] = {
    "basic fact recall": "single_hop",
    "dynamic update": "update",
    "generalization & application": "preference",
    "memory boundary": "abstention",
    "memory conflict": "correction",
    "multi-hop inference": "multi_hop",
}
"""HaluMem ``question_type`` (case-folded) -> benchmark probe category."""

ABSTENTION_TYPES: Final = frozenset({"memory boundary"})
"""Question types whose correct answer is to abstain."""

BELIEF_TYPE_BY_MEMORY_TYPE: Final[dict[str, BeliefType]] = {
    "persona memory": BeliefType.USER_MODEL_ATTR,
    "event memory": BeliefType.FACT,
    "relationship memory": BeliefType.RELATIONSHIP,
}
"""HaluMem ``memory_type`` (case-folded) -> belief type; any other type is a fact."""

PRINCIPAL_ROLE: Final = "user"
"""The role whose turns are formation sources."""

_ROLES: Final = frozenset({"user", "assistant"})


class _UserParser:
    """Parses one user line; keeps the text index that resolves updates and evidence."""

    def __init__(self, context: RecordContext) -> None:
        self.context = context
        self.labels_by_text: dict[str, list[str]] = {}
        self.session_by_label: dict[str, str] = {}
        self.beliefs: list[ExternalBelief] = []
        self.probes: list[ExternalProbe] = []
        self.tally = EvidenceTally()

    def lookup(self, text: object) -> list[str]:
        """Labels of the beliefs stated so far with this text, oldest first."""
        if not isinstance(text, str):
            return []
        return self.labels_by_text.get(fold(text)) or self.labels_by_text.get(
            matching_key(text), []
        )

    def turns(
        self, session: dict[str, object], field: str, session_id: str
    ) -> tuple[ExternalTurn, ...]:
        context = self.context
        turns: list[ExternalTurn] = []
        for index, raw_turn in enumerate(context.items(session, "dialogue", field)):
            turn_field = join(join(field, "dialogue"), index)
            turn = context.mapping(raw_turn, turn_field)
            role = context.text(turn, "role", turn_field)
            if role not in _ROLES:
                raise context.error(
                    join(turn_field, "role"), f"expected 'user' or 'assistant', found {role!r}"
                )
            stamp = turn.get("timestamp")
            turns.append(
                ExternalTurn(
                    turn_id=f"{session_id}:{index + 1}",
                    index=index,
                    speaker=role,
                    is_principal=role == PRINCIPAL_ROLE,
                    text=context.text(turn, "content", turn_field),
                    timestamp=None
                    if stamp is None
                    else context.instant(
                        stamp, join(turn_field, "timestamp"), parse_halumem_datetime
                    ),
                )
            )
        return tuple(turns)

    def memory_points(
        self, session: dict[str, object], field: str, session_id: str, number: int
    ) -> None:
        context = self.context
        unresolved = 0
        for index, raw_point in enumerate(context.optional_items(session, "memory_points", field)):
            point_field = join(join(field, "memory_points"), index)
            point = context.mapping(raw_point, point_field)
            statement = context.text(point, "memory_content", point_field)
            memory_type = context.text(point, "memory_type", point_field)
            raw_update = point.get("is_update")
            is_update = (
                False
                if raw_update is None
                else context.flag(raw_update, join(point_field, "is_update"))
            )
            supersedes: list[str] = []
            if is_update:
                for original in context.optional_items(point, "original_memories", point_field):
                    earlier = self.lookup(original)
                    if earlier:
                        if earlier[-1] not in supersedes:
                            supersedes.append(earlier[-1])
                    else:
                        unresolved += 1
            stamp = point.get("timestamp")
            importance = point.get("importance")
            label = f"m{number:03d}_{index + 1:03d}"
            self.beliefs.append(
                ExternalBelief(
                    label=label,
                    statement=statement,
                    memory_type=memory_type,
                    belief_type=BELIEF_TYPE_BY_MEMORY_TYPE.get(fold(memory_type), BeliefType.FACT),
                    source=context.optional_text(point, "memory_source", point_field) or "",
                    session_id=session_id,
                    stated_at=None
                    if stamp is None
                    else context.instant(
                        stamp, join(point_field, "timestamp"), parse_halumem_datetime
                    ),
                    importance=float(importance)
                    if isinstance(importance, int | float) and not isinstance(importance, bool)
                    else None,
                    is_update=is_update,
                    supersedes=tuple(supersedes),
                )
            )
            self.session_by_label[label] = session_id
            for text in {fold(statement), matching_key(statement)}:
                self.labels_by_text.setdefault(text, []).append(label)
        self.tally = self.tally + EvidenceTally(unresolved_updates=unresolved)

    def questions(
        self,
        session: dict[str, object],
        field: str,
        session_id: str,
        number: int,
        asked_at: datetime,
    ) -> None:
        context = self.context
        for index, raw_question in enumerate(context.optional_items(session, "questions", field)):
            q_field = join(join(field, "questions"), index)
            question = context.mapping(raw_question, q_field)
            question_type = context.text(question, "question_type", q_field)
            category = CATEGORY_BY_TYPE.get(fold(question_type))
            if category is None:
                known = ", ".join(sorted(CATEGORY_BY_TYPE))
                raise context.error(
                    join(q_field, "question_type"),
                    f"unknown question type {question_type!r} (known, case-insensitive: {known})",
                )
            abstention = fold(question_type) in ABSTENTION_TYPES
            needed: list[str] = []
            evidence: dict[str, ExternalEvidence] = {}
            if not abstention:
                entries = context.optional_items(question, "evidence", q_field)
                references = session_level = malformed = unknown = 0
                for entry in entries:
                    references += 1
                    content = entry.get("memory_content") if isinstance(entry, dict) else entry
                    if not isinstance(content, str) or not content.strip():
                        malformed += 1
                        continue
                    labels = self.lookup(content)
                    if not labels:
                        unknown += 1
                        continue
                    label = labels[-1]
                    session_level += 1
                    if label not in needed:
                        needed.append(label)
                    stated_in = self.session_by_label[label]
                    evidence.setdefault(
                        stated_in, ExternalEvidence(session_id=stated_in, dataset_ref=label)
                    )
                self.tally = self.tally + EvidenceTally(
                    references=references,
                    session_level=session_level,
                    malformed=malformed,
                    unknown=unknown,
                    empty_lists=0 if entries else 1,
                )
            self.probes.append(
                ExternalProbe(
                    probe_id=f"s{number:03d}_q{index + 1:03d}",
                    question=context.text(question, "question", q_field),
                    answer=context.answer(
                        context.get(question, "answer", q_field), join(q_field, "answer")
                    ),
                    abstention=abstention,
                    category=category,
                    dataset_category=question_type,
                    evidence=tuple(evidence.values()),
                    needed=tuple(needed),
                    asked_at=asked_at,
                    after_session=session_id,
                )
            )


def parse_instance(context: RecordContext, record: dict[str, object]) -> ExternalInstance:
    """Map one HaluMem user to an instance: sessions, labeled beliefs and probes.

    Raises:
        DatasetError: A required field is missing or mistyped, a date does not parse, a role is
            not user/assistant, or a question type is unknown.
    """
    user_id = context.text(record, "uuid")
    parser = _UserParser(context)
    sessions: list[ExternalSession] = []
    for position, raw_session in enumerate(context.items(record, "sessions")):
        field = join("sessions", position)
        session = context.mapping(raw_session, field)
        number = position + 1
        session_id = f"session_{number}"
        started_at = context.instant(
            context.get(session, "start_time", field),
            join(field, "start_time"),
            parse_halumem_datetime,
        )
        end = session.get("end_time")
        ended_at = (
            None
            if end is None
            else context.instant(end, join(field, "end_time"), parse_halumem_datetime)
        )
        sessions.append(
            ExternalSession(
                session_id=session_id,
                started_at=started_at,
                ended_at=ended_at,
                turns=parser.turns(session, field, session_id),
            )
        )
        parser.memory_points(session, field, session_id, number)
        parser.questions(session, field, session_id, number, ended_at or started_at)
    return ExternalInstance(
        dataset="halumem",
        instance_id=user_id,
        principal=PRINCIPAL_ROLE,
        sessions=tuple(sessions),
        beliefs=tuple(parser.beliefs),
        probes=tuple(parser.probes),
        evidence=parser.tally,
    )


def open_halumem(path: Path | str, *, sample: int | None = None, seed: int = 0) -> DatasetSource:
    """Index a HaluMem JSON Lines file (Medium or Long) and select the sample; parse on demand.

    Args:
        path: The operator's local copy of the file.
        sample: How many users to select (``None``: all).
        seed: The sampling seed.

    Raises:
        DatasetError: The file is not readable JSON Lines of HaluMem users.
        UsageError: ``sample`` is impossible for this file.
    """
    return open_dataset(
        path,
        dataset="halumem",
        license=LICENSE,
        file_format="json_lines",
        id_key="uuid",
        sample=sample,
        seed=seed,
        parse=parse_instance,
    )


def load_halumem(path: Path | str, *, sample: int | None = None, seed: int = 0) -> ExternalDataset:
    """Read a HaluMem JSON Lines file (Medium or Long) and map the sampled users.

    Args:
        path: The operator's local copy of the file.
        sample: How many users to select (``None``: all).
        seed: The sampling seed.

    Raises:
        DatasetError: The file is not a readable HaluMem file; the message names the line,
            the user's ``uuid`` and the field.
        UsageError: ``sample`` is impossible for this file.
    """
    return open_halumem(path, sample=sample, seed=seed).load()
