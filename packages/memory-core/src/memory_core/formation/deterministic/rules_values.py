"""What a named thing means to the user (``This quilt is really special to me``), and kin.

Also ``"Brave" has a lot of significance for me`` and ``The Long Field is one of my favorite
novels`` (``... is one of User's favorite novels.``).

A clause whose subject is a thing and whose predicate says the thing matters to the speaker
(``is special/important/dear/precious to me``, ``means a lot/the world/so much to me``, ``has
always meant a lot to me``) is an attitude of the user's toward that thing, so it forms a
preference about it: ``The quilt is really special to User.``. The thing must be named in the
clause itself: a bare ``it``, ``this`` or ``that`` (``It means so much to me``) forms nothing,
and so does anything about the listener (``Your kindness means a lot to me``), which the
extractor's listener screen refuses. A demonstrative naming its referent (``this quilt``) reads
as ``the``; ``my`` as ``User's``. A trailing reason or time (``because my dad built it``, ``these
days``) is not part of the statement, which stays short and about one thing.

Kin of the same attitude: ``Pottery is so relaxing`` (``User finds pottery so relaxing.``, for a
short list of experience words), ``Gardening helps me clear my head``, ``I'm drawn to
lighthouses``; and where the user was: ``I was in Denver, it was freezing`` (``User was in
Denver.``), a capitalized place only.
"""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import (
    _LISTENER,
    _NEGATED,
    _object,
    _pronoun_only,
    _proposal,
)
from memory_core.formation.deterministic.phrases import _p, _Proposal, head_phrase
from memory_core.formation.deterministic.rules_identity import is_remark
from memory_core.formation.deterministic.rules_things import as_user
from memory_core.text import collapse, gerund, take_time

_INTENSIFIER = (
    r"(?:(?:really|so|super|very|extra|truly|incredibly|especially|always|still|pretty"
    r"|quite)\s+)*"
)
_MATTERS = re.compile(
    r"^(?P<np>[\"']?[A-Za-z][\w'-]*[\"']?(?:\s+[\w'\"-]+){0,5}?)\s+(?P<pred>"
    r"(?:is|are|was|were|has\s+been|have\s+been)\s+"
    + _INTENSIFIER
    + r"(?:special|important|meaningful|dear|precious)\s+to\s+me"
    r"|(?:(?:has|have)\s+(?:always\s+)?meant|means|meant|mean)\s+"
    r"(?:a\s+lot|so\s+much|the\s+world|everything|a\s+great\s+deal)\s+to\s+me"
    r"|(?:has|have|had|holds?|held)\s+(?:a\s+lot\s+of|so\s+much|(?:a\s+)?(?:great|special|real))"
    r"\s+(?:significance|meaning)\s+(?:for|to)\s+me"
    r"|(?P<be>is|are|was|were|(?:has|have)\s+(?:always\s+)?(?:been|become))\s+"
    r"(?:(?:one\s+of\s+)?my\s+(?:all-time\s+)?(?:favorite|favourite|fave|fav|go-to"
    r"|main(?=\s+(?:hobby|hobbies|passion|passions|interest|interests)\b))s?"
    r"(?:\s+(?!too\b)[\w'-]+){0,4}"
    r"|an?\s+(?:(?:big|real|new|huge|personal|firm|family|definite)\s+)?(?:favorite|favourite)"
    r"\s+of\s+mine)"
    r")\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_FAVORITE_OF_MINE = re.compile(r"\ban?\s+(?:\w+\s+)?favou?rite\s+of\s+mine$", re.IGNORECASE)
_TITLE_CASE = re.compile(r"^(?:The\s+)?[A-Z][\w'-]*(?:\s+(?:of|the|and|a|in|on|[A-Z][\w'-]*))+$")
"""``The Lord of the Rings``: every word capitalised but the small ones."""
_FAVE = re.compile(r"\bfaves?\b|\bfavs?\b", re.IGNORECASE)
_DASH_IDENTITY = re.compile(
    r"^\s*[-–—]\s+(?P<np>(?:a|an)\s+(?:(?!\s[-–—]\s).)+?)\s*[.!]?$", re.IGNORECASE
)
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
_PRONOUN = re.compile(r"\b(?:it|them|they|him|her|he|she)\b", re.IGNORECASE)
_NOT_A_THING = frozenset(
    {
        "it",
        "they",
        "he",
        "she",
        "we",
        "you",
        "your",
        "everything",
        "something",
        "anything",
        "all",
        "what",
        "which",
        "who",
        "there",
        "here",
        "our",
        "their",
        "his",
        "her",
        "its",
    }
)


def _rule_matters(clause: str) -> list[_Proposal]:
    """``This quilt is really special to me`` -> ``The quilt is really special to User.``."""
    match = _MATTERS.match(clause)
    if match is None:
        return []
    words = collapse(match.group("np")).split()
    first = words[0].casefold().strip("\"'")
    if words[0][0] in "\"'":  # a quoted title names its referent, whatever its words
        first = ""
    elif first in _NOT_A_THING or any(w.casefold() in _NOT_A_THING for w in words[1:]):
        return []
    if first in _DEMONSTRATIVES:
        if len(words) < 2:  # a bare ``this`` / ``that`` names nothing
            return []
        words = ["The", *words[1:]]
    elif first == "my":
        words = ["User's", *words[1:]]
    elif first == "i":
        return []
    else:
        words = [words[0][:1].upper() + words[0][1:], *words[1:]]
    thing = " ".join(words)
    subject = head_phrase(re.sub(r"^(?:The|User's)\s+", "", thing)).strip("\"'")
    if not subject:
        return []
    predicate = re.sub(r"\bme$", "User", collapse(match.group("pred")), flags=re.IGNORECASE)
    predicate = re.sub(r"\bmy\b", "User's", predicate, flags=re.IGNORECASE)
    if match.group("be"):
        # ``Pho has become a new favorite of mine`` -> ``Pho is a favorite of User's.``
        be = "are" if match.group("be").casefold().startswith(("are", "have")) else "is"
        predicate = _FAVORITE_OF_MINE.sub("a favorite of User's", predicate)
        predicate = re.sub(r"^(?:has|have)\s+(?:always\s+)?(?:been|become)", be, predicate)
    predicate = _FAVE.sub(
        lambda fave: "favorites" if fave[0].endswith("s") else "favorite", predicate
    )
    if _TITLE_CASE.match(thing):
        subject = re.sub(r"^the\s+", "", thing.casefold())  # a title is named whole
    statement = f"{thing} {predicate}."
    proposals = [
        _p(BeliefType.PREFERENCE, subject, "", thing, exclusive=False, statement=statement)
    ]
    elaboration = _DASH_IDENTITY.match(match.group("rest"))
    if elaboration is not None and not is_remark(elaboration["np"]):
        # ``This quilt is special to me - a gift from my aunt``: what the quilt is.
        what = _object(as_user(elaboration["np"]), team=False)
        proposals.append(
            _p(
                BeliefType.FACT,
                subject,
                "is",
                what,
                exclusive=False,
                statement=f"{thing} is {what}.",
            )
        )
    return proposals


def _thing_phrase(raw: str) -> str | None:
    """A clause-opening noun or gerund phrase as a statement opens it, or None for a pronoun,
    the listener or the user (``It``, ``Your garden``, ``I``)."""
    words = collapse(re.sub(r"^(?:just|simply|even)\s+", "", raw, flags=re.IGNORECASE)).split()
    if not words or _LISTENER.search(raw) or _PRONOUN.search(" ".join(words[1:])):
        return None  # ``Just being around them``: about someone the phrase does not name
    words = [words[0], *_object(" ".join(words[1:]), team=False).split()]
    first = words[0].casefold()
    if first in _NOT_A_THING or first == "i" or (first in _DEMONSTRATIVES and len(words) < 2):
        return None
    if first in _DEMONSTRATIVES or first == "the":
        words = ["the", *words[1:]]
    elif first == "my":
        words = ["User's", *words[1:]]
    elif first.endswith("ing"):
        words = [first, *words[1:]]
    return " ".join(words)


_FINDS = re.compile(
    r"^(?P<np>[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,5}?)\s+(?P<be>is|was)\s+(?P<how>"
    + _INTENSIFIER
    + r"(?:relaxing|rewarding|fulfilling|fun|therapeutic|calming|soothing|inspiring|exhausting"
    r"|stressful|empowering|cathartic|satisfying|freeing|meditative|peaceful|challenging"
    r"|exciting|boring|draining|healing|uplifting))$",
    re.IGNORECASE,
)
_HELPS = re.compile(
    r"^(?P<np>[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,5}?)\s+(?:really\s+|always\s+)?"
    r"(?P<verb>helps|helped|teaches|taught|(?:has|have)\s+(?:helped|taught))\s+me\s+(?P<vp>[a-z].+)$",
    re.IGNORECASE,
)
_DRAWN = re.compile(r"^I\s+am\s+(?P<how>" + _INTENSIFIER + r")drawn\s+to\s+(?P<obj>.+)$", re.I)
_WHEREABOUTS = re.compile(
    r"^I\s+(?:was|were)\s+(?P<prep>in|at)\s+(?P<place>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})"
    r"(?P<rest>,.*)?$"
)


_MATTERS_TO_DO = re.compile(
    r"^it(?:'s|\s+is)\s+(?P<how>" + _INTENSIFIER + r")(?P<adj>important|essential|crucial|vital"
    r"|meaningful)\s+to\s+me\s+to\s+(?P<verb>[a-z]+)(?P<rest>(?:\s+\S+)*)$",
    re.IGNORECASE,
)


def _rule_matters_to_do(clause: str) -> list[_Proposal]:
    """``It's important to me to stay close to my family`` -> ``It is important to User to
    stay close to their family.``: what the user holds worth doing, about the act itself."""
    match = _MATTERS_TO_DO.match(clause)
    if match is None or _LISTENER.search(clause) or _pronoun_only(match.group("rest").strip()):
        return []
    act = _object(f"{match.group('verb')}{match.group('rest')}", team=False)
    if len(act.split()) < 2:
        return []
    verb, _, rest = act.partition(" ")
    subject = " ".join(collapse(f"{gerund(verb)} {rest}").casefold().split()[:6])
    how = collapse(match.group("how"))
    statement = collapse(f"It is {how} {match.group('adj').casefold()} to User to {act}") + "."
    return [_p(BeliefType.PREFERENCE, subject, "", act, exclusive=False, statement=statement)]


def _rule_finds(clause: str) -> list[_Proposal]:
    """``Pottery is so relaxing`` -> ``User finds pottery so relaxing.``: an experience word
    said of a named activity or thing is the user's attitude toward it."""
    match = _FINDS.match(clause)
    thing = _thing_phrase(match.group("np")) if match else None
    if match is None or thing is None or not take_time(match.group("np"))[0]:
        return []  # ``Last night was fun``: a time, not a thing the user finds fun
    subject = head_phrase(re.sub(r"^(?:the|User's)\s+", "", thing))
    finds = "found" if match.group("be").casefold() == "was" else "finds"
    judged = re.sub(r"^User's\s", "their ", thing)  # ``User finds their job stressful.``
    statement = f"User {finds} {judged} {collapse(match.group('how'))}."
    return [_p(BeliefType.PREFERENCE, subject, "", thing, exclusive=False, statement=statement)]


def _rule_helps(clause: str) -> list[_Proposal]:
    """``Gardening helps me clear my head`` -> ``Gardening helps User clear their head.``;
    ``Running has taught me patience`` likewise."""
    match = _HELPS.match(clause)
    thing = _thing_phrase(match.group("np")) if match else None
    if match is None or thing is None or _pronoun_only(match.group("vp")):
        return []
    if "taught" in match["verb"] and re.match(r"(?:my|our)\s", match["np"], re.IGNORECASE):
        return []  # ``My dad taught me how to swim``: the relation's act, read by the events
    rest = _object(match.group("vp"), team=False)
    subject = head_phrase(re.sub(r"^(?:the|User's)\s+", "", thing))
    opening = thing[:1].upper() + thing[1:]
    statement = f"{opening} {collapse(match.group('verb')).casefold()} User {rest}."
    return [_p(BeliefType.FACT, subject, "", rest, exclusive=False, statement=statement)]


_SPEAKS = re.compile(
    r"^(?P<np>[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,5}?)\s+(?:(?:really|truly|just)\s+)?"
    r"(?P<verb>(?:(?:has|have)\s+(?:always\s+)?)?(?:speaks|speak|spoke|spoken))\s+to\s+me\b"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)


def _rule_speaks(clause: str) -> list[_Proposal]:
    """``Pottery really speaks to me`` -> ``Pottery speaks to User.``: what moves the user."""
    match = _SPEAKS.match(clause)
    thing = _thing_phrase(match.group("np")) if match else None
    if match is None or thing is None or _NEGATED.search(match.group("np")):
        return []
    rest = _object(match.group("rest"), team=False)
    subject = head_phrase(re.sub(r"^(?:the|User's)\s+", "", thing))
    opening = thing[:1].upper() + thing[1:]
    statement = collapse(f"{opening} {collapse(match.group('verb'))} to User {rest}") + "."
    return [_p(BeliefType.PREFERENCE, subject, "", thing, exclusive=False, statement=statement)]


def _rule_drawn(clause: str) -> list[_Proposal]:
    """``I'm drawn to lighthouses`` -> ``User is drawn to lighthouses.``."""
    match = _DRAWN.match(clause)
    if match is None or _pronoun_only(match.group("obj")):
        return []
    obj = _object(match.group("obj"), team=False)
    subject = head_phrase(obj)
    if not subject:
        return []
    how = collapse(match.group("how"))
    statement = collapse(f"User is {how} drawn to {obj}") + "."
    return [_p(BeliefType.PREFERENCE, subject, "", obj, exclusive=False, statement=statement)]


def _rule_whereabouts(clause: str) -> list[_Proposal]:
    """``I was in Denver, it was freezing`` -> ``User was in Denver.``: a named place the user
    was at (a longer clause, ``I was in Lisbon for a wedding``, is read as an event)."""
    text, when = take_time(clause)
    match = _WHEREABOUTS.match(text)
    if match is None:
        return []
    place = match.group("place")
    return _proposal("User", f"was {match.group('prep')}", place, place.casefold(), when, past=True)


__all__ = [
    "_rule_drawn",
    "_rule_finds",
    "_rule_helps",
    "_rule_matters",
    "_rule_matters_to_do",
    "_rule_speaks",
    "_rule_whereabouts",
]
