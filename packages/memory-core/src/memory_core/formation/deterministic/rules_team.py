"""A team changing what it decided: ``We dropped Kafka``, ``We switched from X to Y``.

A project decision (``The team decided to use Kafka to feed the indexer.``, read by
:func:`~memory_core.formation.deterministic.rules_relations._rule_decision`) is retired when
the user says the team let the named thing go: the clause forms a retraction of the team's
project decisions whose statement names it, resolved like any retraction (same type and
subject, a statement naming everything retracted). When the clause also says what replaced it
(``We ditched Heroku and moved to Fly.io``, ``We switched from Tailwind to CSS modules``,
``We replaced Mailgun with Postmark``) it forms that as the current decision too, after the
retraction, so the new decision is not retired by its own clause.

Only a capitalised name is retracted, so ``we dropped the kids off`` or ``we dropped the
retention to two days`` retracts nothing, and a household move (``We moved from Austin to
Denver``) is no change of a team decision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.phrases import _p, _Proposal, _third_person_object
from memory_core.text import collapse

DECISION_SUBJECT = "project decision"
"""The subject every project decision forms under."""

_OPENER = (
    r"(?i:(?:(?:about|re|regarding|on)\s+[^:]{1,60}:\s+)?"
    r"(?:(?:scratch\s+that|change\s+of\s+plan|update|actually)[,:;]?\s+)?)"
)
"""What may stand before the team: a topic (``About the reminders:``) and a change marker."""
_TEAM = (
    _OPENER + r"(?i:(?:we|the\s+team|our\s+team)\s+(?:have\s+|has\s+|are\s+|is\s+)?"
    r"(?:(?:just|finally|officially|now)\s+)?)"
)
_NAME = r"(?P<thing>[A-Z][\w.+#-]*(?:\s+[A-Z][\w.+#-]*){0,2})"
_WHEN = r"(?i:\s+(?:last|this)\s+(?:week|month|sprint|quarter))?"

_DROPPED = re.compile(
    r"^" + _TEAM + r"(?P<verb>(?i:dropped|ditched|scrapped|abandoned))"
    r"\s+" + _NAME + _WHEN + r"(?P<for_now>(?i:\s+for\s+now))?"
    r"(?P<tail>(?i:\s+and\s+(?:moved|switched|went)\s+(?:over\s+)?to"
    r"|\s+in\s+favou?r\s+of)\s+(?P<new>\S.*))?$"
)
"""Only verbs that retire a choice: ``we stopped using Netflix`` or ``we moved off Slack``
stay the household's events; ``dropped Kafka for now`` retires it with no replacement."""
_NOT_USING = re.compile(
    r"^"
    + _TEAM
    + r"(?P<verb>(?i:no\s+longer\s+using|not\s+using))\s+"
    + _NAME
    + r"(?P<anymore>(?i:\s+(?:anymore|any\s+more|any\s+longer)))?$"
)
_SWITCHED = re.compile(
    r"^"
    + _TEAM
    + r"(?P<verb>(?i:switched|migrated))\s+(?i:from)\s+"
    + _NAME
    + r"\s+(?i:to)\s+(?P<new>\S.*)$"
)
_REPLACED = re.compile(
    r"^" + _TEAM + r"(?P<verb>(?i:replaced))\s+" + _NAME + r"\s+(?i:with)\s+(?P<new>\S.*)$"
)


@dataclass(frozen=True, kw_only=True)
class TeamChange:
    """What a clause changes: the retraction, then the decision that replaces it, if any."""

    retracted: _Proposal
    replacement: _Proposal | None


def _decision(thing: str, statement: str) -> _Proposal:
    return _p(
        BeliefType.FACT,
        DECISION_SUBJECT,
        "",
        thing,
        exclusive=False,
        statement=statement,
        negated=statement,
    )


def _new_thing(text: str) -> str:
    """What replaced the dropped thing, as said (``Fly.io``, ``plain CSS modules``)."""
    return _third_person_object(text, team=True).rstrip(" .!")


def _said(clause: str) -> str:
    """The clause as the team's statement: ``The team ...`` with its pronouns third-person."""
    body = re.sub(r"^" + _OPENER, "", clause)
    body = re.sub(r"^(?i:we|the\s+team|our\s+team)\s+", "", body)
    return collapse(f"The team {_third_person_object(body, team=True)}").rstrip(" .") + "."


def team_change(clause: str) -> TeamChange | None:
    """Read a normalized clause as the team dropping, or replacing, a named thing."""
    dropped = _DROPPED.match(clause)
    if dropped is not None:
        thing, verb = dropped.group("thing"), collapse(dropped.group("verb")).casefold()
        for_now = dropped.group("for_now") or ""
        retracted = _decision(thing, f"The team {verb} {thing}{for_now}.")
        new = dropped.group("new")
        replaced = _decision(_new_thing(new), _said(clause)) if new else None
        return TeamChange(retracted=retracted, replacement=replaced)
    not_using = _NOT_USING.match(clause)
    if not_using is not None:
        thing = not_using.group("thing")
        verb = collapse(not_using.group("verb")).casefold()
        if verb.startswith("not") and not not_using.group("anymore"):
            return None  # ``we're not using Redis`` may be a plan, not a change
        ending = " anymore" if verb.startswith("not") else ""
        return TeamChange(
            retracted=_decision(thing, f"The team is {verb} {thing}{ending}."), replacement=None
        )
    for pattern in (_SWITCHED, _REPLACED):
        match = pattern.match(clause)
        if match is not None:
            thing = match.group("thing")
            return TeamChange(
                retracted=_decision(thing, f"The team dropped {thing}."),
                replacement=_decision(_new_thing(match.group("new")), _said(clause)),
            )
    return None


__all__ = ["DECISION_SUBJECT", "TeamChange", "team_change"]
