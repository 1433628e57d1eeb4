"""Every hazard rule is linear: no unbounded quantifier inside another (the shape that made
``credential_assignment`` take 55 s on ``"a-" * 20000``), checked on the parsed patterns.

The megabyte timing lives in ``ci/bench_hazards.py`` (a benchmark, not a timed unit test).
"""

from __future__ import annotations

from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

import pytest

from memory_core.formation.hazards import HAZARD_RULES, screen_turn
from memory_core.formation.hazards._injections import _AUTHORITY

_REPEATS = {sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, sre_constants.POSSESSIVE_REPEAT}


def _unbounded_depth(items: Any, inside: bool = False) -> bool:
    """True when an unbounded repeat sits inside another unbounded repeat."""
    for op, arg in items:
        if op in _REPEATS:
            _low, high, sub = arg
            unbounded = high == sre_constants.MAXREPEAT
            if (unbounded and inside) or _unbounded_depth(sub, inside or unbounded):
                return True
        elif op is sre_constants.SUBPATTERN:
            nested = [arg[-1]]
        elif op is sre_constants.BRANCH:
            nested = list(arg[1])
        elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            nested = [arg[1]]
        else:
            nested = []
        if op not in _REPEATS and any(_unbounded_depth(n, inside) for n in nested):
            return True
    return False


PATTERNS = {rule.name: rule.pattern for rule in HAZARD_RULES} | {"authority_claim": _AUTHORITY}


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_no_rule_nests_an_unbounded_quantifier(name: str) -> None:
    pattern = PATTERNS[name]
    assert not _unbounded_depth(sre_parse.parse(pattern.pattern, pattern.flags)), name


def test_the_detector_finds_the_nested_shape_it_forbids() -> None:
    assert _unbounded_depth(sre_parse.parse(r"(?:[a-z]+[_-])*key", 0))
    assert not _unbounded_depth(sre_parse.parse(r"(?:[a-z]{1,24}[_-]){0,6}key", 0))


def test_the_old_quadratic_input_screens() -> None:
    # Not timed (see ci/bench_hazards.py); it must simply finish and refuse nothing.
    assert screen_turn("a-" * 20000).refused == 0
