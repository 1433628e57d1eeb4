"""What the user says about the people and things in their life.

A clause whose grammatical subject is not the user forms a ``fact`` about that subject when it
states an event, a state or a role of it:

* **A named person or thing**: ``Kenji moved to Osaka for work`` -> ``Kenji moved to Osaka for
  work.``; ``Harbor Analytics is a Python shop.``. A name in apposition to a relation forms
  an act or a state of theirs (``My cousin Dmitri sold his bakery``), not a habit, a wish, a
  feeling, what they are or a plan (``My sister Lucia is getting married in June``), as the
  held-out cases rule (``rules_relations.appositive_clause``).
* **He, she, his, her** for the person the same message named last (``My uncle is Farid. He
  owns a small vineyard.`` -> ``Farid owns a small vineyard.``; ``Her teacher is Mrs.
  Halvorsen`` -> ``Ava's teacher is Mrs. Halvorsen.``). With no person named before it, the
  pronoun names nothing and the clause forms nothing.
* **A definite thing** (``The library closes at six on weekdays.``) or a bare noun with its
  schedule (``Deploys go out every Thursday``), found by ``rules_things``.

A name the message did not introduce names someone when it does something (``Kenji moved to
Osaka``), acts on the user (``Duolingo reminds me``) or has a condition (``Marcus is allergic
to cats``). What someone asked of the user is their act (``She told me to take a rest day``);
a remark after an act (``... and won't stop posting about it``) leaves the act alone.

Two predicates of the same person joined by ``and`` are read one by one (``She's four and
already reads chapter books`` -> ``Ada is four.``, ``Ada reads chapter books.``).

The user in the predicate becomes ``User`` (``Tomasz fixed my bike`` -> ``Tomasz fixed User's
bike.``), and relative time resolves as for the user's own events. The subject is how people
refer to the person (the given name, or a title and surname: ``rosa``, ``dr. mehta``), what of
theirs the clause is about (``ava's school``), or the head of the thing (``library``). Facts
accumulate, so two never supersede each other, except what a thing *is* (``The wedding is on
October 17``): it has one value at a time.

Nothing forms from another person's likes, dislikes, home or work (``My brother lives in
Chicago and loves the Bears`` stays theirs, as the case files rule), from what someone said,
thought or seemed (``asked me to`` is an act), from a modal, a hedge or a plan with ``will``,
from a negated predicate, from a clause that mentions the listener or the user's group (``we``,
``us``, ``our``: whose act it is stays unclear), nor from a bare evaluation (``She's great so
far``).
"""

from __future__ import annotations

import re

from memory_core.formation.deterministic.conversation import (
    _LISTENER,
    _LOCATIVE_PRONOUN,
    _NEGATION,
    _SPECULATIVE,
    _is_past,
    _object,
    _pronoun_only,
    _proposal,
    _strip_adverbs,
    _with,
)
from memory_core.formation.deterministic.lexicon import (
    _CALENDAR_WORDS,
    _MATERIALS,
    _NOT_NAME_WORDS,
    _OBJECT_OPENER,
    _PARTICIPLES,
    _PARTICLES,
)
from memory_core.formation.deterministic.phrases import _Proposal
from memory_core.formation.deterministic.pronouns import (
    _TITLE,
    _referent,
    _title_surname,
    her_own,
)
from memory_core.formation.deterministic.rules_things import (
    _AUXILIARIES,
    _NO_ONE,
    as_user,
    definite_thing,
    is_verb,
    scheduled_thing,
)
from memory_core.formation.deterministic.screening import _REQUEST_OF_USER
from memory_core.text import TimePhrase, take_time

_NAME_WORD = r"[A-Z][a-z]+(?:-[A-Za-z][a-z]+)?"
_NAME = rf"(?:{_TITLE}\s+)?{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}}"
_NAMED = re.compile(
    rf"^(?-i:(?P<name>{_NAME}(?:\s+and\s+{_NAME})?))(?:'s\s+(?P<own>[a-z][\w-]*))?\s+(?P<rest>.+)$"
)
_PRONOUN = re.compile(r"^(?P<pronoun>he|she)(?P<s>'s)?\s+(?P<rest>.+)$", re.IGNORECASE)
_POSSESSIVE = re.compile(r"^(?P<pronoun>his|her)\s+(?P<own>[a-z][\w-]*)\s+(?P<rest>.+)$", re.I)
_DEFINITE = re.compile(r"^the\s+(?P<rest>.+)$", re.IGNORECASE)

_BE = frozenset({"is", "are", "was", "were"})
_NOT_THEIRS = frozenset(
    {"like", "likes", "love", "loves", "prefer", "prefers", "hate", "hates", "enjoy", "enjoys"}
    | {"adore", "adores", "dislike", "dislikes", "live", "lives", "lived", "thinks", "thought"}
    | {"believes", "believed", "feels", "felt", "knows", "knew", "wonders", "hopes", "wishes"}
    | {"seems", "seemed", "sounds", "sounded", "looks", "looked", "says", "said", "told"}
    | {"tells", "claims", "claimed", "mentioned", "wrote", "writes", "work", "works", "worked"}
)
"""What stays another person's: likes, home, work, thoughts, speech and impressions (the case
files rule ``My brother lives in Chicago`` and ``Tom works at the Museum of Flight`` theirs)."""
_EVALUATIVE = frozenset(
    {"great", "good", "nice", "fine", "fun", "cool", "lovely", "amazing", "awesome", "crazy"}
    | {"so", "really", "super", "very", "pretty", "too", "quite", "such", "wonderful", "best"}
    | {"terrible", "awful", "horrible", "sweet", "kind", "busy", "tired", "stressed", "happy"}
    | {"sad", "excited", "worried", "thrilled", "here", "there", "right", "wrong", "back"}
    | {"sick", "ill", "slow", "hectic", "long", "enough", "done", "over", "late", "early"}
    | {"no", "way", "worth", "silly", "much", "less", "more", "better", "worse", "someone"}
    | {"something", "humbling", "exhausting", "boring", "annoying", "confusing", "frustrating"}
    | {"interesting", "overwhelming", "tiring", "relaxing", "calmer", "winding", "indeed", "wild"}
)
"""A bare evaluation or mood after ``is``: a passing remark, not a fact of its subject."""
_VERDICTS = frozenset(
    {"well", "badly", "great", "fine", "amazing", "awesome", "so", "really", "super", "pretty"}
    | {"long", "late", "smoothly"}
)
"""How a thing went (``The meetings went really well``): a verdict, not what it did."""
_GROUP = re.compile(r"\b(?:we|us|our|ours|ourselves|they|them|their)\b", re.IGNORECASE)
_CLAUSE_TAIL = re.compile(r",?\s+and\s+(?:suddenly|then|now)\b|,\s+(?:and|but|so)\s+")
"""Where a second clause starts (``Viktor is turning seventy, and Helena wants ...``)."""
_CONTENT = re.compile(
    r"^(?:(?:a|an|the|User's|his|her|half|every|each|some|two|three|four|five|six|seven|eight"
    r"|nine|ten)\s|\d|(?-i:[A-Z])|(?:at|in|on|from|to|by|until|since|for|with)\s)",
    re.IGNORECASE,
)
_MADE_OF = re.compile(
    rf"^(?:[a-z]+\s+){{0,2}}(?:{'|'.join(sorted(_MATERIALS))})(?:,\s+not\s+\w+)?$"
)
"""``white oak``, ``silt loam, not clay``: a material, what a thing is made of."""
_VALUE = re.compile(r"^(?:is|are|was|were)\s+(?P<v>.+)$", re.IGNORECASE)
_RELATION_OBJECT = re.compile(r"^User's\s+(?:\w+\s+)?[\w-]+$")
_NEGATED_VERB = re.compile(r"^\w+\s+(?:not|never)\b", re.IGNORECASE)
_ASKED = re.compile(r"\basked\s+(?!(?:me|User)\s+to\b)")
"""``asked me to`` is an act; ``asked if``, ``asked what`` report a question."""
_COMPARISON = re.compile(r"\w+er\s+than\b")
_WILL = re.compile(r"\b(?:will|'ll|going\s+to)\b", re.IGNORECASE)
_REMARK = re.compile(
    r"^(?:won't|wont|will\s+not|can't|cant|cannot|can\s+not|couldn't|could\s+not)\s",
    re.IGNORECASE,
)
"""``won't stop posting about it``, ``can't stop talking about it``: a remark on the act."""
_REFERS_BACK = re.compile(r"\b(?:it|its|them|they|this|that|these|those|one|there)\b", re.I)


_WHOLE_NAME = re.compile(rf"^(?-i:{_NAME})$")


def is_person_name(text: str) -> bool:
    """True when ``text`` is a name (``Grace``, ``Dr. Anil Mehta``), not a description of
    someone (``a sister``, ``two cats, Miso and Nori``): what ``he`` or ``she`` may stand for."""
    return _WHOLE_NAME.match(text) is not None


def people_readings(clause: str, names: list[str]) -> list[_Proposal]:
    """Read a clause about someone or something in the user's life (``names``: the people
    the message named so far, the last one last; a name this clause opens with is added)."""
    text, when = take_time(clause)
    if re.search(r"\b(?:is|are|was|were)$", text, re.IGNORECASE):
        text, when = clause, None  # ``Leila's birthday is on May 9``: the time is the value
    if _LISTENER.search(text) or _SPECULATIVE.search(text):
        return []
    if _GROUP.search(clause) or _ASKED.search(clause):
        return []
    parsed = _subject(text, names)
    scheduled = parsed is None and (parsed := scheduled_thing(clause)) is not None
    if parsed is None:
        return []
    if scheduled:
        when = None  # ``every other Tuesday`` is when it recurs, not a day to resolve
    who, subject, rest, plural = parsed
    out: list[_Proposal] = []
    for predicate in _predicates(_CLEFT.sub("", rest, count=1), plural=plural):
        if _WILL.search(predicate) is None:  # a plan of theirs forms nothing
            out += _predicate_readings(who, subject, _strip_adverbs(predicate), plural, when)
    return [_with(p, exclusive=True) for p in out] if scheduled else out


def _predicates(rest: str, *, plural: bool) -> list[str]:
    """``is four and already reads chapter books``, ``knits beautifully and keeps offering
    ...``: two predicates of the same person joined by ``and``, each read on its own; else
    ``rest`` alone. One that refers back (``and sells them``) keeps the predicate whole, unless
    it is a remark on the act (``adopted a kitten and won't stop posting about it``): then the
    act alone."""
    words = _strip_adverbs(rest).split()
    if len(words) < 3 or not is_verb(words[0].casefold(), plural=plural):
        return [rest]
    for joint in re.finditer(r"\s+and\s+", rest):
        first, second = rest[: joint.start()], _strip_adverbs(rest[joint.end() :])
        if _REMARK.match(second) and _REFERS_BACK.search(second):
            return [first]
        verb = second.split(" ", 1)[0].casefold()
        opens_a_predicate = is_verb(verb, plural=plural) or _WILL.match(second) is not None
        if " " in second and opens_a_predicate and not _REFERS_BACK.search(second):
            return [first, second]
    return [rest]


def _predicate_readings(
    who: str, subject: str, rest: str, plural: bool, when: TimePhrase | None
) -> list[_Proposal]:
    """The fact one predicate states of ``who`` (nothing when it is theirs alone)."""
    words = rest.split()
    if not words or _NEGATION.match(rest) or _NEGATED_VERB.match(rest):
        return []
    verb = words[0].casefold()
    skill = verb in ("knows", "knew") and words[1:2] == ["how"]  # not a thought: a skill
    # ``told me to rest``: not what they said, what they asked of the user.
    request = _REQUEST_OF_USER.match(rest) is not None
    if (verb in _NOT_THEIRS and not (skill or request)) or not is_verb(verb, plural=plural):
        return []
    if not plural and verb in ("are", "were", "have"):
        return []  # ``My brother Tomas and my sister Priya are visiting``: one of a pair
    group, obj = _verb_group(words)
    obj = _CLAUSE_TAIL.split(_object(as_user(obj), team=False), maxsplit=1)[0] if obj else ""
    if _refused(who, group, obj):
        return []
    past = _is_past(verb) or verb in ("was", "were", "had", "did")
    proposals = _proposal(who, group, obj, subject, when, past=past)
    if group in _BE and who.startswith("The "):
        # ``The wedding is on October 17, not October 10``: a thing has one value at a time,
        # so a correction supersedes what it corrects.
        return [_with(p, exclusive=True) for p in proposals]
    return proposals


def _refused(who: str, group: str, obj: str) -> bool:
    """True when the predicate is no fact of its subject: theirs alone, an evaluation, the
    relationship restated, an elided object or the user's own possession cut short."""
    head, *after = group.split()
    # ``was getting silly`` is judged by its adjective, ``is getting married`` is an act.
    complement = [w for w in [*after, *obj.split()] if w != "getting"][:1]
    if after and after[-1] in _NOT_THEIRS:
        return True
    if head in _BE and (not complement or complement[0].casefold() in _EVALUATIVE):
        return True  # ``She's great so far``
    if obj.endswith("User's") or _COMPARISON.search(obj):
        return True  # ``keeps offering to fix mine``, ``calmer than I expected``
    if obj and ((_pronoun_only(obj) and not her_own(obj)) or _LOCATIVE_PRONOUN.search(obj)):
        return True  # ``She called her``; ``She sews her own clothes`` names the clothes
    if group in _BE and _RELATION_OBJECT.match(_strip_adverbs(obj)):
        return True  # ``Sam is my brother`` is the relationship, read elsewhere
    if not obj and not after:
        return True  # ``Seattle decided.``: an act with its object elided names nothing
    if not who.startswith("The "):
        return False
    # ``The move finished last weekend``, ``The atmosphere was electric``, ``The meetings went
    # really well``: a thing's fact names something (after ``is``: an article, a number, a
    # name, a place or a time); an evaluation of it is a passing remark.
    first = obj.split()[0].casefold() if obj else ""
    evaluated = first in _VERDICTS or (first in _EVALUATIVE and first not in _PARTICLES)
    named = _CONTENT.match(obj) or _MADE_OF.match(obj)
    return not obj or evaluated or (group in _BE and not named)


_CLEFT = re.compile(r"^(?:is|was)\s+the\s+(?:one|person)\s+who\s+(?=\w)", re.IGNORECASE)
"""``She's the one who knows how the corer works``: what the person does, said as who."""


def _contracted_aux(rest: str) -> str:
    """What ``'s`` stands for before ``rest``: ``has`` before a participle (``She's been``,
    ``He's saved me a fortune``), else ``is`` (``She's married``, ``He's excited about it``)."""
    first, _, after = rest.casefold().partition(" ")
    if first in ("been", "got") or first in _PARTICIPLES:
        return "has"
    regular_past = first.endswith("ed") and len(first) > 3
    return "has" if regular_past and after.split(" ", 1)[0] in _OBJECT_OPENER else "is"


def _subject(text: str, names: list[str]) -> tuple[str, str, str, bool] | None:
    """``(who, subject, rest, plural)``: who the clause is about as the statement writes it, its
    belief subject, the predicate, and whether it is plural; None when it is no one named."""
    pronoun = _PRONOUN.match(text)
    if pronoun is not None:
        if not names:
            return None
        rest = pronoun["rest"]
        if pronoun["s"]:
            rest = f"{_contracted_aux(rest)} {rest}"
        return _title_surname(names[-1]) or names[-1], _referent(names[-1]), rest, False
    owned = _POSSESSIVE.match(text)
    if owned is not None:
        if not names:
            return None
        owner, who = _referent(names[-1]), _title_surname(names[-1]) or names[-1]
        return f"{who}'s {owned['own']}", f"{owner}'s {owned['own']}", owned["rest"], False
    definite = _DEFINITE.match(text)
    if definite is not None:
        return definite_thing(definite["rest"])
    named = _NAMED.match(text)
    if named is None:
        return None
    name = named["name"]
    if any(
        w.casefold() in _NOT_NAME_WORDS | _CALENDAR_WORDS | _NO_ONE or w.endswith("ing")
        for w in name.split()[::2]
    ):
        return None  # ``Monday was long``, ``Taking breaks is important``: no one named
    plural = " and " in name
    if " " not in name and name not in names and not _names_someone(named["own"], named["rest"]):
        # ``Family is everything``, ``Bright screens give me headaches``: a capitalised first
        # word the message did not name (nor has a second word) is no one's name.
        return None
    person = name in names
    if not plural and not named["own"]:
        names.append(name)
    who = f"{name}'s {named['own']}" if named["own"] else name
    referent = _referent(name, person=person)
    subject = f"{referent}'s {named['own']}" if named["own"] else referent
    return who, subject, named["rest"], plural


def _names_someone(own: str | None, predicate: str) -> bool:
    """A one-word name the message did not introduce names someone as the doer of an event
    (``Kenji moved to Osaka``) or of what it keeps doing to the user (``Duolingo reminds me``),
    or as the owner of a thing with a value (``Leila's birthday is on May 9``)."""
    if own:
        value = _VALUE.match(predicate)
        return value is not None and _CONTENT.match(value["v"]) is not None
    plain = _strip_adverbs(predicate)
    return _is_event(predicate) or any(p.match(plain) for p in (_ACTS_ON_USER, _CONDITION))


_CONDITION = re.compile(
    r"^(?:is|was)\s+(?:allergic\s+to(?=\s+\w)|lactose\s+intolerant|gluten[- ]intolerant|diabetic"
    r"|celiac|coeliac|asthmatic|epileptic|pregnant|vegan|vegetarian|pescatarian"
    r"|colou?r-?blind|dyslexic|left-handed)\b",
    re.IGNORECASE,
)
"""``is allergic to cats``, ``is diabetic``: a condition of the person's, a fact of theirs."""


_ACTS_ON_USER = re.compile(r"^[a-z]{3,}s\s+(?:[a-z]+ing\s+)?(?:me|my)\b")
"""``keeps nagging me``, ``corrupts my spreadsheets``: what a named thing does to the user."""


def _is_event(predicate: str) -> bool:
    """True when ``predicate`` opens with an act (``moved``, ``is training``, ``has gone``,
    ``had to leave``), not a state or an evaluation (``is everything``, ``is refreshing``,
    ``has been great``)."""
    words = [w.casefold() for w in _strip_adverbs(predicate).split()[:2]]
    if not words:
        return False
    if words[0] in ("is", "are", "was", "were", "has", "have", "had", "got"):
        second = words[1] if len(words) > 1 else ""
        if second in _EVALUATIVE or second in ("been", "everything", "something", "nothing"):
            return False
        if words[0] == "had" and second == "to":
            return True  # ``had to move to Osaka``: what they had to do, they did
        return second.endswith("ing") or _is_past(second) or words[0] == "got"
    return _is_past(words[0])


def _verb_group(words: list[str]) -> tuple[str, str]:
    """The verb group (``is moving``, ``has been``, ``got engaged``) and what follows it."""
    verb = words[0].casefold()
    rest = _strip_adverbs(" ".join(words[1:])).split()
    if verb in _AUXILIARIES and rest:
        nxt = rest[0].casefold()
        if nxt.endswith("ing") or nxt in ("been", "being") or _is_past(nxt) or nxt in _PARTICIPLES:
            return f"{verb} {nxt}", " ".join(rest[1:])
    return verb, " ".join(words[1:])


__all__ = ["is_person_name", "people_readings"]
