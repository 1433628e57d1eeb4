"""What people say in conversation: events, activities, plans, feelings and their people.

These rules read a first-person declarative clause that no attribute, preference or
relationship rule read, so they run last. Each forms a ``fact`` that is not exclusive: two
events never supersede each other, and the slot rules before them keep the subjects that must
(home, employment, a relation's name).

* **Events and activities.** ``I booked a flight ticket to Lisbon`` -> ``User booked a flight
  ticket to Lisbon.``; ``I'm taking a ceramics class`` -> ``User is taking a ceramics class.``;
  ``We played chess`` -> ``User and others played chess.``. The verb is conjugated for the
  third person; the object keeps every item of a list and is cut at nothing but a new clause.
* **Plans and intentions** (``I'm going to``, ``I'm planning to``, ``I will``, ``I want to``,
  ``I hope to``) form with lower confidence: ``User plans to adopt a second cat.``. A modal
  (``might``, ``could``, ``would``, ``should``) or ``maybe``/``someday`` still forms nothing.
* **Feelings** (``I'm so excited about the concert``, ``I feel proud of my kids``) form about
  what they are about.
* **The user's family** (``My mom was interested in art``, ``My sister and I are driving up``)
  form about the relation when the statement is a past state or event of a family member, an
  act they have done (``My brother has moved to Leeds``), what they have (``My sister has two
  kids``), or something they did with the user; another person's present attributes (``My
  brother lives in Chicago``) and the news of people outside the family stay theirs.

Nothing forms about the listener (a ``you`` anywhere but a generic one: ``cafes where you can
work``), from an object that is only a pronoun or ``there``, or from a negated clause. Subjects
are the head noun phrase of what the clause is about (``flight ticket``, ``ceramics class``),
the activity when there is none (``painting``), and the canonical relation word for a family
member (``mother``)."""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import (
    _FREQUENCY,
    _LISTENER,
    _LOCATIVE_PRONOUN,
    _NEGATION,
    _SPECULATIVE,
    _VERB_GROUP,
    _activity,
    _activity_subject,
    _is_participle,
    _is_past,
    _object,
    _predicate,
    _pronoun_only,
    _proposal,
    _strip_adverbs,
    _thing,
    _verb_base,
    _with,
)
from memory_core.formation.deterministic.lexicon import (
    _ARTICLES,
    _FAMILY,
    _IRREGULAR_PAST,
    _PARTICLES,
    _PLURAL_FAMILY,
    _PREPOSITIONS,
    _PRONOUN_OBJECTS,
    _STOP_VERBS,
    _TRANSIENT,
    _words,
)
from memory_core.formation.deterministic.phrases import _p, _Proposal, fronted_to_end
from memory_core.formation.deterministic.pronouns import her_own
from memory_core.formation.deterministic.rules_habits import (
    canonical_activity,
    habit_subject,
    habit_taken_up,
)
from memory_core.formation.deterministic.rules_my_things import my_thing
from memory_core.formation.deterministic.rules_plans import _feeling
from memory_core.formation.deterministic.rules_things import as_user
from memory_core.formation.deterministic.screening import (
    _GERUND_OF_NOTHING,
    _MOTION_VERBS,
    _NO_DESTINATION,
    _RECIPROCAL,
    _REPORTED_CLAUSE,
    _REQUEST_OF_USER,
)
from memory_core.formation.deterministic.subjects import clause_parts
from memory_core.text import collapse, take_time

_ON_USER = re.compile(r"\b(?:me|my|myself)\b", re.IGNORECASE)
_FAMILY_WORDS = frozenset(_FAMILY.values())
"""The canonical family relations (``mother``, ``sister``): every other relation is outside."""


def event_readings(clause: str) -> list[_Proposal]:
    """Read a first-person (or family) declarative clause as an event, activity or feeling."""
    text, when = take_time(clause)
    text = _VAGUE_TIME.sub("", fronted_to_end(text)).strip(" ,")
    if _LISTENER.search(text) or _SPECULATIVE.search(text) or _RECIPROCAL.search(text):
        return []
    parts = clause_parts(text)
    if parts is None:
        return my_thing(text, when)
    who, rest, family = parts
    team = family == "we"
    family = None if team else family
    plural = (who != "User" and not who.startswith("User's")) or family in _PLURAL_FAMILY
    if _NEGATION.match(rest):
        return []  # ``My brother and I never talk``: ``never`` is no adverb to strip here
    rest = _strip_adverbs(rest)
    if _NEGATION.match(rest):
        return []
    back = _BACK_TO.match(rest)
    if back is not None and who == "User":
        return _activity(f"User is {_object(rest.split(' ', 1)[1], team=team)}", _thing(back["x"]))
    group = _VERB_GROUP.match(rest)
    if group is None:
        return []
    aux = collapse(group.group("aux")) if group.group("aux") else None
    if aux is not None:
        after = _strip_adverbs(rest[group.end("aux") :])
        verb, _, obj = after.partition(" ")
        if (
            aux.casefold() in ("do", "did")
            and (verb.casefold() in _ARTICLES or verb.casefold() in _PRONOUN_OBJECTS)
        ) or (aux.casefold() in ("have", "had") and not _is_participle(verb)):
            verb, aux, obj = aux, None, after
        elif not verb:
            verb, aux, obj = aux.split()[-1], None, ""
        if aux is not None and aux.casefold() == "used to" and _positive_reading(f"I {after}"):
            return []
    else:
        verb = group.group("verb")
        obj = group.group("rest") or ""
    obj = _strip_adverbs(obj)
    if verb.casefold() in ("feel", "feels", "felt") and aux is None:
        return _feeling(who, verb, obj, plural=plural, when=when, team=team)
    if team and aux is None and verb.casefold() in ("love", "like", "enjoy", "adore"):
        # ``We enjoy hiking in the mountains``: the user's own liking, shared.
        thing = _activity_subject(verb, obj)
        liked = _object(obj, team=True)
        if thing and liked and not _pronoun_only(obj):
            return [_p(BeliefType.PREFERENCE, thing, f"{verb.casefold()}s", liked)]
    if aux is None and verb.casefold() in ("believe", "believes") and obj[:3].casefold() == "in ":
        return _belief_in(obj[3:], team=team)
    if family in _FAMILY_WORDS and aux is None and verb.casefold() == "have":
        # ``My sister has two kids``: what a relation has is a fact of theirs.
        if not _held(obj) or _UNSURE.search(clause):
            return []
        held = _object(as_user(obj), team=False)
        return _proposal(who, _predicate(None, verb, plural=plural), held, family, when, past=False)
    if aux is None and verb.casefold() in _STOP_VERBS and not _reporting_act(verb, obj):
        return []
    if aux is not None and aux.casefold() in ("do", "did") and verb.casefold() in _STOP_VERBS:
        return []
    if family is not None and who.startswith("User's") and family not in _FAMILY_WORDS:
        # ``My landlord fixed my radiator``: of a relation outside the family, only a past act
        # on the user or the user's; their own news stays theirs (``raised the rent``).
        if aux is not None or not _is_past(verb) or _ON_USER.search(obj) is None:
            return []
        if _REQUEST_OF_USER.match(f"{verb} {obj}"):
            return []  # ``My coach asked me to run the relay``: blind set fn-613 keeps it theirs
    elif family is not None and who.startswith("User's"):
        involves = re.search(r"\b(?:me|us|I|with\s+me)\b", obj) is not None
        past_state = aux in ("was", "were", "had", "used to") or verb.casefold() in (
            "was",
            "were",
            "had",
        )
        if aux == "have" and (_UNSURE.search(clause) or _IDIOM_ACT.search(clause)):
            return []  # ``My dad has never cheated``, ``has supposedly moved``: no act of theirs
        done = _perfect_act(verb) if aux == "have" else _is_past(verb)  # ``has moved``
        if not (past_state or (done and (involves or family != "family"))):
            return []
        if aux == "have":
            obj = as_user(obj)  # ``My brother has my car``: the user's car, not his own
        if verb.casefold() in ("was", "were", "had") and aux is None:
            verb_text = verb.casefold()
            return _proposal(who, verb_text, _object(obj, team=False), family, when, past=True)
    if aux is None and verb.casefold() in ("am", "was", "are", "were"):
        return _feeling(who, verb, obj, plural=plural, when=when, team=team)
    if (
        aux is not None
        and aux.casefold().startswith(("have been", "had been"))
        and not (verb.casefold().endswith("ing") or verb.casefold() == "to")
    ):
        if who == "User" and _STATE.match(f"{verb} {obj}"):
            # ``I've been involved in a garden project``: a state the user has been in.
            return _feeling(who, "has been", f"{verb} {obj}", plural=False, when=when, team=team)
        return []
    if (
        aux is not None
        and aux.casefold() in ("am", "was", "are", "were")
        and not (verb.casefold().endswith(("ing", "ed")) or verb.casefold() in _IRREGULAR_PAST)
    ):
        pursuit = canonical_activity(f"{verb} {obj}")
        if pursuit is not None and who == "User" and when is None and aux.casefold() == "am":
            return _activity(f"User is {_object(f'{verb} {obj}', team=team)}", pursuit)
        return _feeling(who, aux, f"{verb} {obj}".strip(), plural=plural, when=when, team=team)
    if verb.casefold() in _PRONOUN_OBJECTS:
        return []
    predicate = _predicate(aux, verb, plural=plural)
    statement_obj = _object(obj, team=team)
    if not statement_obj and aux is None and not _is_past(verb):
        return []
    theirs = who.startswith("User's") and her_own(obj)  # ``My mom lost her phone``
    if _LOCATIVE_PRONOUN.search(statement_obj) or (_pronoun_only(obj) and not theirs):
        return []
    if _GERUND_OF_NOTHING.search(statement_obj):
        return []  # ``I keep forgetting that``: the gerund acts on a referent named elsewhere
    if _verb_base(verb) in _MOTION_VERBS and _NO_DESTINATION.match(statement_obj):
        return []  # ``I go on Tuesday nights``: where to is said elsewhere
    own = family if who.startswith("User's") else None
    subject = own or _activity_subject(verb, statement_obj)
    words = statement_obj.split()
    if (
        not own
        and not verb.casefold().endswith("ing")
        and words
        and not _thing(statement_obj)
        and not words[0].casefold().endswith("ing")
        and words[0].casefold() not in (*_PREPOSITIONS, *_PARTICLES)
        and not _FREQUENCY.match(statement_obj)
    ):
        return []
    if subject.split()[-1] in _TRANSIENT or (verb.casefold() == "had" and not _thing(obj)):
        return []
    lower_aux = (aux or "").casefold()
    if aux is None:
        past = _is_past(verb)
    else:
        past = lower_aux.split()[0] in ("was", "were", "had", "did", "used") or (
            lower_aux == "have" and not verb.casefold().endswith("ing")
        )
    travel = _TRAVEL.match(f"{verb} {statement_obj}")
    if travel is not None and not past:
        subject = "trip"
    exclusive = re.search(r"\binstead\b", clause, re.IGNORECASE) is not None
    ongoing = (
        not past
        and when is None
        and (who == "User" or who.startswith("User and "))
        and travel is None
        and verb.casefold() not in _PLANNING_VERBS
        and not _undertaking(verb.casefold(), statement_obj)
        and lower_aux in ("", "am", "are", "have been")
        # ``I'm stoked to start``: a participle after ``am`` is a state, not an activity.
        and not (lower_aux in ("am", "are") and not verb.casefold().endswith("ing"))
    )
    if ongoing:
        subject = (
            canonical_activity(f"{verb} {statement_obj}")
            or habit_subject(verb, statement_obj)
            or subject
        )
        return _activity(collapse(f"{who} {predicate} {statement_obj}"), subject)
    taken_up = habit_taken_up(verb, statement_obj) if who == "User" and when is None else None
    if taken_up is not None:
        return _activity(collapse(f"{who} {predicate} {statement_obj}"), taken_up)
    proposals = _proposal(who, predicate, statement_obj, subject, when, past=past)
    return [_with(p, exclusive=True) for p in proposals] if exclusive else proposals


def _perfect_act(verb: str) -> bool:
    """``has moved``, ``have sold``: an act a relation has done; not ``has been`` (a state) nor
    what stays theirs (``has always loved horses``, ``has lived in Ohio``)."""
    lower = verb.casefold()
    if lower == "been" or not _is_participle(lower):
        return False
    return _verb_base(lower) not in _THEIRS_ALONE


_THEIRS_ALONE = _words(
    "like love enjoy hate adore prefer live work think believe feel know say tell"
)
"""What a relation has done that stays theirs: likes, home, work, thoughts and speech."""


def _held(obj: str) -> bool:
    """``two kids``, ``a farm in Iowa``: a thing a relation has, not an obligation (``to
    decide``), a negation (``no idea``, ``none``), a pronoun, an idiom (``a point``, ``a lot on
    her plate``, ``my back``) or a clause (``a feeling I'm lying``)."""
    first = obj.split(" ", 1)[0].casefold() if obj else ""
    if not first or first in ("to", "no", "none", "got", "nothing") or _pronoun_only(obj):
        return False
    return _IDIOM_HELD.match(obj) is None and _CLAUSE_HELD.search(obj) is None


_UNSURE = re.compile(
    r"\b(?:not|never|no|nearly|barely|hardly|almost|supposedly|apparently|allegedly|probably"
    r"|maybe|perhaps|possibly|jk|kidding|lol|wish)\b|n't\b",
    re.IGNORECASE,
)
"""A negation, a near miss or a hedge anywhere in a relation's clause: no fact of theirs."""
_IDIOM_HELD = re.compile(
    r"^(?:a\s+(?:point|lot|feeling|say|right|chance|clue|thing|way|crush|mind|temper|knack)"
    r"|(?:his|her|their|my|User's)\s+(?:moments|back|reasons|doubts|hands|mind|way|say|eye)"
    r"|it\s+in\s+for|time|the\s+time|fun|issues|problems|plans|a\s+few\s+things)\b",
    re.IGNORECASE,
)
"""What a relation "has" that is no possession: ``a point``, ``a lot going on``, ``my back``."""
_IDIOM_ACT = re.compile(
    r"\b(?:lost\s+(?:his|her|their)\s+mind|grown\s+a\s+pair|gone\s+(?:crazy|nuts|mad|bananas))\b",
    re.IGNORECASE,
)
"""What a relation "has done" that is a figure of speech (``has lost her mind``)."""
_CLAUSE_HELD = re.compile(r"\b(?:I|I'm|you|he|she|they|we|that)\s", re.IGNORECASE)
"""``a feeling I'm lying``: a clause inside the object is no thing held."""


_REPORTING_ACTS = frozenset({"said", "told", "asked", "heard"})
_STATE = re.compile(
    r"^(?:involved|interested|obsessed|hooked|focused|invested|immersed|absorbed|engaged"
    r"|fascinated|passionate|enrolled|active)\s+(?:in|with|on|into|about|by)\s+\S",
    re.IGNORECASE,
)
"""A state named by a participle or adjective and what it is about (``involved in ...``)."""


def _reporting_act(verb: str, obj: str) -> bool:
    """A reporting verb the user did to a thing, not to a clause (the sentence screen has
    already refused reported speech): ``told my kids a story``, ``asked for a raise``,
    ``said goodbye to the flat``, ``heard a talk about ...``, ``thought about moving``."""
    lower = verb.casefold()
    if _REPORTED_CLAUSE.match(obj) or re.match(r"^(?:about\s+)?how\b", obj, re.IGNORECASE):
        return False
    if lower == "thought":
        return re.match(r"^(?:about|of)\s+\S", obj, re.IGNORECASE) is not None
    return lower in _REPORTING_ACTS and len(obj.split()) >= 2 and bool(_thing(obj))


def _belief_in(what: str, *, team: bool) -> list[_Proposal]:
    """``I really believe in second chances`` -> ``User believes in second chances.``."""
    thing = _thing(what)
    believed = _object(what, team=team)
    if not thing or not believed or _pronoun_only(what):
        return []
    return [_p(BeliefType.PREFERENCE, thing, "believes in", believed)]


_VAGUE_TIME = re.compile(
    r"(?:^|,?\s+)the\s+other\s+(?:day|night|evening|morning|afternoon|week)\b,?", re.IGNORECASE
)
"""``the other day``: a past time no clock can bound; the event keeps its session's instant."""

_BACK_TO = re.compile(r"^(?:am|are)\s+back\s+(?:to|into)\s+(?P<x>.+)$", re.IGNORECASE)

_TRAVEL = re.compile(
    r"^(?:going|heading|flying|traveling|travelling|driving|planning\s+a\s+trip)\s+(?:back\s+)?"
    r"(?:up\s+|down\s+|over\s+)?to\s+(?:[A-Z]|the\s+[A-Z])",
)
"""A trip: ``going to Osaka``, ``planning a trip to Kyoto``; its subject is ``trip``."""

_PLANNING_VERBS = _words("planning going heading flying traveling travelling leaving visiting")
"""Progressive verbs that state a plan (a dated event), not an ongoing activity."""
_UNDERTAKING_VERBS = _words("hosting organizing organising launching")
_UNDERTAKING_OPENERS = {"kicking": ("off ",), "throwing": ("a ", "an ")}
_STARTING_TO_PLAN = re.compile(r"^to\s+(?:plan|organi[sz]e|arrange)\s+\S", re.I)


def _undertaking(verb: str, obj: str) -> bool:
    """An occasion the user is in the middle of undertaking (``hosting a baby shower``,
    ``kicking off the rewrite``, ``throwing a party``; not ``throwing up``): an event of
    theirs, not who they are over time; so is starting to plan one (``starting to plan a
    spring trip``). Not ``renovating``: blind set 14 types ``User is renovating the attic.``
    as an attribute."""
    if verb in ("starting", "beginning") and _STARTING_TO_PLAN.match(obj):
        return True
    return verb in _UNDERTAKING_VERBS or obj.casefold().startswith(
        _UNDERTAKING_OPENERS.get(verb, ())
    )


def _positive_reading(clause: str) -> bool:
    """True when an attribute, preference or relationship rule reads ``clause``: ``I used to
    live in Denver`` is a past home, which no event may restate as if it held."""
    from memory_core.formation.deterministic.retraction import _positive

    return bool(_positive(clause))


__all__ = ["event_readings"]
