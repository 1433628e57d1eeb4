"""The recall hot path's fast forms equal their plain definitions over generated inputs.

Each reference below is the definition the fast form replaced, kept here verbatim in
meaning: the near-duplicate demotion comparing every earlier pair by ``jaccard``, the score
through its helper functions, the lexical weights by set intersection, the budget seating with
every line rendered up front, the named subjects folding and tokenizing every subject afresh,
the arm order always sorted, the arms' defence-in-depth filter as a per-belief predicate.
A fast form that disagrees with its reference on any input changes a ranking or a trace.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_core.domain import LIVE_STATUSES, Authority, Belief, BeliefStatus, BeliefType, Principal
from memory_core.profiles import DecayTauDays, LifecycleWeights, RankingWeights, load_profiles
from memory_core.retrieval.query import QueryFormer, TermGroup, _find_phrase
from memory_core.retrieval.ranking import (
    NEAR_DUPLICATE_JACCARD,
    Scored,
    authority_value,
    cap_per_subject,
    collapse_duplicates,
    has_near_duplicate,
    is_durable,
    is_stale,
    jaccard,
    lexical_weights,
    lifecycle_weight,
    min_shared,
    newest_first,
    order,
    penalize_near_duplicates,
    reinforce_value,
    scope_value,
    score,
    scorer,
    select_within_budget,
)
from memory_core.retrieval.render import block_tokens, render_header, render_line
from memory_core.retrieval.retriever import _Reads
from memory_core.text import base_forms, fold, matching_key
from memory_core.tokenizer import STOPWORDS, lexemes, tokenize

T0 = datetime(2026, 1, 1, tzinfo=UTC)
WORDS = ("tea", "the", "user", "likes", "like", "green", "jazz", "lives", "live", "in", "a", "b")
SUBJECTS = ("drink", "Drink ", "home location", "the", "answer style", "jazz club", "")
_identifiers = iter(range(10**9))

_lexeme_sets = st.frozensets(st.sampled_from("abcdefghijkl"), max_size=12)


def _belief(**fields: Any) -> Belief:
    number = next(_identifiers)
    values: dict[str, Any] = {
        "id": f"b-{number:09d}",
        "tenant_id": "tenant-1",
        "principal_id": "alice",
        "belief_type": BeliefType.FACT,
        "subject": "drink",
        "statement": "User likes tea.",
        "scope": "user",
        "status": BeliefStatus.ACTIVE,
        "authority": Authority.USER,
        "confidence": 0.5,
        "source_event_ids": (f"evt-{number}",),
        "valid_from": T0,
        "last_evidence_at": T0,
        "created_at": T0,
        "updated_at": T0,
        "consolidation_policy_version": "formation@5",
        "store_position": number + 1,
    }
    values.update(fields)
    return Belief(**values)


_statements = st.lists(st.sampled_from(WORDS), min_size=1, max_size=9).map(
    lambda words: " ".join(words) + "."
)


@st.composite
def _generated_belief(draw: st.DrawFn) -> Belief:
    expiry = draw(st.one_of(st.none(), st.integers(1, 400)))
    return _belief(
        subject=draw(st.sampled_from(SUBJECTS)) or "drink",
        statement=draw(_statements),
        belief_type=draw(
            st.sampled_from([BeliefType.FACT, BeliefType.PREFERENCE, BeliefType.RELATIONSHIP])
        ),
        status=draw(st.sampled_from(list(BeliefStatus))),
        authority=draw(st.sampled_from(list(Authority))),
        scope=draw(st.sampled_from(["user", "general", "project:alpha"])),
        confidence=draw(st.floats(0.0, 1.0)),
        evidence_count=draw(st.integers(1, 30)),
        utility=draw(st.floats(-1.0, 1.0)),
        last_evidence_at=T0 + timedelta(days=draw(st.integers(0, 400))),
        valid_to=None if expiry is None else T0 + timedelta(days=expiry),
    )


_beliefs = _generated_belief()


# near duplicates ----------------------------------------------------------------------------


def _reference_penalize(scored: Sequence[Scored], penalty: float) -> list[Scored]:
    if penalty <= 0:
        return order(scored)
    earlier: dict[tuple[str, BeliefType], list[frozenset[str]]] = {}
    judged: list[Scored] = []
    for candidate in order(scored):
        belief = candidate.belief
        key = (fold(belief.subject), belief.belief_type)
        tokens = lexemes(belief.statement)
        seen = earlier.setdefault(key, [])
        if any(jaccard(tokens, other) >= NEAR_DUPLICATE_JACCARD for other in seen):
            candidate = replace(candidate, score=max(0.0, candidate.score - penalty))
        seen.append(tokens)
        judged.append(candidate)
    return order(judged)


def _by_size(sets: Iterable[frozenset[str]]) -> dict[int, set[frozenset[str]]]:
    grouped: dict[int, set[frozenset[str]]] = {}
    for lexeme_set in sets:
        grouped.setdefault(len(lexeme_set), set()).add(lexeme_set)
    return grouped


@given(tokens=_lexeme_sets, earlier=st.lists(_lexeme_sets, max_size=8))
@example(tokens=frozenset(), earlier=[frozenset()])
@example(tokens=frozenset("abcd"), earlier=[frozenset("abcde")])  # 4/5: exactly the threshold
@example(tokens=frozenset("abcdefgh"), earlier=[frozenset("abcdefgi")])  # 7/9 < 0.8
@example(tokens=frozenset("abcdefghij"), earlier=[frozenset("abcdefghi")])  # a superset
def test_the_pruned_pair_test_equals_testing_every_pair(
    tokens: frozenset[str], earlier: list[frozenset[str]]
) -> None:
    expected = any(jaccard(tokens, other) >= NEAR_DUPLICATE_JACCARD for other in earlier)
    assert has_near_duplicate(tokens, _by_size(earlier)) is expected


def test_min_shared_is_the_threshold_of_the_float_jaccard() -> None:
    for size in range(40):
        for other_size in range(40):
            needed = min_shared(size, other_size)
            for shared in range(min(size, other_size) + 1):
                union = size + other_size - shared
                passes = bool(union) and shared / union >= NEAR_DUPLICATE_JACCARD
                assert passes is (shared >= needed), (size, other_size, shared)


@settings(max_examples=150, deadline=None)
@given(
    beliefs=st.lists(_beliefs, max_size=25),
    scores=st.lists(st.sampled_from([0.0, 0.1, 0.5, 0.5, 1.0, 2.0]), min_size=25, max_size=25),
    penalty=st.sampled_from([0.0, 0.05, 0.3, 5.0]),
)
def test_near_duplicate_demotion_equals_its_definition(
    beliefs: list[Belief], scores: list[float], penalty: float
) -> None:
    scored = [
        Scored(belief=b, fused_match=value, score=value)
        for b, value in zip(beliefs, scores, strict=False)
    ]
    assert penalize_near_duplicates(scored, penalty) == _reference_penalize(scored, penalty)


# score --------------------------------------------------------------------------------------


def _reference_score(
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
    if now is not None and tau_days is not None:
        age = max(0, (now - belief.last_evidence_at).days)
        reinforce = reinforce_value(
            belief.evidence_count, age, tau_days.for_type(belief.belief_type)
        )
    else:
        reinforce = reinforce_value(belief.evidence_count)
    stale = is_stale(belief, now)
    raw = (
        weights.match * fused_match
        + weights.confidence * belief.confidence
        + weights.reinforce * reinforce
        + weights.authority * (belief.authority.rank / Authority.USER.rank)
        + weights.scope * scope_value(belief.scope, project_scope)
        + weights.utility * belief.utility
        - (stale_penalty if stale else 0.0)
    )
    multiplier = 1.0 if stale else lifecycle_weight(belief.status, lifecycle)
    return max(0.0, raw) * multiplier


def _reference_reinforce(count: int, age_days: int = 0, tau_days: float = math.inf) -> float:
    saturation = min(1.0, math.log1p(count) / math.log1p(10))
    return saturation * math.exp(-max(0, age_days) / tau_days)


@settings(max_examples=200, deadline=None)
@given(
    belief=_beliefs,
    fused_match=st.floats(0.0, 1.0),
    now_days=st.one_of(st.none(), st.integers(0, 800)),
    project=st.sampled_from([None, "alpha"]),
    stale_penalty=st.floats(0.0, 1.0),
)
def test_the_score_equals_its_definition_bit_for_bit(
    belief: Belief,
    fused_match: float,
    now_days: int | None,
    project: str | None,
    stale_penalty: float,
) -> None:
    retrieval = load_profiles().retrieval
    now = None if now_days is None else T0 + timedelta(days=now_days)
    for tau in (None, retrieval.decay_tau_days):
        arguments: dict[str, Any] = {
            "fused_match": fused_match,
            "weights": retrieval.ranking_weights,
            "lifecycle": retrieval.lifecycle_weights,
            "project_scope": project,
            "now": now,
            "tau_days": tau,
            "stale_penalty": stale_penalty,
        }
        assert score(belief, **arguments) == _reference_score(belief, **arguments)
    assert authority_value(belief.authority) == belief.authority.rank / Authority.USER.rank


@settings(max_examples=100, deadline=None)
@given(
    beliefs=st.lists(_beliefs, max_size=12),
    matches=st.lists(st.floats(0.0, 1.0), min_size=12, max_size=12),
    now_days=st.one_of(st.none(), st.integers(0, 800)),
    project=st.sampled_from([None, "alpha"]),
)
def test_one_bound_scorer_scores_every_candidate_as_its_definition(
    beliefs: list[Belief], matches: list[float], now_days: int | None, project: str | None
) -> None:
    retrieval = load_profiles().retrieval
    bound: dict[str, Any] = {
        "weights": retrieval.ranking_weights,
        "lifecycle": retrieval.lifecycle_weights,
        "project_scope": project,
        "now": None if now_days is None else T0 + timedelta(days=now_days),
        "tau_days": retrieval.decay_tau_days,
        "stale_penalty": retrieval.stale_penalty,
    }
    score_of = scorer(**bound)  # one per recall: its per-type and per-scope caches are shared
    for belief, match in zip(beliefs, matches, strict=False):
        assert score_of(belief, match) == _reference_score(belief, fused_match=match, **bound)


@given(
    count=st.integers(0, 5000),
    age=st.integers(-5, 5000),
    tau=st.one_of(st.floats(0.5, 1e6), st.just(math.inf)),
)
def test_reinforce_equals_its_definition_bit_for_bit(count: int, age: int, tau: float) -> None:
    assert reinforce_value(count, age, tau) == _reference_reinforce(count, age, tau)
    assert reinforce_value(count) == _reference_reinforce(count)


# lexical weights, collapse, cap, budget -----------------------------------------------------


def _reference_lexical_weights(
    hits: Sequence[Belief], groups: Sequence[TermGroup]
) -> dict[str, float]:
    text_lexemes = {b.id: lexemes(f"{b.subject} {b.statement}") for b in hits}
    matched: dict[str, list[int]] = {b.id: [] for b in hits}
    frequency = [0] * len(groups)
    for index, group in enumerate(groups):
        group_lexemes = frozenset(group.lexemes)
        for belief in hits:
            if text_lexemes[belief.id] & group_lexemes:
                matched[belief.id].append(index)
                frequency[index] += 1
    total = len(hits)
    mean = max(1.0, sum(len(text_lexemes[b.id]) for b in hits) / total) if hits else 1.0
    return {
        b.id: sum(groups[i].weight * math.log1p(total / frequency[i]) for i in matched[b.id])
        * ((1.2 + 1) / (1 + 1.2 * (1 - 0.75 + 0.75 * len(text_lexemes[b.id]) / mean)))
        for b in hits
    }


_groups = st.lists(
    st.builds(
        lambda words, weight: TermGroup(
            kind="keyword", label=words[0], lexemes=tuple(sorted(words)), weight=weight
        ),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=3, unique=True),
        st.sampled_from([1.0, 0.5]),
    ),
    max_size=5,
)


@settings(max_examples=100, deadline=None)
@given(hits=st.lists(_beliefs, max_size=15), groups=_groups)
def test_lexical_weights_equal_their_definition(
    hits: list[Belief], groups: list[TermGroup]
) -> None:
    assert lexical_weights(hits, groups) == _reference_lexical_weights(hits, groups)


@settings(max_examples=100, deadline=None)
@given(ranked=st.lists(_beliefs, max_size=15), cap=st.integers(1, 3))
def test_collapse_and_cap_equal_their_uncached_keys(ranked: list[Belief], cap: int) -> None:
    seen: set[tuple[str, str]] = set()
    kept: list[Belief] = []
    for belief in ranked:
        key = (belief.belief_type.value, matching_key(belief.statement))
        if key not in seen:
            seen.add(key)
            kept.append(belief)
    assert collapse_duplicates(ranked)[0] == kept
    assert cap_per_subject(ranked, cap) == _reference_cap(ranked, cap)


def _reference_cap(ranked: Sequence[Belief], cap: int) -> tuple[list[Belief], list[Belief]]:
    """``cap_per_subject`` as it was before the cached fold: subjects keyed by ``text.fold``."""
    counts: dict[str, int] = {}
    kept: list[Belief] = []
    capped: list[Belief] = []
    partners: set[str] = set()
    for belief in ranked:
        subject = fold(belief.subject)
        if counts.get(subject, 0) >= cap and belief.id not in partners:
            capped.append(belief)
        else:
            counts[subject] = counts.get(subject, 0) + 1
            kept.append(belief)
            partners.update(belief.conflicts_with)
    return kept, capped


def _reference_select(
    ranked: Sequence[Belief],
    *,
    header: str,
    render: Callable[[Belief], str],
    max_items: int,
    max_tokens: int,
    reserved: int = 0,
) -> tuple[list[Belief], list[Belief]]:
    lines = [render(b) for b in ranked]
    position = {b.id: i for i, b in enumerate(ranked)}
    seated_ids: set[str] = set()
    non_durable_cap = max_items - reserved

    def fits(belief: Belief) -> bool:
        trial = sorted([*(position[i] for i in seated_ids), position[belief.id]])
        return block_tokens(header, [lines[i] for i in trial]) <= max_tokens

    durable_seated = 0
    for belief in ranked:
        if durable_seated >= reserved or len(seated_ids) >= max_items:
            break
        if is_durable(belief) and fits(belief):
            seated_ids.add(belief.id)
            durable_seated += 1
    non_durable_seated = 0
    for belief in ranked:
        if belief.id in seated_ids or len(seated_ids) >= max_items:
            continue
        durable = is_durable(belief)
        if not durable and non_durable_seated >= non_durable_cap:
            continue
        if fits(belief):
            seated_ids.add(belief.id)
            non_durable_seated += not durable
    return [b for b in ranked if b.id in seated_ids], [b for b in ranked if b.id not in seated_ids]


@settings(max_examples=100, deadline=None)
@given(
    ranked=st.lists(_beliefs, max_size=15),
    max_items=st.integers(1, 8),
    max_tokens=st.integers(1, 200),
    reserved=st.integers(0, 3),
)
def test_budget_seating_with_lazy_lines_equals_rendering_every_line(
    ranked: list[Belief], max_items: int, max_tokens: int, reserved: int
) -> None:
    arguments: dict[str, Any] = {
        "header": render_header("in_turn"),
        "render": render_line,
        "max_items": max_items,
        "max_tokens": max_tokens,
        "reserved": min(reserved, max_items),
    }
    assert select_within_budget(ranked, **arguments) == _reference_select(ranked, **arguments)


def test_budget_seating_equals_rendering_every_line_at_every_token_budget() -> None:
    # Every budget from one token up: each boundary where one more line fits is crossed, so a
    # seated block counted a character short or long seats a different set somewhere.
    ranked = [
        _belief(statement=" ".join(WORDS[: 1 + n % len(WORDS)]) + ".", subject=f"s{n}")
        for n in range(9)
    ]
    for max_tokens in range(1, 160):
        for max_items, reserved in ((8, 0), (4, 2)):
            arguments: dict[str, Any] = {
                "header": render_header("in_turn"),
                "render": render_line,
                "max_items": max_items,
                "max_tokens": max_tokens,
                "reserved": reserved,
            }
            expected = _reference_select(ranked, **arguments)
            assert select_within_budget(ranked, **arguments) == expected, max_tokens


# named subjects -----------------------------------------------------------------------------


def _reference_named_subjects(text: str, known_subjects: Iterable[str]) -> tuple[str, ...]:
    tokens = tokenize(text)
    turn_bases = frozenset().union(*(base_forms(token) for token in tokens))
    found: list[tuple[int, str]] = []
    for subject in sorted({fold(s) for s in known_subjects if s.strip()}):
        phrase = tokenize(subject)
        if not phrase or all(token in STOPWORDS for token in phrase):
            continue
        if any(base_forms(word).isdisjoint(turn_bases) for word in phrase):
            continue
        position = _find_phrase(tokens, phrase)
        if position is not None:
            found.append((position, subject))
    found.sort()
    return tuple(subject for _, subject in found)


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(
        st.sampled_from([*WORDS, "clubs", "answers", "styles", "located", "homes"]), max_size=10
    ),
    known=st.lists(st.sampled_from([*SUBJECTS, "Jazz  Clubs", "the a", "answer styles"])),
)
@example(words=["jazz", "clubs"], known=["jazz club"])  # one known subject, named
@example(words=["jazz"], known=[])
def test_named_subjects_equal_their_definition(words: list[str], known: list[str]) -> None:
    text = " ".join(words)
    assert QueryFormer().named_subjects(text, known) == _reference_named_subjects(text, known)


# arm order and the defence-in-depth filter -------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    positions=st.lists(st.integers(1, 12), max_size=12),
    presorted=st.booleans(),
)
def test_newest_first_equals_sorting_by_position_then_id(
    positions: list[int], presorted: bool
) -> None:
    beliefs = [_belief(store_position=position) for position in positions]
    if presorted:  # as a store returns them, ties (if any) in descending id order
        beliefs.sort(key=lambda b: (b.store_position, b.id), reverse=True)
    expected = sorted(beliefs, key=lambda b: (-b.store_position, b.id))
    assert newest_first(beliefs) == expected


def _reference_admits(reads: _Reads, belief: Belief) -> bool:
    return (
        belief.tenant_id == reads.principal.tenant_id
        and belief.principal_id == reads.principal.principal_id
        and belief.scope in reads.scopes
        and belief.status in LIVE_STATUSES
        and belief.id not in reads.exclude_ids
        and belief.store_position > reads.min_store_position
    )


@settings(max_examples=150, deadline=None)
@given(
    beliefs=st.lists(
        st.builds(
            lambda belief, owner, position: belief.model_copy(
                update={"principal_id": owner, "store_position": position}
            ),
            _beliefs,
            st.sampled_from(["alice", "bob"]),
            st.integers(1, 9),
        ),
        max_size=15,
    ),
    scopes=st.lists(st.sampled_from(["user", "general", "project:alpha"]), min_size=1),
    floor=st.integers(0, 9),
    excluded=st.integers(0, 15),
)
def test_admitted_keeps_exactly_what_the_per_belief_predicate_admits(
    beliefs: list[Belief], scopes: list[str], floor: int, excluded: int
) -> None:
    reads = _Reads(
        principal=Principal("tenant-1", "alice"),
        scopes=tuple(scopes),
        as_of=T0,
        min_store_position=floor,
        exclude_ids=frozenset(b.id for b in beliefs[:excluded:2]),
        limit=64,
    )
    assert reads.admitted(beliefs) == [b for b in beliefs if _reference_admits(reads, b)]
