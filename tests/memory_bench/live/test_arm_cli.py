"""``agent eval memory-benchmark --no-deterministic-only``: the operator's command, end to end.

The model is the real ``OpenAICompatibleModel`` posting to a chat-completions server on
127.0.0.1 (``--base-url``), priced through ``--prices``. One test runs the whole checked-in
corpus v1 (the loader refuses a corpus below twelve scenarios); the others stop early.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _support.chat_server import ChatServer, reply_error, reply_text
from _support.git_checkout import head, make_checkout

from memory_bench.live.ceiling import PRICING_UNAVAILABLE
from memory_bench.live.evidence import load_evidence
from memory_cli.app import main
from memory_core.formation.selection import EVIDENCE_DIR_ENV

LiveKit = Any  # the ``full_live`` fixture (tests/memory_bench/live/conftest.py)

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "corpus" / "memory-benchmark.v1.json"
MODEL = "live-test-model"


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch, evidence_dir: Path) -> None:
    """The live switch on, no operator model configuration leaking in, and valid provider
    formation evidence for the test model in ``MEMORY_EVIDENCE_DIR``."""
    for name in ("MEMORY_MODEL", "MEMORY_MODEL_BASE_URL", "MEMORY_MODEL_PRICES", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RUN_LIVE_MODEL_TESTS", "1")
    monkeypatch.setenv(EVIDENCE_DIR_ENV, str(evidence_dir))


@pytest.fixture(autouse=True)
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean git checkout as the working directory: the evidence names its commit."""
    root = make_checkout(tmp_path / "checkout")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def prices(tmp_path: Path) -> Path:
    path = tmp_path / "prices.yaml"
    path.write_text(f"models:\n  {MODEL}: {{input: 0.5, output: 2.0}}\n", encoding="utf-8")
    return path


def _live(
    capsys: pytest.CaptureFixture[str], server: ChatServer, output: Path, *extra: str
) -> tuple[int, Any, str]:
    status = main(
        [
            "eval",
            "memory-benchmark",
            "--no-deterministic-only",
            "--corpus",
            str(CORPUS),
            "--output",
            str(output),
            "--build-ref",
            head(Path.cwd())[:7],
            "--model",
            MODEL,
            "--base-url",
            server.base_url,
            "--timeout",
            "5",
            *extra,
        ]
    )
    captured = capsys.readouterr()
    document = json.loads(captured.out) if captured.out.strip() else None
    return status, document, captured.err


@pytest.mark.gate("gate.memory.bench_evidence_publish")
def test_the_command_runs_corpus_v1_and_publishes_one_artifact(
    capsys: pytest.CaptureFixture[str],
    checkout: Path,
    environment: None,
    prices: Path,
    full_live: LiveKit,
    tmp_path: Path,
) -> None:
    full_live.server.enqueue(reply_error(429))  # a rate limit on the very first run: retried
    output = tmp_path / "out" / "memory-benchmark-live.json"

    status, document, err = _live(
        capsys, full_live.server, output, "--prices", str(prices), "--max-retries", "0"
    )

    assert status == 0, err
    assert document["passed"] is True
    assert document["outcome"] == "passed"
    assert document["evidence_path"] == str(output)
    assert [p.name for p in output.parent.iterdir()] == [output.name]
    evidence = load_evidence(output)
    assert evidence.provenance.inputs == {"corpus": full_live.digest}
    assert (evidence.provenance.commit, evidence.provenance.dirty) == (head(checkout), False)
    assert evidence.model == MODEL
    assert len(evidence.rows) == len(full_live.probes)
    assert evidence.counts.retried_runs == 1
    assert len(full_live.server.requests) == 2 * len(full_live.probes) + 1
    assert evidence.counts.lift >= evidence.counts.minimum_lift
    assert evidence.counts.recoverable_correct >= evidence.counts.minimum_recoverable_correct
    assert evidence.counts.without_memory_correct == evidence.counts.abstain_expected
    assert evidence.counts.protected_leaks_in_answers == 0
    progress = [line for line in err.splitlines() if line.startswith("probe ")]
    assert len(progress) == 2 * len(full_live.probes)  # one line per probe arm, as it goes
    assert err.split("\n", len(progress))[-1].startswith("live arm: PASSED")
    assert f"evidence written to {output}" in err


@pytest.mark.gate("gate.memory.bench_cost_ceiling")
def test_a_zero_priced_model_exits_one_with_the_message_and_the_incomplete_line(
    capsys: pytest.CaptureFixture[str], environment: None, tmp_path: Path
) -> None:
    output = tmp_path / "evidence.json"
    with ChatServer() as server:
        # No --prices: the shipped catalog does not know the model, so it costs zero. The first
        # run fails permanently (unbilled, kept); the second completes for free and aborts.
        server.enqueue(
            reply_error(401, "bad key"),
            reply_text("I do not have that information.", model=MODEL),
        )
        status, document, err = _live(capsys, server, output)
        sent = len(server.requests)

    assert status == 1
    assert sent == 2
    assert document["stopped_by"] == "pricing_unavailable"
    assert document["error"] == PRICING_UNAVAILABLE
    assert f"error: {PRICING_UNAVAILABLE}" in err
    assert (
        "incomplete mb-relocation-update-001/p01 with_memory: status=permanent_model_error "
        "error_class=PermanentModelError billed=no cost_usd=0.000000 attempts=1"
    ) in err
    assert "bad key" not in err
    assert not output.exists()


def test_without_the_live_switch_the_command_skips_cleanly(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    chat_server: ChatServer,
    tmp_path: Path,
) -> None:
    monkeypatch.delenv("RUN_LIVE_MODEL_TESTS", raising=False)
    monkeypatch.delenv("MEMORY_MODEL", raising=False)
    output = tmp_path / "evidence.json"

    status, document, err = _live(capsys, chat_server, output)

    assert status == 0
    assert document["outcome"] == "skipped"
    assert document["passed"] is False
    assert "RUN_LIVE_MODEL_TESTS" in document["skip_reason"]
    assert chat_server.requests == []
    assert not output.exists()
    assert err.startswith("live arm: skipped")


@pytest.mark.parametrize("value", ["0", "true", ""])
def test_only_the_value_1_switches_the_live_arm_on(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    chat_server: ChatServer,
    tmp_path: Path,
    value: str,
) -> None:
    monkeypatch.setenv("RUN_LIVE_MODEL_TESTS", value)
    status, document, _ = _live(capsys, chat_server, tmp_path / "evidence.json")
    assert (status, document["outcome"]) == (0, "skipped")
    assert chat_server.requests == []


@pytest.mark.gate("gate.memory.bench_evidence_publish")
def test_an_existing_output_is_a_usage_error_before_any_request(
    capsys: pytest.CaptureFixture[str],
    environment: None,
    prices: Path,
    chat_server: ChatServer,
    tmp_path: Path,
) -> None:
    output = tmp_path / "evidence.json"
    output.write_text("{}\n", encoding="utf-8")

    status, document, err = _live(capsys, chat_server, output, "--prices", str(prices))

    assert status == 2
    assert document is None
    assert "never overwritten" in " ".join(err.split())
    assert chat_server.requests == []
    assert output.read_text(encoding="utf-8") == "{}\n"


@pytest.mark.gate("gate.memory.bench_evidence_publish")
def test_an_unwritable_output_is_a_usage_error_before_any_request(
    capsys: pytest.CaptureFixture[str],
    environment: None,
    prices: Path,
    chat_server: ChatServer,
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    output = blocker / "evidence.json"

    status, document, err = _live(capsys, chat_server, output, "--prices", str(prices))

    assert status == 2
    assert document is None
    assert f"error: {output} cannot be written" in err
    assert chat_server.requests == []


@pytest.mark.gate("gate.memory.provider_positive_coverage_v2")
def test_without_provider_evidence_the_command_exits_one_before_any_request(
    capsys: pytest.CaptureFixture[str],
    environment: None,
    prices: Path,
    chat_server: ChatServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    empty = tmp_path / "no-evidence"
    empty.mkdir()
    monkeypatch.setenv(EVIDENCE_DIR_ENV, str(empty))
    output = tmp_path / "evidence.json"

    status, document, err = _live(capsys, chat_server, output, "--prices", str(prices))

    assert status == 1
    assert document["stopped_by"] == "provider_evidence"
    assert "failed: provider_formation_evidence_current: no_evidence" in err
    assert chat_server.requests == []
    assert not output.exists()


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["eval", "memory-benchmark", *argv])
    return status, " ".join(capsys.readouterr().err.split())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--no-deterministic-only", "--build-ref", "x"], "--output PATH is required"),
        (
            [
                *("--no-deterministic-only", "--corpus", str(CORPUS), "--output", "e.json"),
                *("--build-ref", "f" * 40),
            ],
            "is not the checkout's HEAD",
        ),
        (
            [
                "--no-deterministic-only",
                "--output",
                "e.json",
                "--build-ref",
                "x",
                "--baseline",
                "b.json",
            ],
            "--baseline belong to the deterministic arm",
        ),
        (["--deterministic-only", "--model", "m"], "--model configure the live arm"),
        (["--deterministic-only", "--policy-profile", "no-tools"], "--policy-profile"),
        (["--deterministic-only", "--max-retries", "0"], "--max-retries"),
        ([], "name the arm"),
    ],
)
def test_usage_errors_exit_two(
    capsys: pytest.CaptureFixture[str],
    checkout: Path,
    environment: None,
    argv: list[str],
    message: str,
) -> None:
    status, err = _run(capsys, *argv)
    assert status == 2
    assert message in err


def test_a_profile_above_the_per_run_ceiling_is_refused_before_spending(
    capsys: pytest.CaptureFixture[str],
    environment: None,
    chat_server: ChatServer,
    tmp_path: Path,
) -> None:
    profile = tmp_path / "generous.yaml"
    profile.write_text(
        "name: generous\nlimits: {max_steps: 2, max_tokens: 8000, max_cost_usd: 0.5}\n",
        encoding="utf-8",
    )
    status, _, err = _live(
        capsys, chat_server, tmp_path / "e.json", "--policy-profile", str(profile)
    )
    assert status == 2
    assert "above the live arm's per-run ceiling" in " ".join(err.split())
    assert chat_server.requests == []


@pytest.mark.gate("gate.memory.bench_cost_ceiling")
def test_a_model_whose_run_could_outspend_the_reservation_is_refused_before_spending(
    capsys: pytest.CaptureFixture[str],
    environment: None,
    chat_server: ChatServer,
    tmp_path: Path,
) -> None:
    # USD 93,750 per million input tokens: one full 16,000-token window costs USD 1.50.
    expensive = tmp_path / "expensive.yaml"
    expensive.write_text(f"models:\n  {MODEL}: {{input: 93750, output: 0}}\n", encoding="utf-8")
    output = tmp_path / "e.json"
    status, document, err = _live(capsys, chat_server, output, "--prices", str(expensive))
    assert status == 2
    assert document is None
    assert "above the live arm's per-run ceiling of USD 0.05" in err
    assert chat_server.requests == []
    assert not output.exists()


def test_a_malformed_model_policy_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
    environment: None,
    chat_server: ChatServer,
    tmp_path: Path,
) -> None:
    policy = tmp_path / "model-policy.yaml"
    policy.write_text("max_output_tokens: 0\nreasoning: high\n", encoding="utf-8")
    status, _, err = _live(capsys, chat_server, tmp_path / "e.json", "--model-policy", str(policy))
    assert status == 2
    assert "invalid model policy" in " ".join(err.split())
    assert chat_server.requests == []
