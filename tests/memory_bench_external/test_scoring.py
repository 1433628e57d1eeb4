"""Porter stemming, token F1 as LoCoMo publishes it, and provenance recall@k."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_bench.live.answers import is_abstention
from memory_bench_external import (
    AnswerScore,
    ExternalEvidence,
    ExternalProbe,
    ProbeExclusion,
    Provenance,
    answer_f1,
    is_correct,
    matching_items,
    normalize_answer,
    probe_f1,
    provenance_hit,
    score_answer,
    score_probe,
    summarize,
    token_f1,
)
from memory_bench_external._porter import stem
from memory_core.errors import UsageError

# Porter (1980)'s own examples, and the departures NLTK's default mode makes (LoCoMo's stemmer).
PORTER_CASES = {
    "caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed", "agreed": "agre",
    "plastered": "plaster", "motoring": "motor", "sing": "sing", "conflated": "conflat",
    "troubled": "troubl", "sized": "size", "hopping": "hop", "tanned": "tan", "falling": "fall",
    "hissing": "hiss", "fizzed": "fizz", "failing": "fail", "filing": "file", "happy": "happi",
    "relational": "relat", "conditional": "condit", "rational": "ration",
    "digitizer": "digit", "vietnamization": "vietnam", "predication": "predic",
    "operator": "oper", "feudalism": "feudal", "decisiveness": "decis", "hopefulness": "hope",
    "callousness": "callous", "formaliti": "formal", "sensitiviti": "sensit",
    "sensibiliti": "sensibl", "triplicate": "triplic", "formative": "form",
    "formalize": "formal", "electriciti": "electr", "electrical": "electr", "hopeful": "hope",
    "goodness": "good", "revival": "reviv", "allowance": "allow", "inference": "infer",
    "airliner": "airlin", "gyroscopic": "gyroscop", "adjustable": "adjust",
    "defensible": "defens", "irritant": "irrit", "replacement": "replac",
    "adjustment": "adjust", "dependent": "depend", "adoption": "adopt", "communism": "commun",
    "activate": "activ", "effective": "effect", "bowdlerize": "bowdler", "probate": "probat",
    "rate": "rate", "cease": "ceas", "controll": "control", "roll": "roll",
    "generalizations": "gener", "oscillators": "oscil",
    # NLTK departures
    "ties": "tie", "dies": "die", "died": "die", "spied": "spi", "flies": "fli", "sky": "sky",
    "skies": "sky", "dying": "die", "news": "news", "enjoy": "enjoy", "radicalli": "radic",
    "geology": "geolog", "is": "is", "as": "as", "Running": "run",
}  # fmt: skip


@pytest.mark.parametrize(("word", "expected"), sorted(PORTER_CASES.items()))
def test_porter_stem(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_normalization_drops_case_punctuation_articles_and_commas() -> None:
    assert normalize_answer("The Dog, and a CAT!") == "dog cat"
    assert normalize_answer("  an   apple's pie. ") == "apples pie"


def test_token_f1_matches_hand_computation() -> None:
    assert token_f1("7 May 2023", "7 May 2023") == 1.0
    # prediction tokens {on, 7, may, 2023}: 3 of 4 shared; gold has 3 -> P 0.75, R 1.0
    assert token_f1("on 7 May 2023", "7 May 2023") == pytest.approx(2 * 0.75 / 1.75)
    assert token_f1("running shoes", "she runs") == pytest.approx(0.5)
    assert token_f1("nothing alike", "completely different") == 0.0
    assert token_f1("", "x") == 0.0


def test_multi_answer_averages_best_partial_f1_per_gold_part() -> None:
    gold = "greyhound, ceramics teacher"
    assert answer_f1("a ceramics teacher, a greyhound", gold, mode="multi_answer") == 1.0
    # greyhound matched fully; "teacher" gives F1 2/3 against "ceramics teacher".
    got = answer_f1("greyhound, teacher", gold, mode="multi_answer")
    assert got == pytest.approx((1.0 + 2 / 3) / 2)
    assert answer_f1("greyhound", gold, mode="multi_answer") == pytest.approx(0.5)


def test_first_alternative_scores_against_text_before_semicolon() -> None:
    gold = "Likely yes; she teaches ceramics"
    assert answer_f1("likely yes", gold, mode="first_alternative") == 1.0
    assert answer_f1("she teaches ceramics", gold, mode="first_alternative") == 0.0


def test_correct_at_half() -> None:
    assert is_correct(0.5)
    assert not is_correct(0.4999)


def _probe(**overrides: object) -> ExternalProbe:
    values: dict[str, object] = {
        "probe_id": "q001",
        "question": "Where does she live?",
        "answer": "Tallinn",
        "abstention": False,
        "category": "single_hop",
        "dataset_category": "single_hop",
        "evidence": (ExternalEvidence(session_id="s2", turn_id="D2:2"),),
        "asked_at": datetime(2023, 9, 1, tzinfo=UTC),
    }
    values.update(overrides)
    return ExternalProbe(**values)  # type: ignore[arg-type]


def test_probe_f1_uses_the_probe_mode_and_refuses_abstention() -> None:
    assert probe_f1(_probe(), "She lives in Tallinn") == pytest.approx(2 * 0.25 / 1.25)
    with pytest.raises(UsageError, match="abstain phrase"):
        probe_f1(_probe(abstention=True, category="abstention"), "I don't know")


def test_provenance_hit_by_turn_and_session_fallback() -> None:
    turn_ref = [ExternalEvidence(session_id="s2", turn_id="D2:2")]
    session_ref = [ExternalEvidence(session_id="s2")]
    other = Provenance(turn_ids=frozenset({"D1:1"}), session_ids=frozenset({"s1"}))
    same_session = Provenance(turn_ids=frozenset({"D2:5"}), session_ids=frozenset({"s2"}))
    exact = Provenance(turn_ids=frozenset({"D2:2", "D3:1"}), session_ids=frozenset({"s2", "s3"}))
    session_only = Provenance(session_ids=frozenset({"s2"}))
    assert not provenance_hit(turn_ref, [other, same_session], k=10)
    assert provenance_hit(turn_ref, [other, exact], k=2)
    assert not provenance_hit(turn_ref, [other, exact], k=1)
    assert provenance_hit(session_ref, [same_session], k=1)
    assert provenance_hit(turn_ref, [session_only], k=1)
    assert not provenance_hit(turn_ref, [], k=5)


def test_summary_counts_per_k_category_and_separate_bucket() -> None:
    hit_first = Provenance(turn_ids=frozenset({"D2:2"}), session_ids=frozenset({"s2"}))
    miss = Provenance(turn_ids=frozenset({"D9:9"}), session_ids=frozenset({"s9"}))
    scores = [
        score_probe(_probe(probe_id="a"), [hit_first], tokens=10, words=[6]),
        score_probe(
            _probe(probe_id="b"), [miss] * 4 + [hit_first], tokens=20, words=[1, 2, 3, 4, 5]
        ),
        score_probe(_probe(probe_id="c", category="temporal"), [miss], tokens=5, words=[7]),
        score_probe(
            _probe(probe_id="d", reported_separately=True, dataset_category="ssa"),
            [hit_first],
            tokens=7,
            words=[9],
        ),
        score_probe(
            _probe(probe_id="e", abstention=True, category="abstention"), [], tokens=0, words=()
        ),
        score_probe(_probe(probe_id="f", evidence=()), [hit_first], tokens=3, words=[8]),
    ]
    summary = summarize(scores)
    assert summary.overall.probes == 3
    assert summary.overall.hits == ((1, 1), (5, 2), (10, 2))
    assert summary.overall.ratio(5) == pytest.approx(2 / 3)
    assert dict(summary.by_category)["temporal"].hits == ((1, 0), (5, 0), (10, 0))
    assert summary.separately.probes == 1 and summary.separately.at(1) == 1
    assert dict(summary.by_dataset_category)["ssa"].probes == 1
    assert summary.probes == 6
    assert summary.without_evidence == 1
    assert summary.tokens == 45
    assert summary.tokens_per_probe == pytest.approx(7.5)
    with pytest.raises(UsageError, match="recall@3 was not computed"):
        summary.overall.at(3)
    # Noise counts returned items matching no evidence, over the eligible probes in overall:
    # a (1 returned, 1 matched), b (5, 1), c (1, 0); d is separate, e abstains, f has no evidence.
    assert (summary.returned, summary.matched, summary.noise) == (7, 2, 5)
    assert summary.noise_ratio == pytest.approx(5 / 7)
    assert summary.abstention_returned == 0
    # Words@k: the words of the first k items, over the same probes as overall (a, b, c).
    assert summary.words_at_k == ((1, 6 + 1 + 7), (5, 6 + 15 + 7), (10, 6 + 15 + 7))


def test_words_need_one_count_per_returned_item() -> None:
    item = Provenance(turn_ids=frozenset({"D2:2"}), session_ids=frozenset({"s2"}))
    scored = score_probe(_probe(), [item, item, item], tokens=0, words=[4, 0, 3])
    assert [scored.words_within(k) for k in (1, 2, 3, 10)] == [4, 4, 7, 7]
    with pytest.raises(UsageError, match="one non-negative word count per returned item"):
        score_probe(_probe(), [item, item], tokens=0, words=[4])
    with pytest.raises(UsageError, match="one non-negative word count per returned item"):
        score_probe(_probe(), [item], tokens=0, words=[-1])


def test_matching_items_and_per_probe_matches() -> None:
    refs = [ExternalEvidence(session_id="s2", turn_id="D2:2"), ExternalEvidence(session_id="s3")]
    exact = Provenance(turn_ids=frozenset({"D2:2"}), session_ids=frozenset({"s2"}))
    session = Provenance(turn_ids=frozenset({"D3:7"}), session_ids=frozenset({"s3"}))
    other = Provenance(turn_ids=frozenset({"D2:3"}), session_ids=frozenset({"s2"}))
    assert matching_items(refs, [exact, session, other, other]) == 2
    scored = score_probe(
        _probe(evidence=tuple(refs)), [exact, other, session], tokens=4, words=[1, 1, 1]
    )
    assert (scored.returned, scored.matched, scored.first_hit) == (3, 2, 1)
    abstaining = score_probe(
        _probe(abstention=True, category="abstention", evidence=()), [exact], tokens=1, words=[2]
    )
    assert (abstaining.eligible, abstaining.matched) == (False, 0)
    assert summarize([abstaining]).abstention_returned == 1


def test_live_answers_score_by_token_f1_or_the_abstain_phrase() -> None:
    phrase = "I don't know."
    probe = _probe(answer="Tallinn, Estonia")
    close = score_answer(probe, "She lives in Tallinn, Estonia.", abstain_phrase=phrase)
    assert close.f1 == pytest.approx(2 * 0.4 / 1.4)
    assert (close.abstained, close.correct) == (False, True)
    assert score_answer(probe, "Riga", abstain_phrase=phrase) == AnswerScore(
        f1=0.0, abstained=False, correct=False
    )
    # Abstaining on an answerable probe scores zero, whatever tokens the phrase shares.
    assert score_answer(probe, "I don't know", abstain_phrase=phrase) == AnswerScore(
        f1=0.0, abstained=True, correct=False
    )
    abstention = _probe(abstention=True, category="abstention", answer="")
    assert score_answer(abstention, "i DON'T   know", abstain_phrase=phrase) == AnswerScore(
        f1=None, abstained=True, correct=True
    )
    # The live arm's rule exactly: an ellipsis ends the phrase as well as a full stop does,
    # and F1's punctuation stripping does not make another sentence the phrase.
    assert score_answer(abstention, "I don't know\u2026", abstain_phrase=phrase).abstained
    assert not score_answer(abstention, "i dont know", abstain_phrase=phrase).abstained
    assert not score_answer(abstention, "Tallinn", abstain_phrase=phrase).correct
    multi = _probe(answer="greyhound, ceramics teacher", f1_mode="multi_answer")
    assert score_answer(multi, "ceramics teacher, greyhound", abstain_phrase=phrase).correct
    with pytest.raises(UsageError, match="excluded"):
        score_answer(
            _probe(exclusion=ProbeExclusion.NO_USABLE_EVIDENCE), "x", abstain_phrase=phrase
        )


def test_excluded_probe_cannot_be_scored() -> None:
    excluded = _probe(exclusion=ProbeExclusion.EVIDENCE_OUTSIDE_PRINCIPAL)
    with pytest.raises(UsageError, match="excluded"):
        score_probe(excluded, [], tokens=0, words=())


@pytest.mark.parametrize(
    "reply",
    [
        "I do not have that information\u2026",
        "I do not have that information.",
        "  i do NOT have that information!",
        "I do not have that information, sorry",
        "I don't have that information.",
        "Tallinn",
    ],
)
def test_abstention_is_decided_exactly_as_the_live_arm_decides_it(reply: str) -> None:
    phrase = "I do not have that information."
    abstention = _probe(abstention=True, category="abstention", answer="")
    assert score_answer(abstention, reply, abstain_phrase=phrase).abstained is is_abstention(
        reply, phrase
    )
