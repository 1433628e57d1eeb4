"""Provider formation on the whole case file against a scripted small model (issue 22).

The loopback model replies the way the 1.5B model of the real llama-server run did, on a fixed
schedule over its replies (reply ``r``, counted from 0 in request order):

* every candidate in the first person when ``r % 3 != 2`` (two replies in three; the real run
  had 29 of 44 replies in the first person);
* one extra malformed candidate (an out-of-enum belief type) when ``r % 4 == 1``;
* for a positive case, one candidate per expected belief (first acceptable subject and
  statement); for a negative case that reaches the model, every sentence sent restated
  verbatim as a ``user_model_attr`` candidate (the worst a copying model can do).

The figures, whole-reply rejection vs dropping only the malformed candidate, decide
:data:`~memory_core.formation.provider.DROP_MALFORMED_CANDIDATES`: with the rewrite to the
third person, dropping the malformed candidate supports more positive cases and forms no
negative case that whole-reply rejection does not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memory_bench.formation_eval import evaluate_formation, load_formation_cases
from memory_core.formation.provider import DROP_MALFORMED_CANDIDATES, ProviderExtractor
from memory_core.runtime.openai_compat import OpenAICompatibleModel
from memory_core.runtime.pricing import ModelPrice, PriceCatalog

FKit = Any
Server = Any

_SKIPPED = ("also", "really", "still", "usually", "no", "longer", "now")


def first_person(statement: str) -> str:
    """What a copying model writes for a stored statement ("User lives in X." -> "I live in
    X.", "User's wife is Y." -> "My wife is Y.", "The team ..." -> "We ...")."""
    if statement.startswith("User's "):
        return "My " + statement.removeprefix("User's ")
    if statement.startswith("The team "):
        return "We " + statement.removeprefix("The team ")
    if not statement.startswith("User "):
        return statement
    words = statement.split(" ")[1:]
    at = 0
    while at < len(words) - 1 and words[at] in _SKIPPED:
        at += 1
    verb = words[at]
    base = {"is": "am", "has": "have", "does": "do", "goes": "go"}.get(verb)
    if base is None:
        if verb.endswith("ed") or not verb.endswith("s"):
            base = verb
        elif verb.endswith("ies"):
            base = verb[:-3] + "y"
        elif verb.endswith(("ches", "shes", "sses", "xes")):
            base = verb[:-2]
        else:
            base = verb[:-1]
    return " ".join(["I", *words[:at], base, *words[at + 1 :]])


class SmallModel:
    """Routes each request to its case and answers on the schedule above."""

    def __init__(self, fkit: FKit, document: dict[str, Any]) -> None:
        self._fkit = fkit
        self._script = fkit.FormationScript(cases=[*document["positive"], *document["negative"]])
        self._by_id = {c["id"]: c for c in self._script.cases}
        self.replies = 0
        self.first_person_replies = 0

    def __call__(self, payload: dict[str, Any]) -> Any:
        sent = payload["messages"][-1]["content"]
        case_id = self._script.case_of(sent)
        assert case_id is not None, sent
        case = self._by_id[case_id]
        if "expected" in case:
            items = self._fkit.expected_candidates(case)
        else:
            items = [
                {
                    "belief_type": "user_model_attr",
                    "subject": "misc",
                    "statement": line,
                    "polarity": "assert",
                }
                for line in sent.split("\n")
            ]
        r = self.replies
        self.replies += 1
        if r % 3 != 2:
            self.first_person_replies += 1
            items = [{**item, "statement": first_person(item["statement"])} for item in items]
        if r % 4 == 1:
            items = [*items, {**items[0], "belief_type": "event"}]
        return self._fkit.candidates_reply(items)


def _figures(fkit: FKit, server: Server, path: Path, *, drop_malformed: bool) -> dict[str, int]:
    document = json.loads(path.read_text(encoding="utf-8"))
    small = SmallModel(fkit, document)
    server.route = small
    model = OpenAICompatibleModel(
        model=fkit.MODEL,
        base_url=server.base_url,
        prices=PriceCatalog({fkit.MODEL: ModelPrice(input=0.1, output=0.1)}),
        max_retries=0,
    )
    extractor = ProviderExtractor(model=model, drop_malformed=drop_malformed)
    try:
        report = evaluate_formation(load_formation_cases(path), extractor=extractor)
    finally:
        model.close()
    positives = [r for r in report.cases if r.kind == "positive"]
    negatives = [r for r in report.cases if r.kind == "negative"]
    counters = extractor.counters
    return {
        "requests": counters.requests,
        "first_person_replies": small.first_person_replies,
        "replies_accepted": counters.replies_accepted,
        "statements_rewritten": counters.statements_rewritten,
        "candidates_dropped": counters.candidates_dropped,
        "fully_supported": sum(
            1 for r in positives if r.matched == r.expected and not r.fabricated
        ),
        "positives": len(positives),
        "negatives_formed": sum(1 for r in negatives if r.formed),
    }


@pytest.fixture
def case_path(tmp_path: Path, full_case_document: dict[str, Any]) -> Path:
    path = tmp_path / "memory-formation.v2.json"
    path.write_text(json.dumps(full_case_document), encoding="utf-8")
    return path


def test_the_rewrite_and_the_candidate_drop_on_the_case_file(
    fkit: FKit, routed_server: Server, case_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _figures(fkit, routed_server, case_path, drop_malformed=False)
    routed_server.requests.clear()
    partial = _figures(fkit, routed_server, case_path, drop_malformed=True)
    with capsys.disabled():
        print(f"\nwhole-reply rejection: {whole}\ndrop the malformed candidate: {partial}")
    assert whole["requests"] == partial["requests"] == 44  # 40 positives, 4 negatives reach it
    assert whole["first_person_replies"] == 30
    # The rewrite: no positive reply is lost to the first person any more; whole-reply
    # rejection still loses the ten positive replies carrying one malformed extra candidate.
    assert whole["replies_accepted"] == whole["fully_supported"] == 30
    # Dropping only that candidate keeps every positive reply; the four negative replies
    # (a hedge, a plan, a third party, a negation restated verbatim) are still rejected.
    assert partial["replies_accepted"] == partial["fully_supported"] == 40
    assert partial["candidates_dropped"] == 10
    assert partial["negatives_formed"] == whole["negatives_formed"] == 0
    assert DROP_MALFORMED_CANDIDATES is True
