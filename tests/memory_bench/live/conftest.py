"""Builders for live-arm evidence tests, and the live arm driven over a real chat-completions
server on 127.0.0.1 answered by a memory-reading :class:`Reader`."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import ChatServer, Reply, reply_text

from memory_bench.corpus import BenchmarkProbe, MemoryBenchmarkCorpus, load_corpus
from memory_bench.live.answers import token_bounded_match
from memory_bench.live.arm import LiveBenchmarkResult, run_live_benchmark
from memory_bench.live.evidence import LIVE_ARM_VERSION, ArmAnswer, LiveProbeRow, derive_counts
from memory_bench.source_tree import SourceTree
from memory_core.base.model import Model
from memory_core.clock import FixedClock
from memory_core.formation.selection import ProviderFormationEvidence
from memory_core.policy import PROVIDER_FORMATION_POLICY
from memory_core.provenance import PolicyVersions, Provenance
from memory_core.runtime.openai_compat import OpenAICompatibleModel
from memory_core.runtime.pricing import ModelPrice, PriceCatalog


def arm(correct: bool, *, abstained: bool = False, cost: float = 0.01, **kw: Any) -> ArmAnswer:
    return ArmAnswer(
        answer="I do not have that information." if abstained else "Portland",
        correct=correct,
        abstained=abstained,
        leaked_protected=kw.get("leaked", False),
        run_status="completed",
        cost_usd=cost,
    )


def row(i: int, *, kind: str = "alternatives", with_ok: bool, without_ok: bool) -> LiveProbeRow:
    abstain = kind == "abstain"
    return LiveProbeRow(
        scenario_id="mb-x-001",
        probe_id=f"p{i:02d}",
        category="abstention" if abstain else "single_hop",
        answer_kind=kind,
        recoverable=not abstain,
        with_memory_policy_failures=0,
        without_memory_policy_failures=0,
        with_memory=arm(with_ok, abstained=abstain and with_ok),
        without_memory=arm(without_ok, abstained=abstain and without_ok),
    )


@pytest.fixture
def passing_document() -> dict[str, Any]:
    """Ten answerable probes (9 right with memory, 2 without) and five abstentions (all right)."""
    rows = [row(i, with_ok=i != 0, without_ok=i < 2) for i in range(10)]
    rows += [row(10 + i, kind="abstain", with_ok=True, without_ok=True) for i in range(5)]
    counts = derive_counts(rows, ceiling_hits=0, failure_classes={})
    return {
        "schema_version": 3,
        "benchmark_version": LIVE_ARM_VERSION,
        "provenance": {
            "commit": "0123abc" + "0" * 33,
            "dirty": False,
            "packages": {"memory-core": "0.1.0", "memory-bench": "0.1.0"},
            "policies": {
                "formation": "formation@5",
                "provider_formation": PROVIDER_FORMATION_POLICY,
                "retrieval": "retrieval@1",
            },
            "inputs": {"corpus": "a" * 64},
            "recorded_at": datetime(2026, 11, 30, tzinfo=UTC).isoformat(),
        },
        "provider": "openai-compatible",
        "model": "gpt-4o-mini",
        "policy_profile": "benchmark",
        "compiled_policy_version": "policy@deadbeef",
        "run_providers": ["openai-compatible"],
        "run_models": ["gpt-4o-mini"],
        "run_compiled_policy_versions": ["policy@deadbeef"],
        "cost_ceiling_usd": 4.0,
        "per_run_ceiling_usd": 0.05,
        "provider_formation_evidence_file": (
            f"provider-formation.{PROVIDER_FORMATION_POLICY}.gpt-4o-mini.json"
        ),
        "provider_formation_evidence_sha256": "b" * 64,
        "total_cost_usd": 0.30,
        "corpus_probe_count": len(rows),
        "counts": counts.model_dump(),
        "rows": [r.model_dump() for r in rows],
    }


# --- the live arm over a real chat-completions server on 127.0.0.1 -------------------------

ROOT = Path(__file__).resolve().parents[3]
CORPUS_V1 = ROOT / "corpus" / "memory-benchmark.v1.json"
SMALL_SCENARIOS = ("mb-relocation-update-001", "mb-project-transfer-protected-001")
"""Two scenarios of corpus v1: four answerable probes, then a two-project scenario with a
transfer, a correction and three abstentions (two protected)."""

LIVE_MODEL = "live-test-model"
"""The model the test server reports; priced only in :data:`PRICES`."""
PRICES = PriceCatalog({LIVE_MODEL: ModelPrice(input=0.5, output=2.0)})
"""USD 0.50 / 2.00 per million tokens: a 100 + 10 token call costs USD 0.00007, and the static
bound of one run under the default live policy (4 steps of a 16,000-token window in and 1,024
tokens out) is USD 0.040192, inside the USD 0.05 per-run ceiling."""
LIVE_ENV = {"RUN_LIVE_MODEL_TESTS": "1"}
BUILD_REF = "0123456789abcdef0123456789abcdef01234567"


def provider_evidence(
    model: str = LIVE_MODEL, *, provider: str = "openai-compatible"
) -> ProviderFormationEvidence:
    """Passing gate-20 evidence (18 of 21 positive cases fully supported) for ``model``."""
    supported = tuple(f"fp-{n:03d}" for n in range(1, 19))
    return ProviderFormationEvidence(
        schema_version=2,
        kind="provider_formation",
        provenance=Provenance(
            commit=BUILD_REF,
            dirty=False,
            packages={"memory-core": "0.1.0"},
            policies=PolicyVersions.current(),
            inputs={"case_file": "c" * 64},
            recorded_at=datetime(2026, 11, 1, tzinfo=UTC),
        ),
        provider=provider,
        model=model,
        case_file="memory-formation.v2.json",
        positive_cases=21,
        fully_supported_positive=18,
        minimum_fully_supported=17,
        negative_cases=15,
        negatives_formed=0,
        supported_case_ids=supported,
        unsupported_case_ids=("fp-019", "fp-020", "fp-021"),
        requests=36,
        malformed_replies=0,
        hostile_replies=0,
        model_errors=0,
    )


def write_provider_evidence(directory: Path, evidence: ProviderFormationEvidence) -> Path:
    """Write ``evidence`` under its own file name in ``directory`` (created when missing)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / evidence.file_name
    path.write_text(evidence.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def evidence_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An evidence directory holding valid provider formation evidence for :data:`LIVE_MODEL`
    (gate 20's precondition of every live run)."""
    directory = tmp_path_factory.mktemp("evidence")
    write_provider_evidence(directory, provider_evidence())
    return directory


_MEMORY_LINE = re.compile(r"^\[m:[^\]]+\].*$", re.MULTILINE)


def corpus_from(document: dict[str, Any]) -> tuple[MemoryBenchmarkCorpus, str]:
    """A corpus built in process and the sha256 of its canonical JSON text."""
    text = json.dumps(document, sort_keys=True)
    return (
        MemoryBenchmarkCorpus.model_validate(document),
        hashlib.sha256(text.encode()).hexdigest(),
    )


@pytest.fixture(scope="session")
def small_corpus() -> tuple[MemoryBenchmarkCorpus, str]:
    """Corpus v1 cut down to :data:`SMALL_SCENARIOS` (nine probes, eighteen live runs)."""
    document = json.loads(CORPUS_V1.read_text(encoding="utf-8"))
    document["scenarios"] = [s for s in document["scenarios"] if s["id"] in SMALL_SCENARIOS]
    assert [s["id"] for s in document["scenarios"]] == list(SMALL_SCENARIOS)
    return corpus_from(document)


@dataclass
class Reader:
    """A model that answers a probe only from the memory lines in its context, else abstains.

    It knows each probe's gold answer (the corpus is synthetic) and states it only when the
    rendered memory (``[m:...]`` lines anywhere before the user's turn) contains it, so the
    with-memory arm is right exactly where retrieval delivered the fact and the without-memory
    arm abstains. ``amnesiac`` never reads memory (a model memory does not help).
    """

    corpus: MemoryBenchmarkCorpus
    amnesiac: bool = False
    prompt_tokens: int = 100
    completion_tokens: int = 10
    model: str = LIVE_MODEL
    answers: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._gold = {
            probe.question: probe.answer
            for scenario in self.corpus.scenarios
            for probe in scenario.probes
        }

    def answer(self, messages: list[dict[str, Any]]) -> str:
        """The reply to a request's messages (the user turn is the last user message)."""
        at = max(i for i, m in enumerate(messages) if m["role"] == "user")
        question = messages[at]["content"].split("\n\n", 1)[0]
        gold = self._gold[question]
        memory = "" if self.amnesiac else "\n".join(memory_lines(messages[:at]))
        abstain = self.corpus.abstain_phrase
        if gold.kind == "abstain":
            return abstain
        found = [value for value in gold.values if token_bounded_match(value, memory)]
        if gold.kind == "all_of":
            return ", ".join(gold.values) if len(found) == len(gold.values) else abstain
        return found[0] if found else abstain

    def __call__(self, payload: dict[str, Any]) -> Reply:
        text = self.answer(payload["messages"])
        self.answers.append(text)
        return reply_text(
            text,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            model=self.model,
        )


def memory_lines(messages: list[dict[str, Any]]) -> list[str]:
    """The rendered belief lines (``[m:xxxxxxxx] type / subject: statement``) in ``messages``."""
    return [line for m in messages for line in _MEMORY_LINE.findall(m.get("content") or "")]


@dataclass
class LiveKit:
    """The live arm against one chat-completions server on 127.0.0.1, for one corpus.

    Handed to tests as the ``live`` fixture (test modules cannot import this conftest).
    """

    corpus: MemoryBenchmarkCorpus
    digest: str
    server: ChatServer
    reader: Reader
    evidence_dir: Path
    build_ref: str = BUILD_REF
    model_name: str = LIVE_MODEL
    prices: PriceCatalog = PRICES
    env: dict[str, str] = field(default_factory=lambda: dict(LIVE_ENV))

    @property
    def probes(self) -> list[BenchmarkProbe]:
        """Every probe of the corpus, in order."""
        return [probe for scenario in self.corpus.scenarios for probe in scenario.probes]

    def factory(
        self,
        *,
        prices: PriceCatalog | None = None,
        timeout_seconds: float = 10.0,
        built: list[OpenAICompatibleModel] | None = None,
    ) -> Callable[[], Model]:
        """A factory of the real HTTP model against the server, with no adapter-level retries
        (so an injected failure reaches the run and the harness's retry-once rule)."""

        def build() -> Model:
            model = OpenAICompatibleModel(
                model=LIVE_MODEL,
                base_url=self.server.base_url,
                api_key="test-key",
                timeout_seconds=timeout_seconds,
                max_retries=0,
                prices=self.prices if prices is None else prices,
            )
            if built is not None:
                built.append(model)
            return model

        return build

    def run(self, output: Path, **kwargs: Any) -> LiveBenchmarkResult:
        """``run_live_benchmark`` over the corpus against the server, live switch on."""
        factory = kwargs.pop("model_factory", None) or self.factory()
        return run_live_benchmark(
            self.corpus,
            self.digest,
            output=output,
            build_ref=kwargs.pop("build_ref", self.build_ref),
            source=kwargs.pop("source", SourceTree(commit=self.build_ref)),
            model_factory=factory,
            environ=kwargs.pop("environ", self.env),
            evidence_dir=kwargs.pop("evidence_dir", self.evidence_dir),
            clock=kwargs.pop("clock", FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))),
            **kwargs,
        )

    def turns(self) -> list[str]:
        """The user turn (the last user message) of every request received, in order."""
        return [
            [m for m in r["messages"] if m["role"] == "user"][-1]["content"]
            for r in self.server.requests
        ]

    @staticmethod
    def memory_lines(messages: list[dict[str, Any]]) -> list[str]:
        """The rendered belief lines in ``messages``."""
        return memory_lines(messages)

    @staticmethod
    def provider_evidence(model: str = LIVE_MODEL, **kw: Any) -> ProviderFormationEvidence:
        """Passing provider formation evidence for ``model`` (see :func:`provider_evidence`)."""
        return provider_evidence(model, **kw)

    @staticmethod
    def write_provider_evidence(directory: Path, evidence: ProviderFormationEvidence) -> Path:
        """Write provider formation evidence under its own name in ``directory``."""
        return write_provider_evidence(directory, evidence)


@pytest.fixture
def live(small_corpus: tuple[MemoryBenchmarkCorpus, str], evidence_dir: Path) -> Iterator[LiveKit]:
    """The live arm over the small corpus against a :class:`Reader` server on 127.0.0.1
    (replies enqueued on ``live.server`` are sent first, e.g. injected failures), with valid
    provider formation evidence in ``live.evidence_dir``."""
    corpus, digest = small_corpus
    reader = Reader(corpus)
    with ChatServer(responder=reader) as server:
        yield LiveKit(
            corpus=corpus, digest=digest, server=server, reader=reader, evidence_dir=evidence_dir
        )


@pytest.fixture
def full_live(evidence_dir: Path) -> Iterator[LiveKit]:
    """The live arm over the checked-in corpus v1 against a :class:`Reader` server."""
    corpus, digest = load_corpus(CORPUS_V1)
    reader = Reader(corpus)
    with ChatServer(responder=reader) as server:
        yield LiveKit(
            corpus=corpus, digest=digest, server=server, reader=reader, evidence_dir=evidence_dir
        )
