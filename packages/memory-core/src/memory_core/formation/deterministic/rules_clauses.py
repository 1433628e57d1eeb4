"""Clauses the sentence rules did not read: subordinate clauses, gerund subjects, ``it``.

Also: ``it``/``this``/``that`` evaluations resolved against the clause before in the same turn
(``I took a pottery class. It was super relaxing.`` -> ``User found the pottery class super
relaxing.``), the second of two past acts when only the first is about the listener, and two
splits the shared clause splitter does not make (see :func:`split_more`); the object relative
clause (``The scarf I knitted ...``) is in :mod:`.rules_relative`.

* **A past event in a leading subordinate clause.** ``Since I lost my job, I've been baking``
  splits into two clauses; the first, ``Since I lost my job``, presupposes a past event of the
  user's, so it is read without its subordinator: ``User lost their job.``. Only a past verb
  (``lost``, ``was cooking``) is read: ``When I retire, ...`` and ``Once I finish ...`` are
  conditions, not events, and ``if``/``unless`` are never read. A life stage (``When I was a
  kid``, ``Since I was 17``) is the time of the main clause, not a statement of its own.
* **An experience named by a gerund subject.** ``Painting the fence with my dad was so much fun``
  -> ``User found painting the fence with their dad so much fun.``: an evaluation said of an
  activity is the user's experience of it. A past evaluation (``was``, ``were``, ``has been``)
  is the speaker's own experience; a present one (``is``) is read only when the activity or the
  evaluation is marked as the user's (``my``, ``our``, ``to me``, ``for me``), so a maxim
  (``Taking breaks is important``) forms nothing. The activity must name what it acts on: a
  pronoun (``Seeing it was awesome``), the listener, ``I``/``we`` inside it, a modal, a
  negation, or an evaluation that is a clause of its own (``a great way to relax``) forms
  nothing.

Both form with the event confidence; neither is exclusive, so two experiences never supersede
each other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import (
    _LISTENER,
    _SPECULATIVE,
    EVENT_CONFIDENCE,
    _is_past,
    _object,
    _thing,
)
from memory_core.formation.deterministic.lexicon import _words
from memory_core.formation.deterministic.phrases import _Proposal
from memory_core.text import collapse, take_time

_SUBORDINATE = re.compile(
    r"^(?:ever\s+since|since|when|after|before|once|while|because|as\s+soon\s+as|now\s+that)"
    r"\s+(?P<clause>I\s+(?:(?:just|finally|first|recently|actually|also)\s+)?(?P<verb>[a-z]+)\b.*)$",
    re.IGNORECASE,
)
_LIFE_STAGE = re.compile(
    r"^I\s+was\s+(?:(?:a|an|only|just|still|about|around|like)\s+)*"
    r"(?:\d|kid|child|teen|teenager|baby|boy|girl|student|young|younger|little|small|older"
    r"|in\s+(?:school|college|high\s+school|university|my\s+\w+s))",
    re.IGNORECASE,
)


def subordinate_event(clause: str) -> str | None:
    """``Since I lost my job`` -> ``I lost my job``: the past first-person event a leading
    subordinate clause presupposes, or None when the clause is not one."""
    match = _SUBORDINATE.match(clause)
    if match is None:
        return None
    event = match.group("clause")
    if not _is_past(match.group("verb")) or _LIFE_STAGE.match(event):
        return None
    return event


_FOUND_OUT = re.compile(
    r"^I\s+(?:(?:just|recently|finally|only|also|then)\s+)*(?:found\s+out|learned|learnt"
    r"|realized|realised|discovered)\s+(?:(?:recently|today|that)\s+)*"
    r"(?P<clause>I\s+(?!(?:can|could|might|may|should|would|will)\b).+)$",
    re.IGNORECASE,
)


def found_out_clause(clause: str) -> str | None:
    """``I just found out I'm allergic to shellfish`` -> ``I am allergic to shellfish``: what
    the user found out, realized or learned about themselves, read as their own statement (a
    finding that says nothing alone, ``I was wrong``, then forms nothing); None otherwise, and
    for a modal finding (``discovered that I can make ice cream and gave it a try``), which the
    act it reports keeps."""
    match = _FOUND_OUT.match(clause)
    return match.group("clause") if match else None


_NOT_GERUNDS = _words(
    """nothing something anything everything morning evening during thing king spring ring
    string wing sibling darling ceiling wedding pudding sterling viking earring offspring
    swing sling bring sing"""
)
_GERUND_SUBJECT = re.compile(
    r"^(?P<gerund>[A-Za-z]{3,}ing)(?P<rest>(?:\s+[\w'&-]+){0,10}?)\s+"
    r"(?P<be>is|are|was|were|has\s+been|have\s+been)\s+(?P<eval>[^,;:]+)$"
)
_UNRESOLVED = re.compile(
    r"\b(?:it|this|that|these|those|them|they|he|she|him|her|there|here|what|which|who|I|we"
    r"|one)\b",
    re.IGNORECASE,
)
_FUNCTION_WORDS = _words(
    """a an the my our some all to with in at on up out around through into for about over back
    down off by from across along new old"""
)
_OWN = re.compile(r"\b(?:my|our|me|us|myself|ourselves)\b", re.IGNORECASE)
_TO_ME = re.compile(r"\s+(?:to|for)\s+(?:me|us)\b", re.IGNORECASE)
_NOT_AN_EVALUATION = re.compile(
    r"^(?:not|never|no|about|like|why|how|what|when|where|the\s+reason|because|one\s+of|part\s+of"
    r"|all\s+about)\b|\b(?:to|that|and|but|or|my|our|your|if|on|in|at|with|from|of|by|about"
    r"|into|than|as|for)\b",
    re.IGNORECASE,
)
_MAX_EVALUATION_WORDS = 6
_NORMATIVE = re.compile(
    r"\b(?:key|vital|crucial|important|essential|necessary|a\s+must|everything|the\s+main)\b",
    re.IGNORECASE,
)
_PAIRED = re.compile(r"^(?:both\s+)?[a-z-]+\s+and\s+(?=[a-z-]+$)", re.IGNORECASE)
"""``fun and therapeutic``: two evaluations joined are one (the first is dropped for the test)."""
_DASH_TAIL = re.compile(r"\s+[-–—]+\s+.*$")


def gerund_experience(clause: str) -> list[_Proposal]:
    """``Painting the fence with my dad was so much fun`` -> ``User found painting the fence with
    their dad so much fun.``; nothing for a maxim, a pronoun or a clause-like evaluation."""
    text, when = take_time(clause)
    match = _GERUND_SUBJECT.match(text)
    if match is None or _LISTENER.search(clause) or _SPECULATIVE.search(clause):
        return []
    verb = match.group("gerund")
    activity = collapse(f"{verb}{match.group('rest')}")
    if verb.casefold() in _NOT_GERUNDS or _UNRESOLVED.search(activity):
        return []
    following = match.group("rest").split()
    # ``Moving day was rough``: a gerund before a bare noun may be a compound's modifier; it is
    # read as an activity only with more than its noun (``Baking bread on Sundays``).
    if len(following) == 1 and following[0].casefold() not in _FUNCTION_WORDS:
        return []
    evaluation = _DASH_TAIL.sub("", match.group("eval")).strip(" .!")
    own = _OWN.search(activity) is not None or _TO_ME.search(evaluation) is not None
    evaluation = _TO_ME.sub("", evaluation).strip()
    words = evaluation.split()
    if (
        not words
        or len(words) > _MAX_EVALUATION_WORDS
        or _NOT_AN_EVALUATION.search(evaluation)
        or _UNRESOLVED.search(evaluation)
    ):
        return []
    be = collapse(match.group("be")).casefold()
    present = be in ("is", "are")
    if present and (not own or _NORMATIVE.search(evaluation)):
        return []  # ``Taking care of ourselves is vital``: a maxim, not an experience
    activity = _object(activity, team=True)
    activity = activity[:1].lower() + activity[1:]
    predicate = "finds" if present else ("has found" if be.startswith("ha") else "found")
    obj = match.group("rest").strip()
    subject = _thing(_object(obj, team=True)) if obj else ""
    subject = re.sub(r"^.*?'s\s+", "", subject) or verb.casefold()
    statement = collapse(f"User {predicate} {activity} {evaluation}") + "."
    return [
        _Proposal(
            belief_type=BeliefType.PREFERENCE,
            subject=collapse(subject).casefold(),
            predicate=predicate,
            obj=activity,
            exclusive=False,
            statement=statement,
            confidence=EVENT_CONFIDENCE,
            when=when,
            past=not present,
        )
    ]


_EVALUATIVE = _words(
    """amazing awesome great fun good nice cool incredible fantastic wonderful beautiful lovely
    perfect special relaxing rewarding fulfilling therapeutic calming soothing inspiring
    exhausting stressful empowering cathartic satisfying freeing peaceful challenging exciting
    boring draining healing uplifting enlightening emotional powerful intense scary terrifying
    tough hard difficult tiring frustrating disappointing awful terrible horrible sad
    heartbreaking heartwarming touching moving magical memorable unforgettable epic surreal
    overwhelming hilarious funny interesting fascinating informative eye-opening delicious tasty
    gorgeous stunning breathtaking serene tranquil cozy welcoming refreshing invigorating
    energizing motivating humbling thrilling brutal blast success nightmare disaster joy treat
    highlight adventure brilliant excellent superb lively chill rough comfy comfortable cute"""
)
_PRONOUN_EVALUATION = re.compile(
    r"^(?:and\s+)?(?:it|that|this)(?P<be>'s\s+been|\s+has\s+been|'s|\s+is|\s+was)\s+"
    r"(?P<eval>[^,;:]+)$",
    re.IGNORECASE,
)
_LEADING_PREPOSITION = re.compile(r"^(?:to|at|into|on)\s+", re.IGNORECASE)
_PARTICLE_LEAD = re.compile(
    r"^(?:up|out|off|back|over|around)(?:\s+(?:for|on|at|into|with))?\s+(?=\S)", re.IGNORECASE
)
_EXPERIENCE_VERBS = _words(
    """took attended watched saw read visited joined tried started finished made baked cooked
    played ran hiked went did hosted organized organised bought built painted wrote designed
    opened signed booked stayed explored climbed toured celebrated completed entered performed
    learned began rewatched reread discovered got rode swam danced sang drew knitted sewed
    planted camped traveled travelled flew drove walked rented adopted ordered heard has owns uses
    drives"""
)
"""Acts whose object is what a following ``it`` evaluates (``I took a class. It was fun.``);
after a loss, a breakage or a failure ``it`` is the event, so nothing is resolved."""
_MOTION = _words("went came moved traveled travelled headed flew drove walked returned")
_THING_END = _words("to with at in on for from by into through around over after before during")


def _antecedent_thing(proposal: _Proposal) -> str | None:
    """The thing the user's previous clause named (``User took a pottery class.`` -> ``the
    pottery class``), or None when it named no single thing (``their kids to the park``)."""
    statement = proposal.render()
    if (
        proposal.belief_type not in (BeliefType.FACT, BeliefType.USER_MODEL_ATTR)
        or not proposal.predicate
        or not re.match(r"^User\s+(?!and\b)[a-z]", statement)
        or proposal.predicate.split()[0].casefold() not in _EXPERIENCE_VERBS
    ):
        # ``I lost my wallet. It was awful.``: the loss was awful, not the wallet.
        return None
    obj = proposal.obj
    if proposal.predicate.split()[0] in _MOTION:
        obj = _LEADING_PREPOSITION.sub("", obj)  # ``went to a jazz festival``: the festival
    # ``signed up for a salsa class``, ``tried out the new gym``: the thing after the particle.
    obj = _PARTICLE_LEAD.sub("", obj)
    title = re.match(r"^[\"“][^\"”]+[\"”]", obj)
    if title is not None:
        return title.group(0)
    words: list[str] = []
    for word in obj.split():
        lower = word.casefold()
        if not words and lower in _THING_END:
            return None  # ``wanted to blend ...``, ``talked to a friend``: no thing named
        if lower in _THING_END or lower in ("and", "but", "-") or word.endswith(","):
            if lower == "to":
                return None  # ``took their kids to the park``: the outing, not the kids
            if word.endswith(","):
                words.append(word.rstrip(","))
            break
        words.append(word)
    thing = " ".join(words).rstrip(" .!")
    if not thing or len(words) > 6 or _UNRESOLVED.search(thing) or _LISTENER.search(thing):
        return None
    first, *rest = words
    # A thing opens with a determiner, a possessive or a name, or is an activity (``hiking``):
    # ``back``, ``up some work`` and ``hard`` name nothing.
    determined = first.casefold() in ("the", "a", "an", "their", "some")
    if determined and (not rest or rest[0].casefold() in (*_THING_END, "of")):
        return None
    if not (determined or first[:1].isupper() or (first.endswith("ing") and not rest)):
        return None
    return re.sub(r"^(?:a\s+few|a\s+couple\s+of|a|an|some)\s+", "the ", thing, flags=re.I)


def resolved_evaluation(clause: str, previous: Sequence[_Proposal]) -> list[_Proposal]:
    """``It was super relaxing`` after ``I took a pottery class`` in the same turn -> ``User
    found the pottery class super relaxing.``: ``it`` resolved against the clause before."""
    match = _PRONOUN_EVALUATION.match(clause)
    if match is None or not previous or _LISTENER.search(clause) or _SPECULATIVE.search(clause):
        return []
    evaluation = _TO_ME.sub("", _DASH_TAIL.sub("", match.group("eval"))).strip(" .!")
    words = evaluation.casefold().split()
    if (
        not words
        or len(words) > _MAX_EVALUATION_WORDS
        or not any(word.strip(".!") in _EVALUATIVE for word in words)
        or _NOT_AN_EVALUATION.search(_PAIRED.sub("", evaluation))
        or _UNRESOLVED.search(evaluation)
    ):
        return []
    antecedent = previous[-1]
    thing = _antecedent_thing(antecedent)
    if thing is None:
        return []
    be = collapse(match.group("be")).casefold()
    predicate = "has found" if "been" in be else ("found" if be == "was" else "finds")
    return [
        _Proposal(
            belief_type=BeliefType.PREFERENCE,
            subject=antecedent.subject,
            predicate=predicate,
            obj=thing,
            exclusive=False,
            statement=collapse(f"User {predicate} {thing} {evaluation}") + ".",
            confidence=EVENT_CONFIDENCE,
        )
    ]


_TIME_LEAD = (
    r"(?:last\s+\w+|yesterday|today|tonight|this\s+(?:morning|afternoon|evening|week|weekend"
    r"|month|year)|on\s+\w+day|earlier\s+today|the\s+other\s+day|(?:a\s+few|two|three)\s+"
    r"(?:days|weeks|months)\s+ago)"
)
_MORE_CLAUSES = re.compile(
    r",\s+(?=(?:it|this|that)(?:'s|\s+(?:is|was|has\s+been))\s)"
    r"|,?\s+(?:and|but|so)\s+(?:then\s+)?(?=" + _TIME_LEAD + r",?\s+(?:I|we)\s)",
    re.IGNORECASE,
)


def split_more(clauses: list[str]) -> list[str]:
    """Split where the shared clause splitter does not: before ``it was ...`` after a comma
    (``I joined a gym, it has been great``), so it is read against the clause before, and
    before a time phrase that opens a first-person clause after a conjunction (``I've been
    swamped, but last week I finished the quilt``)."""
    return [part for clause in clauses for part in _MORE_CLAUSES.split(clause) if part]


_TRAILING_SUBORDINATE = re.compile(
    r"\s(?P<sub>(?:ever\s+since|since|when|after|before|once|while|because)\s+I\s.+)$",
    re.IGNORECASE,
)


def trailing_event(clause: str) -> str | None:
    """``I painted this after I visited the harbor`` -> ``I visited the harbor``: the past
    first-person event of a trailing subordinate clause, read when its main clause forms
    nothing; a main clause under a modal or a hedge (``It might have been after ...``) keeps
    it unread."""
    match = _TRAILING_SUBORDINATE.search(clause)
    if match is None or _SPECULATIVE.search(clause[: match.start()]):
        return None
    return subordinate_event(match.group("sub"))


_LISTENER_CONJUNCT = re.compile(
    r"^I\s+(?P<first>.+?)\s+and\s+(?:then\s+)?(?P<second>(?P<verb>[a-z]+)\b.+)$"
)


def listener_free_conjunct(clause: str) -> str | None:
    """``I took your advice and signed up for a class`` -> ``I signed up for a class``: the
    second of two past acts, when only the first is about the listener."""
    match = _LISTENER_CONJUNCT.match(clause)
    if (
        match is None
        or not _LISTENER.search(match.group("first"))
        or _LISTENER.search(match.group("second"))
        or not _is_past(match.group("verb"))
        or not _is_past(match.group("first").split()[0])
    ):
        return None
    return f"I {match.group('second')}"


__all__ = [
    "gerund_experience",
    "listener_free_conjunct",
    "resolved_evaluation",
    "split_more",
    "subordinate_event",
    "trailing_event",
]
