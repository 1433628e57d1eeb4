"""Lanes. Each session installs the workspace from the lock with uv, then runs one job."""

from __future__ import annotations

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


@nox.session
def bench_deterministic(session: nox.Session) -> None:
    """The benchmark's deterministic arm against the checked-in baseline (exit 1 on drift or
    regression); extra arguments pass to ``agent eval memory-benchmark``."""
    _sync(session)
    session.run("agent", "eval", "memory-benchmark", "--deterministic-only", *session.posargs)
