"""LongMemEval (MIT): ``longmemeval_oracle.json``, ``longmemeval_s_cleaned.json``, ``..._m_...``.

A JSON list of instances, one question each, with a haystack of dated sessions. The user is
the principal; assistant turns are non-source messages. Question types map to probe
categories; a ``question_id`` ending in ``_abs`` is an abstention probe whatever its type.
``single-session-assistant`` probes are reported separately: their evidence is an assistant
turn, formation never reads assistant turns, so they are expected to score zero by design.

Evidence follows the official retrieval code: the turns marked ``has_answer`` inside the
``answer_session_ids`` sessions, a turn being ``<session_id>_<index + 1>`` counting every turn.
An answer session with no marked turn is evidence at session granularity.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from memory_bench.corpus import ProbeCategory
from memory_bench_external._dates import parse_longmemeval_datetime
from memory_bench_external._fields import RecordContext, join
from memory_bench_external._load import DatasetSource, open_dataset
from memory_bench_external._types import (
    EvidenceTally,
    ExternalDataset,
    ExternalEvidence,
    ExternalInstance,
    ExternalProbe,
    ExternalSession,
    ExternalTurn,
)

LICENSE: Final = "MIT"
"""LongMemEval's license."""

ABSTENTION_SUFFIX: Final = "_abs"
"""A ``question_id`` with this suffix asks about something the haystack never says."""

REPORTED_SEPARATELY: Final = frozenset({"single-session-assistant"})
"""Question types scored in their own bucket: their evidence is an assistant turn."""

CATEGORY_BY_TYPE: Final[dict[str, ProbeCategory]] = {
    "single-session-user": "single_hop",
    "single-session-assistant": "single_hop",
    "single-session-preference": "preference",
    "multi-session": "multi_hop",
    "temporal-reasoning": "temporal",
    "knowledge-update": "update",
}
"""LongMemEval ``question_type`` -> benchmark probe category."""

PRINCIPAL_ROLE: Final = "user"
"""The role whose turns are formation sources."""

_ROLES: Final = frozenset({"user", "assistant"})


def _sessions(
    context: RecordContext, record: dict[str, object]
) -> tuple[tuple[ExternalSession, ...], dict[str, tuple[str, ...]]]:
    """The haystack sessions, and per session the ids of its ``has_answer`` turns."""
    ids = context.items(record, "haystack_session_ids")
    dates = context.items(record, "haystack_dates")
    bodies = context.items(record, "haystack_sessions")
    if not len(ids) == len(dates) == len(bodies):
        raise context.error(
            "haystack_sessions",
            "haystack_session_ids, haystack_dates and haystack_sessions differ in length "
            f"({len(ids)}, {len(dates)}, {len(bodies)})",
        )
    sessions: list[ExternalSession] = []
    marked: dict[str, tuple[str, ...]] = {}
    for position, (raw_id, raw_date, raw_body) in enumerate(zip(ids, dates, bodies, strict=True)):
        id_field = join("haystack_session_ids", position)
        if not isinstance(raw_id, str) or not raw_id:
            raise context.error(id_field, "expected a non-empty string")
        if raw_id in marked:
            raise context.error(id_field, f"duplicate session id {raw_id!r}")
        started_at = context.instant(
            raw_date, join("haystack_dates", position), parse_longmemeval_datetime
        )
        body_field = join("haystack_sessions", position)
        turns: list[ExternalTurn] = []
        answers: list[str] = []
        for index, raw_turn in enumerate(context.sequence(raw_body, body_field)):
            turn_field = join(body_field, index)
            turn = context.mapping(raw_turn, turn_field)
            role = context.text(turn, "role", turn_field)
            if role not in _ROLES:
                raise context.error(
                    join(turn_field, "role"), f"expected 'user' or 'assistant', found {role!r}"
                )
            turn_id = f"{raw_id}_{index + 1}"
            has_answer = turn.get("has_answer")
            if has_answer is not None and context.flag(has_answer, join(turn_field, "has_answer")):
                answers.append(turn_id)
            turns.append(
                ExternalTurn(
                    turn_id=turn_id,
                    index=index,
                    speaker=role,
                    is_principal=role == PRINCIPAL_ROLE,
                    text=context.text(turn, "content", turn_field),
                )
            )
        marked[raw_id] = tuple(answers)
        sessions.append(
            ExternalSession(session_id=raw_id, started_at=started_at, turns=tuple(turns))
        )
    return tuple(sessions), marked


def _evidence(
    context: RecordContext, record: dict[str, object], marked: dict[str, tuple[str, ...]]
) -> tuple[tuple[ExternalEvidence, ...], EvidenceTally]:
    entries = context.items(record, "answer_session_ids")
    evidence: list[ExternalEvidence] = []
    references = turn_level = session_level = malformed = unknown = 0
    seen: set[str] = set()
    for entry in entries:
        references += 1
        if not isinstance(entry, str) or not entry:
            malformed += 1
            continue
        if entry not in marked:
            unknown += 1
            continue
        if entry in seen:
            continue
        seen.add(entry)
        if marked[entry]:
            turn_level += 1
            evidence.extend(
                ExternalEvidence(session_id=entry, turn_id=turn_id, dataset_ref=entry)
                for turn_id in marked[entry]
            )
        else:
            session_level += 1
            evidence.append(ExternalEvidence(session_id=entry, dataset_ref=entry))
    tally = EvidenceTally(
        references=references,
        turn_level=turn_level,
        session_level=session_level,
        malformed=malformed,
        unknown=unknown,
        empty_lists=0 if entries else 1,
    )
    return tuple(evidence), tally


def parse_instance(context: RecordContext, record: dict[str, object]) -> ExternalInstance:
    """Map one LongMemEval record to an instance with one probe.

    Raises:
        DatasetError: A required field is missing or mistyped, a date does not parse, or the
            question type is unknown.
    """
    question_id = context.text(record, "question_id")
    question_type = context.text(record, "question_type")
    category = CATEGORY_BY_TYPE.get(question_type)
    if category is None:
        known = ", ".join(sorted(CATEGORY_BY_TYPE))
        raise context.error(
            "question_type", f"unknown question type {question_type!r} (known: {known})"
        )
    abstention = question_id.endswith(ABSTENTION_SUFFIX)
    sessions, marked = _sessions(context, record)
    if abstention:
        # Nothing in the haystack answers it: there is no evidence to recall.
        evidence: tuple[ExternalEvidence, ...] = ()
        tally = EvidenceTally()
    else:
        evidence, tally = _evidence(context, record, marked)
    probe = ExternalProbe(
        probe_id=question_id,
        question=context.text(record, "question"),
        answer=context.answer(context.get(record, "answer"), "answer"),
        abstention=abstention,
        category="abstention" if abstention else category,
        dataset_category=question_type,
        evidence=evidence,
        asked_at=context.instant(
            context.get(record, "question_date"), "question_date", parse_longmemeval_datetime
        ),
        reported_separately=question_type in REPORTED_SEPARATELY,
    )
    return ExternalInstance(
        dataset="longmemeval",
        instance_id=question_id,
        principal=PRINCIPAL_ROLE,
        sessions=sessions,
        probes=(probe,),
        evidence=tally,
    )


def open_longmemeval(
    path: Path | str, *, sample: int | None = None, seed: int = 0
) -> DatasetSource:
    """Index a LongMemEval file (oracle, S or M) and select the sample; parse on demand.

    Args:
        path: The operator's local copy of the file.
        sample: How many instances to select (``None``: all 500).
        seed: The sampling seed.

    Raises:
        DatasetError: The file is not a readable JSON list of LongMemEval records.
        UsageError: ``sample`` is impossible for this file.
    """
    return open_dataset(
        path,
        dataset="longmemeval",
        license=LICENSE,
        file_format="json_list",
        id_key="question_id",
        sample=sample,
        seed=seed,
        parse=parse_instance,
    )


def load_longmemeval(
    path: Path | str, *, sample: int | None = None, seed: int = 0
) -> ExternalDataset:
    """Read a LongMemEval file (oracle, S or M) and map the sampled instances.

    Args:
        path: The operator's local copy of the file.
        sample: How many instances to select (``None``: all 500).
        seed: The sampling seed.

    Raises:
        DatasetError: The file is not a readable LongMemEval file; the message names the
            record, its ``question_id`` and the field.
        UsageError: ``sample`` is impossible for this file.
    """
    return open_longmemeval(path, sample=sample, seed=seed).load()
