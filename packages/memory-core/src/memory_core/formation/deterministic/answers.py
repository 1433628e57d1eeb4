"""A short answer read against the question it answers.

``Pepperoni, of course!`` states nothing alone; after ``What's your favorite pizza topping?``
it states ``User's favorite pizza topping is Pepperoni.``. Only a turn that formed nothing is
read this way, only its first sentence, and only when that sentence is a bare answer (a short
noun phrase, no verb, no pronoun, no question); the question must ask for one of the user's
own favourites, or for something the user did (``Where did you go on vacation?`` + ``Crete!``
-> ``User went to Crete on vacation.``; ``what``, ``which <thing>``, ``where``, ``who ... with``).
The candidate cites the answer's event alone: the question supplies the attribute or the act,
the user supplies the value.

A duration answers ``How long have you been <doing something>?`` (``Since I was 17 or so.``,
``For about ten years now!``, ``Almost three years.``): the question and the answer make one
first-person clause (``I have been creating art since I was 17 or so.``) that the extractor
reads like any other, so the statement is the one the user would have formed saying it whole.
The duration may open the reply's first sentence before a clause of its own (``Seven years
now, and I've finally found ...``), and it is read whatever else the reply forms.
"""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.phrases import _p, _Proposal
from memory_core.text import collapse, past_tense

_FAVORITE_QUESTION = re.compile(
    r"^(?:\w+[,!]\s+)*(?:so,?\s+)?(?:what(?:'s|’s|\s+is|\s+are)|which\s+is)\s+your\s+"
    r"(?:absolute\s+|all-time\s+)?(?P<word>favou?rite)\s+(?P<cat>[a-z][\w\s-]{0,30}?)"
    r"(?:\s+(?:right\s+now|these\s+days|at\s+the\s+moment))?\s*\?$",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"(?:,?\s*(?:of\s+course|definitely|for\s+sure|obviously|probably|hands\s+down|easily"
    r"|haha|lol|always|totally|i\s+think))+\s*[.!]*$|^(?:oh|ah|hmm|um|well|definitely|easily)"
    r"[,!]?\s+",
    re.IGNORECASE,
)
_NOT_AN_ANSWER = re.compile(
    r"\b(?:I|me|my|we|you|your|it|this|that|is|are|was|were|do|does|did|have|has|not|no|don't"
    r"|can't|yes|yeah|nope|maybe|hard|tough|depends|sure|know)\b",
    re.IGNORECASE,
)


_DID_YOU_QUESTION = re.compile(
    r"^(?:[\w']+[,!]?\s+){0,3}?(?P<wh>what|which(?:\s+[a-z]+){1,2}|where|who)"
    r"\s+did\s+you\s+(?P<verb>[a-z]+)(?P<rest>(?:\s+[a-z]+){0,4})\s*\?$",
    re.IGNORECASE,
)
"""``Where did you go on vacation?``: a question about something the user did."""
_NOT_IN_THE_QUESTION = re.compile(
    r"\b(?:you|your|it|this|that|them|him|her|he|she|they|there|here|think|feel|say|mean"
    r"|like|do)\b",
    re.IGNORECASE,
)
_MOTION = frozenset({"go", "travel", "fly", "move", "head", "drive", "walk", "run", "ride"})
_NOT_A_DID_ANSWER = re.compile(
    r"\b(?:I|me|we|you|your|it|this|that|is|are|was|were|do|does|did|have|has|not|no|don't"
    r"|can't|yes|yeah|nope|maybe|sure|know|nothing|nowhere|nobody)\b",
    re.IGNORECASE,
)


def _bare(sentence: str) -> str:
    answer = sentence.strip()
    previous = None
    while previous != answer:
        previous = answer
        answer = _FILLER.sub("", answer).strip(" ,.!")
    return answer


def _did_you_readings(prompt: str, answer: str) -> list[_Proposal]:
    """``Where did you go on vacation?`` + ``Crete!`` -> ``User went to Crete on vacation.``."""
    asked = re.split(r"(?<=[.!?])\s+", collapse(prompt))[-1]
    question = _DID_YOU_QUESTION.match(asked)
    if question is None or _NOT_IN_THE_QUESTION.search(question.group("rest") or ""):
        return []
    verb = question.group("verb").casefold()
    if _NOT_IN_THE_QUESTION.search(verb):
        return []
    words = answer.split()
    if not words or len(words) > 5 or _NOT_A_DID_ANSWER.search(answer) or "?" in answer:
        return []
    value = answer[:1].upper() + answer[1:]
    value = re.sub(r"^My\b", "their", value)
    rest = collapse(question.group("rest") or "").casefold()
    wh = question.group("wh").casefold()
    past = past_tense(verb)
    if wh == "where":
        statement = f"User {past} {'to' if verb in _MOTION else 'in'} {value} {rest}"
    elif wh == "who":
        if not rest or rest.split()[-1] not in ("with", "to", "for", "about"):
            return []
        statement = f"User {past} {rest} {value}"
    else:
        statement = f"User {past} {value} {rest}"
    subject = value.casefold().removeprefix("their ")
    return [
        _p(
            BeliefType.FACT,
            subject,
            past,
            value,
            exclusive=False,
            statement=collapse(statement) + ".",
        )
    ]


_HOW_LONG_QUESTION = re.compile(
    r"^(?:[\w']+[,!]?\s+){0,3}?how\s+long\s+have\s+you\s+been\s+"
    r"(?P<act>[a-z]+ing(?:\s+[\w'-]+){0,5}?)\s*\?$",
    re.IGNORECASE,
)
"""``How long have you been playing the cello?``: how long the user has been at something."""
_DURATION_TAIL = re.compile(
    r"(?:,?\s+(?:honestly|now|give\s+or\s+take|i\s+think|i\s+guess|probably))+$", re.IGNORECASE
)
_OPENING_PART = re.compile(r",\s+(?:and|but|so)\s+|\s+[-–—]+\s+|;\s+")
"""Where a reply's opening duration ends (``Seven years now, and I've ...``)."""
_SINCE_OR_FOR = re.compile(r"^(?:since|for)\s+(?P<rest>.+)$", re.IGNORECASE)
_BARE_DURATION = re.compile(
    r"^(?:(?:about|around|almost|nearly|over|roughly|maybe)\s+)?"
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few"
    r"|a\s+couple(?:\s+of)?|several|\d+(?:-\d+)?)\s+(?:years?|months?|weeks?|days?|decades?)$",
    re.IGNORECASE,
)
_NOT_A_DURATION = re.compile(
    r"\b(?:you|your|it|this|that|them|him|her|he|she|they|not|no|don't|can't|remember|know)\b"
    r"|\?",
    re.IGNORECASE,
)


def how_long_clause(prompt: str, first_sentence: str) -> str | None:
    """``How long have you been creating art?`` + ``Since I was 17 or so.`` -> ``I have been
    creating art since I was 17 or so.``; None unless the question asks how long the user has
    been doing a thing named in it and the answer is only a duration."""
    asked = re.split(r"(?<=[.!?])\s+", collapse(prompt))[-1]
    question = _HOW_LONG_QUESTION.match(asked)
    if question is None or _NOT_IN_THE_QUESTION.search(question["act"]):
        return None
    opening = _OPENING_PART.split(first_sentence, maxsplit=1)[0]
    answer = _DURATION_TAIL.sub("", _bare(opening)).strip(" ,.!")
    if not answer or len(answer.split()) > 7 or _NOT_A_DURATION.search(answer):
        return None
    answer = answer[0].lower() + answer[1:]
    if _SINCE_OR_FOR.match(answer) is None:
        if _BARE_DURATION.match(answer) is None:
            return None
        answer = f"for {answer}"
    return f"I have been {question['act']} {answer}."


def answer_readings(prompt: str, first_sentence: str) -> list[_Proposal]:
    """Read ``first_sentence`` as the answer to ``prompt``; empty when it is not a bare one."""
    question = _FAVORITE_QUESTION.match(collapse(prompt))
    if question is None:
        return _did_you_readings(prompt, _bare(first_sentence))
    answer = _bare(first_sentence)
    words = answer.split()
    if not words or len(words) > 5 or _NOT_AN_ANSWER.search(answer) or "?" in answer:
        return []
    category = collapse(question.group("cat")).casefold()
    value = answer[:1].upper() + answer[1:]
    word = question.group("word").casefold()
    return [
        _p(
            BeliefType.PREFERENCE,
            f"favorite {category}",
            "",
            value,
            statement=f"User's {word} {category} is {value}.",
            negated=f"User's {word} {category} is no longer {value}.",
        )
    ]


__all__ = ["answer_readings", "how_long_clause"]
