"""LoCoMo (CC BY-NC 4.0): ``locomo10.json``.

A JSON list of conversations between two speakers. ``--principal-speaker a|b`` names the
principal: only that speaker's turns are formation sources, the other speaker's turns are
non-source messages. Only questions whose evidence lies in the principal's turns are scored;
the others are parsed and marked excluded with the reason. Category 5 (adversarial) questions
are abstention probes, scored whoever the principal is.

Sessions are the ``session_N`` keys that are present (a ``session_N_date_time`` key may exist
for a session that does not). Image turns keep their caption beside the text. Evidence ids
(``"D3:1"``) are parsed leniently: a compound entry (``"D8:6; D9:17"``) is split, an id naming
a turn the session lacks falls back to session granularity, and an unparseable entry
(``"D"``), an unknown session or an empty list is counted, never fatal.

``--split dev|test|all`` selects the fixed partition by ``sample_id``
(:mod:`memory_bench_external._split`): tune on ``dev``, report ``test``; ``all`` (the
default) runs every conversation.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from memory_bench.corpus import ProbeCategory
from memory_bench_external._dates import parse_locomo_datetime
from memory_bench_external._fields import RecordContext, join
from memory_bench_external._load import DatasetSource, RecordParser, open_dataset
from memory_bench_external._split import SplitName
from memory_bench_external._types import (
    EvidenceTally,
    ExternalDataset,
    ExternalEvidence,
    ExternalInstance,
    ExternalProbe,
    ExternalSession,
    ExternalTurn,
    F1Mode,
    PrincipalSpeaker,
    ProbeExclusion,
)
from memory_core.errors import UsageError

LICENSE: Final = "CC-BY-NC-4.0"
"""LoCoMo's license."""

ADVERSARIAL_CATEGORY: Final = 5
"""The category whose questions have no answer in the conversation."""

CATEGORIES: Final[dict[int, tuple[ProbeCategory, str, F1Mode]]] = {
    1: ("multi_hop", "multi_hop", "multi_answer"),
    2: ("temporal", "temporal", "token"),
    3: ("single_hop", "open_domain", "first_alternative"),
    4: ("single_hop", "single_hop", "token"),
    5: ("abstention", "adversarial", "token"),
}
"""LoCoMo category -> (benchmark category, dataset category label, F1 mode)."""

_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DIA_ID = re.compile(r"D\s*(\d+)\s*(?::\s*(\d+))?", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s;,]+")


def _dia_key(text: str) -> tuple[int, int] | None:
    match = _DIA_ID.fullmatch(text.strip())
    if match is None or match.group(2) is None:
        return None
    return int(match.group(1)), int(match.group(2))


class _Conversation:
    """The parsed sessions of one sample and a lookup from dialogue ids to turns."""

    def __init__(self, context: RecordContext, conversation: dict[str, object], principal: str):
        numbers = sorted(
            int(match.group(1))
            for key in conversation
            if (match := _SESSION_KEY.match(key)) is not None
        )
        if not numbers:
            raise context.error("conversation", "no session_N keys: the conversation is empty")
        sessions: list[ExternalSession] = []
        self.turns: dict[tuple[int, int], ExternalTurn] = {}
        self.session_ids: dict[int, str] = {}
        for number in numbers:
            key = f"session_{number}"
            field = join("conversation", key)
            started_at = context.instant(
                conversation.get(f"{key}_date_time"),
                join("conversation", f"{key}_date_time"),
                parse_locomo_datetime,
            )
            turns: list[ExternalTurn] = []
            for index, raw_turn in enumerate(context.sequence(conversation[key], field)):
                turn_field = join(field, index)
                turn = context.mapping(raw_turn, turn_field)
                speaker = context.text(turn, "speaker", turn_field)
                dia_id = context.text(turn, "dia_id", turn_field)
                caption = context.optional_text(turn, "blip_caption", turn_field)
                parsed = ExternalTurn(
                    turn_id=dia_id,
                    index=index,
                    speaker=speaker,
                    is_principal=speaker.strip() == principal,
                    text=context.optional_text(turn, "text", turn_field) or "",
                    image_caption=caption or None,
                )
                turns.append(parsed)
                dia_key = _dia_key(dia_id)
                if dia_key is not None:
                    self.turns.setdefault(dia_key, parsed)
            self.session_ids[number] = key
            sessions.append(
                ExternalSession(session_id=key, started_at=started_at, turns=tuple(turns))
            )
        self.sessions = tuple(sessions)

    def resolve(self, entries: list[object]) -> tuple[tuple[ExternalEvidence, ...], EvidenceTally]:
        """Resolve evidence entries leniently, counting what could not be used."""
        evidence: dict[tuple[str, str | None], ExternalEvidence] = {}
        references = turn_level = session_level = compound = missing = malformed = unknown = 0
        for entry in entries:
            if not isinstance(entry, str):
                references += 1
                malformed += 1
                continue
            ids = list(_DIA_ID.finditer(entry))
            leftover = _SEPARATORS.sub("", _DIA_ID.sub("", entry))
            if not ids or leftover:
                references += 1
                malformed += 1
                continue
            if len(ids) > 1:
                compound += 1
            for match in ids:
                references += 1
                number = int(match.group(1))
                session_id = self.session_ids.get(number)
                if session_id is None:
                    unknown += 1
                    continue
                turn = None
                if match.group(2) is not None:
                    turn = self.turns.get((number, int(match.group(2))))
                    if turn is None:
                        missing += 1
                if turn is None:
                    session_level += 1
                    ref = ExternalEvidence(session_id=session_id, dataset_ref=match.group(0))
                else:
                    turn_level += 1
                    ref = ExternalEvidence(
                        session_id=session_id, turn_id=turn.turn_id, dataset_ref=match.group(0)
                    )
                evidence.setdefault((ref.session_id, ref.turn_id), ref)
        tally = EvidenceTally(
            references=references,
            turn_level=turn_level,
            session_level=session_level,
            compound=compound,
            missing_turns=missing,
            malformed=malformed,
            unknown=unknown,
            empty_lists=0 if entries else 1,
        )
        return tuple(evidence.values()), tally

    def spoken_by_principal(self, evidence: ExternalEvidence) -> bool:
        """Whether a turn-level reference names a principal turn (session-level: assumed so)."""
        if evidence.turn_id is None:
            return True
        key = _dia_key(evidence.turn_id)
        turn = self.turns.get(key) if key is not None else None
        return turn is not None and turn.is_principal


def _exclusion(
    conversation: _Conversation, evidence: tuple[ExternalEvidence, ...]
) -> ProbeExclusion | None:
    if not evidence:
        return ProbeExclusion.NO_USABLE_EVIDENCE
    if not all(conversation.spoken_by_principal(ref) for ref in evidence):
        return ProbeExclusion.EVIDENCE_OUTSIDE_PRINCIPAL
    return None


def _parser(principal_speaker: PrincipalSpeaker) -> RecordParser:
    def parse(context: RecordContext, record: dict[str, object]) -> ExternalInstance:
        return parse_instance(context, record, principal_speaker=principal_speaker)

    return parse


def parse_instance(
    context: RecordContext,
    record: dict[str, object],
    *,
    principal_speaker: PrincipalSpeaker,
) -> ExternalInstance:
    """Map one LoCoMo sample to an instance, the chosen speaker being the principal.

    Raises:
        DatasetError: A required field is missing or mistyped, a present session has no date,
            a date does not parse, or a category is not 1-5.
    """
    sample_id = context.text(record, "sample_id")
    conversation_map = context.mapping(context.get(record, "conversation"), "conversation")
    speaker_key = f"speaker_{principal_speaker}"
    principal = context.text(conversation_map, speaker_key, "conversation").strip()
    other_key = "speaker_b" if principal_speaker == "a" else "speaker_a"
    context.text(conversation_map, other_key, "conversation")
    conversation = _Conversation(context, conversation_map, principal)
    asked_at = max(session.started_at for session in conversation.sessions)
    probes: list[ExternalProbe] = []
    tally = EvidenceTally()
    for index, raw_qa in enumerate(context.items(record, "qa")):
        field = join("qa", index)
        qa = context.mapping(raw_qa, field)
        category_value = context.get(qa, "category", field)
        if isinstance(category_value, bool) or category_value not in CATEGORIES:
            raise context.error(
                join(field, "category"), f"expected an integer 1-5, found {category_value!r}"
            )
        assert isinstance(category_value, int)
        category, label, f1_mode = CATEGORIES[category_value]
        question = context.text(qa, "question", field)
        if category_value == ADVERSARIAL_CATEGORY:
            raw_answer = qa.get("answer")
            answer = "" if raw_answer is None else context.answer(raw_answer, join(field, "answer"))
            adversarial = qa.get("adversarial_answer")
            forbidden = (
                (context.answer(adversarial, join(field, "adversarial_answer")),)
                if adversarial not in (None, "")
                else ()
            )
            probes.append(
                ExternalProbe(
                    probe_id=f"q{index + 1:03d}",
                    question=question,
                    answer=answer,
                    abstention=True,
                    category=category,
                    dataset_category=label,
                    forbidden=forbidden,
                    asked_at=asked_at,
                )
            )
            continue
        answer = context.answer(context.get(qa, "answer", field), join(field, "answer"))
        evidence, probe_tally = conversation.resolve(context.optional_items(qa, "evidence", field))
        tally = tally + probe_tally
        probes.append(
            ExternalProbe(
                probe_id=f"q{index + 1:03d}",
                question=question,
                answer=answer,
                f1_mode=f1_mode,
                abstention=False,
                category=category,
                dataset_category=label,
                evidence=evidence,
                asked_at=asked_at,
                exclusion=_exclusion(conversation, evidence),
            )
        )
    return ExternalInstance(
        dataset="locomo",
        instance_id=sample_id,
        principal=principal,
        sessions=conversation.sessions,
        probes=tuple(probes),
        evidence=tally,
    )


def open_locomo(
    path: Path | str,
    *,
    sample: int | None = None,
    seed: int = 0,
    principal_speaker: PrincipalSpeaker = "a",
    split: SplitName = "all",
) -> DatasetSource:
    """Index ``locomo10.json`` and select the split and the sample; parse on demand.

    Args:
        path: The operator's local copy of the file.
        sample: How many conversations of the split to select (``None``: all of them).
        seed: The sampling seed.
        principal_speaker: ``a`` or ``b``: whose turns are formation sources.
        split: ``dev``, ``test`` or ``all`` (see :mod:`memory_bench_external._split`).

    Raises:
        DatasetError: The file is not a readable JSON list of LoCoMo samples.
        UsageError: ``sample`` is impossible, ``principal_speaker`` is not ``a``/``b``,
            ``split`` is unknown, or a named split selects no conversation of the file.
    """
    if principal_speaker not in ("a", "b"):
        raise UsageError(f"--principal-speaker must be 'a' or 'b', got {principal_speaker!r}")
    return open_dataset(
        path,
        dataset="locomo",
        license=LICENSE,
        file_format="json_list",
        id_key="sample_id",
        sample=sample,
        seed=seed,
        parse=_parser(principal_speaker),
        principal_speaker=principal_speaker,
        split=split,
    )


def load_locomo(
    path: Path | str,
    *,
    sample: int | None = None,
    seed: int = 0,
    principal_speaker: PrincipalSpeaker = "a",
    split: SplitName = "all",
) -> ExternalDataset:
    """Read ``locomo10.json`` and map the sampled conversations of the split.

    Args:
        path: The operator's local copy of the file.
        sample: How many conversations of the split to select (``None``: all of them).
        seed: The sampling seed.
        principal_speaker: ``a`` or ``b``: whose turns are formation sources.
        split: ``dev``, ``test`` or ``all`` (see :mod:`memory_bench_external._split`).

    Raises:
        DatasetError: The file is not a readable LoCoMo file; the message names the record,
            its ``sample_id`` and the field.
        UsageError: ``sample`` is impossible, ``principal_speaker`` is not ``a``/``b``,
            ``split`` is unknown, or a named split selects no conversation of the file.
    """
    return open_locomo(
        path, sample=sample, seed=seed, principal_speaker=principal_speaker, split=split
    ).load()
