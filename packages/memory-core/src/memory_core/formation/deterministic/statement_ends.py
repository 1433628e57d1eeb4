"""How a reading's statement ends: whole, or cut where nothing is lost.

A reading keeps what follows a spaced dash only when it is the sentence's whole elaboration
(``User repainted the porch - a deep navy blue.``, not ``... a mix of emotions - pride.``),
never a relative clause cut to its verb (``..., Tomas, who had been.``), and never a ``them``
the sentence said of others it does not name (``User is lucky to have them.``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from memory_core.formation.deterministic.phrases import _Proposal

DASH = re.compile(r"\s+[-–—]+\s+")
"""A spaced dash (``-``, ``–`` or ``—``)."""

_NO_ELABORATION = frozenset(
    {"lol", "haha", "ha", "hehe", "yum", "yay", "wow", "omg", "tbh", "btw", "ugh", "woohoo"}
    | {"too", "now", "already", "though", "lately", "recently"}
)
"""Words a statement drops from its end (or that elaborate nothing, ``- yum!``)."""
_THIRD_PERSON_WORD = {"me": "them", "my": "their", "i": "they", "mine": "theirs", "us": "them"}


def _last_word(text: str) -> str | None:
    words = [w.casefold() for w in re.findall(r"[\w'-]+", text)]
    while words and words[-1] in _NO_ELABORATION:
        words.pop()
    return _THIRD_PERSON_WORD.get(words[-1], words[-1]) if words else None


def _cut(proposal: _Proposal, rendered: str, start: int) -> _Proposal | None:
    """``proposal`` with its rendering cut at ``start``: its statement, or its object when the
    cut falls inside the object; None when it does not."""
    if proposal.statement is not None:
        return replace(proposal, statement=rendered[:start].rstrip(" ,;:") + ".")
    tail = rendered[start:-1]
    if not proposal.obj.endswith(tail):
        return None
    return replace(proposal, obj=proposal.obj[: -len(tail)].rstrip(" ,;:"))


def whole_elaboration(proposal: _Proposal, sentence: str) -> _Proposal:
    """``proposal`` without what follows its spaced dash unless that is the sentence's whole
    elaboration: a list cut at its first comma (``a mix of emotions - pride.``), ``even
    though`` cut to ``even``, an object cut at its word limit or an interjection (``- yum!``)
    leaves a torn half, and the statement reads better without it."""
    rendered = proposal.render()
    at = rendered.find(" - ")
    dash = DASH.search(sentence) if at >= 0 else None
    if dash is None:
        return proposal
    said = _last_word(sentence[dash.end() :])
    if said is not None and _last_word(rendered[at + 3 :]) == said:
        return proposal
    return _cut(proposal, rendered, at) or proposal


_TORN_RELATIVE = re.compile(
    r",?\s+(?:who|which|that)\s+(?:\w+\s+){0,2}?(?:is|are|was|were|been|being|be|had|has|have)\.$"
)
"""A relative clause cut to its verb (``... Tomas, who had been.``)."""


def untorn(proposal: _Proposal) -> _Proposal:
    """``proposal`` without a relative clause its reading cut to the verb: ``I met this
    friendly man, Tomas, who had been through a lot, yet ...`` is ``User met this friendly
    man, Tomas.``, not ``... who had been.``."""
    rendered = proposal.render()
    torn = _TORN_RELATIVE.search(rendered)
    return proposal if torn is None else _cut(proposal, rendered, torn.start()) or proposal


_TO_THEM = re.compile(r"\s+(?:with|for|to)\s+them\.$")


def without_them(proposal: _Proposal, sentence: str) -> _Proposal | None:
    """``proposal`` without a ``them`` the sentence said of others it never names (no ``me``
    there: a ``me`` written ``them``, ``friends who support me``, is the user). A ``with``,
    ``for`` or ``to them`` that ends it is dropped (``User loves sharing their recipes.``);
    a proposal whose verb takes ``them`` as its object forms nothing (``User is lucky to have
    them.``)."""
    rendered = proposal.render()
    if (
        not rendered.endswith(" them.")
        or re.search(r"\bthem\b", sentence, re.IGNORECASE) is None
        or re.search(r"\b(?:me|myself)\b", sentence, re.IGNORECASE) is not None
    ):
        return proposal
    phrase = _TO_THEM.search(rendered)
    return None if phrase is None else _cut(proposal, rendered, phrase.start())


__all__ = ["DASH", "untorn", "whole_elaboration", "without_them"]
