"""What the thing the user just named is: ``It's a Trek hybrid`` after ``I bought a new bike``.

``it`` is the thing the clause before named in the same turn (the antecedent the evaluation
rule reads: ``the new bike``, ``Piranesi``), so ``It's a X`` says what that thing is: ``The
new bike is a Trek hybrid.``. ``It's a shame``, ``It's a deal`` and ``It was a great day`` are
remarks, not identities, and ``that``/``this`` more often point at the talk than at a thing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import (
    _LISTENER,
    _NEGATED,
    _SPECULATIVE,
    EVENT_CONFIDENCE,
)
from memory_core.formation.deterministic.lexicon import _words
from memory_core.formation.deterministic.phrases import _Proposal, head_phrase
from memory_core.formation.deterministic.rules_clauses import _EVALUATIVE, _antecedent_thing
from memory_core.formation.deterministic.rules_things import as_user
from memory_core.text import collapse

_IDENTITY = re.compile(
    r"^(?:and\s+)?it(?P<be>'s|\s+is|\s+was)\s+(?P<np>(?:a|an)\s+[^;:]+)$", re.IGNORECASE
)
_REMARKS = _words(
    """shame pity deal date must blast relief joke mess nightmare dream win pleasure start
    thing story lot bit way sign miracle challenge process journey struggle game changer
    game-changer lifesaver reminder nudge testament mix part piece step honor honour privilege
    chance bummer drag hit wrap wrap-up keeper classic favorite favourite winner success
    treasure gem"""
)
"""Heads of what ``it's a ...`` says of a situation (``It's a shame``, ``It was a blast``)."""
_MAX_WORDS = 12


def is_remark(np: str) -> bool:
    """True when ``a ...`` says nothing of what a thing is: a remark on a situation (``a
    shame``, ``a real treasure``), an evaluation (``a great day``), a negation, or too long."""
    words = [w.strip(",").casefold() for w in np.split()]
    return (
        _NEGATED.search(np) is not None
        or len(words) > _MAX_WORDS
        or any(w in _EVALUATIVE or w in _REMARKS for w in words[1:3])
    )


def resolved_identity(clause: str, previous: Sequence[_Proposal]) -> list[_Proposal]:
    """``It's a Trek hybrid`` after ``User bought a new bike.`` -> ``The new bike is a Trek
    hybrid.`` (see the module docstring); nothing without a thing named before it."""
    match = _IDENTITY.match(clause.rstrip(" .!"))
    if match is None or not previous or _LISTENER.search(clause) or _SPECULATIVE.search(clause):
        return []
    np = collapse(match["np"])
    if is_remark(np):
        return []
    thing = _antecedent_thing(previous[-1])
    if thing is None:
        return []
    subject = head_phrase(re.sub(r"^the\s+", "", thing, flags=re.IGNORECASE))
    thing = re.sub(r"^their\b", "User's", thing, flags=re.IGNORECASE)  # the user's own
    opening = thing[:1].upper() + thing[1:]
    be = "was" if match["be"].strip().casefold() == "was" else "is"
    return [
        _Proposal(
            belief_type=BeliefType.FACT,
            subject=subject,
            predicate=be,
            obj=np,
            exclusive=False,
            statement=f"{opening} {be} {as_user(np)}.",
            confidence=EVENT_CONFIDENCE,
        )
    ]
