"""Reading one normalized clause into proposals, and ``it`` resolved against the clause before."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memory_core.domain import BeliefType, Polarity
from memory_core.formation.deterministic.lexicon import _HEAD_STOP
from memory_core.formation.deterministic.phrases import (
    _facet,
    _p,
    _Proposal,
    head_phrase,
    without_contrast,
)
from memory_core.formation.deterministic.retraction import _positive, _retraction
from memory_core.formation.deterministic.rules_clauses import gerund_experience
from memory_core.formation.deterministic.rules_events import event_readings
from memory_core.formation.deterministic.rules_plans import plan_readings
from memory_core.formation.deterministic.rules_preferences import (
    _ATTITUDE,
    _ATTITUDE_PREDICATES,
    _NOT_FAN,
)
from memory_core.formation.deterministic.rules_profile import _DIET_NOT
from memory_core.formation.deterministic.rules_relations import _appositive_relationships
from memory_core.formation.deterministic.rules_team import team_change
from memory_core.formation.deterministic.screening import (
    _ADVERBS,
    _HEDGE_WORDS,
    _HEDGED,
    _normalize_clause,
    _supply_subject,
)
from memory_core.formation.port import USER_STATEMENT_CONFIDENCE
from memory_core.text import (
    TimePhrase,
    collapse,
    gerund,
    gerund_base,
    past_tense,
    resolve_deadlines,
    resolve_time,
    undo_third_person,
)


@dataclass(frozen=True, kw_only=True)
class ClauseReading:
    """What the extractor read in one clause (for tests and diagnostics)."""

    belief_type: BeliefType
    subject: str
    statement: str
    polarity: Polarity
    exclusive: bool
    retracts: str | None
    confidence: float = USER_STATEMENT_CONFIDENCE


def _reading(proposal: _Proposal, polarity: Polarity, at: datetime | None = None) -> ClauseReading:
    retract = polarity is Polarity.RETRACT
    statement = proposal.render_retraction() if retract else proposal.render()
    if proposal.when is not None and not retract:
        when = resolve_time(proposal.when, at, past=proposal.past) if at else proposal.when.phrase
        # a time goes before a contrast: ``... in Austin in 2026, not Denver.``
        body, contrast = without_contrast(_done_that_day(statement, proposal.when).rstrip("."))
        statement = f"{body} {when}{contrast}."
    if at is not None and not retract:
        statement = resolve_deadlines(statement, at, past=proposal.past)
    return ClauseReading(
        belief_type=proposal.belief_type,
        subject=proposal.subject,
        statement=statement,
        polarity=polarity,
        exclusive=proposal.exclusive,
        retracts=(proposal.obj or proposal.subject) if retract else None,
        confidence=proposal.confidence or USER_STATEMENT_CONFIDENCE,
    )


_THAT_DAY = frozenset({"today", "this morning", "this afternoon"})
_ONGOING = re.compile(r"^User\s+(?:is|are)\s+(?P<verb>[a-z]+ing)\b(?P<rest>.*)$")
_A_PLAN = re.compile(r"^\s+to\s+(?!(?:the|a|an|my|their|his|her|our|work|school)\b)\w")


def _done_that_day(statement: str, when: TimePhrase) -> str:
    """``User is kicking off the rewrite`` said ``today``: recorded as done that day (``User
    kicked off the rewrite``), since read later the present says the user is still at it. A
    plan (``is going to call``) and an evening ahead (``tonight``) stay as said."""
    ongoing = _ONGOING.match(statement)
    if when.phrase not in _THAT_DAY or ongoing is None:
        return statement
    base = gerund_base(ongoing["verb"])
    if base is None or (base == "go" and _A_PLAN.match(ongoing["rest"])):
        return statement
    return f"User {past_tense(base)}{ongoing['rest']}"


_NOT_A_STATEMENT = re.compile(r"\b(?:" + _HEDGE_WORDS + r"|would)\b|'ll\b", re.IGNORECASE)
"""The hedges and modals that keep a clause from being a statement, even unread as a plan."""


def _read(text: str, *, events: bool = True) -> list[tuple[_Proposal, Polarity]]:
    """The proposals of one normalized clause, each with its polarity (``events``: read an
    event, activity, plan or feeling when no other rule reads the clause)."""
    # A relation named in apposition is presupposed, not asserted: it holds even under a
    # modal or a negation of the clause's predicate (``My son Leo might start school``).
    named = [(p, Polarity.ASSERT) for p in _appositive_relationships(text)]
    if _HEDGED.search(text):
        plans = plan_readings(text) if events else []
        if plans or not events or _NOT_A_STATEMENT.search(text):
            return named + [(p, Polarity.ASSERT) for p in plans]
        # A plan marker the plan rules do not read (``I started going to boot camps``) is
        # not a hedge; a modal or a hedge still forms nothing.
    change = team_change(text)
    if change is not None:
        replaced = [(change.replacement, Polarity.ASSERT)] if change.replacement else []
        return [(change.retracted, Polarity.RETRACT), *replaced, *named]
    retraction = _retraction(text)
    if retraction is not None:
        return [(p, Polarity.RETRACT) for p in retraction] + named
    negated = (
        r"^I\s+(?:do\s+not|did\s+not|cannot|am\s+not|have\s+not|never"
        r"|(?:have|had|am|was)\s+never)\b"
    )
    if re.match(negated, text, re.IGNORECASE) and not (
        _ATTITUDE.match(text) or _DIET_NOT.match(text) or _NOT_FAN.match(text)
    ):
        return named
    positive = _positive(text) or (
        (event_readings(text) or gerund_experience(text)) if events else []
    )
    return [(p, Polarity.ASSERT) for p in positive] + named


def read_clause(
    clause: str, *, supply_subject: bool = True, at: datetime | None = None
) -> list[ClauseReading]:
    """Read one clause (no hazard screen, no sentence-level filters) into zero or more readings.

    Args:
        clause: One clause of a user turn.
        supply_subject: Read a clause that opens without its subject (``Been living in
            Toronto``) as the user's own statement; off for a dependent participial phrase.
        at: The session clock relative time resolves against (``yesterday`` ->
            ``on 2026-01-04``); without it the phrase is kept as said.
    """
    text = _normalize_clause(clause)
    if not text:
        return []
    if supply_subject:
        text = _supply_subject(text)
    return [_reading(p, polarity, at) for p, polarity in _read(text)]


_PRONOUN_ATTITUDE = re.compile(
    r"^I\s+" + _ADVERBS + r"(?P<verb>like|love|adore|enjoy|hate|dislike|detest|loathe"
    r"|cannot\s+stand|can\s+not\s+stand|do\s+not\s+like|do\s+not\s+enjoy)\s+(?:it|that|this)"
    r"(?:\s+(?:so\s+far|a\s+lot|a\s+bit|so\s+much|there|here))*$",
    re.IGNORECASE,
)
"""``I really like it``: an attitude whose object is a pronoun, resolved to the previous clause."""
_THING_PREDICATES = frozenset({"uses", "has", "owns", "drives", "plays"})


def _antecedent(proposal: _Proposal) -> tuple[str, str] | None:
    """What ``it`` refers to after ``proposal``'s clause, with the subject a preference about it
    takes: the thing for a possession or a tool, the activity (as a gerund) otherwise."""
    if proposal.statement is not None or proposal.belief_type is not BeliefType.USER_MODEL_ATTR:
        return None
    verb, _, particle = proposal.predicate.partition(" ")
    if verb in _THING_PREDICATES:
        thing = _HEAD_STOP.sub("", proposal.obj).strip()
        thing = re.sub(r"^(?:a|an)\s+", "their ", thing, flags=re.IGNORECASE)
        subject = head_phrase(thing)
        return (thing, subject) if thing and subject else None
    if verb in ("is", "was", "no"):
        return None
    activity = collapse(f"{gerund(undo_third_person(verb))} {particle} {proposal.obj}")
    if len(activity.split()) > 6:
        return None
    return activity, _facet(activity) or activity.casefold()


def _resolve_pronoun(text: str, previous: Sequence[_Proposal]) -> list[_Proposal]:
    """Read ``I love it`` against the clause before it in the same turn."""
    match = _PRONOUN_ATTITUDE.match(text)
    if match is None or not previous:
        return []
    resolved = _antecedent(previous[-1])
    if resolved is None:
        return []
    obj, subject = resolved
    predicate = _ATTITUDE_PREDICATES[collapse(match.group("verb")).casefold()]
    return [_p(BeliefType.PREFERENCE, subject, predicate, obj)]
