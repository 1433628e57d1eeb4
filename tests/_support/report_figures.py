"""The report tests' fixed results and the chart figures expected from them.

The expected figures are computed here from the result documents' integer counts, directly
from the JSON, not through the page builders, so a builder that drew a wrong number fails.
"""

from __future__ import annotations

from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "memory_bench" / "report" / "fixtures"
DETERMINISTIC = FIXTURES / "deterministic-result.json"
EXTERNAL = FIXTURES / "external-locomo.json"

ChartKey = tuple[str, str, str]
"""``(chart, group, series)``."""

DETERMINISTIC_STACKED = frozenset({"attribution"})
"""The deterministic page's stacked charts (their bars may print no text)."""
EXTERNAL_STACKED = frozenset({"external-moments"})
"""The external page's stacked charts."""


def _ratio(numerator: int, denominator: int) -> tuple[float | None, str]:
    if denominator == 0:
        return None, f"- ({numerator}/{denominator})"
    value = numerator / denominator
    return value, f"{value:.3f} ({numerator}/{denominator})"


def expected_deterministic(document: dict[str, Any]) -> dict[ChartKey, tuple[float | None, str]]:
    """Every bar of the deterministic page: its value and printed text, from the counts."""
    metrics = document["result"]["metrics"]
    rows = [(row["category"], row["counts"]) for row in metrics["by_category"]]
    rows.append(("all", metrics["retrieval"]))
    expected: dict[ChartKey, tuple[float | None, str]] = {}
    for name, c in rows:
        expected["category", name, "end_to_end_recall"] = _ratio(
            c["needed_recalled"], c["needed_total"]
        )
        expected["category", name, "recall_given_formed"] = _ratio(
            c["needed_recalled"], c["needed_formed"]
        )
        expected["category", name, "noise_ratio"] = _ratio(c["noise_total"], c["returned_total"])
        for series, field in (
            ("snapshot_only", "recalled_snapshot_only"),
            ("in_turn_only", "recalled_in_turn_only"),
            ("both", "recalled_both"),
        ):
            expected["attribution", name, series] = (float(c[field]), str(c[field]))
    for item in metrics["by_distance"]:
        group = str(item["distance"])
        expected["distance", group, "end_to_end_recall"] = _ratio(item["recalled"], item["needed"])
        expected["distance", group, "recall_given_formed"] = _ratio(
            item["recalled"], item["formed"]
        )
    return expected


def expected_external(metrics: dict[str, Any]) -> dict[ChartKey, tuple[float | None, str]]:
    """Every bar of the external page: recall@k, words@k and the moments, from the counts."""
    expected: dict[ChartKey, tuple[float | None, str]] = {}
    for arm in ("memory", "raw_turn_bm25"):
        recall, words = metrics[arm]["recall_at_k"], metrics[arm]["words_at_k"]
        for k in metrics["ks"]:
            expected["external-recall", str(k), arm] = _ratio(
                recall["hits"][str(k)], recall["probes"]
            )
            total, probes = words["words"][str(k)], words["probes"]
            expected["external-words", str(k), arm] = (
                (None, "-")
                if probes == 0
                else (total / probes, f"{total / probes:.1f} ({total} words, {probes} probes)")
            )
    m = metrics["memory"]["moments"]
    both = m["evidence_in_both"]
    for series, count in (
        ("snapshot_only", m["evidence_in_snapshot"] - both),
        ("in_turn_only", m["evidence_in_turn"] - both),
        ("both", both),
    ):
        expected["external-moments", "memory", series] = (float(count), str(count))
    return expected


class _BarParser(HTMLParser):
    """Collects every ``g.bar`` of every chart: its data attributes and its printed text."""

    def __init__(self) -> None:
        super().__init__()
        self.bars: dict[ChartKey, tuple[str, str]] = {}
        self._chart = ""
        self._bar: ChartKey | None = None
        self._value = ""
        self._text: list[str] = []
        self._in_value_text = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "svg" and "data-chart" in a:
            self._chart = a["data-chart"]
        elif tag == "g" and a.get("class") == "bar":
            self._bar = (self._chart, a["data-group"], a["data-series"])
            self._value = a["data-value"]
            self._text = []
        elif tag == "text" and self._bar is not None and "value" in a.get("class", ""):
            self._in_value_text = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "text":
            self._in_value_text = False
        elif tag == "g" and self._bar is not None:
            assert self._bar not in self.bars, f"bar drawn twice: {self._bar}"
            self.bars[self._bar] = (self._value, "".join(self._text).strip())
            self._bar = None

    def handle_data(self, data: str) -> None:
        if self._in_value_text:
            self._text.append(data)


def drawn_bars(html: str) -> dict[ChartKey, tuple[str, str]]:
    """``(chart, group, series) -> (data-value, printed text)`` of every bar in ``html``."""
    parser = _BarParser()
    parser.feed(html)
    return parser.bars


def assert_bars_match(
    drawn: dict[ChartKey, tuple[str, str]],
    expected: dict[ChartKey, tuple[float | None, str]],
    *,
    stacked: frozenset[str] = frozenset(),
) -> None:
    """Every expected bar is drawn at its value and, outside stacked charts, prints its text."""
    assert set(drawn) == set(expected)
    for key, (value, text) in expected.items():
        shown_value, shown_text = drawn[key]
        if value is None:
            assert shown_value == "", key
        else:
            assert abs(float(shown_value) - value) < 5e-5, (key, shown_value, value)
        if key[0] not in stacked or shown_text:
            assert shown_text == text, (key, shown_text, text)


def assert_deterministic_bars(html: str, document: dict[str, Any]) -> None:
    """The deterministic page ``html`` draws every bar of the result ``document``."""
    assert_bars_match(
        drawn_bars(html), expected_deterministic(document), stacked=DETERMINISTIC_STACKED
    )


def assert_external_bars(html: str, metrics: dict[str, Any]) -> None:
    """The external page ``html`` draws every bar of the metrics document ``metrics``."""
    assert_bars_match(drawn_bars(html), expected_external(metrics), stacked=EXTERNAL_STACKED)


def live_result() -> Any:
    """A failed live result over twelve probes in three categories (counts derived from rows)."""
    from memory_bench.live.arm import LiveBenchmarkResult, LiveThresholds
    from memory_bench.live.evidence import (
        ArmAnswer,
        LiveProbeRow,
        derive_counts,
        failed_conditions,
    )
    from memory_core.provenance import PolicyVersions, Provenance

    def answer(correct: bool, abstained: bool) -> ArmAnswer:
        return ArmAnswer(
            answer="I do not know." if abstained else "Lisbon",
            correct=correct,
            abstained=abstained,
            leaked_protected=False,
            run_status="completed",
            cost_usd=0.002,
        )

    plan = [("single_hop", "exact", i < 4, i < 1) for i in range(5)]
    plan += [("update", "alternatives", i < 2, i < 2) for i in range(4)]
    plan += [("abstention", "abstain", i < 2, True) for i in range(3)]
    rows = [
        LiveProbeRow(
            scenario_id="mb-r-001",
            probe_id=f"p{i:02d}",
            category=category,
            answer_kind=kind,
            recoverable=kind != "abstain",
            with_memory_policy_failures=0,
            without_memory_policy_failures=0,
            with_memory=answer(with_ok, kind == "abstain" and with_ok),
            without_memory=answer(without_ok, kind == "abstain" and without_ok),
        )
        for i, (category, kind, with_ok, without_ok) in enumerate(plan)
    ]
    counts = derive_counts(rows, ceiling_hits=0, failure_classes={})
    total = round(sum(r.with_memory.cost_usd + r.without_memory.cost_usd for r in rows), 6)
    return LiveBenchmarkResult(
        outcome="failed",
        provenance=Provenance(
            commit="0123456789ab" + "0" * 28,
            dirty=True,
            packages={"memory-core": "0.1.0", "memory-bench": "0.1.0"},
            policies=PolicyVersions(
                formation="formation@5", provider_formation="formation@6", retrieval="retrieval@1"
            ),
            inputs={"corpus": "b" * 64},
            recorded_at=datetime(2026, 11, 30, 12, 0, tzinfo=UTC),
        ),
        provider="openai-compatible",
        model="local-test-model",
        policy_profile="benchmark",
        compiled_policy_version="policy@0000",
        provider_formation_evidence_file="/home/someone/evidence/provider-formation.x.json",
        cost_ceiling_usd=4.0,
        per_run_ceiling_usd=0.05,
        total_cost_usd=total,
        runs_admitted=2 * len(rows),
        counts=counts,
        thresholds=LiveThresholds.of(counts),
        failed_conditions=failed_conditions(counts, total_cost_usd=total, cost_ceiling_usd=4.0),
        rows=rows,
    )


def expected_live(result: Any) -> dict[ChartKey, tuple[float | None, str]]:
    """Correct answers per category and overall for both arms, from the rows."""
    expected: dict[ChartKey, tuple[float | None, str]] = {}
    categories = sorted({row.category for row in result.rows})
    for name in [*categories, "all"]:
        rows = [r for r in result.rows if name in ("all", r.category)]
        for series in ("with_memory", "without_memory"):
            correct = sum(getattr(r, series).correct for r in rows)
            expected["live-correct", name, series] = _ratio(correct, len(rows))
    return expected
