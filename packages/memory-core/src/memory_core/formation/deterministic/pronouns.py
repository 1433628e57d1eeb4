"""How a statement names the people a message named: ``him`` and ``her`` in the user's own
statement as that person, and a titled person by title and surname (``Dr. Mehta``)."""

from __future__ import annotations

import re

from memory_core.formation.deterministic.lexicon import _PREPOSITIONS, _words

_TITLE = r"(?:Dr|Mr|Mrs|Ms|Mx|Prof|Professor)\.?"
_OBJECT_PRONOUN = re.compile(r"\b(?:him|her)\b(?=\s*(?P<next>[\w'-]*))")
_NOT_OWNED = _words(
    """a an the some any this that these those my their our his its again too back up out off
    down over away home today tonight yesterday tomorrow last next every each all so very"""
)
"""Words after ``her`` that make it an object (``gave her some flowers``), not a possessive."""
_BARE_VERB_TAKERS = re.compile(r"\b(?:help|helped|helps|let|made|make|watched|saw|heard)\s+her$")


def her_own(obj: str) -> bool:
    """True when ``her`` opens the object as a possessive (``her own clothes``, ``her phone``)."""
    words = obj.casefold().split()
    return len(words) > 1 and words[0] == "her" and words[1] not in _NOT_OWNED


def with_person_named(statement: str, names: list[str]) -> str | None:
    """The user's statement with ``him``/``her`` as the person the message named, when it named
    exactly one (``User sat with her.`` -> ``User sat with Rosa.``); None when the pronoun is
    an object and the message named no one or several, since the statement then names no one.
    ``her`` before a noun is a possessive: it becomes ``Rosa's`` or stays."""
    people = list(dict.fromkeys(names))
    out: list[str] = []
    end = 0
    for match in _OBJECT_PRONOUN.finditer(statement):
        following = match["next"].casefold()
        possessive = (
            match[0] == "her"
            and bool(following)
            and following not in _NOT_OWNED
            and following not in _PREPOSITIONS
            and _BARE_VERB_TAKERS.search(statement[: match.end()]) is None
        )
        if len(people) != 1:
            if not possessive:
                return None
            continue
        out.append(statement[end : match.start()])
        out.append(f"{people[0]}'s" if possessive else people[0])
        end = match.end()
    return "".join(out) + statement[end:] if out else statement


def _title_surname(name: str) -> str | None:
    """A titled person's title and surname (``Dr. Ama Boateng`` -> ``Dr. Boateng``): how a
    pronoun writes them and, folded, their subject; None for a name with no title."""
    words = name.split()
    if re.match(_TITLE + "$", words[0]) and len(words) > 1:
        return f"{words[0]} {words[-1]}"
    return None


def _referent(name: str, *, person: bool = True) -> str:
    """How people refer to a person: a title and the surname, or the given name; two people
    named together (``Hana and Mei``) by the first of them; a name the message did not
    introduce as someone's (``Harbor Analytics``) is kept whole."""
    first, joined, _ = name.partition(" and ")
    if joined:
        return _referent(first)
    if (titled := _title_surname(name)) is not None:
        return titled.casefold()
    return name.split()[0].casefold() if person else name.casefold()


__all__ = ["her_own", "with_person_named"]
