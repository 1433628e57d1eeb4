"""What the conversational rules share: the verb group for ``User``, the object in the third
person, the thing a clause is about, and the proposals they return."""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.lexicon import (
    _ADVERB_WORDS,
    _ARTICLES,
    _COUNT_TAIL,
    _IRREGULAR_PAST,
    _MEASURE,
    _NOT_ADVERBS,
    _PARTICIPLES,
    _PARTICLES,
    _PREPOSITIONS,
    _PRONOUN_OBJECTS,
    _TIME_HEADS,
    _TOO_MANY,
    _VAGUE_HEADS,
    CONTRAST_TAIL,
)
from memory_core.formation.deterministic.phrases import (
    _APPOSITIVE_NAME,
    _is_list_tail,
    _p,
    _Proposal,
    _third_person_object,
    bare_thing,
    described,
    head_phrase,
)
from memory_core.text import (
    collapse,
    gerund,
    irregular_past,
    irregular_past_base,
    third_person,
)

EVENT_CONFIDENCE = 0.8
"""Confidence of an event, activity or feeling the user reported."""

_SPECULATIVE = re.compile(
    r"\b(?:might|could|would|should|must|maybe|perhaps|possibly|someday|one\s+day"
    r"|(?<!\bin\s)(?<!\bon\s)(?<!\bof\s)(?<!\bby\s)(?<!\bsince\s)(?<!\buntil\s)may(?!\s+\d)"
    r"|eventually|sometime|wish(?!\s+(?:me|us)\s+luck)|if|unless"
    r"|(?:could|would|should|might|must)n't\s+have)\b",
    re.IGNORECASE,
)
"""A modal, a hedge or a counterfactual (``couldn't have done``): no event is stated. ``May``
the month (``in May``, ``May 9``) is no modal."""

_LISTENER = re.compile(r"\b(?:you|your|yours|yourself|u|ur|ya|y'all)\b", re.IGNORECASE)
_GENERIC_YOU = re.compile(r"\b(?:where|whose\s+\w+)\s+you\s+(?:can|could)\b", re.IGNORECASE)
"""``cafes where you can work all day``: anyone's possibility, not the listener's."""


def addresses_listener(statement: str) -> bool:
    """True when ``statement`` is about the listener (``User loves your turtles.``); a generic
    ``you`` in a clause that says which things (``where you can ...``) is anyone."""
    return _LISTENER.search(_GENERIC_YOU.sub(" ", statement)) is not None


_LOCATIVE_PRONOUN = re.compile(r"\b(?:there|here)\b(?!\s+(?:is|are|was|were)\b)", re.IGNORECASE)

_NEGATION = re.compile(
    r"^(?:do|did|does|am|was|were|have|had|can|could|will|would)\s+not\b|^(?:never|not|no)\b",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"\b(?:not|never|no)\b|n't\b", re.IGNORECASE)
"""A negation anywhere in a text (:data:`_NEGATION` reads one that opens a predicate)."""

_BE_FORMS = {"am": "is", "was": "was", "are": "is", "were": "was"}

_PERSON_FIXES = (
    (re.compile(r"\bthey\s+was\b"), "they were"),
    (re.compile(r"\bthey\s+am\b"), "they are"),
    (re.compile(r"\bthey\s+has\b"), "they have"),
)

_NEW_CLAUSE = re.compile(
    r",\s+(?:so|but|because|which|although|though|since|as|and\s+(?:it|that|this|then|they|he"
    r"|she|we|I))\b",
    re.IGNORECASE,
)


MAX_OBJECT_WORDS = 12
"""An event's object is cut at the first clause-like boundary after six words, and at this
many words at most: a recalled statement is read beside its cost (on LoCoMo dev, 12 against
14 returned 2.2 fewer words per probe at k = 10 for one evidence hit fewer in 722)."""
_OBJECT_BOUNDARIES = frozenset(
    {"with", "because", "and", "but", "which", "who", "that", "when", "where", "while", "so"}
)
_SUBJECT_PRONOUNS = frozenset({"they", "he", "she", "we"})


def _object(text: str, *, team: bool) -> str:
    out = _third_person_object(text, team=team)
    for pattern, replacement in _PERSON_FIXES:
        out = pattern.sub(replacement, out)
    out = _NEW_CLAUSE.split(out, maxsplit=1)[0]
    head, comma, tail = out.partition(", ")
    if comma and not (
        _is_list_tail(tail) or _APPOSITIVE_NAME.match(tail) or CONTRAST_TAIL.match(tail)
    ):
        out = head
    out = re.sub(r"\s+(?:lately|recently|these\s+days|nowadays)\b", "", out, flags=re.I)
    out = re.sub(r"(?:,?\s+(?:lol|haha|ha|tbh|btw|though|too|now|already))+$", "", out)
    words = out.split()
    if len(words) > MAX_OBJECT_WORDS:
        out = " ".join(words[: _object_cut(words)])
    return described(out.strip(" ,;:-"))


def _object_cut(words: list[str]) -> int:
    """Where a long object is cut: before its first clause-like word after six words, else
    before its first preposition there, else before a subject pronoun opening a clause (``the
    group they are a part of``), so it never ends mid-phrase (``... places they want to``)
    nor inside ``both X and Y``, and at ``MAX_OBJECT_WORDS`` at most."""
    both = next((i for i, w in enumerate(words) if w.casefold() == "both"), len(words))
    for boundaries in (_OBJECT_BOUNDARIES, _PREPOSITIONS, _SUBJECT_PRONOUNS):
        for i, word in enumerate(words[6:MAX_OBJECT_WORDS], start=6):
            lower = word.casefold()
            if lower == "and" and both < i and "and" not in map(str.casefold, words[both:i]):
                continue  # ``both X and Y``: the pair's ``and``
            if lower in boundaries:
                return i
    return MAX_OBJECT_WORDS


def _verb_base(verb: str) -> str:
    lower = verb.casefold()
    irregular = irregular_past_base(lower)
    if irregular is not None:
        return irregular
    if lower.endswith("ied"):
        return lower[:-3] + "y"
    if lower.endswith("eed"):
        return lower
    if lower.endswith("ed"):
        stem = lower[:-2]
        # One syllable ending vowel-consonant lost a silent e: moved, hiked, used.
        return stem + "e" if _SILENT_E_STEM.search(stem) else stem
    return lower


_SILENT_E_STEM = re.compile(r"^[^aeiouy]*[aeiou][^aeiouwxy]$")
"""A one-syllable stem whose single vowel stands before one final consonant (``mov``,
``hik``, ``us``): its base ends in a silent ``e`` (a doubled consonant, ``stopp``, does not)."""


def _is_participle(verb: str) -> bool:
    lower = verb.casefold()
    return lower in _PARTICIPLES or (lower.endswith("ed") and len(lower) > 3)


def _is_past(verb: str) -> bool:
    lower = verb.casefold()
    return lower in _IRREGULAR_PAST or (lower.endswith("ed") and len(lower) > 3)


_FREQUENCY = re.compile(
    r"(?:^|\s+)(?:(?:once|twice|(?:a\s+few\s+|\w+\s+)?times)\s+a\s+\w+|every\s+\w+|(?:on|at)\s+\w+days?\b"
    r"|(?:until|till|since)\b)",
    re.IGNORECASE,
)


_NAME_FIRST = re.compile(
    r"^(?P<name>(?!I\b)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\s+(?!(?:of|and|the|de|da|del|von|van)\b)"
    r"(?=[a-z])"
)
"""An object that opens with a name run and goes on in lowercase words that are not part of a
title (``Molly up from the airport``; not ``Lord of the Rings``)."""


def _thing(obj: str) -> str:
    """The head noun phrase an event's object is about, or "" when it names nothing."""
    words = obj.split()
    if len(words) >= 2 and words[0].casefold() == "how" and words[1].casefold() == "to":
        words = words[2:]
    if len(words) >= 3 and words[0].casefold() == "to" and words[2].casefold() in _ARTICLES:
        words = words[2:]
    while words and words[0].casefold() in (*_PARTICLES, *_PREPOSITIONS):
        words = words[1:]
    text = " ".join(words).replace('"', "").replace("“", "").replace("”", "")
    text = re.split(r"\s+(?:like|-|–|—)\s+|\s*[,:;(]\s*", text, maxsplit=1)[0]
    text = _COUNT_TAIL.sub("", _FREQUENCY.split(text, maxsplit=1)[0])
    text = _TOO_MANY.sub("", text)
    if len(words) >= 3 and " ".join(words[:3]).casefold() == "a break from":
        return _thing(" ".join(words[3:]))
    name = _NAME_FIRST.match(text)
    if name is not None:
        # ``Molly up from the airport``, ``Shelly the photos``: the person or place named.
        return name.group("name").casefold()
    text = _MEASURE.sub("", text)
    head = head_phrase(re.sub(r"^(?:this|that|these|those)\s+", "", text, flags=re.I))
    first = head.split()[0] if head else ""
    if first in _VAGUE_HEADS or (head and head.split()[-1] in _VAGUE_HEADS):
        # ``a blast at the Pride fest``, ``a great time throwing a party``: a vague head is
        # about the place or thing after it.
        after = re.search(r"\s(?:at|in|with|on|\w+ing)\s+(?P<np>.+)$", text, re.IGNORECASE)
        return _thing(after.group("np")) if after else ""
    if not head or first in _PRONOUN_OBJECTS or first in _TIME_HEADS:
        return ""
    return bare_thing(head.strip("\"'“”"))


_SPENT_TIME = re.compile(
    r"^(?:the\s+|a\s+|their\s+)?(?:whole\s+|entire\s+|all\s+)?(?:\w+\s+)?(?:weekend|day|week"
    r"|morning|afternoon|evening|night|summer|year|hours?)s?\s+(?P<gerund>\w+ing)\b",
    re.IGNORECASE,
)
"""``spent the whole weekend tinkering``: the activity is the gerund after the time."""


_INFINITIVE_TAKERS = frozenset(
    {"learning", "learn", "learned", "learnt", "trying", "tried", "starting", "started"}
)


_LIGHT_VERBS = frozenset({"get", "be", "stay", "keep", "become"})
_DEGREE_WORDS = frozenset({"better", "back", "good", "more", "less", "worse", "really"})


def _activity_subject(verb: str, obj: str) -> str:
    """The subject of an activity: what it acts on, else the activity itself (``painting``)."""
    spent = _SPENT_TIME.match(obj)
    if spent is not None:
        return spent.group("gerund").casefold()
    words = obj.split()
    if (
        verb.casefold() in _INFINITIVE_TAKERS
        and len(words) >= 3
        and words[0].casefold() == "to"
        and words[1].casefold() in _LIGHT_VERBS
    ):
        # ``trying to get better at chess``: a light verb is about what follows it.
        rest = [w for w in words[2:] if w.casefold() not in _DEGREE_WORDS] or words[2:]
        thing = _thing(" ".join(rest))
        if thing:
            return thing
    if (
        verb.casefold() in _INFINITIVE_TAKERS
        and len(words) >= 2
        and words[0].casefold() == "to"
        and words[1].islower()
        and words[1] not in (*_ARTICLES, *_PRONOUN_OBJECTS, "my", "our", "their")
        and (len(words) == 2 or words[2].casefold() in (*_PREPOSITIONS, *_PARTICLES))
    ):
        # ``learning to knit``: the activity learned, when it acts on nothing named.
        return gerund(_verb_base(words[1].casefold()))
    if words and words[0].casefold().endswith("ing") and len(words[0]) > 4:
        following = words[1].casefold() if len(words) > 1 else ""
        if not following or following in (*_PREPOSITIONS, *_PARTICLES, "again", "more"):
            return words[0].casefold()  # ``start painting again`` is about painting
        thing = _thing(" ".join(words[1:]))
        return thing or words[0].casefold()
    thing = _thing(obj)
    if thing:
        return thing
    lower = verb.casefold()
    return lower if lower.endswith("ing") else gerund(_verb_base(lower))


def _predicate(aux: str | None, verb: str, *, plural: bool) -> str:
    """The verb group for ``User`` (or ``User and others`` when ``plural``)."""
    lower = verb.casefold()
    if aux is not None:
        aux_words = aux.casefold().split()
        head = aux_words[0]
        if head in _BE_FORMS:
            head = ("are" if head in ("am", "are") else "were") if plural else _BE_FORMS[head]
        elif head == "have":
            head = "have" if plural else "has"
        elif head == "do":
            return lower if plural else third_person(lower)
        elif head == "did":
            return irregular_past(lower) or lower + "ed"
        return " ".join([head, *aux_words[1:], lower])
    if _is_past(lower) or plural:
        return lower
    return third_person(lower)


_VERB_GROUP = re.compile(
    r"^(?P<aux>(?:am|was|are|were|have\s+been|had\s+been|have|had|used\s+to|do|did)\s+)?"
    r"(?P<verb>[a-z][a-z'-]*)(?:\s+(?P<rest>.*))?$",
    re.IGNORECASE,
)


def _strip_adverbs(text: str) -> str:
    """``text`` without its leading adverbs: the listed ones, ``kind of`` and ``sort of``, and a
    lowercase word ending in ``-ly`` that is no noun (a capitalised one inside a clause is a
    name: ``Italy``, ``Emily``)."""
    words = text.split()
    while words:
        lower = words[0].casefold().strip(",")
        heuristic = lower.endswith("ly") and words[0][:1].islower() and lower not in _NOT_ADVERBS
        kinds = len(words) > 2 and words[2].casefold() == "of"
        if lower in ("kind", "sort") and len(words) > 1 and words[1].casefold() == "of":
            words = words[2:]
        elif lower == "all" and kinds and words[1].casefold() in ("kinds", "sorts", "types"):
            break  # ``all kinds of hurdles`` is the object, not an adverb before it
        elif lower in _ADVERB_WORDS or heuristic:
            words = words[1:]
        else:
            break
    return " ".join(words)


def _activity(statement_text: str, subject: str) -> list[_Proposal]:
    """An ongoing activity or habit of the user (``User runs three times a week.``): a user
    attribute about the activity, so a newer statement about it supersedes the older one."""
    statement = statement_text.rstrip(" .!,") + "."
    if not subject or len(statement) < 12:
        return []
    return [
        _Proposal(
            belief_type=BeliefType.USER_MODEL_ATTR,
            subject=collapse(subject).casefold(),
            predicate="",
            obj=statement,
            exclusive=True,
            statement=statement,
            confidence=EVENT_CONFIDENCE,
        )
    ]


def _with(proposal: _Proposal, *, exclusive: bool) -> _Proposal:
    return _Proposal(
        belief_type=proposal.belief_type,
        subject=proposal.subject,
        predicate=proposal.predicate,
        obj=proposal.obj,
        exclusive=exclusive,
        statement=proposal.statement,
        confidence=proposal.confidence,
        when=proposal.when,
        past=proposal.past,
    )


def _pronoun_only(obj: str) -> bool:
    """True when the object opens with a pronoun it does not resolve (``it``, ``that``), or
    is only an amount of one (``plenty of that``)."""
    words = [w.casefold().strip(".,!") for w in obj.split()]
    if 2 <= len(words) <= 4 and words[-2] == "of" and words[-1] in _PRONOUN_OBJECTS:
        return True  # ``plenty of that``, ``a lot of it``: an amount of nothing named
    if not words or words[0] not in _PRONOUN_OBJECTS:
        return False
    # ``this bowl`` names its referent; ``this``, ``that so much`` and ``it`` do not.
    demonstrative = words[0] in ("this", "that", "these", "those") and len(words) > 1
    named = words[1].replace("-", "").isalpha() if len(words) > 1 else False
    return not (demonstrative and named and words[1] not in _NOT_A_NOUN)


_NOT_A_NOUN = frozenset(
    {"is", "was", "so", "too", "very", "much", "one", "ones", "way", "stuff", "thing", "things"}
    # ``I framed this when I ...``: a subordinate clause after the pronoun names nothing.
    | {"when", "after", "before", "because", "since", "while", "once", "if", "until"}
    # ``getting this wrong``: a complement after the pronoun names nothing either.
    | {"wrong", "right", "done", "better", "worse", "together", "apart", "again", "now"}
    | set(_PREPOSITIONS)
    | set(_PARTICLES)
)


def _proposal(
    who: str, predicate: str, obj: str, subject: str, when: object, *, past: bool
) -> list[_Proposal]:
    from memory_core.text import TimePhrase

    statement = collapse(f"{who} {predicate} {obj}").rstrip(" .!,") + "."
    if not subject or len(statement) < 11:
        return []
    proposal = _p(BeliefType.FACT, subject, predicate, obj, exclusive=False, statement=statement)
    return [
        _Proposal(
            belief_type=proposal.belief_type,
            subject=proposal.subject,
            predicate=proposal.predicate,
            obj=proposal.obj,
            exclusive=False,
            statement=statement,
            negated=None,
            confidence=EVENT_CONFIDENCE,
            when=when if isinstance(when, TimePhrase) else None,
            past=past,
        )
    ]


__all__ = ["EVENT_CONFIDENCE"]
