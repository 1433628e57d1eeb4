"""Noun-phrase helpers and the proposal a rule returns (``User <predicate> <obj>.``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.lexicon import (
    _DETERMINERS,
    _FUNCTION_WORDS,
    _HEAD_STOP,
    _NOT_DESCRIBED,
    _PARTICIPLES,
    _PRONOUN_OBJECTS,
    _REFLEXIVES,
    _SIZE_AND_AGE,
    _VERDICT_ADJECTIVES,
    _WHERE_AND_WHEN,
    CONTRAST_TAIL,
)
from memory_core.formation.deterministic.screening import _ADVERBS, _OBJECT_CUT, _TRAILING
from memory_core.text import SUBJECT_FACETS, TimePhrase, collapse, indefinite_article


def _strip_determiners(phrase: str) -> str:
    words = phrase.strip()
    changed = True
    while changed:
        changed = False
        for det in _DETERMINERS:
            if words.casefold().startswith(det + " "):
                words = words[len(det) + 1 :].lstrip()
                changed = True
                break
    return words


def head_phrase(phrase: str) -> str:
    """The head noun phrase of an object, lowercase: determiners, a leading size or age
    (``old MySQL box`` -> ``mysql box``; not in ``Little Rock``), a trailing reflexive,
    trailing phrases and the vague object of an activity (``fixing stuff`` -> ``fixing``)
    removed, and a participle after a plural noun with what follows it (``quotes itemized
    line by line`` -> ``quotes``)."""
    head = _strip_determiners(collapse(phrase))
    quantified = _QUANTIFIER_OF.match(head)
    if quantified is not None:  # ``some of their recipes`` is about the recipes
        head = _strip_determiners(head[quantified.end() :])
    head = _HEAD_STOP.sub("", head)
    head = head.strip(" ,.;:!?'\"")
    words = head.split()
    while (
        len(words) > 1
        and words[0].casefold() in _SIZE_AND_AGE
        and (words[0].islower() or words[1][:1].islower())
    ):
        words = words[1:]
    while len(words) > 1 and words[-1].casefold() in _REFLEXIVES:
        words = words[:-1]
    if len(words) > 1 and _gerund_of_nothing(words):
        words = words[:1]  # ``planning things in a calendar`` is about planning
    words = words[:5]
    for index in range(1, len(words)):
        if _plural(words[index - 1]) and _is_participle(words[index].casefold()):
            words = words[:index]
            break
    return " ".join(words).casefold()


_QUANTIFIER_OF = re.compile(
    r"^(?:(?:some|one|two|three|many|most|all|each|both|any|none|several|a\s+few|few|a\s+lot"
    r"|lots|plenty|part|half|the\s+rest)\s+)?of\s+(?=\w)",
    re.IGNORECASE,
)
"""What is left of ``some of``, ``one of`` before the things they count (the determiner
``some`` already stripped, or still there)."""


def _gerund_of_nothing(words: list[str]) -> bool:
    """``planning things``, ``fixing stuff``: an activity whose object names nothing."""
    first = words[0].casefold()
    return first.endswith("ing") and len(first) > 4 and words[1].casefold() in ("things", "stuff")


def _plural(word: str) -> bool:
    """``quotes``, ``photos``: a plural noun (not ``grass``, ``gas``, ``bus`` nor ``mom's``)."""
    return word.endswith("s") and not word.endswith(("'s", "’s", "ss", "us", "is", "as"))


def _is_participle(word: str) -> bool:
    """``itemized``, ``written``: a past participle (not ``speed`` nor ``need``)."""
    regular = word.endswith("ed") and len(word) > 4 and not word.endswith("eed")
    return regular or word in _PARTICIPLES


def bare_thing(head: str) -> str:
    """A head phrase without the verdict on the thing nor where or when it was (``great
    podcast`` -> ``podcast``, ``play downtown`` -> ``play``); a lone word stays."""
    words = head.split()
    while len(words) > 1 and words[0] in _VERDICT_ADJECTIVES:
        words = words[1:]
    while len(words) > 1 and words[-1] in _WHERE_AND_WHEN:
        words = words[:-1]
    return " ".join(words)


_CONTRAST_START = re.compile(r",\s+(?=not\s)")


def without_contrast(text: str) -> tuple[str, str]:
    """``in Austin, not Denver`` -> ``("in Austin", ", not Denver")``: a text and the short
    contrast that ends it (``CONTRAST_TAIL``) apart; ``(text, "")`` when it ends in none."""
    for match in _CONTRAST_START.finditer(text):
        if CONTRAST_TAIL.match(text[match.end() :]):
            return text[: match.start()], text[match.start() :]
    return text, ""


def _facet(phrase: str) -> str | None:
    phrase = without_contrast(phrase)[0]  # ``text message, not email`` is about text messages
    lowered = f" {collapse(phrase).casefold()} "
    lowered = re.sub(r"[^\w\s-]", " ", lowered)
    head = f" {head_phrase(phrase)} "
    for haystack in (head, lowered):
        best: tuple[int, str] | None = None
        for facet in SUBJECT_FACETS:
            for word in facet.phrases:
                position = haystack.find(f" {word} ")
                if position >= 0 and (best is None or position < best[0]):
                    best = (position, facet.name)
        if best is not None:
            return best[1]
    return None


_POSSESSIVES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"\bmyself\b", "themselves"),
        (r"\bMyself\b", "Themselves"),
        (r"\bmine\b", "theirs"),
        (r"\bmy\b", "their"),
        (r"\bMy\b", "Their"),
        (r"(?<!-)\bme\b(?!-)", "them"),
        (r"\bI'm\b", "they are"),
        (r"\bI've\b", "they have"),
        (r"\bI'll\b", "they will"),
        (r"\bI\b", "they"),
    )
)
_TEAM_PRONOUNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"\bourselves\b", "themselves"),
        (r"\bours\b", "theirs"),
        (r"\bour\b", "their"),
        (r"\bOur\b", "Their"),
        (r"\bus\b", "them"),
        (r"\bwe\b", "they"),
        (r"\bWe\b", "They"),
    )
)


def _third_person_object(phrase: str, *, team: bool = False) -> str:
    out = phrase
    for pattern, replacement in _POSSESSIVES:
        out = pattern.sub(replacement, out)
    if team:
        for pattern, replacement in _TEAM_PRONOUNS:
            out = pattern.sub(replacement, out)
    return out


_QUOTED = re.compile(r"(\"[^\"]*\"|“[^”]*”)")


def plural_as_theirs(statement: str) -> str:
    """``User had a blast on our camping trip.`` -> ``... on their camping trip.``: in a
    statement about the user, ``we``, ``us`` and ``our`` are the user's with others (a quoted
    title, ``"Our Town"``, is kept as written)."""
    parts = _QUOTED.split(statement)
    for index in range(0, len(parts), 2):  # the even parts lie outside quotes
        for pattern, replacement in _TEAM_PRONOUNS:
            parts[index] = pattern.sub(replacement, parts[index])
    return "".join(parts)


def _indefinite(phrase: str) -> str:
    """``my Apple Watch`` -> ``an Apple Watch`` (a possession stated without ownership words)."""
    match = re.match(r"^(?:my|our)\s+(?P<rest>.+)$", phrase, re.IGNORECASE)
    if match is None or "'" in match.group("rest").split(" ")[0]:
        return phrase
    rest = match.group("rest")
    return f"{indefinite_article(rest)} {rest}"


def _clean_object(phrase: str, *, cut: re.Pattern[str] = _OBJECT_CUT) -> str:
    text = collapse(phrase).strip()
    text = cut.split(text, maxsplit=1)[0]
    text = text.strip().rstrip(" .!?;,")
    previous = None
    while previous != text:
        previous = text
        text = _TRAILING.sub("", text).rstrip(" .!?;,")
    return described(text)


_DEMONSTRATIVE = re.compile(r"^(?P<det>this|that|these|those)\s+(?P<rest>\S+\s+.+)$", re.I)


def described(obj: str) -> str:
    """``this lemon poppyseed cake`` -> ``a lemon poppyseed cake``, ``these hiking boots`` ->
    ``hiking boots``: a demonstrative before a description (two words or more, no time among
    them) names the thing shown, said without the pointing; anything else is returned as it
    is (``this band`` names no band, and stays unusable)."""
    match = _DEMONSTRATIVE.match(obj)
    if match is None:
        return obj
    rest = match["rest"]
    words = [w.casefold().strip(",") for w in rest.split()]
    if words[0] in _NOT_DESCRIBED or any(w in _NOT_DESCRIBED - _FUNCTION_WORDS for w in words):
        return obj
    if words[0] in ("says", "said"):
        return obj  # ``that said Congrats Priya``: a relative clause, not a thing pointed at
    if match["det"].casefold() in ("these", "those"):
        return rest
    return f"{indefinite_article(rest)} {rest}"


_LAST_ITEM = re.compile(r"(?:^|\s)(?:and|or)\s+[^,]+$")


_APPOSITIVE_NAME = re.compile(r"^[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}[.!]?$")
"""The rest of an object after its comma when it only names what precedes it (``my home
country, Sweden``): an apposition, kept."""


def _is_list_tail(tail: str) -> bool:
    """Whether ``tail``, the rest of an object after its first comma, ends a list (``reading,
    and hiking``; ``painting and reading``): a list keeps every item, any other comma ends the
    object (``such a relief to have it all done`` is not part of it). Read segment by segment,
    never by one backtracking pattern: a long comma list without ``and`` must stay linear."""
    segments = tail.split(",")
    return all(segments) and _LAST_ITEM.search(segments[-1]) is not None


def _named(obj: str, clause: str) -> bool:
    """True when ``obj`` reads as a proper name: capitalized (after a leading ``the``: ``the
    Museum of Flight``), or written by someone who capitalizes nothing, not even "I" (``i live
    in seattle``)."""
    name = obj[4:] if obj[:4].casefold() == "the " else obj
    return name[:1].isupper() or not any(c.isupper() for c in clause)


def _usable(obj: str) -> bool:
    words = obj.split()
    if not words or len(words) > 14:
        return False
    if not any(c.isalpha() for c in obj):
        return False
    return words[0].casefold() not in _PRONOUN_OBJECTS


def _split_coordination(obj: str) -> list[str]:
    parts = [p.strip() for p in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+", obj) if p.strip()]
    if len(parts) < 2:
        return [obj]
    for part in parts:
        first = part.split()[0]
        starts_np = first.casefold() in {"a", "an", "my", "the", "two", "three", "some"}
        if not (starts_np or first[:1].isupper()) or len(part.split()) > 5:
            return [obj]
    return parts


@dataclass(frozen=True, kw_only=True)
class _Proposal:
    """A clause's reading: ``User <predicate> <obj>.`` (or an explicit statement)."""

    belief_type: BeliefType
    subject: str
    predicate: str
    obj: str
    exclusive: bool = True
    statement: str | None = None
    negated: str | None = None
    confidence: float | None = None
    when: TimePhrase | None = None
    past: bool = False

    def render(self) -> str:
        if self.statement is not None:
            return self.statement
        return f"User {self.predicate} {self.obj}."

    def render_retraction(self) -> str:
        if self.negated is not None:
            return self.negated
        words = self.predicate.split(" ", 1)
        if words[0] in ("is", "has been", "was"):
            rest = f" {words[1]}" if len(words) > 1 else ""
            return f"User {words[0]} no longer{rest} {self.obj}."
        return f"User no longer {self.predicate} {self.obj}."


_Rule = Callable[[str], list[_Proposal]]
_I = r"^I\s+" + _ADVERBS


def _p(
    belief_type: BeliefType,
    subject: str,
    predicate: str,
    obj: str,
    *,
    exclusive: bool = True,
    statement: str | None = None,
    negated: str | None = None,
) -> _Proposal:
    return _Proposal(
        belief_type=belief_type,
        subject=collapse(subject).casefold(),
        predicate=predicate,
        obj=obj,
        exclusive=exclusive,
        statement=statement,
        negated=negated,
    )


_LEADING_PHRASE = re.compile(
    r"^(?P<phrase>(?:after|before|during|at|over|for|on|in|through|between|with)\s+[^,]{1,40}?)"
    r",?\s+(?=(?:I|we)\s)",
    re.IGNORECASE,
)
_DISCOURSE_PHRASE = re.compile(
    r"^(?:in\s+(?:my\s+(?:opinion|experience|view)|fact|general|short|any\s+(?:case|event)"
    r"|that\s+case|the\s+end|the\s+future|theory|practice|particular|hindsight|retrospect"
    r"|reality|truth|the\s+meantime)|at\s+(?:the\s+end\s+of\s+the\s+day|least|first|this"
    r"\s+point|the\s+moment|times|best|worst)|for\s+(?:the\s+record|now|sure|example|instance"
    r"|once|real|starters|reference|one|my\s+sins|what\s+it'?s\s+worth)|on\s+(?:the\s+other"
    r"\s+hand|top\s+of\s+that|second\s+thought|the\s+bright\s+side|balance)|with\s+that"
    r"|after\s+all|over\s+time)$"
    r"|\byour?\b|^\w+(?:\s+(?:the|a|an|my|our|this|that))?$",
    re.IGNORECASE,
)
"""Phrases that frame the talk, not the act (``In my opinion``, ``At the end of the day``, ``For
your information``), and a preposition left without its noun (``For the``, a time taken out)."""
_NOT_SO = re.compile(
    r"^(?:with\s+(?:my|any|some|a\s+bit\s+of|a\s+little)\s+luck|in\s+(?:my\s+(?:head|mind"
    r"|dreams?)|another\s+life|a\s+past\s+life|a\s+perfect\s+world|theory))$",
    re.IGNORECASE,
)
"""Phrases that make what follows a guess or a fancy (``With my luck I'll get fired``, ``In
another life I was a dancer``): the clause states nothing."""


def fronted_to_end(text: str) -> str:
    """``At the party I met Jonah`` -> ``I met Jonah at the party``: a prepositional phrase that
    opens a first-person clause says where, with whom or for what the act happened, so it closes
    the clause instead; a phrase of when (``After the exam I celebrated``) or one that frames
    the talk (``In my opinion, I ...``) is dropped, and one that makes the clause a guess or a
    fancy (``With my luck I'll get fired``) leaves nothing to read."""
    match = _LEADING_PHRASE.match(text)
    if match is None:
        return text
    rest = text[match.end() :]
    phrase = match["phrase"]
    if _NOT_SO.match(phrase):
        return ""
    if _DISCOURSE_PHRASE.search(phrase) or _WHEN_PHRASE.match(phrase):
        return rest
    return f"{rest.rstrip(' .!')} {phrase[:1].lower()}{phrase[1:]}"


_WHEN_PHRASE = re.compile(r"^(?:after|before|during|between|over|through)\s", re.IGNORECASE)
"""A phrase of when (``After the exam``): dropped, as the case files rule (fp-325)."""
