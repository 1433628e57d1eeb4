"""The positive rule order and retractions (``I no longer use X``, ``I stopped X-ing``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.phrases import (
    _clean_object,
    _indefinite,
    _p,
    _Proposal,
    _Rule,
    _third_person_object,
    _usable,
    head_phrase,
)
from memory_core.formation.deterministic.rules_effects import _rule_affects, _rule_times_of_day
from memory_core.formation.deterministic.rules_preferences import (
    _rule_have,
    _rule_it_when,
    _rule_not_fan,
    _rule_play,
    _rule_preference,
    _rule_use,
)
from memory_core.formation.deterministic.rules_profile import (
    _rule_be,
    _rule_commute,
    _rule_diet,
    _rule_drive,
    _rule_home,
    _rule_language,
    _rule_origin,
    _rule_work,
)
from memory_core.formation.deterministic.rules_relations import (
    _rule_attribute,
    _rule_decision,
    _rule_relationship,
)
from memory_core.formation.deterministic.rules_values import (
    _rule_drawn,
    _rule_finds,
    _rule_helps,
    _rule_matters,
    _rule_matters_to_do,
    _rule_speaks,
    _rule_whereabouts,
)
from memory_core.text import collapse, third_person

_POSITIVE_RULES: tuple[_Rule, ...] = (
    _rule_home,
    _rule_origin,
    _rule_commute,
    _rule_work,
    _rule_language,
    _rule_not_fan,
    _rule_be,
    _rule_it_when,
    _rule_matters,
    _rule_matters_to_do,
    _rule_finds,
    _rule_helps,
    _rule_affects,
    _rule_times_of_day,
    _rule_speaks,
    _rule_drawn,
    _rule_whereabouts,
    _rule_preference,
    _rule_play,
    _rule_use,
    _rule_drive,
    _rule_diet,
    _rule_have,
    _rule_relationship,
    _rule_attribute,
    _rule_decision,
)

# Retractions: (pattern, how to rebuild the positive clause from the match).
_RETRACTIONS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(r"^I\s+am\s+(?:now\s+)?no\s+longer\s+(?P<rest>.+)$", re.IGNORECASE),
        lambda m: f"I am {m.group('rest')}",
    ),
    (
        re.compile(r"^I\s+am\s+not\s+(?P<rest>.+?)\s+(?:anymore|any\s+more|any\s+longer)$", re.I),
        lambda m: f"I am {m.group('rest')}",
    ),
    (
        re.compile(r"^I\s+(?:have\s+|do\s+)?(?:now\s+)?no\s+longer\s+(?P<rest>.+)$", re.I),
        lambda m: f"I {m.group('rest')}",
    ),
    (
        re.compile(
            r"^I\s+(?:do|did)\s+not\s+(?P<rest>.+?)\s+(?:anymore|any\s+more|any\s+longer)$", re.I
        ),
        lambda m: f"I {m.group('rest')}",
    ),
    (
        re.compile(
            r"^I\s+(?:have\s+)?(?:stopped|quit|gave\s+up|given\s+up)\s+using\s+(?P<rest>.+)$",
            re.I,
        ),
        lambda m: f"I use {m.group('rest')}",
    ),
    (
        re.compile(
            r"^I\s+(?:have\s+)?(?:stopped|quit)\s+working\s+(?P<rest>(?:at|for)\s+.+)$", re.I
        ),
        lambda m: f"I work {m.group('rest')}",
    ),
    (
        re.compile(
            r"^I\s+(?:have\s+)?(?:sold|got\s+rid\s+of|gave\s+away|given\s+away)\s+"
            r"(?P<rest>(?:my|our)\s+.+?)(?:\s+(?:to|for|last|this|yesterday)\s.*)?$",
            re.I,
        ),
        lambda m: f"I have {m.group('rest')}",
    ),
)
_GENERIC_RETRACTION = re.compile(
    r"^I\s+(?:(?:do|did)\s+not\s+(?P<verb1>[a-z]+)(?P<obj1>(?:\s+.+?)?)\s+(?:anymore|any\s+more"
    r"|any\s+longer)|(?:have\s+)?no\s+longer\s+(?P<verb2>[a-z]+)(?P<obj2>(?:\s+.+)?))$",
    re.IGNORECASE,
)
_STOPPED_GERUND = re.compile(
    r"^I\s+(?:have\s+)?(?:stopped|quit|gave\s+up|given\s+up)\s+(?P<gerund>[a-z]+ing)"
    r"(?P<obj>(?:\s+.+)?)$",
    re.IGNORECASE,
)
_NON_RETRACTABLE_VERBS = frozenset(
    {"know", "remember", "think", "want", "need", "care", "understand", "see", "get", "feel"}
)


def _retraction(clause: str) -> list[_Proposal] | None:
    """Read ``clause`` as a retraction; None when it is not one."""
    for pattern, rebuild in _RETRACTIONS:
        match = pattern.match(clause)
        if match is None:
            continue
        positive = _positive(rebuild(match))
        if positive:
            return positive
        break
    stopped = _STOPPED_GERUND.match(clause)
    if stopped is not None and stopped.group("gerund").casefold() != "using":
        gerund = stopped.group("gerund").casefold()
        obj = _third_person_object(_clean_object(stopped.group("obj") or ""))
        if obj and not _usable(obj):
            return []
        statement = collapse(f"User stopped {gerund} {obj}") + "."
        subject = head_phrase(obj) if obj else gerund
        return [_p(BeliefType.USER_MODEL_ATTR, subject, "", obj or gerund, negated=statement)]
    generic = _GENERIC_RETRACTION.match(clause)
    if generic is None:
        return [] if any(p.match(clause) for p, _ in _RETRACTIONS) else None
    verb = (generic.group("verb1") or generic.group("verb2") or "").casefold()
    obj = _clean_object(generic.group("obj1") or generic.group("obj2") or "")
    if verb in _NON_RETRACTABLE_VERBS or not verb.isalpha():
        return []
    obj = _third_person_object(_indefinite(obj)) if obj else ""
    if obj and not _usable(obj):
        return []
    subject = head_phrase(obj) if obj else verb
    predicate = third_person(verb)
    return [
        _p(
            BeliefType.USER_MODEL_ATTR,
            subject,
            predicate,
            obj,
            negated=collapse(f"User no longer {predicate} {obj}") + ".",
        )
    ]


def _positive(clause: str) -> list[_Proposal]:
    for rule in _POSITIVE_RULES:
        proposals = rule(clause)
        if proposals:
            return proposals
    return []
