"""Rules for preferences and possessions: prefer, would rather, like/love/hate, favourites,
``I hate it when``, ``not a fan of``, play, use, have."""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import _is_past, _proposal
from memory_core.formation.deterministic.lexicon import (
    _CONDITION_SUFFIX,
    _CONDITIONS,
    _PRONOUN_OBJECTS,
    _TRANSIENT,
    _TRANSIENT_HEADS,
    _words,
)
from memory_core.formation.deterministic.phrases import (
    _I,
    _clean_object,
    _facet,
    _indefinite,
    _p,
    _Proposal,
    _split_coordination,
    _third_person_object,
    _usable,
    head_phrase,
)
from memory_core.formation.deterministic.rules_relations import _relationship_from_have
from memory_core.text import collapse, take_time

_PREFER = re.compile(
    _I + r"(?:would\s+)?(?:generally\s+|usually\s+|much\s+)?prefer\s+(?P<obj>.+)$", re.IGNORECASE
)
_RATHER = re.compile(_I + r"would\s+(?:much\s+)?rather\s+(?P<obj>.+)$", re.IGNORECASE)
_OTHERS = _words("we you they he she it")
_THEIRS = _words("the my our his her their")


def _wished_clause(obj: str) -> bool:
    """What follows ``would rather`` is a clause of its own (``we stayed``, ``the carpool
    left at 7:15``): a wish about what others do, not a choice among things."""
    words = [word.strip(",.;:!") for word in obj.casefold().split()]
    if len(words) > 1 and words[0] in _OTHERS:
        return True
    return len(words) > 2 and words[0] in _THEIRS and any(_is_past(w) for w in words[2:4])


_ATTITUDE = re.compile(
    _I + r"(?P<verb>like|love|adore|enjoy|hate|dislike|detest|loathe|cannot\s+stand"
    r"|can\s+not\s+stand|do\s+not\s+like|do\s+not\s+enjoy|do\s+not\s+care\s+for)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_ATTITUDE_PREDICATES = {
    "like": "likes",
    "love": "loves",
    "adore": "adores",
    "enjoy": "enjoys",
    "hate": "hates",
    "dislike": "dislikes",
    "detest": "detests",
    "loathe": "loathes",
    "cannot stand": "cannot stand",
    "can not stand": "cannot stand",
    "do not like": "dislikes",
    "do not enjoy": "does not enjoy",
    "do not care for": "dislikes",
}
_FAVORITE = re.compile(
    r"^(?:My|Our)\s+(?:absolute\s+|all-time\s+)?(?P<word>favou?rite|faves?|favs?)"
    r"\s+(?P<cat>[\w\s-]{1,30}?)"
    r"(?:\s+(?:right\s+now|these\s+days|at\s+the\s+moment|lately|currently|of\s+all\s+time))?"
    r"\s+(?P<be>is|are|was|were)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_FAVE = re.compile(r"faves?|favs?", re.IGNORECASE)
_ONCE = frozenset({"memory", "memories", "moment", "moments", "part", "parts", "day", "night"})
"""What a favorite told in the past (``My fav memory was when ...``) can be: a past favorite
book or band may be a former one, a favorite memory is past by nature."""


_GERUND_LIST = re.compile(
    r"^[a-z]+ing(?:,\s*[a-z]+ing)*,?\s+(?:and|or)\s+[a-z]+ing$", re.IGNORECASE
)
"""A list of activities (``hiking, painting and reading``) an attitude is about."""


_RESTRICTED = re.compile(
    r"^(?P<thing>(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*s)\s+(?P<how>where|whose)\s+(?P<rest>\S.*)$"
)
"""``hotels where the staff speak English``: a kind of thing, a plural with no determiner, and
the clause that says which of them; cut at ``where`` it would be every hotel."""


def _object_of(raw: str) -> str:
    """The object an attitude is about, cleaned; a clause restricting a kind of thing kept."""
    restricted = _RESTRICTED.match(collapse(raw))
    if restricted is not None:
        rest = _clean_object(restricted["rest"])
        if rest:
            return f"{restricted['thing']} {restricted['how']} {rest}"
    return _clean_object(raw)


def _rule_preference(clause: str) -> list[_Proposal]:
    if (match := _PREFER.match(clause)) is not None:
        obj = _third_person_object(_object_of(match.group("obj")))
        if not _usable(obj):
            return []
        subject = _facet(obj) or head_phrase(re.sub(r"^(?:not\s+)?to\s+", "", obj))
        return [_p(BeliefType.PREFERENCE, subject, "prefers", obj)] if subject else []
    if (match := _RATHER.match(clause)) is not None:
        if _wished_clause(match.group("obj")):
            return []  # ``I'd rather the carpool left at 7:15``: a wish about others, no choice
        obj = _third_person_object(_clean_object(match.group("obj")))
        if not _usable(obj):
            return []
        plain = re.sub(r"^not\s+", "", obj, flags=re.IGNORECASE)
        subject = _facet(obj) or collapse(re.split(r"\s+(?:than|over|instead)\b", plain)[0])
        return [_p(BeliefType.PREFERENCE, subject, "would rather", obj)] if subject else []
    if (match := _ATTITUDE.match(clause)) is not None:
        predicate = _ATTITUDE_PREDICATES[collapse(match.group("verb")).casefold()]
        activities = _GERUND_LIST.match(collapse(match.group("obj")).rstrip(" .!"))
        if activities is not None:
            # ``I love hiking, painting and reading``: every activity of the list is liked.
            items = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", activities.group(0))
            return [_p(BeliefType.PREFERENCE, i.casefold(), predicate, i) for i in items if i]
        obj = _third_person_object(_object_of(match.group("obj")))
        if not _usable(obj):
            return []
        predicate = _ATTITUDE_PREDICATES[collapse(match.group("verb")).casefold()]
        subject = head_phrase(re.sub(r"^to\s+", "", obj))
        return [_p(BeliefType.PREFERENCE, subject, predicate, obj)] if subject else []
    if (match := _FAVORITE.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")))
        category = collapse(match.group("cat"))
        be = "was" if match["be"].casefold() in ("was", "were") else "is"
        if not _usable(obj) or (be == "was" and category.casefold().split()[-1] not in _ONCE):
            return []
        word = "favorite" if _FAVE.fullmatch(match["word"]) else match["word"]
        statement = f"User's {word} {category} {be} {obj}."
        negated = f"User's {word} {category} is no longer {obj}."
        return [
            _p(
                BeliefType.PREFERENCE,
                f"favorite {category}",
                "",
                obj,
                statement=statement,
                negated=negated,
            )
        ]
    return []


_USE = re.compile(
    _I + r"(?P<verb>use|am\s+using|have\s+been\s+using|rely\s+on|(?:have\s+)?started\s+using"
    r"|began\s+using"
    r"|(?:have\s+)?(?:just\s+)?switched(?:\s+(?:over|back))?(?:\s+from\s+[^,;]+?)?\s+to"
    r"|code\s+in|program\s+in|write\s+code\s+in)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)


def _rule_use(clause: str) -> list[_Proposal]:
    match = _USE.match(clause)
    if match is None:
        return []
    obj = _clean_object(match.group("obj"))
    if not _usable(obj):
        return []
    verb = collapse(match.group("verb")).casefold()
    predicate = "codes in" if verb in ("code in", "program in", "write code in") else "uses"
    out: list[_Proposal] = []
    for part in _split_coordination(obj):
        thing = _third_person_object(_indefinite(part))
        subject = head_phrase(thing)
        if subject and _usable(thing):
            out.append(_p(BeliefType.USER_MODEL_ATTR, subject, predicate, thing))
    return out


_HAVE = re.compile(
    _I + r"(?P<verb>have\s+got|have|own|got|(?:have\s+)?adopted)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_HAVE_DETERMINER = re.compile(
    r"^(?:a|an|two|three|four|five|one|several|some|my|lots\s+of|a\s+lot\s+of|plenty\s+of"
    r"|tons\s+of|a\s+few|a\s+couple\s+of|many|so\s+many)\s",
    re.IGNORECASE,
)
_UNRESOLVED = re.compile(r"\b(?:it|them|that|this)\s*$|\bof\s+(?:it|them|that|this)\b", re.I)
_STILL_HAVE = re.compile(r"^I\s+still\s+(?:have|own)\s+(?P<det>the|that|this|those|these)\s", re.I)
"""``I still have the sweater ...``: a kept possession names its referent with ``the``."""


def _rule_have(clause: str) -> list[_Proposal]:
    match = _HAVE.match(clause)
    if match is None:
        return []
    verb = collapse(match.group("verb")).casefold()
    raw = collapse(match.group("obj"))
    if verb == "got" and not _HAVE_DETERMINER.match(raw):
        return []
    if verb.endswith("adopted"):
        adopted = _relationship_from_have(raw)
        return [adopted] if adopted is not None else []
    condition = _condition(raw)
    if condition is not None:
        return [_p(BeliefType.USER_MODEL_ATTR, "health", "has", condition, exclusive=False)]
    still = _STILL_HAVE.match(clause)
    if not _HAVE_DETERMINER.match(raw) and still is None:
        return []
    relation = _relationship_from_have(raw)
    if relation is not None:
        return [relation]
    undated, when = take_time(raw)
    if when is not None and verb in ("have", "have got", "got") and still is None:
        # ``I have a job interview tomorrow``, ``I got a puppy two weeks ago``: a dated event,
        # not a possession held.
        thing = _third_person_object(_clean_object(undated))
        subject = head_phrase(thing)
        if not subject or not _usable(thing) or subject.split()[-1] in _TRANSIENT:
            return []
        past = verb == "got"
        return _proposal("User", "got" if past else "has", thing, subject, when, past=past)
    obj = _clean_object(raw)
    predicate = "owns" if verb == "own" else "has"
    if still is not None:
        predicate = f"still {predicate}"
    out: list[_Proposal] = []
    for part in _split_coordination(obj):
        thing = _third_person_object(_indefinite(part))
        subject = head_phrase(thing)
        if not subject or not _usable(thing) or subject.split()[-1] in _TRANSIENT_HEADS:
            continue
        if _UNRESOLVED.search(part):  # ``lots of reminders of it`` names nothing
            continue
        if subject.split()[0] in _TRANSIENT_HEADS:
            continue
        out.append(_p(BeliefType.USER_MODEL_ATTR, subject, predicate, thing))
    return out


def _condition(raw: str) -> str | None:
    obj = _clean_object(raw)
    lowered = obj.casefold()
    bare = re.sub(r"^(?:type\s+[12]\s+|chronic\s+|mild\s+|severe\s+)", "", lowered)
    if bare in _CONDITIONS or (
        _CONDITION_SUFFIX.search(bare) and not _HAVE_DETERMINER.match(obj) and len(bare) < 40
    ):
        return obj
    return None


_PLAY = re.compile(
    _I + r"play\s+(?!(?:with|around|along|it|this|that|them|him|her|games?\s+with|a|an|some|my"
    r"|your|his|their|our|any|more|less|too|well|hard|nice|fair|safe|dumb|dead|by|on|in|for"
    r"|against|devil's)\b)"
    r"(?P<obj>(?:the\s+)?[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,2}.*)$",
    re.IGNORECASE,
)


def _rule_play(clause: str) -> list[_Proposal]:
    """``I play the cello``, ``I play tennis on Sundays``: an instrument, sport or game."""
    match = _PLAY.match(clause)
    if match is None:
        return []
    obj = _third_person_object(_clean_object(match.group("obj")))
    subject = head_phrase(obj)
    if not _usable(obj) or not subject or subject.split()[0] in _TRANSIENT_HEADS:
        return []
    return [_p(BeliefType.USER_MODEL_ATTR, subject, "plays", obj)]


_IT_WHEN = re.compile(
    _I + r"(?P<verb>like|love|adore|enjoy|hate|dislike|detest|loathe|cannot\s+stand"
    r"|can\s+not\s+stand|do\s+not\s+like)\s+it\s+when\s+(?P<event>.+)$",
    re.IGNORECASE,
)
_GENERIC_AGENTS = _words(
    """people someone somebody anyone anybody everyone everybody folks others they you he she
    it coworkers colleagues"""
)
_EVENT_VERB = re.compile(
    r"\s+(?:is|are|was|were|am|be|been|get|gets|got|keep|keeps|do|does|did|don't|doesn't"
    r"|can|cannot|can't|will|won't|would|have|has|had|start|starts|run|runs|go|goes|come"
    r"|comes|take|takes|make|makes|use|uses|say|says|send|sends|ask|asks|try|tries|put|puts"
    r"|call|calls|reply|replies|show|shows|end|ends|turn|turns|break|breaks)\b",
    re.IGNORECASE,
)


def _rule_it_when(clause: str) -> list[_Proposal]:
    """``I hate it when answers are padded`` -> a preference about what the event is about."""
    match = _IT_WHEN.match(clause)
    if match is None:
        return []
    event = _third_person_object(_clean_object(match.group("event")))
    if not event or len(event.split()) > 14:
        return []
    agent = _EVENT_VERB.split(event, maxsplit=1)[0]
    about = head_phrase(agent)
    if not about or about.split()[0] in _GENERIC_AGENTS or about == head_phrase(event):
        about = head_phrase(event.split(" ", 1)[1]) if " " in event else ""
    subject = _facet(event) or about
    if not subject or subject.split()[0] in _PRONOUN_OBJECTS:
        return []
    predicate = _ATTITUDE_PREDICATES[collapse(match.group("verb")).casefold()]
    return [_p(BeliefType.PREFERENCE, subject, f"{predicate} it when", event)]


_NOT_FAN = re.compile(
    r"^I\s+am\s+not\s+(?:a\s+|much\s+of\s+a\s+)?(?:(?:big|huge|great|massive)\s+)?fan\s+of"
    r"\s+(?P<obj>.+)$|^I\s+am\s+not\s+(?:really\s+|very\s+)?into\s+(?P<obj2>.+)$",
    re.IGNORECASE,
)


def _rule_not_fan(clause: str) -> list[_Proposal]:
    """``I'm not a fan of long threads``: a negative attitude stated without a negative verb."""
    match = _NOT_FAN.match(clause)
    if match is None:
        return []
    raw = match.group("obj") or match.group("obj2")
    obj = _third_person_object(_clean_object(raw))
    subject = head_phrase(obj)
    if not _usable(obj) or not subject:
        return []
    predicate = "is not a fan of" if match.group("obj") else "is not into"
    return [_p(BeliefType.PREFERENCE, subject, predicate, obj)]
