"""Ranking at retrieval@2: pure functions from candidates to an ordered, budgeted selection.

The pipeline, in order:

1. **Arm order.** Each arm orders its own candidates: the lexical arm by weighted concepts
   matched, normed by length as BM25 norms it (``lexical_order``), the subject and recency
   arms newest store position first. Fusion reads the lexical arm's scores, never its order,
   so the retriever scores its hits (``lexical_weights_rows``) and leaves them as read.
2. **Fusion.** The mean over the arms that ran of each arm's normalized vote, so
   ``fused_match`` lies in [0, 1] and is commensurable with the other terms whatever ``k`` is.
   A rank-only arm (subject, recency, person) votes ``(k + 1) / (k + rank)`` with 1-based
   ranks: reciprocal-rank fusion divided by its attainable maximum. Ranks count among the
   recall's candidates only; the recency arm's rank is a candidate's place in the candidates
   ordered newest first, so a match older than the arm's own read still gets a (flat) vote
   rather than none. The lexical arm votes
   its ``lexical_weights`` score divided by the best score of the recall, so equally matched
   beliefs vote alike (a tie-break is not a signal) and a belief matching more and rarer
   concepts of the turn keeps its lead however flat ``k`` makes the rank votes.
3. **Score.** ``max(0, w.match * fused_match + w.confidence * confidence
   + w.reinforce * reinforce + w.authority * authority + w.scope * scope
   + w.utility * utility - stale) * lifecycle_weight`` with
   ``reinforce = min(1, log1p(evidence_count) / log1p(10)) * exp(-age_days / tau[type])``,
   ``age_days = max(0, (now - last_evidence_at).days)``, ``now`` taken once per recall (the
   query's ``as_of`` or the clock) and ``tau`` from ``retrieval.decay_tau_days``; authority
   USER 1, AFFIRMED 2/3, INFERRED 1/3; scope 1 for the session's own project, 0.5 for
   ``user``, 0.25 for ``general``; ``stale = retrieval.stale_penalty`` for an expired or
   retired row (status EXPIRED or RETIRED, or ``valid_to`` at or before ``now``), which only
   an as-of or include-superseded read can reach, else 0. Such a row takes lifecycle weight 1:
   the penalty, not the multiplier, demotes it.
4. **Near duplicates** (``penalize_near_duplicates``): a candidate whose normalized subject
   and type match a higher-scored candidate's and whose statement's lexemes have Jaccard
   similarity >= 0.8 with it loses ``retrieval.near_duplicate_penalty`` (floored at 0): the
   second phrasing is demoted, not deleted, so a genuine second fact still renders.
5. **Order.** Score descending, then store position descending (newer first), then id.
6. **Collapse** exact duplicates (same type and normalized statement): the best-ranked stays.
7. **Per-subject cap**: at most ``per_subject_cap`` beliefs per normalized subject; a conflict
   partner of a belief already kept (linked through ``conflicts_with`` either way) bypasses
   the cap, so two disputed statements surface together.
8. **Budget**: seat beliefs under the item and token budgets (``select_within_budget``); what
   does not fit is dropped for budget.

Every sort has an explicit total key, so equal inputs always give the same order.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Protocol, TypeVar

from memory_core.domain import USER_SCOPE, Authority, Belief, BeliefStatus, BeliefType
from memory_core.profiles import DecayTauDays, LifecycleWeights, RankingWeights
from memory_core.retrieval._rows import REINFORCE_SATURATION, Row, row_of, rows_of
from memory_core.retrieval._rows import authority_value as _authority_value
from memory_core.retrieval._rows import saturation as _saturation
from memory_core.retrieval.query import TermGroup
from memory_core.tokenizer import tokens_for_length

NEAR_DUPLICATE_JACCARD = 0.8
"""Lexeme Jaccard similarity at which a same-subject, same-type statement is a near duplicate."""

STALE_STATUSES: frozenset[BeliefStatus] = frozenset({BeliefStatus.EXPIRED, BeliefStatus.RETIRED})
"""Statuses the stale penalty applies to (with any row whose ``valid_to`` has passed)."""

DURABLE_TYPES: frozenset[BeliefType] = frozenset(
    {BeliefType.PREFERENCE, BeliefType.USER_MODEL_ATTR}
)
"""Types the snapshot's durable reservation holds slots for (with any ``user``-scope belief)."""

LENGTH_K1 = 1.2
"""BM25's ``k1`` in the lexical arm's length norm (Lucene's default)."""

LENGTH_B = 0.75
"""BM25's ``b``: how far a hit's length relative to the mean scales its lexical weight."""

_SCOPE_VALUE_OWN_PROJECT = 1.0
_SCOPE_VALUE_USER = 0.5
_SCOPE_VALUE_GENERAL = 0.25


def is_durable(belief: Belief) -> bool:
    """A preference, a user-model attribute, or any belief at ``user`` scope."""
    return belief.belief_type in DURABLE_TYPES or belief.scope == USER_SCOPE


def is_primed(belief: Belief, project_scope: str | None) -> bool:
    """True when the snapshot primes ``belief``: standing context for any turn.

    A session opens with no query, so its snapshot holds what should shape every answer:
    preferences (how to answer) and user-model attributes (who the user is), and in a project
    session that project's own beliefs (the decisions the work stands on). Relationships and
    facts stated outside the session's project are topical: they reach the model in-turn, when
    a turn names the person, the relation or the topic, or asks who.
    """
    if belief.belief_type in DURABLE_TYPES:
        return True
    return project_scope is not None and belief.scope == f"project:{project_scope}"


class _Placed(Protocol):
    """What the position orders read: a belief or its ranking row."""

    @property
    def id(self) -> str: ...

    @property
    def store_position(self) -> int: ...


_P = TypeVar("_P", bound=_Placed)


def newest_first(beliefs: Sequence[_P]) -> list[_P]:
    """Store position descending, then id: the recency and subject arms' order (of beliefs or
    their rows).

    What a store returns is in that order already (strictly descending positions): it is
    checked, not sorted.
    """
    positions = [b.store_position for b in beliefs]
    if all(map(operator.gt, positions, itertools.islice(positions, 1, None))):
        return list(beliefs)
    keyed = [(-b.store_position, b.id, place) for place, b in enumerate(beliefs)]
    keyed.sort()  # no key function; ties in position and id keep their order, as sorted's
    return [beliefs[place] for _, _, place in keyed]


def lexical_weights(hits: Sequence[Belief], groups: Sequence[TermGroup]) -> dict[str, float]:
    """Each lexical hit's weight: the weighted concepts it matches, rarer concepts counting more,
    a longer text's matches counting less.

    A hit's weight is ``sum(group.weight * log1p(hits / hits matching the group))`` over the
    term groups whose lexemes it contains, so a keyword outweighs a facet expansion and a
    concept most hits share says little, times BM25's length norm for one occurrence,
    ``(k1 + 1) / (1 + k1 * (1 - b + b * length / mean length))`` (``LENGTH_K1``,
    ``LENGTH_B``; length in lexemes of subject and statement, the mean over the hits): of two
    statements matching the same concepts the shorter, which says less else, ranks first.
    Each group's term of the sum is computed once, and each hit's terms are added in group
    order, as the definition adds them. A hit's groups are found from the query lexemes it
    holds (one set intersection per hit), and a sum is computed once per distinct set of
    matched groups.
    """
    return lexical_weights_rows(rows_of(hits), groups)


def lexical_weights_rows(hits: Sequence[Row], groups: Sequence[TermGroup]) -> dict[str, float]:
    """:func:`lexical_weights` over rows (each row's lexeme set is computed once).

    Hits are counted by the set of query lexemes they hold, and each such set's groups (its
    pattern) and its sum are found once per set, not per hit."""
    groups_of = _groups_of_lexemes(groups)
    words = [row._text_lexemes or row.text_lexemes() for row in hits]
    founds = list(map(frozenset(groups_of).intersection, words))
    counted = Counter(founds)
    pattern_of = {
        found: tuple(sorted({index for lexeme in found for index in groups_of[lexeme]}))
        for found in counted
    }
    frequency = [0] * len(groups)
    for found, count in counted.items():
        for index in pattern_of[found]:
            frequency[index] += count
    total = len(hits)
    terms = [
        group.weight * math.log1p(total / count) if count else 0.0
        for group, count in zip(groups, frequency, strict=True)
    ]
    ids = [row.id for row in hits]
    sizes = list(map(len, words))
    lengths = dict(zip(ids, sizes, strict=True))
    mean_length = max(1.0, sum(lengths.values()) / len(lengths)) if lengths else 1.0
    k1, b = LENGTH_K1, LENGTH_B
    # length_norm(length, mean_length) of each distinct length, inlined operation for operation
    norms = {
        length: (k1 + 1) / (1 + k1 * (1 - b + b * length / mean_length)) for length in set(sizes)
    }
    if len(lengths) == len(ids):
        values = {found: sum([terms[i] for i in pattern]) for found, pattern in pattern_of.items()}
        return {
            identifier: values[found] * norms[size]
            for identifier, size, found in zip(ids, sizes, founds, strict=True)
        }
    # a hit listed twice counts twice per group, in group order (never from a store)
    matched: dict[str, tuple[int, ...]] = {}
    for identifier, found in zip(ids, founds, strict=True):
        earlier = matched.get(identifier)
        pattern = pattern_of[found]
        matched[identifier] = pattern if earlier is None else tuple(sorted(earlier + pattern))
    return {
        identifier: sum([terms[i] for i in pattern]) * norms[lengths[identifier]]
        for identifier, pattern in matched.items()
    }


def length_norm(length: int, mean_length: float) -> float:
    """BM25's length norm of one occurrence: 1 at the mean length, more below it, less above."""
    return (LENGTH_K1 + 1) / (1 + LENGTH_K1 * (1 - LENGTH_B + LENGTH_B * length / mean_length))


def _groups_of_lexemes(groups: Sequence[TermGroup]) -> dict[str, list[int]]:
    """Each lexeme of ``groups`` -> the indexes of the groups holding it, ascending: the
    groups a hit matches are those of the query lexemes it holds (no test per group)."""
    groups_of: dict[str, list[int]] = {}
    for index, group in enumerate(groups):
        for lexeme in frozenset(group.lexemes):
            groups_of.setdefault(lexeme, []).append(index)
    return groups_of


def lexical_order(hits: Sequence[Belief], groups: Sequence[TermGroup]) -> list[Belief]:
    """Order lexical hits by ``lexical_weights``; ties go to the newer store position, then id."""
    return weight_order(hits, lexical_weights(hits, groups))


def weight_order(hits: Sequence[_P], weights: Mapping[str, float]) -> list[_P]:
    """``hits`` (beliefs or their rows) by weight descending, then newer store position, then
    id (ties in all three keep their order), sorted as plain tuples with no key function."""
    keyed = [(-weights[b.id], -b.store_position, b.id, place) for place, b in enumerate(hits)]
    keyed.sort()
    return [hits[row[3]] for row in keyed]


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[str]],
    *,
    k: int,
    scores: Mapping[str, Mapping[str, float]] | None = None,
) -> dict[str, float]:
    """Normalized fusion of per-arm rankings of ids: the mean of each arm's normalized vote.

    An arm's vote for an id is ``(k + 1) / (k + rank)`` (reciprocal rank, 1-based, scaled so
    its first rank votes 1), or, for an arm that also gives ``scores``, the id's score divided
    by that arm's highest score, so equally matched ids vote alike whatever order the arm's
    tie-break gave them, and a strong match is not flattened by ``k``.

    Args:
        rankings: arm name -> ids in that arm's order (an arm that ran and found nothing is an
            empty sequence; it still counts towards the normalizer).
        k: the fusion constant of rank votes; larger values flatten the difference between
            ranks.
        scores: arm name -> id -> non-negative score, for the arms that score their hits.

    Returns:
        id -> the mean vote over the arms, in [0, 1]; an id an arm ranks or scores first in
        every arm scores exactly 1. Without ``scores`` this is ``sum(1 / (k + rank)) /
        (arms / (k + 1))``, reciprocal-rank fusion normalized by its attainable maximum.
    """
    if k < 1:
        raise ValueError(f"reciprocal_rank_fusion_k must be >= 1, got {k}")
    scored = scores or {}
    fused: dict[str, float] = {}
    for arm in sorted(rankings):
        arm_scores = scored.get(arm)
        top = max(arm_scores.values(), default=0.0) if arm_scores is not None else 0.0
        for rank, identifier in enumerate(rankings[arm], start=1):
            if arm_scores is not None:
                vote = arm_scores.get(identifier, 0.0) / top if top > 0 else 1.0
            else:
                vote = (k + 1) / (k + rank)
            fused[identifier] = fused.get(identifier, 0.0) + vote
    if not rankings:
        return fused
    return {identifier: value / len(rankings) for identifier, value in fused.items()}


def fused_matches(
    candidates: Sequence[_P],
    arms: Mapping[str, Sequence[_P] | None],
    *,
    k: int,
    scores: Mapping[str, Mapping[str, float]] | None = None,
) -> list[float]:
    """Each candidate's :func:`reciprocal_rank_fusion` value, in candidate order, from the
    arms' rankings of the candidates alone (0.0 for a candidate no arm ranks).

    ``arms`` maps an arm name to its rows in its own order (a row that is not a candidate
    is not ranked) or to ``None`` for the arm that ranks every candidate in the candidates'
    own order (they are given newest first: the recency arm's vote). The votes are the same
    and are added per candidate in the same order (arm name order), so each value is the one
    ``reciprocal_rank_fusion`` gives, without building an id ranking per arm.

    Raises:
        ValueError: ``k`` is below 1.
    """
    if k < 1:
        raise ValueError(f"reciprocal_rank_fusion_k must be >= 1, got {k}")
    scored = scores or {}
    place = {row.id: index for index, row in enumerate(candidates)}
    totals = [0.0] * len(candidates)
    votes: list[float] | None = None  # the rank votes, by rank - 1, computed once
    for arm in sorted(arms):
        rows = arms[arm]
        if rows is None:
            indexes: Sequence[int] = range(len(candidates))
        else:
            indexes = [place[row.id] for row in rows if row.id in place]
        arm_scores = scored.get(arm)
        if arm_scores is None:
            if votes is None or len(votes) < len(indexes):
                ranks = range(1, max(len(indexes), len(candidates)) + 1)
                votes = [(k + 1) / (k + rank) for rank in ranks]
            if rows is None:  # every candidate, in order: one vote each, added in C
                totals = list(map(operator.add, totals, votes))
            else:
                for index, vote in zip(indexes, votes, strict=False):  # votes may run longer
                    totals[index] += vote
            continue
        top = max(arm_scores.values(), default=0.0)
        for index in indexes:
            totals[index] += arm_scores.get(candidates[index].id, 0.0) / top if top > 0 else 1.0
    if not arms:
        return totals
    count = len(arms)
    return [total / count for total in totals]


def reinforce_value(evidence_count: int, age_days: int = 0, tau_days: float = math.inf) -> float:
    """``min(1, log1p(evidence_count) / log1p(10)) * exp(-age_days / tau_days)``."""
    saturation = _saturation(evidence_count)
    return saturation * math.exp(-max(0, age_days) / tau_days)


def evidence_age_days(belief: Belief, now: datetime) -> int:
    """``max(0, (now - last_evidence_at).days)``: whole days since the last evidence."""
    return max(0, (now - belief.last_evidence_at).days)


def is_stale(belief: Belief, now: datetime | None) -> bool:
    """An expired or retired row: a stale status, or a ``valid_to`` at or before ``now``."""
    if belief.status in STALE_STATUSES:
        return True
    return now is not None and belief.valid_to is not None and belief.valid_to <= now


def authority_value(authority: Authority) -> float:
    """USER 1.0, AFFIRMED 2/3, INFERRED 1/3."""
    return _authority_value(authority)


def scope_value(scope: str, project_scope: str | None) -> float:
    """1.0 for the session's own project, 0.5 for ``user``, 0.25 for ``general`` (or other)."""
    if project_scope is not None and scope == f"project:{project_scope}":
        return _SCOPE_VALUE_OWN_PROJECT
    if scope == USER_SCOPE:
        return _SCOPE_VALUE_USER
    return _SCOPE_VALUE_GENERAL


def lifecycle_weight(status: BeliefStatus, weights: LifecycleWeights) -> float:
    """The profile's multiplier for a live status; 0 for any other (never ranked)."""
    if status is BeliefStatus.ACTIVE:
        return weights.active
    if status is BeliefStatus.PROVISIONAL:
        return weights.provisional
    return 0.0


def score(
    belief: Belief,
    *,
    fused_match: float,
    weights: RankingWeights,
    lifecycle: LifecycleWeights,
    project_scope: str | None,
    now: datetime | None = None,
    tau_days: DecayTauDays | None = None,
    stale_penalty: float = 0.0,
) -> float:
    """The additive retrieval@2 score of one candidate (see the module docstring).

    Without ``now`` and ``tau_days`` the reinforce term does not fade (age 0).
    """
    return scorer(
        weights=weights,
        lifecycle=lifecycle,
        project_scope=project_scope,
        now=now,
        tau_days=tau_days,
        stale_penalty=stale_penalty,
    )(belief, fused_match)


def scorer(
    *,
    weights: RankingWeights,
    lifecycle: LifecycleWeights,
    project_scope: str | None,
    now: datetime | None = None,
    tau_days: DecayTauDays | None = None,
    stale_penalty: float = 0.0,
) -> Callable[[Belief, float], float]:
    """``score`` with its recall-wide arguments bound: ``(belief, fused_match) -> score``.

    What does not depend on the candidate (the weights, each type's tau, each status's
    lifecycle weight, each scope's value) is read once. The arithmetic per candidate is that
    of :func:`reinforce_value`, :func:`evidence_age_days`, :func:`is_stale`,
    :func:`authority_value`, :func:`scope_value` and :func:`lifecycle_weight` composed, inlined
    operation for operation (``tests/memory_core/retrieval/test_fast_paths.py`` checks the two
    agree bit for bit over generated candidates).
    """
    scores = rows_scorer(
        weights=weights,
        lifecycle=lifecycle,
        project_scope=project_scope,
        now=now,
        tau_days=tau_days,
        stale_penalty=stale_penalty,
    )

    def scored(belief: Belief, fused_match: float) -> float:
        return scores((row_of(belief),), (fused_match,))[0]

    return scored


def rows_scorer(
    *,
    weights: RankingWeights,
    lifecycle: LifecycleWeights,
    project_scope: str | None,
    now: datetime | None = None,
    tau_days: DecayTauDays | None = None,
    stale_penalty: float = 0.0,
) -> Callable[[Sequence[Row], Sequence[float]], list[float]]:
    """:func:`scorer` over rows, many in one loop: ``(rows, fused_matches) -> scores``.

    The arithmetic is :func:`scorer`'s (which is this loop over one row); a row's saturation
    and authority value are its own (``Row``), computed once per belief."""
    w_match, w_confidence, w_reinforce = weights.match, weights.confidence, weights.reinforce
    w_authority, w_scope, w_utility = weights.authority, weights.scope, weights.utility
    taus: dict[BeliefType, float] = {}
    multipliers = {status: lifecycle_weight(status, lifecycle) for status in BeliefStatus}
    scopes: dict[str, float] = {}
    exp = math.exp
    stale_statuses = STALE_STATUSES
    timed = now is not None and tau_days is not None

    def scored(rows: Sequence[Row], fused_matches: Sequence[float]) -> list[float]:
        out: list[float] = []
        append = out.append
        for row, fused_match in zip(rows, fused_matches, strict=True):
            if timed:
                age = (now - row.last_evidence_at).days  # type: ignore[operator]
                age_days = age if age > 0 else 0  # max(0, age), without the call
                tau = taus.get(row.belief_type)
                if tau is None:
                    tau = taus[row.belief_type] = tau_days.for_type(row.belief_type)  # type: ignore[union-attr]
                reinforce = row.saturation * exp(-age_days / tau)
            else:
                reinforce = row.saturation  # age 0 at an infinite tau: exp(-0.0) is exactly 1.0
            valid_to = row.valid_to
            status = row.status
            stale = status in stale_statuses or (
                now is not None and valid_to is not None and valid_to <= now
            )
            scope = scopes.get(row.scope)
            if scope is None:
                scope = scopes[row.scope] = scope_value(row.scope, project_scope)
            raw = (
                w_match * fused_match
                + w_confidence * row.confidence
                + w_reinforce * reinforce
                + w_authority * row.authority_value
                + w_scope * scope
                + w_utility * row.utility
                - (stale_penalty if stale else 0.0)
            )
            multiplier = 1.0 if stale else multipliers[status]
            append((raw if raw > 0.0 else 0.0) * multiplier)  # max(0.0, raw), NaN included
        return out

    return scored


@dataclass(frozen=True, kw_only=True)
class Scored:
    """A candidate with its fused match and final score."""

    belief: Belief
    fused_match: float
    score: float


def order(scored: Sequence[Scored]) -> list[Scored]:
    """Score descending, then store position descending, then id."""
    return sorted(scored, key=_order_key)


def _order_key(candidate: Scored) -> tuple[float, int, str]:
    belief = candidate.belief
    return (-candidate.score, -belief.store_position, belief.id)


def jaccard(left: frozenset[str], right: frozenset[str]) -> float:
    """``|left & right| / |left | right|``; 0 for two empty sets."""
    union = left | right
    return len(left & right) / len(union) if union else 0.0


def penalize_near_duplicates(scored: Sequence[Scored], penalty: float) -> list[Scored]:
    """Demote each near duplicate of a higher-scored candidate by ``penalty`` (floor 0).

    Candidates are judged in ``order``; one whose normalized subject and type match an earlier
    (higher-scored) candidate's and whose statement lexemes have Jaccard similarity of at least
    :data:`NEAR_DUPLICATE_JACCARD` with it loses ``penalty``. Returned in ``order``.

    This is :func:`near_duplicate_order` over the candidates' beliefs and scores, each
    demoted candidate copied with its new score.
    """
    judged = near_duplicate_order([s.belief for s in scored], [s.score for s in scored], penalty)
    return [
        scored[index] if value == scored[index].score else replace(scored[index], score=value)
        for value, index in judged
    ]


def near_duplicate_order(
    beliefs: Sequence[Belief], scores: Sequence[float], penalty: float
) -> list[tuple[float, int]]:
    """``(score, index)`` of each of ``beliefs`` scored ``scores``, in ``order`` after the
    near-duplicate penalty of :func:`penalize_near_duplicates` (the score is the demoted one).

    This is :func:`near_duplicate_order_rows` over the beliefs' rows.
    """
    return near_duplicate_order_rows(rows_of(beliefs), scores, penalty)


def near_duplicate_order_rows(
    rows: Sequence[Row], scores: Sequence[float], penalty: float
) -> list[tuple[float, int]]:
    """:func:`near_duplicate_order` over rows.

    The earlier lexeme sets of a (subject, type) are kept by size, so each is compared by the
    fewest shared lexemes its size pair needs (:func:`has_near_duplicate`). The first
    candidate of a (subject, type) is compared with nothing: its statement's lexemes are read
    only once a second candidate of its (subject, type) comes. Candidates are sorted as plain
    tuples (no per-candidate record is built).
    """
    # (-score, -position, id, index): ``order`` as plain tuples; ids are distinct in a recall,
    # and the index keeps any tie in input order, as a stable sort would
    keyed = [
        (-value, -row.store_position, row.id, index)
        for index, (value, row) in enumerate(zip(scores, rows, strict=True))
    ]
    keyed.sort()
    if penalty <= 0:
        return [(scores[entry[3]], entry[3]) for entry in keyed]
    values = list(scores)  # each candidate's score after its demotion, by index
    firsts: dict[tuple[str, BeliefType], Row] = {}
    earlier: dict[tuple[str, BeliefType], dict[int, set[frozenset[str]]]] = {}
    demoted = False
    for entry in keyed:
        index = entry[3]
        row = rows[index]
        key = row.near_key
        by_size = earlier.get(key)
        if by_size is None:
            first = firsts.get(key)
            if first is None:
                firsts[key] = row
                continue
            first_tokens = first.statement_lexemes()
            by_size = earlier[key] = {len(first_tokens): {first_tokens}}
        tokens = row.statement_lexemes()
        if has_near_duplicate(tokens, by_size):
            values[index] = max(0.0, values[index] - penalty)
            demoted = True
        by_size.setdefault(len(tokens), set()).add(tokens)
    if not demoted:
        return [(values[entry[3]], entry[3]) for entry in keyed]
    # judged order is ``keyed``'s: a tie after demotion keeps it (its place in that order)
    rekeyed = [
        (-values[index], negated_position, identifier, place, index)
        for place, (_, negated_position, identifier, index) in enumerate(keyed)
    ]
    rekeyed.sort()
    return [(values[entry[4]], entry[4]) for entry in rekeyed]


def has_near_duplicate(
    tokens: frozenset[str], earlier: Mapping[int, AbstractSet[frozenset[str]]]
) -> bool:
    """Whether some set of ``earlier`` (lexeme sets keyed by their size) has
    ``jaccard(tokens, other) >= NEAR_DUPLICATE_JACCARD``.

    The same answer as testing ``jaccard`` against every set, without most of the tests: two
    sets of sizes ``a`` and ``b`` that share ``s`` lexemes have Jaccard ``s / (a + b - s)``
    (their union is counted, not built), which grows with ``s``, so they are near duplicates
    exactly when ``s`` reaches :func:`min_shared` of the sizes. A size pair that needs more
    than the smaller size is skipped unread, one that needs the whole of both sets is a set
    lookup, one that needs the whole smaller set is a subset test.
    """
    size = len(tokens)
    for other_size, others in earlier.items():
        needed = min_shared(size, other_size)
        if needed > (size if size < other_size else other_size):  # min(size, other_size)
            continue
        if needed == size == other_size:
            if tokens in others:
                return True
        elif needed == size:
            for other in others:
                if tokens <= other:
                    return True
        elif needed == other_size:
            for other in others:
                if other <= tokens:
                    return True
        else:
            for other in others:
                if len(tokens & other) >= needed:
                    return True
    return False


@lru_cache(maxsize=4096)
def min_shared(size: int, other_size: int) -> int:
    """The fewest shared lexemes at which sets of these sizes are near duplicates.

    The least ``s`` with ``s / (size + other_size - s) >= NEAR_DUPLICATE_JACCARD``, in the
    float arithmetic :func:`jaccard` uses (correctly rounded division is monotone, so every
    larger ``s`` passes too); ``min(size, other_size) + 1`` when none does, and for two empty
    sets, whose Jaccard is 0.
    """
    smaller = min(size, other_size)
    for shared in range(smaller + 1):
        union = size + other_size - shared
        if union and shared / union >= NEAR_DUPLICATE_JACCARD:
            return shared
    return smaller + 1


def collapse_duplicates(ranked: Sequence[Belief]) -> tuple[list[Belief], list[Belief]]:
    """Keep the best-ranked of each (type, statement matching key); return (kept, collapsed)."""
    kept, collapsed = collapse_duplicate_rows(rows_of(ranked))
    return [r.belief for r in kept], [r.belief for r in collapsed]


def collapse_duplicate_rows(ranked: Sequence[Row]) -> tuple[list[Row], list[Row]]:
    """:func:`collapse_duplicates` over rows."""
    seen: set[tuple[BeliefType, str]] = set()
    kept: list[Row] = []
    collapsed: list[Row] = []
    for row in ranked:
        key = row.duplicate_key
        if key in seen:
            collapsed.append(row)
        else:
            seen.add(key)
            kept.append(row)
    return kept, collapsed


def cap_per_subject(ranked: Sequence[Belief], cap: int) -> tuple[list[Belief], list[Belief]]:
    """Keep at most ``cap`` beliefs per normalized subject, best-ranked first; a conflict
    partner of a kept belief is kept past the cap."""
    kept, capped = cap_rows_per_subject(rows_of(ranked), cap)
    return [r.belief for r in kept], [r.belief for r in capped]


def cap_rows_per_subject(ranked: Sequence[Row], cap: int) -> tuple[list[Row], list[Row]]:
    """:func:`cap_per_subject` over rows."""
    counts: dict[str, int] = {}
    kept: list[Row] = []
    capped: list[Row] = []
    partners: set[str] = set()
    for row in ranked:
        subject = row.subject_key
        if counts.get(subject, 0) >= cap and row.id not in partners:
            capped.append(row)
        else:
            counts[subject] = counts.get(subject, 0) + 1
            kept.append(row)
            if row.conflicts_with:
                partners.update(row.conflicts_with)
    return kept, capped


def collapse_and_cap_rows(
    ranked: Sequence[Row], cap: int
) -> tuple[list[Row], list[Row], list[Row]]:
    """:func:`cap_rows_per_subject` of :func:`collapse_duplicate_rows`'s kept rows, in one
    pass: ``(kept, collapsed, capped)``."""
    seen: set[tuple[BeliefType, str]] = set()
    counts: dict[str, int] = {}
    kept: list[Row] = []
    collapsed: list[Row] = []
    capped: list[Row] = []
    partners: set[str] = set()
    for row in ranked:
        key = row.duplicate_key
        if key in seen:
            collapsed.append(row)
            continue
        seen.add(key)
        subject = row.subject_key
        count = counts.get(subject, 0)
        if count >= cap and row.id not in partners:
            capped.append(row)
        else:
            counts[subject] = count + 1
            kept.append(row)
            if row.conflicts_with:
                partners.update(row.conflicts_with)
    return kept, collapsed, capped


def reserved_slots(durable_item_share: float, max_items: int) -> int:
    """``ceil(durable_item_share * max_items)``: snapshot slots held for durable beliefs."""
    return min(max_items, math.ceil(durable_item_share * max_items))


def select_within_budget(
    ranked: Sequence[Belief],
    *,
    header: str,
    render: Callable[[Belief], str],
    max_items: int,
    max_tokens: int,
    reserved: int = 0,
) -> tuple[list[Belief], list[Belief]]:
    """Seat ranked beliefs under the item and token budgets; return (seated, dropped).

    The token budget covers the whole rendered block, header included. Seating is first-fit
    in priority order: a belief whose line would overflow is dropped and the next is tried.
    ``reserved`` slots are held for durable beliefs (``is_durable``): they are seated first,
    best-ranked first, and non-durable beliefs never take more than ``max_items - reserved``
    slots, so an unused reservation is not backfilled by non-durable beliefs. Durable beliefs
    above the reservation still compete for every slot (a floor, not a ceiling). The seated
    beliefs keep their rank order; dropped ones are in rank order too.
    """
    seated, dropped = select_rows_within_budget(
        rows_of(ranked),
        header=header,
        render=lambda row: render(row.belief),
        max_items=max_items,
        max_tokens=max_tokens,
        reserved=reserved,
    )
    return [r.belief for r in seated], [r.belief for r in dropped]


def select_rows_within_budget(
    ranked: Sequence[Row],
    *,
    header: str,
    render: Callable[[Row], str],
    max_items: int,
    max_tokens: int,
    reserved: int = 0,
) -> tuple[list[Row], list[Row]]:
    """:func:`select_within_budget` over rows (``render`` renders a row)."""
    # A line is rendered when its belief is first tried: most of a long list never is. A
    # block's size is its header's length plus, per line, a newline and the line, in any
    # order, so a trial adds one line's length to the seated lines' total (``block_tokens``
    # of the seated lines in rank order, without joining them).
    lines: dict[int, str] = {}
    position = {r.id: i for i, r in enumerate(ranked)}
    seated_ids: set[str] = set()
    seated_chars = len(header)
    non_durable_cap = max_items - reserved

    def fits(belief: Row) -> bool:
        index = position[belief.id]
        if index not in lines:
            lines[index] = render(ranked[index])
        return tokens_for_length(seated_chars + 1 + len(lines[index])) <= max_tokens

    def seat(belief: Row) -> None:
        nonlocal seated_chars
        seated_ids.add(belief.id)
        seated_chars += 1 + len(lines[position[belief.id]])

    durable_seated = 0
    for belief in ranked:
        if durable_seated >= reserved or len(seated_ids) >= max_items:
            break
        if belief.durable and fits(belief):
            seat(belief)
            durable_seated += 1
    non_durable_seated = 0
    for belief in ranked:
        if len(seated_ids) >= max_items:
            break  # full: nothing later is seated
        if belief.id in seated_ids:
            continue
        durable = belief.durable
        if not durable and non_durable_seated >= non_durable_cap:
            continue
        if fits(belief):
            seat(belief)
            non_durable_seated += not durable
    seated = [r for r in ranked if r.id in seated_ids]
    dropped = [r for r in ranked if r.id not in seated_ids]
    return seated, dropped


__all__ = [
    "DURABLE_TYPES",
    "NEAR_DUPLICATE_JACCARD",
    "REINFORCE_SATURATION",
    "STALE_STATUSES",
    "Scored",
    "authority_value",
    "cap_per_subject",
    "cap_rows_per_subject",
    "collapse_and_cap_rows",
    "collapse_duplicate_rows",
    "collapse_duplicates",
    "evidence_age_days",
    "fused_matches",
    "has_near_duplicate",
    "is_durable",
    "is_primed",
    "is_stale",
    "jaccard",
    "lexical_order",
    "lexical_weights",
    "lexical_weights_rows",
    "lifecycle_weight",
    "min_shared",
    "near_duplicate_order",
    "near_duplicate_order_rows",
    "newest_first",
    "order",
    "penalize_near_duplicates",
    "reciprocal_rank_fusion",
    "reinforce_value",
    "reserved_slots",
    "rows_scorer",
    "scope_value",
    "score",
    "scorer",
    "select_rows_within_budget",
    "select_within_budget",
    "weight_order",
]
