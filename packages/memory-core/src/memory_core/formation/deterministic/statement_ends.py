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


def whole_elaboration(proposal: _Proposal, sentence: str) -> _Proposal:
    """``proposal`` without what follows its spaced dash unless that is the sentence's whole
    elaboration: a list cut at its first comma (``a mix of emotions - pride.``), ``even
    though`` cut to ``even``, an object cut at its word limit or an interjection (``- yum!``)
    leaves a torn half, and the statement reads better without it."""
    rendered = proposal.render()
    dash = DASH.search(sentence)
    if " - " not in rendered or dash is None:
        return proposal
    said = _last_word(sentence[dash.end() :])
    if said is not None and _last_word(rendered.split(" - ", 1)[1]) == said:
        return proposal
    if proposal.statement is not None:
        return replace(proposal, statement=rendered.split(" - ", 1)[0].rstrip(" ,;:") + ".")
    return replace(proposal, obj=proposal.obj.split(" - ", 1)[0].rstrip(" ,;:"))


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
    if torn is None:
        return proposal
    if proposal.statement is not None:
        return replace(proposal, statement=rendered[: torn.start()].rstrip(" ,") + ".")
    tail = rendered[torn.start() : -1]
    if not proposal.obj.endswith(tail):
        return proposal
    return replace(proposal, obj=proposal.obj[: -len(tail)].rstrip(" ,"))


_TO_THEM = re.compile(r"\s+(?:with|for|to)\s+them\.$")


def _unnamed_them(proposal: _Proposal, sentence: str) -> bool:
    """Whether ``proposal`` ends on a ``them`` the sentence said of others it never names
    (``I'm lucky to have them``); a ``me`` written ``them`` (``friends who support me``) is
    the user."""
    return (
        proposal.render().endswith(" them.")
        and re.search(r"\bthem\b", sentence, re.IGNORECASE) is not None
        and re.search(r"\b(?:me|myself)\b", sentence, re.IGNORECASE) is None
    )


def without_them(proposal: _Proposal, sentence: str) -> _Proposal | None:
    """``proposal`` without an unnamed ``them`` (:func:`_unnamed_them`): a ``with``, ``for`` or
    ``to them`` that ends it is dropped (``User loves sharing their recipes.``), and a
    proposal whose verb takes ``them`` as its object forms nothing (``User is lucky to have
    them.``)."""
    if not _unnamed_them(proposal, sentence):
        return proposal
    rendered = proposal.render()
    phrase = _TO_THEM.search(rendered)
    if phrase is None:
        return None
    if proposal.statement is not None:
        return replace(proposal, statement=rendered[: phrase.start()] + ".")
    tail = rendered[phrase.start() : -1]
    if not proposal.obj.endswith(tail):
        return None
    return replace(proposal, obj=proposal.obj[: -len(tail)])


__all__ = ["DASH", "untorn", "whole_elaboration", "without_them"]
