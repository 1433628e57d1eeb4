"""A name given after its bearer was introduced: ``I got a puppy last week, her name is Luna``.

The message first introduces one of the user's own (``I adopted a cat.``, ``a friend gave me a
puppy``, ``my son``) and then names it with ``his``/``her``/``its name is`` or ``their names
are``. The name goes to the nearest relation word before it, when that one is the user's: a
pet the neighbour got (``My neighbor got a puppy, her name is Luna``) is not, and a name with
nothing introduced before it names no one.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from memory_core.formation.deterministic.lexicon import (
    _REL,
    _RELATION_MODIFIERS,
    _RELATION_PLURALS,
    RELATIONS,
)
from memory_core.formation.deterministic.phrases import _Proposal
from memory_core.formation.deterministic.rules_relations import _clean_name, _named_relationship

_NAMING = re.compile(
    r"\b(?:his|her|its|their)\s+(?:names?)\s+(?:is|are)\s+"
    r"(?P<names>(?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?(?:\s*(?:,|and|&)\s*[A-Z][\w'-]*)*))",
    re.IGNORECASE,
)
_INTRODUCED = re.compile(
    r"\b(?P<det>a|an|two|three|four|my|our|new)\s+(?:(?:" + _RELATION_MODIFIERS + r"|new)\s+)*"
    r"(?P<rel>" + _REL + r"|puppies|kittens|bunnies|rabbits|hamsters|parrots|horses|turtles)\b",
    re.IGNORECASE,
)
_USERS = re.compile(
    r"(?:^|[.;!?]\s*|,\s*|\band\s+)(?:(?:so|and|then|finally|just|also)\s+)*(?:I|we)\b"
    r"(?:'ve|'d)?[^.;!?,]*$"
    r"|\b(?:gave|got|bought|brought)\s+(?:me|us)\s+$",
    re.IGNORECASE,
)
"""Before ``a``/``two``: the user's clause (``I got``, ``and we adopted``) or a gift to them."""
_OWNER_WINDOW = 160
"""Characters before the bearer read for whose it is: its own clause, never the whole message
(each naming reads a bounded window, so a long message stays linear)."""
_SINGULAR = {"puppies": "puppy", "kittens": "kitten", "bunnies": "bunny"}


def _singular(rel: str) -> str:
    word = rel.casefold()
    word = _RELATION_PLURALS.get(word) or _SINGULAR.get(word) or word
    if word not in RELATIONS and word.endswith("s") and word[:-1] in RELATIONS:
        return word[:-1]
    return word


def names_given(text: str) -> list[_Proposal]:
    """The relationships a message names after introducing their bearer (see the module)."""
    introduced = list(_INTRODUCED.finditer(text))
    starts = [found.start() for found in introduced]
    out: list[_Proposal] = []
    for naming in _NAMING.finditer(text):
        before = bisect_right(starts, naming.start())
        if not before or "?" in text[naming.start() : naming.end() + 1]:
            continue
        last = introduced[before - 1]
        owned = last["det"].casefold() in ("my", "our")
        window = text[max(0, last.start() - _OWNER_WINDOW) : last.start()]
        if not owned and _USERS.search(window) is None:
            continue  # ``My neighbor got a puppy``: the neighbour's
        rel = _singular(last["rel"])
        for raw in re.split(r"\s*(?:,|\band\b|&)\s*", naming["names"]):
            name = _clean_name(raw)
            if name is not None:
                out.append(_named_relationship(rel, name))
    return out
