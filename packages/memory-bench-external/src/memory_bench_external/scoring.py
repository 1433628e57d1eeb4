"""Scoring for the external datasets: token F1 and evidence-provenance recall@k.

Token F1 is the datasets' published answer metric (LoCoMo's ``task_eval/evaluation.py``):
lowercase, drop commas and ASCII punctuation, drop the articles ``a``/``an``/``the`` and the
word ``and``, collapse whitespace, Porter-stem each token, then F1 over the token multisets.
LoCoMo category 1 averages, over the comma-separated gold sub-answers, the best F1 of any
comma-separated part of the answer; category 3 scores against the gold text before its first
``;``. An answer counts as correct at F1 >= 0.5. Abstention probes are not scored by F1: an
answer abstains exactly as the live arm's does (:func:`memory_bench.live.answers.is_abstention`,
the benchmark's one normalization), never by this module's F1 normalization.

Evidence-provenance recall@k is the fraction of probes for which some item among the first
``k`` returned was formed from (or is) an evidence turn: a returned item carries the turn and
session ids it came from, and a reference whose turn the dataset does not name matches any
item from its session. Counts are integers; ratios are derived for display only.

Words@k is what recall@k costs: the words (whitespace-separated, :func:`count_words`) of the
first ``k`` items an arm returned, summed over the probes recall@k counts, so a recall figure
is always read beside the amount of text that bought it.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from memory_bench.live.answers import is_abstention
from memory_bench_external._porter import stem
from memory_bench_external._types import ExternalEvidence, ExternalProbe, F1Mode
from memory_core.errors import UsageError
from memory_core.text import collapse

F1_CORRECT: Final = 0.5
"""An answer is correct at a normalized token F1 of this or above."""

DEFAULT_KS: Final = (1, 5, 10)
"""The cut-offs recall@k is reported at."""

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")


def normalize_answer(text: str) -> str:
    """LoCoMo's answer normalization (SQuAD's, plus commas and ``and`` removed), for token F1
    only; abstention is decided by :func:`memory_bench.live.answers.is_abstention`."""
    lowered = text.replace(",", "").lower()
    unpunctuated = "".join(char for char in lowered if char not in _PUNCTUATION)
    return collapse(_ARTICLES.sub(" ", unpunctuated))


def answer_tokens(text: str) -> list[str]:
    """The normalized, Porter-stemmed tokens F1 compares."""
    return [stem(word) for word in normalize_answer(text).split()]


def token_f1(prediction: str, gold: str) -> float:
    """Token F1 between an answer and a gold answer (0 when they share no token)."""
    predicted = answer_tokens(prediction)
    expected = answer_tokens(gold)
    same = sum((Counter(predicted) & Counter(expected)).values())
    if same == 0:
        return 0.0
    precision = same / len(predicted)
    recall = same / len(expected)
    return 2 * precision * recall / (precision + recall)


def multi_answer_f1(prediction: str, gold: str) -> float:
    """LoCoMo category 1: mean over gold sub-answers of the best F1 of any answer part."""
    parts = [part.strip() for part in prediction.split(",")]
    golds = [part.strip() for part in gold.split(",")]
    return sum(max(token_f1(part, sub) for part in parts) for sub in golds) / len(golds)


def answer_f1(prediction: str, gold: str, *, mode: F1Mode = "token") -> float:
    """Token F1 of ``prediction`` against ``gold`` under a dataset's scoring ``mode``."""
    if mode == "token":
        return token_f1(prediction, gold)
    if mode == "multi_answer":
        return multi_answer_f1(prediction, gold)
    if mode == "first_alternative":
        return token_f1(prediction, gold.split(";")[0].strip())
    raise UsageError(f"unknown F1 mode {mode!r}; expected token, multi_answer or first_alternative")


def probe_f1(probe: ExternalProbe, prediction: str) -> float:
    """Token F1 of a live answer to ``probe``.

    Raises:
        UsageError: ``probe`` is an abstention probe (scored by the abstain phrase instead).
    """
    if probe.abstention:
        raise UsageError(
            f"probe {probe.probe_id} is an abstention probe; score it by the abstain phrase, "
            "not by token F1"
        )
    return answer_f1(prediction, probe.answer, mode=probe.f1_mode)


def is_correct(f1: float) -> bool:
    """Whether an F1 counts as a correct answer (F1 >= 0.5)."""
    return f1 >= F1_CORRECT


@dataclass(frozen=True, kw_only=True)
class AnswerScore:
    """How a live answer to an external probe scored.

    Attributes:
        f1: Token F1 against the gold answer under the probe's F1 mode; ``None`` for an
            abstention probe, ``0.0`` for an answer that abstained on an answerable probe.
        abstained: Whether the answer is the abstain phrase (normalized equality).
        correct: An abstention probe: the answer abstained. Any other: ``f1 >= 0.5``.
    """

    f1: float | None
    abstained: bool
    correct: bool


def score_answer(probe: ExternalProbe, answer: str, *, abstain_phrase: str) -> AnswerScore:
    """Score the live arm's ``answer`` to ``probe`` with the datasets' published token F1.

    Args:
        probe: A scored external probe.
        answer: The model's final message.
        abstain_phrase: The one reply that counts as abstaining (the corpus's phrase).

    Raises:
        UsageError: ``probe`` is excluded from scoring.
    """
    if not probe.scored:
        raise UsageError(f"probe {probe.probe_id} is excluded ({probe.exclusion}); do not score it")
    abstained = is_abstention(answer, abstain_phrase)
    if probe.abstention:
        return AnswerScore(f1=None, abstained=abstained, correct=abstained)
    f1 = 0.0 if abstained else probe_f1(probe, answer)
    return AnswerScore(f1=f1, abstained=abstained, correct=is_correct(f1))


@dataclass(frozen=True, kw_only=True)
class Provenance:
    """What one returned item came from: turn ids and their session ids.

    A belief's provenance is the turns whose events are in its ``source_event_ids``; a raw
    turn's provenance is the turn itself. An item whose turns are unknown matches by session.
    """

    turn_ids: frozenset[str] = frozenset()
    session_ids: frozenset[str] = frozenset()


def count_words(text: str) -> int:
    """The words of a returned item's text: its whitespace-separated tokens."""
    return len(text.split())


def _matches(evidence: ExternalEvidence, item: Provenance) -> bool:
    if evidence.turn_id is not None and item.turn_ids:
        return evidence.turn_id in item.turn_ids
    return evidence.session_id in item.session_ids


def first_hit_rank(
    evidence: Sequence[ExternalEvidence], returned: Sequence[Provenance]
) -> int | None:
    """The 1-based rank of the first returned item matching some evidence, or ``None``."""
    for rank, item in enumerate(returned, start=1):
        if any(_matches(ref, item) for ref in evidence):
            return rank
    return None


def matching_items(evidence: Sequence[ExternalEvidence], returned: Sequence[Provenance]) -> int:
    """How many returned items match some evidence reference (the rest are noise)."""
    return sum(1 for item in returned if any(_matches(ref, item) for ref in evidence))


def provenance_hit(
    evidence: Sequence[ExternalEvidence], returned: Sequence[Provenance], *, k: int
) -> bool:
    """Whether some item among the first ``k`` returned matches some evidence reference."""
    rank = first_hit_rank(evidence, returned)
    return rank is not None and rank <= k


@dataclass(frozen=True, kw_only=True)
class ProbeProvenance:
    """One probe's provenance outcome in one arm.

    Attributes:
        probe_id: The probe.
        category: Its benchmark category.
        dataset_category: Its dataset's own category label.
        reported_separately: Whether it is reported outside the aggregate.
        eligible: Whether it counts for recall@k: scored, not an abstention probe, and with
            at least one evidence reference.
        first_hit: The rank of the first returned item matching its evidence, if any.
        returned: How many items were returned.
        matched: How many returned items match some evidence reference (0 when not eligible);
            ``returned - matched`` of an eligible probe is its noise.
        tokens: Tokens rendered for the probe (``memory_core.tokenizer.estimate_tokens``).
        item_words: The words of each returned item, in rank order (see :func:`count_words`).
    """

    probe_id: str
    category: str
    dataset_category: str
    reported_separately: bool
    eligible: bool
    first_hit: int | None
    returned: int
    matched: int
    tokens: int
    item_words: tuple[int, ...]

    def hit(self, k: int) -> bool:
        """Whether an evidence match came within the first ``k``."""
        return self.eligible and self.first_hit is not None and self.first_hit <= k

    def words_within(self, k: int) -> int:
        """The words of the first ``k`` returned items."""
        return sum(self.item_words[:k])


def score_probe(
    probe: ExternalProbe,
    returned: Sequence[Provenance],
    *,
    tokens: int,
    words: Sequence[int],
) -> ProbeProvenance:
    """Score what an arm returned for ``probe``.

    Args:
        probe: The probe the items were returned for.
        returned: Each returned item's provenance, in rank order.
        tokens: Tokens rendered for the probe.
        words: Each returned item's words, in the same order as ``returned``.

    Raises:
        UsageError: ``probe`` is excluded from scoring, or ``words`` does not give one count
            per returned item.
    """
    if not probe.scored:
        raise UsageError(f"probe {probe.probe_id} is excluded ({probe.exclusion}); do not run it")
    if len(words) != len(returned) or any(count < 0 for count in words):
        raise UsageError(
            f"probe {probe.probe_id}: pass one non-negative word count per returned item "
            f"({len(returned)} items, {len(words)} counts)"
        )
    eligible = not probe.abstention and bool(probe.evidence)
    return ProbeProvenance(
        probe_id=probe.probe_id,
        category=probe.category,
        dataset_category=probe.dataset_category,
        reported_separately=probe.reported_separately,
        eligible=eligible,
        first_hit=first_hit_rank(probe.evidence, returned) if eligible else None,
        returned=len(returned),
        matched=matching_items(probe.evidence, returned) if eligible else 0,
        tokens=tokens,
        item_words=tuple(words),
    )


@dataclass(frozen=True, kw_only=True)
class RecallAtK:
    """Recall@k counts over a set of eligible probes.

    Attributes:
        probes: Eligible probes counted.
        hits: ``(k, probes with an evidence match within k)`` for each reported k.
    """

    probes: int
    hits: tuple[tuple[int, int], ...]

    def at(self, k: int) -> int:
        """Probes with a match within ``k``."""
        for cut, count in self.hits:
            if cut == k:
                return count
        raise UsageError(f"recall@{k} was not computed; computed: {[c for c, _ in self.hits]}")

    def ratio(self, k: int) -> float | None:
        """Recall@k as a fraction, or ``None`` when no probe was eligible (display only)."""
        return self.at(k) / self.probes if self.probes else None


def _recall(scores: Sequence[ProbeProvenance], ks: Sequence[int]) -> RecallAtK:
    eligible = [score for score in scores if score.eligible]
    return RecallAtK(
        probes=len(eligible),
        hits=tuple((k, sum(score.hit(k) for score in eligible)) for k in ks),
    )


def _grouped(
    scores: Sequence[ProbeProvenance], ks: Sequence[int], key: str
) -> tuple[tuple[str, RecallAtK], ...]:
    groups: dict[str, list[ProbeProvenance]] = {}
    for score in scores:
        groups.setdefault(str(getattr(score, key)), []).append(score)
    return tuple((name, _recall(groups[name], ks)) for name in sorted(groups))


@dataclass(frozen=True, kw_only=True)
class ProvenanceSummary:
    """An arm's provenance recall and rendered tokens over a run's probes (integers only).

    Attributes:
        ks: The reported cut-offs.
        overall: Recall@k over eligible probes not reported separately.
        by_category: The same, per benchmark category.
        by_dataset_category: Recall@k per dataset category (separately reported ones included,
            under their own label).
        separately: Recall@k over the separately reported probes.
        probes: Probes run (scored ones, abstention included).
        without_evidence: Non-abstention probes run that had no usable evidence.
        tokens: Tokens rendered over all probes run.
        returned: Items returned to the eligible probes counted in ``overall``.
        matched: Of those, items matching some evidence reference; ``returned - matched``
            is the noise.
        abstention_returned: Items returned to abstention probes (nothing was asked for).
        words_at_k: ``(k, words of the first k items)`` summed over the probes ``overall``
            counts, for each reported k.
    """

    ks: tuple[int, ...]
    overall: RecallAtK
    by_category: tuple[tuple[str, RecallAtK], ...]
    by_dataset_category: tuple[tuple[str, RecallAtK], ...]
    separately: RecallAtK
    probes: int
    without_evidence: int
    tokens: int
    returned: int
    matched: int
    abstention_returned: int
    words_at_k: tuple[tuple[int, int], ...]

    @property
    def noise(self) -> int:
        """Returned items matching no evidence, over the eligible probes in ``overall``."""
        return self.returned - self.matched

    @property
    def noise_ratio(self) -> float | None:
        """``noise / returned`` (display only), ``None`` when nothing was returned."""
        return self.noise / self.returned if self.returned else None

    @property
    def tokens_per_probe(self) -> float | None:
        """Mean tokens rendered per probe run (display only)."""
        return self.tokens / self.probes if self.probes else None


def summarize(
    scores: Iterable[ProbeProvenance], *, ks: Sequence[int] = DEFAULT_KS
) -> ProvenanceSummary:
    """Aggregate per-probe outcomes into recall@k overall, per category and tokens."""
    ordered = list(scores)
    main = [score for score in ordered if not score.reported_separately]
    counted = [score for score in main if score.eligible]
    separate = [score for score in ordered if score.reported_separately]
    return ProvenanceSummary(
        ks=tuple(ks),
        overall=_recall(main, ks),
        by_category=_grouped(main, ks, "category"),
        by_dataset_category=_grouped(ordered, ks, "dataset_category"),
        separately=_recall(separate, ks),
        probes=len(ordered),
        without_evidence=sum(
            1 for score in ordered if not score.eligible and score.category != "abstention"
        ),
        tokens=sum(score.tokens for score in ordered),
        returned=sum(score.returned for score in counted),
        matched=sum(score.matched for score in counted),
        abstention_returned=sum(
            score.returned for score in ordered if score.category == "abstention"
        ),
        words_at_k=tuple((k, sum(score.words_within(k) for score in counted)) for k in ks),
    )
