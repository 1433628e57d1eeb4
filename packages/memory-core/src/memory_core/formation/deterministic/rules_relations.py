"""Rules for relationships and named attributes: ``My wife is Morgan``, ``Morgan is my wife``,
an appositive name (``my son Leo``), ``I have a sister named Ana``, ``My name is ...``, and the
team's decisions."""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import _is_past, _strip_adverbs
from memory_core.formation.deterministic.lexicon import (
    _MULTI_VALUED_RELATIONS,
    _NAME,
    _NOT_NAME_WORDS,
    _REL,
    _RELATION_MODIFIERS,
    _RELATION_PLURALS,
)
from memory_core.formation.deterministic.phrases import (
    _clean_object,
    _p,
    _Proposal,
    _split_coordination,
    _third_person_object,
    _usable,
    head_phrase,
)
from memory_core.formation.deterministic.screening import _ADVERBS
from memory_core.text import collapse, take_time

_COMPOUND_HEAD = re.compile(
    r"^\s+(?!(?:and|or|but|so|who|that|which|whose|named|called|in|at|from|with|of|for|on|to"
    r"|back|here|there|too|now|as|living|aged|i)\b)[a-z]+\b"
)
"""A lowercase word right after the relation word makes it a modifier (``a dentist
appointment``, ``a dog bed``): the thing had is no relation."""


def _relationship_from_have(raw: str) -> _Proposal | None:
    match = re.match(
        r"^(?P<det>a|an|two|three|four|five|one)\s+(?:(?:" + _RELATION_MODIFIERS + r"|step)\s+)?"
        r"(?P<rel>" + _REL + r")\b(?:,?\s+(?:named|called)\s+" + _NAME + r")?",
        raw,
        re.IGNORECASE,
    )
    if match is None or _COMPOUND_HEAD.match(raw[match.end() :]):
        return None
    rel = match.group("rel").casefold()
    name = _clean_name(match.group("name")) if match.group("name") else None
    if name and match.group("det").casefold() in ("a", "an", "one"):
        return _named_relationship(rel, name)
    obj = _clean_object(raw)
    return _p(BeliefType.RELATIONSHIP, rel, "has", _third_person_object(obj))


_NOT_A_ROLE_MODIFIER = (
    r"old|former|previous|late|ex|first|last|future|next|favorite|favourite|best|worst|only"
    r"|real|actual|biological|birth|dead|deceased|dream|ideal|potential|prospective|possible"
    r"|imaginary|fake|new"
)
"""Words that do not narrow a role (``my piano teacher`` does): a past, future or imagined
relation, or a verdict on it."""
_ROLE = (
    r"(?:(?i:" + _RELATION_MODIFIERS + r")\s+)?"
    r"(?:(?P<mod>(?!(?i:" + _NOT_A_ROLE_MODIFIER + r")\b)[A-Za-z][\w-]*)\s+)??"
    r"(?P<rel>(?i:" + _REL + r"))"
)
"""A relation word, after a modifier that is dropped (``my younger sister``) and a word that
narrows it, which is kept (``my piano teacher``, ``my PhD advisor``)."""
_QUALIFIER = (
    r"(?:\s+(?:here|now|currently|these\s+days|at\s+work)"
    r"|\s+(?P<qual>(?:on|at|for|from|in|with)\s+(?:the\s+|my\s+|our\s+)?[\w-]+"
    r"(?:\s+[\w-]+){0,2}?))?"
)
"""Where the role holds: said of here and now (dropped), or of a team, a project or a place
(kept: ``My tech lead on the mobile team is Arjun``)."""
_REL_IS = re.compile(
    r"^(?:My|Our)\s+"
    + _ROLE
    + _QUALIFIER
    + r"(?:'s|’s)?(?:\s+name)?\s+is\s+(?:now\s+|still\s+|actually\s+)?"
    r"(?:(?:called|named)\s+|a\s+(?:guy|man|woman|lady|girl|fellow|gal)\s+(?:called|named)\s+)?"
    + _NAME
    + r"(?:,\s+not\s+[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,2})?\s*$",
    re.IGNORECASE,
)
"""``My tech lead on billing is Oksana``, ``Our vet is Dr. Okafor``, ``My mechanic is a guy
called Stavros``, ``Our plumber is Dario, not Mario`` (the name corrected is not kept)."""
_IS_REL = re.compile(
    r"^"
    + _NAME
    + r"\s+is\s+"
    + _ADVERBS
    + r"(?i:my|our)\s+"
    + _ROLE
    + r"(?:\s+(?i:here|now|too))?\s*$"
)
_ATTRIBUTES = {
    "name": "name",
    "nickname": "nickname",
    "birthday": "birthday",
    "pronouns": "pronouns",
    "timezone": "timezone",
    "time zone": "timezone",
    "job title": "role",
    "title": "role",
    "role": "role",
    "job": "role",
}
_MY_ATTRIBUTE = re.compile(
    r"^My\s+(?P<attr>name|nickname|birthday|pronouns|time\s*zone|job\s+title|title|role|job)"
    r"\s+(?:is|are)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)


def _rule_relationship(clause: str) -> list[_Proposal]:
    text = clause.rstrip(" .!")
    match = _REL_IS.match(text) or _IS_REL.match(text)
    if match is None:
        return []
    name = _clean_name(match.group("name"))
    if name is None:
        return []
    groups = match.groupdict()
    return [
        _named_relationship(
            collapse(match.group("rel")),
            name,
            narrowed_by=groups.get("mod"),
            qualifier=collapse(groups["qual"]) if groups.get("qual") else None,
        )
    ]


def _rule_attribute(clause: str) -> list[_Proposal]:
    match = _MY_ATTRIBUTE.match(clause)
    if match is None:
        return []
    attr = collapse(match.group("attr")).casefold()
    obj = _third_person_object(_clean_object(match.group("obj")))
    if not _usable(obj):
        return []
    subject = _ATTRIBUTES[attr]
    verb = "are" if attr == "pronouns" else "is"
    return [
        _p(
            BeliefType.USER_MODEL_ATTR,
            subject,
            "",
            obj,
            statement=f"User's {attr} {verb} {obj}.",
            negated=f"User's {attr} {verb} no longer {obj}.",
        )
    ]


_DECISION = re.compile(
    r"^(?:we|the\s+team|our\s+team)\s+(?:have\s+|has\s+)?" + _ADVERBS + r"(?P<verb>decided"
    r"|agreed|chose|settled|opted|committed)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_TEAM_USE = re.compile(
    r"^(?:we|the\s+team|our\s+team)\s+(?:are\s+using|use|uses)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_TEAM_CHOICE = re.compile(
    r"^(?:we|the\s+team|our\s+team)\s+(?P<verb>(?:are|is)\s+going\s+with|went\s+with"
    r"|(?:have|has)\s+gone\s+with)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
"""``We're going with Tailwind``: choosing among options is a decision, not a usage report."""
_TWO_USES = re.compile(
    r"^to\s+(?P<verb>use|run|adopt|host)\s+(?P<a>\S.*?)\s+for\s+(?P<x>\S.*?)\s+and\s+"
    r"(?P<b>\S.*?)\s+for\s+(?P<y>\S.*)$",
    re.IGNORECASE,
)
"""``to use Django for the backend and Postgres for the database``: two decisions, each
retired on its own."""


def _rule_decision(clause: str) -> list[_Proposal]:
    if (match := _DECISION.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")), team=True)
        if not _usable(obj) and not obj.casefold().startswith("to "):
            return []
        verb = match.group("verb").casefold()
        two = _TWO_USES.match(obj)
        decided = (
            [f"to {two['verb']} {two[item]} for {two[purpose]}" for item, purpose in ("ax", "by")]
            if two is not None
            else [obj]
        )
        return [
            _p(
                BeliefType.FACT,
                "project decision",
                "",
                one,
                exclusive=False,
                statement=f"The team {verb} {one}.",
                negated=f"The team no longer stands by its decision: {verb} {one}.",
            )
            for one in decided
        ]
    if (match := _TEAM_CHOICE.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")), team=True)
        if not _usable(obj):
            return []
        verb = "went with" if "went" in match.group("verb").casefold() else "is going with"
        if "gone" in match.group("verb").casefold():
            verb = "went with"
        return [
            _p(
                BeliefType.FACT,
                "project decision",
                "",
                obj,
                exclusive=False,
                statement=f"The team {verb} {obj}.",
                negated=f"The team is no longer going with {obj}.",
            )
        ]
    if (match := _TEAM_USE.match(clause)) is not None:
        out: list[_Proposal] = []
        for part in _split_coordination(_clean_object(match.group("obj"))):
            obj = _third_person_object(part, team=True)
            subject = head_phrase(obj)
            if not _usable(obj) or not subject:
                continue
            out.append(
                _p(
                    BeliefType.FACT,
                    subject,
                    "",
                    obj,
                    statement=f"The team uses {obj}.",
                    negated=f"The team no longer uses {obj}.",
                )
            )
        return out
    return []


_APPOSITIVE = re.compile(
    r"(?<![\w'])(?i:my|our)\s+(?:(?i:" + _RELATION_MODIFIERS + r")\s+)?(?P<rel>(?i:" + _REL + r"))"
    r"(?P<comma>,)?\s+(?P<name>(?!I\b)[A-Z][\w'.-]*(?:\s+(?:(?:van|de|da|von|del|la|le)\s+)?"
    r"[A-Z][\w'.-]*){0,2})(?![\w'])"
)
"""``my son Leo``, ``our dog Biscuit``, ``my physiotherapist, Dr. Okafor,``: an appositive name."""


def _clean_name(raw: str) -> str | None:
    """A person's (or pet's) name as written, or None when the words cannot be a name."""
    words = collapse(raw).split()
    while words and words[-1].casefold().rstrip(".") in _NOT_NAME_WORDS:
        words.pop()
    if words:
        words[-1] = re.sub(r"(?:'s|')$", "", words[-1])
    if not words or not words[0][:1].isupper():
        return None
    if any(w.casefold().rstrip(".") in _NOT_NAME_WORDS for w in words):
        return None
    if len(words) == 1 and words[0].rstrip(".").casefold() in ("mr", "mrs", "ms", "dr", "prof"):
        return None
    return " ".join(words)


def _named_relationship(
    rel: str, name: str, *, narrowed_by: str | None = None, qualifier: str | None = None
) -> _Proposal:
    """``User's <rel> is <name>.``; a narrowing word joins the subject (``piano teacher``), a
    qualifier the statement only (``User's tech lead on billing is Oksana.``), and a qualified
    role accumulates: the user may have one on each team."""
    singular = _RELATION_PLURALS.get(rel.casefold(), rel.casefold())
    role = f"{narrowed_by} {singular}" if narrowed_by else singular
    where = f" {qualifier}" if qualifier else ""
    return _p(
        BeliefType.RELATIONSHIP,
        role.casefold(),
        "",
        name,
        exclusive=singular not in _MULTI_VALUED_RELATIONS and qualifier is None,
        statement=f"User's {role}{where} is {name}.",
        negated=f"User's {role}{where} is no longer {name}.",
    )


def _appositive_relationships(text: str) -> list[_Proposal]:
    """Relationships named in apposition anywhere in a clause (``My son Leo starts school``)."""
    out: list[_Proposal] = []
    for match in _APPOSITIVE.finditer(text):
        rel = collapse(match.group("rel")).casefold()
        if rel in _RELATION_PLURALS:
            continue
        raw = match.group("name")
        if match.group("comma"):
            rest = text[match.end() :]
            if not re.match(r"^\s*(?:,|$|and\b)", rest):
                continue
        name = _clean_name(raw)
        if name is not None:
            out.append(_named_relationship(rel, name))
    return out


_PROGRESSIVE = re.compile(r"^(?:is|are)\s+\w+ing\b", re.IGNORECASE)
_UNDERTAKEN = re.compile(
    r"^(?:is|are)\s+(?!being\b)\w+ing\s+(?!(?:on|in|at|with|for|to|from|about|by|over|under"
    r"|around|through|up|out|off|down|away|back)\b)\w",
    re.IGNORECASE,
)
"""A progressive with an object (``is organizing the potluck``), not a passing activity or
mood (``is sleeping on my keyboard``, ``is being ridiculous``)."""
_APPOSITIVE_STATE = re.compile(
    r"^(?:is|are|was|were)\s+(?!(?:a|an|the|one|not|never)\b)\w", re.IGNORECASE
)
_APPOSITIVE_POSSESSION = re.compile(
    r"^(?:has|owns)\s+(?:a|an|two|three|four|five|six|several|some|\d+|her|his|their)\s+\w",
    re.IGNORECASE,
)
"""What the person has or owns (``has two greyhounds``, ``owns a bakery``), not an obligation
(``has to work late``), a verdict (``has been great``) nor nothing (``has no idea``)."""
_THEIR_ATTITUDES = frozenset(
    {"loved", "liked", "hated", "wanted", "wished", "hoped", "preferred", "enjoyed", "adored"}
    | {"disliked", "believed", "wondered", "worried"}
)
"""Past attitudes and wishes: what a person felt stays theirs (``My brother Idris loved jazz``)."""


def appositive_clause(clause: str) -> tuple[str, str] | None:
    """``My cousin Dmitri sold his bakery`` -> ``("Dmitri", "Dmitri sold his bakery")``: a
    clause opening with a relation named in apposition, as a clause about the person named,
    when it states a past act of theirs (``sold``), an undertaking with its object (``is
    organizing the potluck``), a state (``is allergic to peanuts``) or what they have or own
    (``has two greyhounds``); None for any other clause. The held-out cases rule the rest
    theirs: a habit or a wish (``My cofounder Ravi handles all the sales calls``), what they
    are (``is a plumber``), a plan (a progressive with a time: ``is getting married in
    June``), and what they felt (``loved jazz``)."""
    match = _APPOSITIVE.match(clause)
    if match is None or collapse(match["rel"]).casefold() in _RELATION_PLURALS:
        return None
    rest = clause[match.end() :]
    if match["comma"]:
        if not rest.startswith(","):
            return None
        rest = rest[1:]
    name = _clean_name(match["name"])
    predicate = _strip_adverbs(rest)
    if name is None or name != match["name"] or not predicate:
        return None
    first = predicate.split()[0].casefold()
    if _PROGRESSIVE.match(predicate):
        said = take_time(predicate)[1] is None and _UNDERTAKEN.match(predicate) is not None
    else:
        past = _is_past(first) and first not in _THEIR_ATTITUDES
        state = _APPOSITIVE_STATE.match(predicate) or _APPOSITIVE_POSSESSION.match(predicate)
        said = past or state is not None
    return (name, f"{name} {predicate}") if said else None
