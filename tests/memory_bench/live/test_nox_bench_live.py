"""``nox -s bench_live`` fills in ``--build-ref`` and ``--output`` only when the operator did
not give them, whichever form (``--option VALUE`` or ``--option=VALUE``) they used."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import cast

import pytest

NOXFILE = Path(__file__).resolve().parents[3] / "noxfile.py"
HEAD = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture(scope="module")
def noxfile() -> ModuleType:
    spec = importlib.util.spec_from_file_location("repository_noxfile", NOXFILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _args(noxfile: ModuleType, *posargs: str) -> list[str]:
    build = cast(Callable[[list[str], Callable[[], str]], list[str]], noxfile.bench_live_args)
    return build(list(posargs), lambda: HEAD)


def test_defaults_name_the_commit_and_its_evidence_file(noxfile: ModuleType) -> None:
    assert _args(noxfile) == [
        "--build-ref",
        HEAD,
        "--output",
        str(Path("evidence") / "memory-benchmark-live-0123456789ab.json"),
    ]


@pytest.mark.parametrize(
    "given",
    [
        ("--output", "mine.json", "--build-ref", "abc"),
        ("--output=mine.json", "--build-ref=abc"),
        ("--build-ref=abc", "--output", "mine.json"),
    ],
)
def test_the_operators_output_and_build_ref_are_kept_in_either_form(
    noxfile: ModuleType, given: tuple[str, ...]
) -> None:
    assert _args(noxfile, *given) == list(given)


def test_an_equals_build_ref_names_the_default_output(noxfile: ModuleType) -> None:
    assert _args(noxfile, "--build-ref=feedfacecafebeef", "--model", "m") == [
        "--build-ref=feedfacecafebeef",
        "--model",
        "m",
        "--output",
        str(Path("evidence") / "memory-benchmark-live-feedfacecafe.json"),
    ]
