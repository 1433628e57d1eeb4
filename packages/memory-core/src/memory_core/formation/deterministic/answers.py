"""A short answer read against the question it answers.

``Pepperoni, of course!`` states nothing alone; after ``What's your favorite pizza topping?``
it states ``User's favorite pizza topping is Pepperoni.``. Only a turn that formed nothing is
read this way, only its first sentence, and only when that sentence is a bare answer (a short
noun phrase, no verb, no pronoun, no question); the question must ask for one of the user's
own favourites. The candidate cites the answer's event alone: the question supplies the
attribute, the user supplies the value.
"""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation._text import collapse
from memory_core.formation.deterministic.phrases import _p, _Proposal

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


def answer_readings(prompt: str, first_sentence: str) -> list[_Proposal]:
    """Read ``first_sentence`` as the answer to ``prompt``; empty when it is not a bare one."""
    question = _FAVORITE_QUESTION.match(collapse(prompt))
    if question is None:
        return []
    answer = first_sentence.strip()
    previous = None
    while previous != answer:
        previous = answer
        answer = _FILLER.sub("", answer).strip(" ,.!")
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


__all__ = ["answer_readings"]
