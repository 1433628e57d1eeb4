"""Dataset-neutral values the three adapters produce.

Each adapter reads its file into :class:`ExternalDataset`: sampled :class:`ExternalInstance`
values, one per dataset instance (a LongMemEval question with its haystack, a LoCoMo
conversation, a HaluMem user), each holding sessions of turns, labeled beliefs where the
dataset has them, and probes with evidence references. These values are the scenario form of
external data: :mod:`memory_bench_external.run` drives them through the deterministic arm's
loop directly. They are deliberately not mapped into the checked-in corpus schema
(``memory_bench.corpus``), whose authoring rules the public files cannot satisfy: its turns are
the user's only (LoCoMo's other speaker and LongMemEval's assistant turns are non-source
messages here, and single-session-assistant evidence is an assistant turn), a scenario holds at
most 99 sessions and six probes (LongMemEval M has about 500 sessions, a LoCoMo conversation
about 200 questions), a labeled belief needs acceptable subjects (HaluMem memory points have
none), and its evidence references turns by index within ``sNN`` sessions rather than by the
dataset's own ids.

Identifiers are the dataset's own where it has them (LoCoMo ``D3:1``, LongMemEval
``<session_id>_<n>``) and derived from positions where it does not (HaluMem), so that an
evidence reference and the turn it names always compare equal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Literal

from memory_bench.corpus import ProbeCategory
from memory_core.domain import BeliefType

DatasetName = Literal["longmemeval", "locomo", "halumem"]
"""The three supported public datasets."""

F1Mode = Literal["token", "multi_answer", "first_alternative"]
"""How a live answer is scored against the gold answer with token F1.

``token`` is plain token F1; ``multi_answer`` (LoCoMo category 1) averages, over the
comma-separated gold sub-answers, the best F1 of any comma-separated part of the answer;
``first_alternative`` (LoCoMo category 3) scores against the gold text before its first ``;``.
"""

PrincipalSpeaker = Literal["a", "b"]
"""Which LoCoMo speaker is the principal."""


class ProbeExclusion(StrEnum):
    """Why a probe is parsed but not scored."""

    EVIDENCE_OUTSIDE_PRINCIPAL = "evidence_outside_principal"
    """LoCoMo: some evidence turn was spoken by the other speaker, who is never a source."""
    NO_USABLE_EVIDENCE = "no_usable_evidence"
    """LoCoMo: no evidence reference resolved, so it cannot be shown to lie in the principal."""


@dataclass(frozen=True, kw_only=True)
class ExternalTurn:
    """One message of a session.

    Attributes:
        turn_id: The dataset's turn identifier, unique within the instance.
        index: 0-based position of the turn in its session.
        speaker: The dataset's speaker label (``user``/``assistant`` or a LoCoMo name).
        is_principal: Whether the principal said it; only principal turns are formation
            sources, every other turn is a non-source message.
        text: The message text as the dataset has it.
        image_caption: LoCoMo image turns: the caption of the shared image.
        timestamp: The turn's own instant (UTC) when the dataset records one.
    """

    turn_id: str
    index: int
    speaker: str
    is_principal: bool
    text: str
    image_caption: str | None = None
    timestamp: datetime | None = None

    @property
    def content(self) -> str:
        """The text a reader sees: the message, plus the caption of a shared image."""
        if self.image_caption:
            joined = f"{self.text} [shared an image: {self.image_caption}]"
            return joined.strip()
        return self.text


@dataclass(frozen=True, kw_only=True)
class ExternalSession:
    """One conversation of an instance, in dataset order.

    Attributes:
        session_id: The dataset's session identifier (or a positional one), unique per instance.
        started_at: When the session began (UTC), from the dataset's date string.
        ended_at: When it ended, where the dataset says (HaluMem).
        turns: The session's turns in order.
    """

    session_id: str
    started_at: datetime
    ended_at: datetime | None = None
    turns: tuple[ExternalTurn, ...]


@dataclass(frozen=True, kw_only=True)
class ExternalEvidence:
    """Where a probe's answer was stated: a turn, or a whole session when the turn is unknown.

    Attributes:
        session_id: The session holding the evidence.
        turn_id: The evidence turn, or ``None`` for session granularity.
        dataset_ref: The dataset's own reference text, for reporting.
    """

    session_id: str
    turn_id: str | None = None
    dataset_ref: str | None = None

    @property
    def granularity(self) -> Literal["turn", "session"]:
        """``turn`` when the turn is known, else ``session``."""
        return "session" if self.turn_id is None else "turn"


@dataclass(frozen=True, kw_only=True)
class ExternalBelief:
    """A labeled belief the dataset says the sessions state (HaluMem memory points).

    Attributes:
        label: A snake_case label unique within the instance.
        statement: The dataset's statement of the memory.
        memory_type: The dataset's memory type (``Persona Memory`` ...).
        belief_type: The platform belief type it corresponds to.
        source: The dataset's provenance label (``primary``, ``interference`` ...).
        session_id: The session that states it.
        stated_at: When it was stated, if the dataset records it.
        importance: The dataset's importance score, if any.
        is_update: Whether the dataset marks it as updating earlier memories.
        supersedes: Labels of the earlier beliefs it replaces, oldest first.
    """

    label: str
    statement: str
    memory_type: str
    belief_type: BeliefType
    source: str
    session_id: str
    stated_at: datetime | None = None
    importance: float | None = None
    is_update: bool = False
    supersedes: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ExternalProbe:
    """A question asked after the sessions, with its gold answer and evidence.

    Attributes:
        probe_id: Identifier unique within the instance.
        question: The question text.
        answer: The gold answer as text (integers become their decimal form); empty when the
            dataset gives none (an adversarial LoCoMo question).
        f1_mode: How token F1 compares a live answer with ``answer``.
        abstention: Whether the correct behaviour is to abstain.
        category: The benchmark category it maps to.
        dataset_category: The dataset's own category label, for per-category reporting.
        evidence: Evidence references that resolved; empty for abstention probes.
        needed: Labels of the beliefs the answer needs (datasets with labeled beliefs).
        forbidden: Statements that must not be asserted (LoCoMo adversarial answers).
        asked_at: The instant the question is asked (UTC).
        after_session: The session after which the dataset asks it, when it says.
        exclusion: Why the probe is not scored, or ``None`` when it is.
        reported_separately: Scored in its own bucket, outside the aggregate (LongMemEval
            single-session-assistant, which formation cannot answer by design).
    """

    probe_id: str
    question: str
    answer: str
    f1_mode: F1Mode = "token"
    abstention: bool
    category: ProbeCategory
    dataset_category: str
    evidence: tuple[ExternalEvidence, ...] = ()
    needed: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    asked_at: datetime
    after_session: str | None = None
    exclusion: ProbeExclusion | None = None
    reported_separately: bool = False

    @property
    def scored(self) -> bool:
        """Whether the probe counts in any figure (it was not excluded)."""
        return self.exclusion is None


@dataclass(frozen=True, kw_only=True)
class EvidenceTally:
    """What became of the dataset's evidence references (counts, never fatal).

    Attributes:
        references: Evidence ids read (a compound entry counts once per id it holds).
        turn_level: Ids resolved to a turn.
        session_level: Ids resolved only to a session (the dataset names no turn, or a turn
            the session lacks).
        compound: Entries holding several ids at once (``"D8:6; D9:17"``), split and kept.
        missing_turns: Ids naming a turn their session lacks; kept at session granularity.
        malformed: Entries that do not parse as a reference at all (``"D"``, a non-string).
        unknown: Entries naming a session or memory the instance does not have.
        empty_lists: Non-abstention probes whose evidence list was empty or missing.
        unresolved_updates: Update annotations naming an earlier memory that is not there.
    """

    references: int = 0
    turn_level: int = 0
    session_level: int = 0
    compound: int = 0
    missing_turns: int = 0
    malformed: int = 0
    unknown: int = 0
    empty_lists: int = 0
    unresolved_updates: int = 0

    @property
    def unusable_evidence(self) -> int:
        """Malformed entries, unknown ids and empty evidence lists together."""
        return self.malformed + self.unknown + self.empty_lists

    def __add__(self, other: EvidenceTally) -> EvidenceTally:
        """Field-wise sum."""
        return EvidenceTally(
            references=self.references + other.references,
            turn_level=self.turn_level + other.turn_level,
            session_level=self.session_level + other.session_level,
            compound=self.compound + other.compound,
            missing_turns=self.missing_turns + other.missing_turns,
            malformed=self.malformed + other.malformed,
            unknown=self.unknown + other.unknown,
            empty_lists=self.empty_lists + other.empty_lists,
            unresolved_updates=self.unresolved_updates + other.unresolved_updates,
        )


@dataclass(frozen=True, kw_only=True)
class ExternalInstance:
    """One dataset instance: a principal's sessions, labeled beliefs and probes.

    Attributes:
        dataset: Which dataset it came from.
        instance_id: The dataset's stable identifier (``question_id``, ``sample_id``, ``uuid``).
        principal: The principal's speaker label in the turns.
        sessions: Sessions in dataset order.
        beliefs: Labeled beliefs (HaluMem only).
        probes: Probes in dataset order.
        evidence: The evidence tally of this instance.
    """

    dataset: DatasetName
    instance_id: str
    principal: str
    sessions: tuple[ExternalSession, ...]
    beliefs: tuple[ExternalBelief, ...] = ()
    probes: tuple[ExternalProbe, ...]
    evidence: EvidenceTally

    def turn(self, turn_id: str) -> ExternalTurn | None:
        """The turn with ``turn_id``, or ``None``."""
        for session in self.sessions:
            for turn in session.turns:
                if turn.turn_id == turn_id:
                    return turn
        return None


@dataclass(frozen=True, kw_only=True)
class ExternalDataset:
    """The sampled instances of one dataset file, and what identifies the run.

    Carries no local path: what leaves a run names the dataset, its license, the sample and
    the file's sha256, never where the file was.

    Attributes:
        dataset: Which dataset.
        license: The dataset's license (SPDX-style).
        sha256: Hex sha256 of the file's bytes.
        population: Instances in the file.
        sample: The requested sample size, or ``None`` for every instance.
        seed: The sampling seed.
        principal_speaker: LoCoMo's chosen principal speaker; ``None`` elsewhere.
        instances: The selected instances, sorted by ``instance_id``.
    """

    dataset: DatasetName
    license: str
    sha256: str
    population: int
    sample: int | None
    seed: int
    principal_speaker: PrincipalSpeaker | None = None
    instances: tuple[ExternalInstance, ...]

    @property
    def evidence(self) -> EvidenceTally:
        """The evidence tally summed over the selected instances."""
        total = EvidenceTally()
        for instance in self.instances:
            total = total + instance.evidence
        return total

    @property
    def probes(self) -> tuple[ExternalProbe, ...]:
        """Every probe of every selected instance, in instance order."""
        return tuple(probe for instance in self.instances for probe in instance.probes)

    def exclusions(self) -> dict[str, int]:
        """How many probes were excluded, by reason (sorted by reason)."""
        counts = Counter(
            probe.exclusion.value for probe in self.probes if probe.exclusion is not None
        )
        return dict(sorted(counts.items()))
