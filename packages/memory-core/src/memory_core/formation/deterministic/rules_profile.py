"""Rules for the user's single-valued attributes: home, origin, work, role, team, commute,
vehicle, languages, diet, and what ``I am ...`` states."""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.lexicon import (
    _DIETS,
    _EMPLOYER_CUT,
    _HANDEDNESS,
    _HEAD_STOP,
    _HEALTH_ADJECTIVES,
    _NAME,
    _NATIONALITIES,
    _PLACE_CUT,
    _ROLE_NOUNS,
)
from memory_core.formation.deterministic.phrases import (
    _I,
    _clean_object,
    _indefinite,
    _named,
    _p,
    _Proposal,
    _third_person_object,
    _usable,
    head_phrase,
)
from memory_core.text import WEEKDAYS as _WEEKDAY_NAMES
from memory_core.text import collapse

_LIVE = re.compile(
    _I + r"(?:live|am\s+living|have\s+been\s+living|have\s+lived|reside|am\s+based"
    r"|have\s+been\s+based|am\s+located|(?:have\s+)?(?:just\s+)?(?:moved|relocated)"
    r"(?:\s+(?:back|over))?(?:\s+from\s+[^,;]+?(?=\s+(?:to|out\s+to)\s))?)"
    r"\s+(?P<prep>in|to|at|out\s+to)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)


def _rule_home(clause: str) -> list[_Proposal]:
    match = _LIVE.match(clause)
    if match is None:
        return []
    obj = _clean_object(match.group("obj"), cut=_PLACE_CUT)
    if not _usable(obj) or not (_named(obj, clause) or obj.casefold().startswith("the ")):
        return []
    prep = "at" if match.group("prep").casefold() == "at" else "in"
    return [_p(BeliefType.USER_MODEL_ATTR, "home location", f"lives {prep}", obj)]


_ORIGIN = re.compile(
    _I + r"(?:am\s+(?:originally\s+)?from|come\s+from|grew\s+up\s+in|was\s+born\s+in)\s+"
    r"(?P<obj>[A-Z].+)$",
    re.IGNORECASE,
)


def _rule_origin(clause: str) -> list[_Proposal]:
    match = _ORIGIN.match(clause)
    if match is None or not match.group("obj")[:1].isupper():
        return []
    obj = _clean_object(match.group("obj"), cut=_PLACE_CUT)
    if not _usable(obj):
        return []
    verb = re.search(r"(from|grew\s+up\s+in|born\s+in)", clause, re.IGNORECASE)
    phrase = collapse(verb.group(1)).casefold() if verb else "from"
    predicate = {"from": "is from", "grew up in": "grew up in", "born in": "was born in"}[phrase]
    return [_p(BeliefType.USER_MODEL_ATTR, "hometown", predicate, obj)]


_WORK = re.compile(
    _I + r"(?:work|am\s+working|have\s+been\s+working|am\s+employed|am\s+currently\s+employed)"
    r"\s+(?P<prep>at|for|by|with)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_JOINED = re.compile(
    _I + r"(?:have\s+)?(?:just\s+)?(?:joined|started\s+(?:a\s+new\s+job\s+)?at"
    r"|started\s+working\s+(?:at|for)|got\s+a\s+(?:new\s+)?job\s+(?:at|with))\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_TEACH = re.compile(
    _I + r"(?:teach|am\s+teaching|have\s+been\s+teaching)\s+(?P<what>[\w\s'-]{1,40}?)"
    r"\s+(?P<prep>at|for)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
"""``I teach biology at Riverside High``: a job at a named place (what is taught stays in the
statement)."""
_WORK_AS = re.compile(_I + r"(?:work|am\s+working)\s+as\s+(?P<obj>.+)$", re.IGNORECASE)
_ARRANGEMENT = re.compile(
    _I + r"(?:work|am\s+working)\s+(?P<obj>remotely|from\s+home|from\s+the\s+office"
    r"|in\s+the\s+office|on-?site|hybrid|part[-\s]time|full[-\s]time|night\s+shifts?|nights"
    r"|weekends)\b(?P<days>\s+on\s+(?:\w+days?|weekends?)(?:(?:,\s*|\s+and\s+)\w+days?)*\b)?",
    re.IGNORECASE,
)
"""``I work from home on Mondays and Fridays``: the arrangement, with the days it holds on."""
_DAY_WORDS = frozenset(
    {*_WEEKDAY_NAMES, *(f"{day}s" for day in _WEEKDAY_NAMES)}
    | {"weekday", "weekdays", "weekend", "weekends"}
)
"""The words a work arrangement's days are named with (``Mondays``, ``weekends``)."""


_WORK_IN_TEAM = re.compile(
    _I + r"(?:work|am\s+working|have\s+been\s+working)\s+(?P<rest>(?:on|in)\s+.+)$",
    re.IGNORECASE,
)


def _rule_work(clause: str) -> list[_Proposal]:
    if (match := _WORK_IN_TEAM.match(clause)) is not None and (
        team := _team_membership(collapse(match.group("rest")))
    ):
        return team
    if (match := _WORK.match(clause)) is not None:
        obj = _clean_object(match.group("obj"), cut=_EMPLOYER_CUT)
        if not _usable(obj) or not _named(obj, clause):
            return []
        prep = match.group("prep").casefold()
        prep = "for" if prep in ("for", "by") else "at"
        obj = _third_person_object(obj)
        return [_p(BeliefType.USER_MODEL_ATTR, "employment", f"works {prep}", obj)]
    if (match := _JOINED.match(clause)) is not None:
        obj = _clean_object(match.group("obj"), cut=_EMPLOYER_CUT)
        if not _usable(obj) or not _named(obj, clause):
            return []
        return [_p(BeliefType.USER_MODEL_ATTR, "employment", "works at", obj)]
    if (match := _TEACH.match(clause)) is not None:
        obj = _clean_object(match.group("obj"), cut=_EMPLOYER_CUT)
        what = collapse(match.group("what"))
        if _usable(obj) and _named(obj, clause) and what.split()[0].casefold() not in ("my", "a"):
            place = f"{what} {match.group('prep').casefold()} {_third_person_object(obj)}"
            return [_p(BeliefType.USER_MODEL_ATTR, "employment", "teaches", place)]
    if (match := _WORK_AS.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")))
        if not _usable(obj):
            return []
        subject = "employment" if re.search(r"\s(?:at|for)\s+[A-Z]", obj) else "role"
        return [_p(BeliefType.USER_MODEL_ATTR, subject, "works as", obj)]
    if (match := _ARRANGEMENT.match(clause)) is not None:
        obj = collapse(match.group("obj"))
        days = match.group("days")
        if days and all(
            w.casefold() in _DAY_WORDS for w in re.findall(r"\w+", days)[1:] if w != "and"
        ):
            obj = f"{obj} {collapse(days)}"
        return [_p(BeliefType.USER_MODEL_ATTR, "work arrangement", "works", obj)]
    return []


_BE = re.compile(_I + r"(?:am|have\s+been)\s+(?P<obj>.+)$", re.IGNORECASE)


_TEAM = re.compile(
    r"^(?:(?:a\s+)?(?:member|part)\s+of|on|in)\s+(?P<team>(?:the|our|my)\s+(?:[\w&/+.-]+\s+){1,4}?"
    r"(?:team|squad|group|crew))(?:\s+(?:at|for)\s+(?P<org>[A-Z][^,;]*))?(?:[,;].*)?$"
)


def _team_membership(raw: str) -> list[_Proposal]:
    """``on the platform team at Shopify`` -> employment; ``on the platform team`` -> team."""
    match = _TEAM.match(raw)
    if match is None:
        return []
    team = re.sub(r"^(?:our|my)\s+", "the ", collapse(match.group("team")), flags=re.I)
    org = match.group("org")
    if org is None:
        return [_p(BeliefType.USER_MODEL_ATTR, "team", "is on", team)]
    employer = _clean_object(org, cut=_EMPLOYER_CUT)
    if not _usable(employer):
        return []
    return [_p(BeliefType.USER_MODEL_ATTR, "employment", "is on", f"{team} at {employer}")]


_ON_DUTY = re.compile(
    r"^(?P<duty>on\s+(?:call|sabbatical|(?:(?:parental|maternity|paternity|medical|sick)\s+)?leave))"
    r"\b",
    re.IGNORECASE,
)


def _rule_be(clause: str) -> list[_Proposal]:
    match = _BE.match(clause)
    if match is None:
        return []
    raw = collapse(match.group("obj"))
    lowered = raw.casefold().rstrip(" .!")
    if team := _team_membership(raw):
        return team
    if into := re.match(r"^(?:(?:very|really|super|so)\s+)?into\s+(.+)$", raw, re.I):
        obj = _third_person_object(_clean_object(into.group(1)))
        subject = head_phrase(obj)
        if not _usable(obj) or not subject:
            return []
        return [_p(BeliefType.PREFERENCE, subject, "is into", obj)]
    if (duty := _ON_DUTY.match(raw)) is not None:
        # ``I'm on call for the payments team``: a duty the user holds, under its own subject.
        obj = _third_person_object(_clean_object(raw))
        return [_p(BeliefType.USER_MODEL_ATTR, collapse(duty["duty"]).casefold(), "is", obj)]
    nationality = _clean_object(raw)
    if nationality in _NATIONALITIES:
        return [_p(BeliefType.USER_MODEL_ATTR, "nationality", "is", nationality, exclusive=False)]
    if allergy := re.match(r"^(?:very\s+|severely\s+|mildly\s+)?allergic\s+to\s+(.+)$", raw, re.I):
        obj = _clean_object(allergy.group(1))
        if not _usable(obj):
            return []
        return [_p(BeliefType.USER_MODEL_ATTR, "allergies", "is allergic to", obj, exclusive=False)]
    if fluent := re.match(r"^(?:fluent|native)\s+in\s+(.+)$", raw, re.I):
        return [
            _p(BeliefType.USER_MODEL_ATTR, "languages", "is fluent in", lang, exclusive=False)
            for lang in _languages(fluent.group(1))
        ]
    if learning := re.match(r"^(?:currently\s+)?learning\s+(.+)$", raw, re.I):
        obj = _clean_object(learning.group(1))
        if not _usable(obj) or not obj[:1].isupper():
            return []
        return [_p(BeliefType.USER_MODEL_ATTR, head_phrase(obj), "is learning", obj)]
    if age := re.match(r"^(\d{1,3})(?:\s+years?\s+old|\s+y/?o)?$", lowered):
        return [_p(BeliefType.USER_MODEL_ATTR, "age", "is", f"{age.group(1)} years old")]
    if married := re.match(r"^(?:happily\s+)?married(?:\s+to\s+" + _NAME + r")?", raw):
        name = married.group("name")
        if name:
            return [_p(BeliefType.RELATIONSHIP, "spouse", "is married to", name)]
        if lowered.startswith("married"):
            return [_p(BeliefType.RELATIONSHIP, "spouse", "is", "married")]
    if fan := re.match(r"^(?:a\s+)?(?:big\s+|huge\s+|massive\s+)?fan\s+of\s+(.+)$", raw, re.I):
        obj = _third_person_object(_clean_object(fan.group(1)))
        if not _usable(obj):
            return []
        return [_p(BeliefType.PREFERENCE, head_phrase(obj), "is a fan of", obj)]
    adjective = re.sub(r"^(?:a|an)\s+", "", _clean_object(lowered))
    if adjective in _DIETS:
        return [_p(BeliefType.USER_MODEL_ATTR, "diet", "is", adjective)]
    if adjective in _HEALTH_ADJECTIVES:
        return [_p(BeliefType.USER_MODEL_ATTR, "health", "is", adjective, exclusive=False)]
    if adjective in _HANDEDNESS:
        return [_p(BeliefType.USER_MODEL_ATTR, "handedness", "is", adjective)]
    return _role_reading(raw)


def _role_reading(raw: str) -> list[_Proposal]:
    match = re.match(r"^(?P<det>a|an|the)\s+(?P<np>.+)$", raw, re.IGNORECASE)
    if match is None:
        return []
    obj = _third_person_object(_clean_object(raw))
    np_only = _HEAD_STOP.sub("", _clean_object(match.group("np")))
    words = np_only.casefold().split()
    if not words or words[-1] not in _ROLE_NOUNS or len(words) > 5:
        return []
    subject = "employment" if re.search(r"\s(?:at|for|of)\s+[A-Z]", obj) else "role"
    return [_p(BeliefType.USER_MODEL_ATTR, subject, "is", obj)]


_DRIVE = re.compile(_I + r"drive\s+(?P<obj>(?:a|an|the|my)\s+.+)$", re.IGNORECASE)


def _rule_drive(clause: str) -> list[_Proposal]:
    match = _DRIVE.match(clause)
    if match is None:
        return []
    obj = _third_person_object(_indefinite(_clean_object(match.group("obj"))))
    if not _usable(obj):
        return []
    return [_p(BeliefType.USER_MODEL_ATTR, "vehicle", "drives", obj)]


_SPEAK = re.compile(_I + r"(?:speak|can\s+speak)\s+(?P<obj>.+)$", re.IGNORECASE)


def _languages(raw: str) -> list[str]:
    obj = _clean_object(raw)
    obj = re.sub(r"\s+(?:fluently|natively|well|a\s+little|a\s+bit)$", "", obj, flags=re.I)
    parts = [p.strip() for p in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", obj) if p.strip()]
    languages: list[str] = []
    for part in parts:
        words = _LANGUAGE_QUALIFIER.sub("", part).split()
        # A language is a proper noun: every word capitalized (``Brazilian Portuguese``), so
        # ``getting by in Spanish`` is not one and is left out.
        if words and len(words) <= 4 and all(w[:1].isupper() for w in words):
            languages.append(" ".join(words))
    return languages


_LANGUAGE_QUALIFIER = re.compile(
    r"^(?:a\s+(?:bit|little)\s+of|a\s+little|some|basic|conversational|broken|decent|good"
    r"|fluent|native)\s+",
    re.IGNORECASE,
)


def _rule_language(clause: str) -> list[_Proposal]:
    if (match := _SPEAK.match(clause)) is not None:
        return [
            _p(BeliefType.USER_MODEL_ATTR, "languages", "speaks", lang, exclusive=False)
            for lang in _languages(match.group("obj"))
        ]
    native = re.match(
        r"^My\s+(?:native|first|mother)\s+(?:language|tongue)\s+is\s+(?P<obj>[A-Z]\w+)",
        clause,
        re.IGNORECASE,
    )
    if native is not None and native.group("obj")[:1].isupper():
        obj = native.group("obj")
        return [
            _p(
                BeliefType.USER_MODEL_ATTR,
                "native language",
                "",
                obj,
                statement=f"User's native language is {obj}.",
                negated=f"User's native language is no longer {obj}.",
            )
        ]
    return []


_DIET_NOT = re.compile(_I + r"(?:do\s+not|never)\s+eat\s+(?P<obj>[a-z][\w\s-]*)$", re.IGNORECASE)


def _rule_diet(clause: str) -> list[_Proposal]:
    match = _DIET_NOT.match(clause)
    if match is None:
        return []
    obj = _clean_object(match.group("obj"))
    if not _usable(obj):
        return []
    return [
        _p(
            BeliefType.USER_MODEL_ATTR,
            "dietary restrictions",
            "does not eat",
            obj,
            exclusive=False,
            negated=f"User eats {obj} again.",
        )
    ]


_COMMUTE_MODES = (
    ("ride\\s+(?:my|a|the)\\s+(?:bike|bicycle)", "bikes"),
    ("bike", "bikes"),
    ("cycle", "cycles"),
    ("walk", "walks"),
    ("run", "runs"),
    ("drive", "drives"),
    ("carpool", "carpools"),
    ("skate", "skates"),
    ("scooter", "scooters"),
    ("commute", "commutes"),
)
_TRANSIT = r"train|bus|subway|tube|metro|tram|ferry|light\s+rail|streetcar|shuttle"
_COMMUTE = re.compile(
    _I + r"(?:(?P<mode>ride\s+(?:my|a|the)\s+(?:bike|bicycle)|bike|cycle|walk|run|drive|carpool"
    r"|skate|scooter|commute)|take\s+(?P<transit>(?:the|a)\s+(?:" + _TRANSIT + r")))"
    r"\s+(?:in\s+)?to\s+(?P<dest>work|school|campus|class|uni|university|college|the\s+office"
    r"|my\s+office|my\s+job|the\s+lab)\b",
    re.IGNORECASE,
)
_COMMUTE_BY = re.compile(
    _I
    + r"(?:commute|get\s+to\s+work|go\s+to\s+work|travel\s+to\s+work)\s+(?P<how>by\s+(?:"
    + _TRANSIT
    + r"|bike|bicycle|car|scooter)|on\s+foot)\b",
    re.IGNORECASE,
)


def _rule_commute(clause: str) -> list[_Proposal]:
    """``I bike to work``, ``I take the train to the office``, ``I commute by bus``."""
    if (match := _COMMUTE.match(clause)) is not None:
        dest = _third_person_object(collapse(match.group("dest")))
        if match.group("transit"):
            transit = collapse(match.group("transit")).casefold()
            return [_p(BeliefType.USER_MODEL_ATTR, "commute", f"takes {transit} to", dest)]
        mode = collapse(match.group("mode")).casefold()
        verb = next(v for pattern, v in _COMMUTE_MODES if re.fullmatch(pattern, mode))
        return [_p(BeliefType.USER_MODEL_ATTR, "commute", f"{verb} to", dest)]
    if (match := _COMMUTE_BY.match(clause)) is not None:
        how = collapse(match.group("how")).casefold()
        return [_p(BeliefType.USER_MODEL_ATTR, "commute", "commutes", how)]
    return []
