"""The rule type every catalogue entry uses, and the two kinds of hazard.

A rule runs on one sentence's matching skeleton, and only when its gate lets it: one of its
anchor words is a token of the sentence (lower case, split on anything but letters and
digits), one of its anchor substrings occurs in it, or the sentence has the shape the rule
needs (nine digits, a long token). Gates are set lookups, so a megabyte of prose costs one
tokenisation plus the few rules each sentence can trigger; every pattern is bounded (no nested
unbounded quantifier), so each run is linear in the sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum


class HazardKind(StrEnum):
    """What a hazard rule protects against."""

    SECRET = "secret"
    INJECTION = "injection"


def redaction_mask(family: str) -> str:
    """What a secret span of ``family`` is replaced with in a stored message
    (``[redacted:secret.credential]``); the catalogue refuses a sentence holding it under the
    same family, so a masked turn forms, and counts refusals, as the original did."""
    return f"[redacted:{family}]"


class Shape(StrEnum):
    """A sentence shape a rule without anchor words needs before it runs."""

    DIGITS = "digits"
    """At least nine digits (card numbers, IBANs, SSNs, bot ids)."""
    TOKEN = "token"
    """A run of at least nine token characters (provider tokens, entropy)."""


@dataclass(frozen=True, kw_only=True)
class HazardRule:
    """One catalogue entry: a bounded pattern over a sentence's matching skeleton, its gate,
    and optionally a check the match must pass (a checksum, an entropy floor, a qualifier).

    Attributes:
        name: The rule's name (reported in a refusal).
        kind: Secret or injection.
        family: The rule family a refusal is counted under (``secret.financial``, ...).
        pattern: A compiled pattern with no nested unbounded quantifier (linear time).
        check: A predicate on the match; the hit counts only when it returns True.
        anchors: Lower-case words one of which every match contains as a token.
        substrings: Substrings one of which every match contains (checked case-sensitively).
        shape: A sentence shape every match needs, for rules with no anchor words.
        requires: Further word groups a sentence must each share a token with (all of them),
            checked after the anchors let the rule in.
        requires_chars: Characters one of which the sentence must contain.
    """

    name: str
    kind: HazardKind
    family: str
    pattern: re.Pattern[str]
    check: Callable[[re.Match[str]], bool] | None = None
    anchors: frozenset[str] = frozenset()
    substrings: tuple[str, ...] = ()
    shape: Shape | None = None
    requires: tuple[frozenset[str], ...] = ()
    requires_chars: str = ""

    def admits(self, form: str, tokens: set[str]) -> bool:
        """True when a sentence (its skeleton and lower-case tokens) passes the extra gates."""
        if self.requires_chars and not any(c in form for c in self.requires_chars):
            return False
        return all(not group.isdisjoint(tokens) for group in self.requires)

    def matches(self, text: str) -> bool:
        """True when the pattern matches ``text`` and the match passes the check."""
        if self.check is None:
            return self.pattern.search(text) is not None
        for match in self.pattern.finditer(text):
            if match.end() > match.start() and (self.check is None or self.check(match)):
                return True
        return False


def rule(
    name: str,
    kind: HazardKind,
    family: str,
    pattern: str,
    *,
    flags: int = re.IGNORECASE,
    check: Callable[[re.Match[str]], bool] | None = None,
    anchors: Iterable[str] | str = (),
    substrings: Iterable[str] = (),
    shape: Shape | None = None,
) -> HazardRule:
    """Compile one catalogue entry (``anchors`` may be a space-separated string)."""
    words = anchors.split() if isinstance(anchors, str) else list(anchors)
    return HazardRule(
        name=name,
        kind=kind,
        family=family,
        pattern=re.compile(pattern, flags),
        check=check,
        anchors=frozenset(w.casefold() for w in words),
        substrings=tuple(substrings),
        shape=shape,
    )


def whole(check: Callable[[str], bool]) -> Callable[[re.Match[str]], bool]:
    """A match check that applies ``check`` to the whole matched text."""
    return lambda match: check(match.group(0))


__all__ = ["HazardKind", "HazardRule", "Shape", "redaction_mask", "rule", "whole"]
