"""The raw-turn baseline: BM25 over the principal's own turns, no memory formed at all.

For each instance, every principal turn is one BM25 document (``bm25s``, Lucene scoring),
tokenized with the platform's shared tokenizer minus its stopwords, so the baseline and the
memory arm's lexical recall see the same lexemes. Each scored probe's question retrieves the
top ``k`` turns; ties are broken by dataset order and a turn sharing no lexeme with the question
is never returned. The turns are rendered one line each and counted with the shared token
estimate, and the same provenance recall@k as the memory arm is computed over them. It tells an
operator whether formed memory beats plain retrieval over the transcript.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory_bench_external._types import ExternalInstance, ExternalProbe, ExternalTurn
from memory_bench_external.scoring import (
    DEFAULT_KS,
    ProbeProvenance,
    Provenance,
    ProvenanceSummary,
    count_words,
    score_probe,
    summarize,
)
from memory_core.errors import UsageError
from memory_core.tokenizer import STOPWORDS, estimate_tokens, tokenize

if TYPE_CHECKING:
    import bm25s

BLOCK_HEADER = "Transcript excerpts (raw turns, bm25):"
"""The first line of a rendered baseline block."""


def bm25_tokens(text: str) -> list[str]:
    """The shared tokenizer's lexemes of ``text`` without stopwords (duplicates kept)."""
    return [token for token in tokenize(text) if token not in STOPWORDS]


@dataclass(frozen=True, kw_only=True)
class RetrievedTurn:
    """One turn the baseline returned for a probe.

    Attributes:
        rank: 1-based rank.
        session_id: The turn's session.
        turn_id: The turn.
        score: Its BM25 score.
        text: The turn's content as rendered.
    """

    rank: int
    session_id: str
    turn_id: str
    score: float
    text: str

    @property
    def provenance(self) -> Provenance:
        """The turn is its own provenance."""
        return Provenance(
            turn_ids=frozenset({self.turn_id}), session_ids=frozenset({self.session_id})
        )


class RawTurnIndex:
    """A BM25 index over one instance's principal turns."""

    def __init__(self, instance: ExternalInstance) -> None:
        self._turns: list[tuple[str, ExternalTurn]] = [
            (session.session_id, turn)
            for session in instance.sessions
            for turn in session.turns
            if turn.is_principal
        ]
        documents = [bm25_tokens(turn.content) for _, turn in self._turns]
        self._retriever: bm25s.BM25 | None = None
        if any(documents):
            import bm25s

            self._retriever = bm25s.BM25()
            self._retriever.index(documents, show_progress=False)

    @property
    def size(self) -> int:
        """Principal turns indexed."""
        return len(self._turns)

    def search(self, question: str, *, k: int) -> tuple[RetrievedTurn, ...]:
        """The top ``k`` principal turns for ``question`` (fewer when fewer share a lexeme)."""
        if k < 1:
            raise UsageError(f"k must be at least 1, got {k}")
        if self._retriever is None:
            return ()
        vocabulary = self._retriever.vocab_dict
        query = [token for token in bm25_tokens(question) if token in vocabulary and token]
        if not query:
            return ()
        scores = self._retriever.get_scores(query)
        ranked = sorted(
            (index for index in range(len(self._turns)) if float(scores[index]) > 0.0),
            key=lambda index: (-float(scores[index]), index),
        )[:k]
        return tuple(
            RetrievedTurn(
                rank=rank,
                session_id=self._turns[index][0],
                turn_id=self._turns[index][1].turn_id,
                score=float(scores[index]),
                text=self._turns[index][1].content,
            )
            for rank, index in enumerate(ranked, start=1)
        )


def render_block(turns: Sequence[RetrievedTurn]) -> str:
    """The block a model would read: a header and one ``[turn id] text`` line per turn."""
    if not turns:
        return ""
    lines = [BLOCK_HEADER, *(f"[{turn.turn_id}] {turn.text}" for turn in turns)]
    return "\n".join(lines)


@dataclass(frozen=True, kw_only=True)
class BaselineProbe:
    """The baseline's answer to one probe: the turns it returned and their score.

    Attributes:
        instance_id: The instance the probe belongs to.
        retrieved: The returned turns, best first.
        block: The rendered block.
        outcome: Provenance outcome and tokens rendered.
    """

    instance_id: str
    retrieved: tuple[RetrievedTurn, ...]
    block: str
    outcome: ProbeProvenance


@dataclass(frozen=True, kw_only=True)
class BaselineResult:
    """The raw-turn baseline over a run's instances.

    Attributes:
        k: Turns retrieved per probe (the largest reported cut-off).
        probes: One row per scored probe, in instance then probe order.
        summary: Recall@k overall and per category, and tokens rendered.
    """

    k: int
    probes: tuple[BaselineProbe, ...]
    summary: ProvenanceSummary


def answer_probe(
    index: RawTurnIndex, probe: ExternalProbe, *, k: int, instance_id: str = ""
) -> BaselineProbe:
    """Retrieve the top ``k`` principal turns for one probe and score them."""
    retrieved = index.search(probe.question, k=k)
    block = render_block(retrieved)
    outcome = score_probe(
        probe,
        [turn.provenance for turn in retrieved],
        tokens=estimate_tokens(block),
        words=[count_words(turn.text) for turn in retrieved],
    )
    return BaselineProbe(instance_id=instance_id, retrieved=retrieved, block=block, outcome=outcome)


def baseline_probes(instance: ExternalInstance, *, k: int) -> tuple[BaselineProbe, ...]:
    """Index one instance's principal turns and answer each of its scored probes (in order).

    Raises:
        UsageError: ``k`` is below 1.
    """
    index = RawTurnIndex(instance)
    return tuple(
        answer_probe(index, probe, k=k, instance_id=instance.instance_id)
        for probe in instance.probes
        if probe.scored
    )


def _check_ks(ks: Sequence[int]) -> int:
    if not ks or min(ks) < 1:
        raise UsageError(f"recall cut-offs must be positive integers, got {list(ks)}")
    return max(ks)


def summarize_baseline(
    rows: Iterable[BaselineProbe], *, ks: Sequence[int] = DEFAULT_KS
) -> BaselineResult:
    """Collect baseline rows (from :func:`baseline_probes`) into a :class:`BaselineResult`.

    Raises:
        UsageError: ``ks`` is empty or holds a cut-off below 1.
    """
    k = _check_ks(ks)
    ordered = tuple(rows)
    summary = summarize((row.outcome for row in ordered), ks=ks)
    return BaselineResult(k=k, probes=ordered, summary=summary)


def run_raw_turn_baseline(
    instances: Iterable[ExternalInstance], *, ks: Sequence[int] = DEFAULT_KS
) -> BaselineResult:
    """Run the BM25 raw-turn baseline over every scored probe of ``instances``.

    Excluded probes are not run. Abstention probes are run (their tokens count) but do not
    count for recall@k.

    Raises:
        UsageError: ``ks`` is empty or holds a cut-off below 1.
    """
    k = _check_ks(ks)
    rows = [row for instance in instances for row in baseline_probes(instance, k=k)]
    return summarize_baseline(rows, ks=ks)
