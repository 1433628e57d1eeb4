"""Shared fixtures and the gate plugin.

Hypothesis: under ``CI=true`` (``.ci/run`` sets it) the ``ci`` profile derandomizes the
property tests, so a rare generated counterexample is found by a developer's randomized run,
never as a flake on the one CI run that decides whether work lands.

Gate plugin: every test marked ``@pytest.mark.gate(id)`` must name a registered gate; after the
run, an implemented gate whose collected tests all skipped fails the session (a gate is proven
by a passing test, not by a skipped one). ``--gate-report`` prints the gate table.
"""

from __future__ import annotations

import functools
import os
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from _support.chat_server import ChatServer
from hypothesis import settings

from memory_bench.gates import GATES, GATES_BY_ID
from memory_core import InMemoryStorage, Principal, Storage

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")

STORAGE_FACTORIES: dict[str, Callable[[], Iterator[Storage]]] = {}
"""Adapter name -> generator yielding a fresh, isolated storage tier (contract suites)."""


def _memory_storage() -> Iterator[Storage]:
    storage = InMemoryStorage()
    yield storage
    storage.close()


STORAGE_FACTORIES["memory"] = _memory_storage

POSTGRES_TEST_URL_ENV = "MEMORY_TEST_DATABASE_URL"
"""The PostgreSQL server the tests use (temporary schemas only); defaults to the local one."""

POSTGRES_REQUIRED_ENV = "MEMORY_TEST_REQUIRE_POSTGRES"
"""Set to 1 (the ``pg_parity`` lane does) to fail rather than skip when the server is down."""


@functools.cache
def _postgres_unreachable(url: str) -> str | None:
    """Why the test server cannot be used (one line), or ``None`` when it answers."""
    from sqlalchemy.exc import OperationalError

    from memory_store_pg import PostgresStorage

    probe = PostgresStorage(url, pool_size=1)
    try:
        with probe.engine.connect():
            return None
    except OperationalError as exc:
        return str(exc.orig).strip().splitlines()[0]
    finally:
        probe.close()


def postgres_test_url() -> str:
    """The test server's URL; skips the test when unreachable, fails it instead when CI=true."""
    url = os.environ.get(POSTGRES_TEST_URL_ENV, "postgresql://postgres@127.0.0.1:5432/test")
    reason = _postgres_unreachable(url)
    if reason is not None:
        message = f"PostgreSQL unreachable ({reason}); start it or set {POSTGRES_TEST_URL_ENV}"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"CI requires PostgreSQL: {message}", pytrace=False)
        if os.environ.get(POSTGRES_REQUIRED_ENV) == "1":
            pytest.fail(f"{POSTGRES_REQUIRED_ENV}=1 requires PostgreSQL: {message}", pytrace=False)
        pytest.skip(message)
    return url


def _postgres_storage() -> Iterator[Storage]:
    from memory_store_pg import temporary_storage

    # A fresh, migrated schema per test, dropped afterwards: sequences start at 1 like a new
    # in-memory tier, and concurrency tests can commit for real.
    with temporary_storage(postgres_test_url()) as storage:
        yield storage


STORAGE_FACTORIES["postgres"] = _postgres_storage


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The reachable test server's URL (skips, or fails when CI=true, like the storage tier)."""
    return postgres_test_url()


@pytest.fixture(
    params=[
        pytest.param(name, marks=pytest.mark.postgres if name == "postgres" else ())
        for name in sorted(STORAGE_FACTORIES)
    ]
)
def storage(request: pytest.FixtureRequest) -> Iterator[Storage]:
    """Every storage tier in turn: contract tests written once, run against each adapter."""
    yield from STORAGE_FACTORIES[request.param]()


@pytest.fixture
def alice() -> Principal:
    return Principal("tenant-1", "alice")


@pytest.fixture
def bob() -> Principal:
    return Principal("tenant-1", "bob")


T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    """A real chat-completions server on 127.0.0.1 answering from a scripted queue."""
    with ChatServer() as server:
        yield server


def pytest_configure(config: pytest.Config) -> None:
    # No test may reach a model outside this machine.
    os.environ["MEMORY_MODEL_LOOPBACK_ONLY"] = "1"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--gate-report", action="store_true", help="print the gate status table")
    parser.addoption(
        "--list-gates", action="store_true", help="print 'GATE <id> <nodeid>' for each gate test"
    )


_outcomes: dict[str, list[str]] = defaultdict(list)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects on the marker added here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        # A test that needs the server is a PostgreSQL test however it reached the fixture.
        if "postgres_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)
        for marker in item.iter_markers("gate"):
            gate_id = marker.args[0] if marker.args else None
            if gate_id not in GATES_BY_ID:
                raise pytest.UsageError(
                    f"{item.nodeid}: gate marker names unregistered {gate_id!r}"
                )
            if config.getoption("--list-gates"):
                print(f"GATE {gate_id} {item.nodeid}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        for marker in item.iter_markers("gate"):
            _outcomes[marker.args[0]].append(report.outcome)


def gate_status(gate_id: str) -> str:
    results = _outcomes.get(gate_id, [])
    if not results:
        return "not run"
    if "failed" in results:
        return "failing"
    if "passed" in results:
        return "passing"
    return "skipped"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # A gate is proven by passing tests. Locally a gate with some skipped tests (no PostgreSQL)
    # still counts when another test passed; under CI=true every one of its tests must run.
    in_ci = os.environ.get("CI", "").lower() in ("true", "1")
    bad = [
        g.id
        for g in GATES
        if g.implemented
        and (gate_status(g.id) == "skipped" or (in_ci and "skipped" in _outcomes.get(g.id, [])))
    ]
    if bad and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        print(f"\nimplemented gates not proven (tests skipped): {', '.join(bad)}")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not terminalreporter.config.getoption("--gate-report"):
        return
    terminalreporter.section("gates")
    for gate in GATES:
        implemented = "implemented" if gate.implemented else "pending"
        terminalreporter.write_line(
            f"{gate.id:<48} {gate.kind:<10} {gate.milestone:<10} {implemented:<11} "
            f"{gate_status(gate.id)}"
        )
