"""Generate invented files shaped like the three public datasets, at any size.

Used at small scale by the adapter tests and, from the command line, to measure the adapters'
wall time and peak memory on files the size of the real ones without having the real ones::

    python tests/memory_bench_external/dataset_generator.py locomo /tmp/locomo_gen.json
    python tests/memory_bench_external/dataset_generator.py longmemeval /tmp/lme_s_gen.json
    python tests/memory_bench_external/dataset_generator.py halumem /tmp/halumem_gen.jsonl

The defaults match the published sizes: LoCoMo 10 conversations, 272 sessions, about 5,900
turns and 2,000 questions; LongMemEval S 500 instances of about 45 sessions of about 10 turns
(about 115k tokens each); HaluMem Medium 20 users. Every word is drawn from an invented
vocabulary by a seeded generator, so the content means nothing and the output is
reproducible; about a third of the principal-side turns open with a first-person statement
("I live in Kobamel.") so that a full external run forms and recalls beliefs at a realistic
rate. The files carry the real files' quirks: integer answers, compound and malformed
evidence ids, image turns, string booleans, and date keys for sessions that do not exist.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO

_SYLLABLES = (
    "ba", "ko", "ri", "mel", "tu", "sa", "vin", "do", "le", "pra", "zu", "nor", "fi", "ga",
    "hol", "ey", "qua", "ti", "mo", "ran", "sel", "ud", "pe", "lo", "wim", "cha", "dre", "os",
)  # fmt: skip
_FACTS = (
    "I live in {a}.",
    "I moved to {a} last month.",
    "I work at {a} as a {c} engineer.",
    "My sister is {a}.",
    "My manager is {a} {b}.",
    "I prefer {c} over {d}.",
    "I use {a} for everything.",
    "I speak {a} and a bit of {b}.",
    "I have two cats, {a} and {b}.",
    "I'm learning {a} for a trip next spring.",
    "I drive a {a} {b}.",
    "My daughter's name is {a}.",
)
"""First-person statements principal turns open with at ``FACT_RATE`` (invented names), so
formation and retrieval do the work real conversations give them."""

FACT_RATE = 0.35
"""The share of principal turns that open with a first-person fact."""

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # fmt: skip
_SHORT_MONTHS = tuple(month[:3] for month in _MONTHS)
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


class _Text:
    """Invented words and sentences from a seeded generator."""

    def __init__(self, rng: random.Random, *, words: int = 3000, sentences: int = 4000) -> None:
        self.rng = rng
        self.words = [
            "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 3))) for _ in range(words)
        ]
        self.sentences = [self._sentence() for _ in range(sentences)]

    def _sentence(self) -> str:
        words = [self.rng.choice(self.words) for _ in range(self.rng.randint(5, 16))]
        return " ".join(words).capitalize() + self.rng.choice((".", ".", ".", "!", "?"))

    def name(self) -> str:
        return self.rng.choice(self.words).capitalize()

    def fact(self) -> str:
        """A first-person statement the deterministic extractor forms a belief from."""
        template = self.rng.choice(_FACTS)
        return template.format(
            a=self.name(), b=self.name(), c=self.rng.choice(self.words), d=self.name()
        )

    def principal_passage(self, characters: int, fact_rate: float) -> str:
        """A passage that, at ``fact_rate``, opens with a first-person fact."""
        passage = self.passage(characters)
        if self.rng.random() < fact_rate:
            return f"{self.fact()} {passage}"
        return passage

    def passage(self, characters: int) -> str:
        parts: list[str] = []
        size = 0
        while size < characters:
            sentence = self.rng.choice(self.sentences)
            parts.append(sentence)
            size += len(sentence) + 1
        return " ".join(parts)


def _locomo_date(moment: datetime) -> str:
    hour = moment.hour % 12 or 12
    meridiem = "am" if moment.hour < 12 else "pm"
    month = _MONTHS[moment.month - 1]
    return f"{hour}:{moment.minute:02d} {meridiem} on {moment.day} {month}, {moment.year}"


def _longmemeval_date(moment: datetime) -> str:
    weekday = _WEEKDAYS[moment.weekday()]
    day = f"{moment.year}/{moment.month:02d}/{moment.day:02d}"
    return f"{day} ({weekday}) {moment.hour:02d}:{moment.minute:02d}"


def _halumem_date(moment: datetime) -> str:
    month = _SHORT_MONTHS[moment.month - 1]
    return f"{month} {moment.day:02d}, {moment.year}, {moment.strftime('%H:%M:%S')}"


@dataclass(frozen=True, kw_only=True)
class LocomoShape:
    """Sizes of a generated LoCoMo file (defaults: the published ``locomo10.json``)."""

    conversations: int = 10
    sessions: int = 272
    turns: int = 5882
    questions: int = 1986


@dataclass(frozen=True, kw_only=True)
class LongMemEvalShape:
    """Sizes of a generated LongMemEval file (defaults: ``longmemeval_s_cleaned.json``)."""

    instances: int = 500
    sessions: int = 45
    turns: int = 10
    user_chars: int = 350
    assistant_chars: int = 1850


@dataclass(frozen=True, kw_only=True)
class HaluMemShape:
    """Sizes of a generated HaluMem file (defaults: about ``HaluMem-Medium.jsonl``)."""

    users: int = 20
    sessions: int = 60
    pairs: int = 12
    memory_points: int = 12
    questions: int = 3


def _split(total: int, parts: int, rng: random.Random) -> list[int]:
    """``total`` split into ``parts`` positive integers near ``total / parts``."""
    base = [max(1, total // parts)] * parts
    for _ in range(total - sum(base)):
        base[rng.randrange(parts)] += 1
    return base


def _locomo_evidence(rng: random.Random, turn_ids: Sequence[str]) -> list[str]:
    roll = rng.random()
    if roll < 0.01:
        return []
    if roll < 0.02:
        return ["D"]
    if roll < 0.03:
        first, second = rng.sample(list(turn_ids), 2)
        return [f"{first}; {second}"]
    if roll < 0.04:
        return ["D99:1"]
    return rng.sample(list(turn_ids), rng.randint(1, 3))


def write_locomo(out: TextIO, shape: LocomoShape = LocomoShape(), *, seed: int = 7) -> None:
    """Write a LoCoMo-shaped JSON list of ``shape.conversations`` conversations."""
    rng = random.Random(seed)
    text = _Text(rng)
    sessions = _split(shape.sessions, shape.conversations, rng)
    turns = _split(shape.turns, shape.sessions, rng)
    questions = _split(shape.questions, shape.conversations, rng)
    out.write("[")
    turn_cursor = 0
    for conv in range(shape.conversations):
        speakers = (text.name(), text.name() + "a")
        conversation: dict[str, object] = {"speaker_a": speakers[0], "speaker_b": speakers[1]}
        moment = datetime(2023, 1, 1, 9, 0, tzinfo=UTC) + timedelta(days=rng.randint(0, 300))
        turn_ids: list[str] = []
        for session in range(1, sessions[conv] + 1):
            moment += timedelta(days=rng.randint(3, 20), minutes=rng.randint(0, 600))
            conversation[f"session_{session}_date_time"] = _locomo_date(moment)
            body: list[dict[str, object]] = []
            for index in range(1, turns[turn_cursor] + 1):
                turn: dict[str, object] = {
                    "speaker": speakers[(index + session) % 2],
                    "dia_id": f"D{session}:{index}",
                    "text": text.principal_passage(rng.randint(40, 220), FACT_RATE),
                }
                if rng.random() < 0.08:
                    turn["img_url"] = [f"https://example.invalid/{conv}/{session}/{index}.jpg"]
                    turn["blip_caption"] = "a photo of " + text.passage(20).lower()
                    turn["query"] = text.name().lower()
                body.append(turn)
                turn_ids.append(f"D{session}:{index}")
            conversation[f"session_{session}"] = body
            turn_cursor += 1
        # A date key for a session the conversation does not have.
        conversation[f"session_{sessions[conv] + 1}_date_time"] = _locomo_date(moment)
        qa: list[dict[str, object]] = []
        for _ in range(questions[conv]):
            category = rng.choices((1, 2, 3, 4, 5), weights=(282, 321, 96, 841, 446))[0]
            item: dict[str, object] = {
                "question": text.passage(30).rstrip(".!?") + "?",
                "evidence": _locomo_evidence(rng, turn_ids),
                "category": category,
            }
            if category == 5:
                item["adversarial_answer"] = text.passage(15)
            elif rng.random() < 0.05:
                item["answer"] = rng.randint(1, 2030)
            else:
                item["answer"] = text.passage(10)
            qa.append(item)
        # The real file also carries per-session observations and summaries (about a third of
        # its bytes); the adapters skip them, but they must be read past.
        observation = {
            f"session_{session}_observation": {
                speaker: [[text.passage(90), f"D{session}:1"] for _ in range(4)]
                for speaker in speakers
            }
            for session in range(1, sessions[conv] + 1)
        }
        summary = {
            f"session_{session}_summary": text.passage(600)
            for session in range(1, sessions[conv] + 1)
        }
        sample = {
            "qa": qa,
            "conversation": conversation,
            "event_summary": {},
            "observation": observation,
            "session_summary": summary,
            "sample_id": f"conv-{conv + 1}",
        }
        out.write(("," if conv else "") + json.dumps(sample))
    out.write("]")


def write_longmemeval(
    out: TextIO, shape: LongMemEvalShape = LongMemEvalShape(), *, seed: int = 11
) -> None:
    """Write a LongMemEval-shaped JSON list of ``shape.instances`` instances."""
    rng = random.Random(seed)
    text = _Text(rng)
    types = (
        "single-session-user",
        "single-session-assistant",
        "single-session-preference",
        "multi-session",
        "temporal-reasoning",
        "knowledge-update",
    )
    out.write("[")
    for number in range(shape.instances):
        question_id = f"{rng.getrandbits(32):08x}" + ("_abs" if number % 16 == 15 else "")
        moment = datetime(2023, 1, 1, tzinfo=UTC) + timedelta(days=rng.randint(0, 200))
        session_ids: list[str] = []
        dates: list[str] = []
        bodies: list[list[dict[str, object]]] = []
        answers = set(rng.sample(range(shape.sessions), k=min(2, shape.sessions)))
        for index in range(shape.sessions):
            moment += timedelta(hours=rng.randint(1, 60), minutes=rng.randint(0, 59))
            prefix = "answer" if index in answers else rng.choice(("sharegpt", "ultrachat"))
            session_ids.append(f"{prefix}_{rng.getrandbits(40):010x}")
            dates.append(_longmemeval_date(moment))
            body: list[dict[str, object]] = []
            for turn in range(shape.turns):
                role = "user" if turn % 2 == 0 else "assistant"
                size = shape.user_chars if role == "user" else shape.assistant_chars
                length = rng.randint(size // 2, size * 3 // 2)
                entry: dict[str, object] = {
                    "role": role,
                    "content": text.principal_passage(length, FACT_RATE)
                    if role == "user"
                    else text.passage(length),
                }
                if index in answers:
                    entry["has_answer"] = role == "user" and turn == 0
                body.append(entry)
            bodies.append(body)
        instance = {
            "question_id": question_id,
            "question_type": rng.choice(types),
            "question": text.passage(40).rstrip(".!?") + "?",
            "answer": rng.randint(1, 50) if rng.random() < 0.1 else text.passage(20),
            "question_date": _longmemeval_date(moment + timedelta(days=2)),
            "haystack_session_ids": session_ids,
            "haystack_dates": dates,
            "haystack_sessions": bodies,
            "answer_session_ids": [session_ids[index] for index in sorted(answers)],
        }
        out.write(("," if number else "") + json.dumps(instance))
    out.write("]")


def write_halumem(out: TextIO, shape: HaluMemShape = HaluMemShape(), *, seed: int = 13) -> None:
    """Write a HaluMem-shaped JSON Lines file of ``shape.users`` users."""
    rng = random.Random(seed)
    text = _Text(rng)
    types = (
        "Basic Fact Recall",
        "Dynamic Update",
        "Generalization & Application",
        "Memory Boundary",
        "Memory Conflict",
        "Multi-hop Inference",
    )
    memory_types = ("Persona Memory", "Event Memory", "Relationship Memory")
    for _ in range(shape.users):
        moment = datetime(2029, 1, 1, 8, 0, tzinfo=UTC) + timedelta(days=rng.randint(0, 90))
        stated: list[str] = []
        sessions: list[dict[str, object]] = []
        for _ in range(shape.sessions):
            moment += timedelta(days=rng.randint(1, 9), minutes=rng.randint(0, 300))
            stamp = _halumem_date(moment)
            dialogue: list[dict[str, object]] = []
            for pair in range(shape.pairs):
                for role, size in (("user", 160), ("assistant", 420)):
                    dialogue.append(
                        {
                            "role": role,
                            "content": text.principal_passage(size, FACT_RATE)
                            if role == "user"
                            else text.passage(size),
                            "timestamp": stamp,
                            "dialogue_turn": pair,
                        }
                    )
            points: list[dict[str, object]] = []
            for index in range(shape.memory_points):
                update = bool(stated) and rng.random() < 0.1
                content = text.passage(60)
                points.append(
                    {
                        "index": index + 1,
                        "memory_content": content,
                        "memory_type": rng.choice(memory_types),
                        "memory_source": rng.choice(("primary", "secondary", "interference")),
                        "is_update": "True" if update else "False",
                        "original_memories": [rng.choice(stated)] if update else [],
                        "timestamp": stamp,
                        "importance": round(rng.random(), 2),
                    }
                )
                stated.append(content)
            questions: list[dict[str, object]] = []
            for _ in range(shape.questions):
                question_type = rng.choice(types)
                evidence = (
                    []
                    if question_type == "Memory Boundary"
                    else [
                        {"memory_content": rng.choice(stated), "memory_type": "Event Memory"}
                        for _ in range(rng.randint(1, 2))
                    ]
                )
                questions.append(
                    {
                        "question": text.passage(30).rstrip(".!?") + "?",
                        "answer": rng.randint(1, 99) if rng.random() < 0.1 else text.passage(20),
                        "evidence": evidence,
                        "difficulty": rng.choice(("easy", "medium", "hard")),
                        "question_type": question_type,
                    }
                )
            sessions.append(
                {
                    "start_time": stamp,
                    "end_time": _halumem_date(moment + timedelta(minutes=25)),
                    "memory_points_count": len(points),
                    "memory_points": points,
                    "dialogue_turn_num": shape.pairs,
                    "dialogue": dialogue,
                    "questions": questions,
                    "question_count": len(questions),
                }
            )
        record = {
            "uuid": f"{rng.getrandbits(128):032x}",
            "persona_info": f"Name: {text.name()} {text.name()}; Gender: Unspecified",
            "sessions": sessions,
        }
        out.write(json.dumps(record) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``dataset_generator.py {locomo,longmemeval,halumem} OUT [--scale S]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("dataset", choices=("locomo", "longmemeval", "halumem"))
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="fraction of the published size to generate (instances/conversations/users)",
    )
    args = parser.parse_args(argv)
    scale: float = args.scale
    with args.out.open("w", encoding="utf-8") as out:
        if args.dataset == "locomo":
            base = LocomoShape()
            conversations = max(1, round(base.conversations * scale))
            write_locomo(
                out,
                LocomoShape(
                    conversations=conversations,
                    sessions=max(conversations, round(base.sessions * scale)),
                    turns=max(conversations * 2, round(base.turns * scale)),
                    questions=max(conversations, round(base.questions * scale)),
                ),
            )
        elif args.dataset == "longmemeval":
            write_longmemeval(
                out, LongMemEvalShape(instances=max(1, round(LongMemEvalShape().instances * scale)))
            )
        else:
            write_halumem(out, HaluMemShape(users=max(1, round(HaluMemShape().users * scale))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
