"""The deterministic extractor: sentences to clauses to candidates."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from memory_core.domain import BeliefType, Polarity
from memory_core.formation._text import split_clauses
from memory_core.formation.deterministic.answers import answer_readings, how_long_clause
from memory_core.formation.deterministic.conversation import (
    _NEGATED,
    _is_past,
    addresses_listener,
)
from memory_core.formation.deterministic.coordination import coordinated_acts, state_and_act
from memory_core.formation.deterministic.lexicon import _RESOLVE_AND_MOOD
from memory_core.formation.deterministic.phrases import _Proposal, plural_as_theirs
from memory_core.formation.deterministic.pronouns import with_person_named
from memory_core.formation.deterministic.reading import (
    ClauseReading,
    _read,
    _reading,
    _resolve_pronoun,
)
from memory_core.formation.deterministic.rules_clauses import (
    found_out_clause,
    listener_free_conjunct,
    resolved_evaluation,
    split_more,
    subordinate_event,
    trailing_event,
)
from memory_core.formation.deterministic.rules_identity import resolved_identity
from memory_core.formation.deterministic.rules_naming import names_given
from memory_core.formation.deterministic.rules_people import is_person_name, people_readings
from memory_core.formation.deterministic.rules_plans import occasion_fragment
from memory_core.formation.deterministic.rules_relations import appositive_clause
from memory_core.formation.deterministic.rules_relative import relative_event
from memory_core.formation.deterministic.rules_sharing import sharing_readings
from memory_core.formation.deterministic.rules_team import team_change
from memory_core.formation.deterministic.scene import in_scene, scene_of
from memory_core.formation.deterministic.screening import (
    _DEPENDENT_PARTICIPLE,
    _SARCASM,
    _normalize_clause,
    _supply_subject,
    announced_news,
    cut_embedded_question,
    sentence_forms_nothing,
)
from memory_core.formation.deterministic.statement_ends import (
    DASH,
    untorn,
    whole_elaboration,
    without_them,
)
from memory_core.formation.port import Candidate, Turn
from memory_core.policy import DETERMINISTIC_FORMATION_POLICY
from memory_core.tokenizer import STOPWORDS, tokenize

_PLEASE = re.compile(r"\bplease\b", re.IGNORECASE)
_CUT_SHORT = re.compile(r"\b(?:to|a|an|the|of|and|or|but|their)\.$", re.IGNORECASE)
"""A statement ending in a word no clause ends with was cut short (``User loves to.``)."""
_UNNAMED_IT = re.compile(
    r"^User(?:'s\s+\S+)?\s+(?:\S+\s+){0,3}?it(?:'s)?\b"
    r"(?!\s+(?:when|whenever|that|if)\b)(?!(?:'s|\s+is|\s+was)?\s+(?:\w+\s+)?\w+\s+to\b)",
    re.IGNORECASE,
)
"""An ``it`` among the first words of the predicate names nothing the clause said (``User plans
to check it out.``); one that anticipates its clause (``hates it when ...``, ``feels it's
important to ...``) does."""
_UNNAMED_ANYWHERE = re.compile(
    r"\bit\s+(?:out|up|off|down|over|back|happen)\b"
    r"|(?<!\blike\s)(?<!\bafter\s)(?<!\bbefore\s)\b(?:this|that|these|those)"
    r"(?=[.!,]|\s+(?:at|in|on|to|for|with|from|about|by)\b(?<!those\sin))",
    re.IGNORECASE,
)
"""A pronoun no clause names anywhere: ``it`` in a phrasal verb (``make it happen``, ``keep it
up``) and ``this``/``that`` standing alone (``dreaming of this``, ``keep that in mind``); not
``like that``, ``after that`` nor ``those in need``."""
_TRAILING_IT = re.compile(
    r"\b(?:about|into|on|for|of|from|doing|reading|overcome|through)\s+it\.$", re.IGNORECASE
)
"""An ``it`` that ends the statement as what it is about (``User is a huge fan of it.``,
``User put a lot of work into it.``) names nothing the clause said; a caption's ``a mug with
a cat on it`` names its mug, and is read apart."""
_ROLE_NAMED = re.compile(r"^[A-Z][\w.-]*'s\s+[\w-]+\s+is\s+")
"""``Felix's teacher is Mr. Abara.``: someone's role, held by a person named."""
_JOINT_HEAD = re.compile(r"^(?:my|our)\s+(?:\w+\s+)?\w+$", re.IGNORECASE)
_NAMED_HEAD = re.compile(r"^(?:(?i:maybe|perhaps|probably|hopefully)\s+)?(?P<name>[A-Z][a-z]+)$")
_NOT_A_PARTNER = frozenset(
    {"yes", "yeah", "yep", "no", "nope", "sure", "okay", "ok", "thanks", "wow", "well", "oh", "so"}
    | {"and", "but", "then", "also", "haha", "lol", "hey", "hi", "hello", "true", "right"}
)


def _content_free(statement: str) -> bool:
    """True when every content word of ``statement`` is one of resolve or mood."""
    return all(t in _RESOLVE_AND_MOOD for t in tokenize(statement) if t not in STOPWORDS)


def _rejoin_joint_subject(sentence: str, clauses: list[str]) -> list[str]:
    """``My sister and I went hiking`` splits before ``I``; put the joint subject back when
    the sentence joins them with ``and`` and the clause before is only the partner (``my
    sister``, ``my wife Ingrid``, ``Leo``), and ``Me and my cousin baked ...`` back when it is
    only ``Me``, so the clause is read as a whole, not as the user's (or the partner's) alone.
    A name before a comma is the listener (``Lena, I finished it``), not a partner."""
    out: list[str] = []
    for clause in clauses:
        head = out[-1] if out else ""
        named = _NAMED_HEAD.match(head)
        partner = _JOINT_HEAD.match(head) or (
            named is not None and named["name"].casefold() not in _NOT_A_PARTNER
        )
        joined = f"{head} and {clause.split(' ', 1)[0]} ".casefold() in f"{sentence} ".casefold()
        if joined and (
            (partner and re.match(r"^I\s", clause))
            or (head.casefold() == "me" and re.match(r"^my\s", clause, re.IGNORECASE))
        ):
            out[-1] = f"{head} and {clause}"
        else:
            out.append(clause)
    return out


class DeterministicExtractor:
    """Pattern-based extraction of first-person statements (``formation@7``)."""

    @property
    def policy_version(self) -> str:
        """``formation@7``."""
        return DETERMINISTIC_FORMATION_POLICY

    def extract(self, turn: Turn) -> list[Candidate]:
        """Return the candidates of ``turn``'s sentences, in order, without duplicates."""
        seen: set[tuple[str, str, str, str]] = set()
        out: list[Candidate] = []
        previous: list[_Proposal] = []
        names: list[str] = []  # the people the message named, for ``he``/``she``/``her``

        def emit(proposals: list[tuple[_Proposal, Polarity]]) -> None:
            # A person named as the user's relation, or as someone's role (``Felix's teacher
            # is Mr. Abara``), is who a later ``he`` or ``she`` stands for.
            names.extend(
                p.obj
                for p, polarity in proposals
                if (p.belief_type is BeliefType.RELATIONSHIP or _ROLE_NAMED.match(p.render()))
                and polarity is Polarity.ASSERT
                and is_person_name(p.obj)
            )
            for reading in (_reading(p, polarity, turn.created_at) for p, polarity in proposals):
                # Nothing forms about the listener (``User loves your turtles.``), nor a
                # statement whose object was elided (``I love to.``) or is an unnamed ``it``.
                statement = reading.statement
                if addresses_listener(statement) or _CUT_SHORT.search(statement):
                    continue
                if _UNNAMED_IT.search(statement) or _UNNAMED_ANYWHERE.search(statement):
                    continue
                if _TRAILING_IT.search(statement) and not statement.startswith("User shared "):
                    continue
                if _content_free(statement):
                    continue  # ``User plans to keep pushing forward.``: resolve, about nothing
                if statement.startswith(("User ", "User's ")):
                    named = with_person_named(statement, names)
                    if named is None:
                        continue  # ``User sat with her.`` names no one
                    if named != statement:
                        statement = named
                        reading = replace(reading, statement=named)
                if statement.startswith("User"):
                    # ``... on our camping trip``: the user's with others, not the reader's.
                    plural = plural_as_theirs(statement)
                    if plural != statement:
                        statement = plural
                        reading = replace(reading, statement=plural)
                key = (
                    reading.belief_type.value,
                    reading.subject,
                    statement.casefold(),
                    reading.polarity.value,
                )
                if key not in seen:
                    seen.add(key)
                    out.append(_candidate(reading, turn))

        scene: str | None = None  # the past time the turn set for what it narrates next
        for said in turn.sentences:
            whole = announced_news(said)
            shared = sharing_readings(whole)
            if shared:
                emit([(p, Polarity.ASSERT) for p in shared])
                previous, scene = [], None
                continue
            narrated = in_scene(whole, scene) if scene is not None else None
            if narrated is not None and self._dates_cleanly(narrated, scene, names, turn):
                whole = narrated
            else:
                scene = scene_of(whole)
            for sentence in _sentence_parts(whole):
                previous = self._read_sentence(sentence, previous, names, emit)
        emit([(p, Polarity.ASSERT) for p in names_given(" ".join(turn.sentences))])
        if turn.prompt and turn.sentences:
            clause = how_long_clause(turn.prompt, turn.sentences[0])
            if clause is not None:  # ``How long have you been ...?`` + ``Since 2019.``
                self._read_sentence(clause, [], names, emit)
        if not out and turn.prompt and turn.sentences:
            out = [
                _candidate(_reading(p, Polarity.ASSERT), turn)
                for p in answer_readings(turn.prompt, turn.sentences[0])
            ]
        return out

    @classmethod
    def _dates_cleanly(cls, narrated: str, scene: str | None, names: list[str], turn: Turn) -> bool:
        """True when every statement ``narrated`` forms took the scene's time as a date: a
        reading that keeps the phrase as said (``User has a cat too last week.``) takes none."""
        statements: list[str] = []

        def collect(proposals: list[tuple[_Proposal, Polarity]]) -> None:
            statements.extend(_reading(p, q, turn.created_at).statement for p, q in proposals)

        for sentence in _sentence_parts(narrated):
            cls._read_sentence(sentence, [], list(names), collect)
        return bool(statements) and not any(scene and scene in s.casefold() for s in statements)

    @staticmethod
    def _read_sentence(
        sentence: str,
        previous: list[_Proposal],
        names: list[str],
        emit: Callable[[list[tuple[_Proposal, Polarity]]], None],
    ) -> list[_Proposal]:
        """Read one sentence's clauses; return the asserted proposals ``it`` may refer to
        (``names``: the people the message named so far, which a clause about one reads)."""
        if sentence_forms_nothing(sentence) or _SARCASM.match(sentence):
            return []
        user_opens = False
        clauses = split_more(_rejoin_joint_subject(sentence, split_clauses(sentence)))
        for index, clause in enumerate(clauses):
            text = _normalize_clause(clause)
            # ``Since I lost my job, ...``: the past event the subordinate clause presupposes.
            # ``I just found out I'm allergic to ...``: the finding, the user's own statement.
            text = (
                subordinate_event(text)
                or found_out_clause(text)
                or listener_free_conjunct(text)
                or text
            )
            # An elided subject is the user's when the sentence opens with the user (or
            # with nothing): ``My wife lives in Oslo, originally from Bergen`` is not.
            if index == 0:
                # No subject is supplied to a request (``Booked the table for eight, please``).
                if _DEPENDENT_PARTICIPLE.match(sentence) is None and not _PLEASE.search(sentence):
                    # ``Dentist appointment on Friday``: the user's occasion, ``I have a`` left out;
                    # a negation anywhere in the sentence (``..., not mine``) leaves it alone.
                    occasion = None if _NEGATED.search(sentence) else occasion_fragment(text)
                    text = occasion or _supply_subject(text)
                user_opens = re.match(r"^I\b", text) is not None
            elif user_opens:
                text = _supply_subject(text)
            for act, proposals in _read_acts(text) if text else []:
                if not proposals and previous:
                    resolved = (
                        _resolve_pronoun(act, previous)
                        or resolved_evaluation(act, previous)
                        or resolved_identity(act, previous)
                    )
                    proposals = [(p, Polarity.ASSERT) for p in resolved]
                event = None if proposals else trailing_event(act) or relative_event(act)
                if event is not None:
                    proposals = _read(event)
                if all(p.belief_type is BeliefType.RELATIONSHIP for p, _ in proposals):
                    # ``My uncle is Farid. He owns a vineyard.``, ``My son Leo starts school``:
                    # what the user says of others.
                    about = act
                    if (named := appositive_clause(act)) is not None:
                        names.append(named[0])
                        about = named[1]
                    proposals += [(p, Polarity.ASSERT) for p in people_readings(about, names)]
                proposals = [
                    (untorn(whole_elaboration(kept, sentence)), pol)
                    for p, pol in proposals
                    if (kept := without_them(p, sentence)) is not None
                ]
                previous = [p for p, polarity in proposals if polarity is Polarity.ASSERT]
                emit(proposals)
        return previous


def _read_acts(text: str) -> list[tuple[str, list[tuple[_Proposal, Polarity]]]]:
    """The clause as the acts it joins (``coordinated_acts``), each with what it reads, when
    each reads as a statement alone; a state and the act after it (``state_and_act``), each
    that reads; else the whole clause and its reading. A team's change of decision (``We
    ditched X and moved to Y``) is read whole by its own rule."""
    acts = coordinated_acts(text)
    if len(acts) > 1 and team_change(text) is None:
        readings = [_read(act) for act in acts]
        if all(readings):
            return list(zip(acts, readings, strict=True))
    pair = state_and_act(text)
    if pair is not None:
        # A passing state reads nothing alone (``I was sick all week``); the act still does.
        read = [(part, reading) for part in pair if (reading := _read(part))]
        if read:
            return read
    return [(text, _read(text))]


_PURPOSE_TAIL = re.compile(
    r"\s+(?:to\s+(?:see|find\s+out|check|learn|figure\s+out)\s+(?:if|whether|what|how)"
    r"|so\s+(?:that\s+)?(?:I|we)\s+(?:could|can|would|might|may)|in\s+the\s+hope\s+that)\b.*$",
    re.IGNORECASE,
)
"""A trailing purpose clause (``to see whether ...``, ``so I could ...``): what the user hoped
to learn or gain is not asserted, but the act before it is."""
_HANGING_HYPHEN = re.compile(
    r"(?<![\w-])(?!(?:pre|post|e|non|re|co|anti|self|ex|mid|semi|multi|sub|super|un|inter|over"
    r"|under|first|second|third|full|part|half)-)([A-Za-z]+)-\s+(?!(?:and|or|to|through)\b)(?=\w)"
)
"""``I do- Oscar``, ``a difference- it's``: a hyphen hung on a word before a space is a dash (a
false start or a break), not part of the word; a suspended compound (``10- and 11-year-olds``,
``pre- owned``) keeps it."""
_REPORTING_RELATIVE = re.compile(
    r",?\s+who\s+(?:(?:just|also|then|later)\s+)?(?:said|says|told|tells|asked|asks|claimed"
    r"|mentioned|thinks|thought)\b.*$",
    re.IGNORECASE,
)
"""A trailing relative clause that reports someone's words (``I ran into hikers who said
hello``): the report is theirs, the meeting before it is the user's."""
_ENCOUNTER = re.compile(
    r"\b(?:I|we)\s+(?:(?:just|also|finally|then)\s+)?(?:met|ran\s+into|bumped\s+into|saw"
    r"|talked\s+to|spoke\s+(?:to|with)|chatted\s+with|came\s+across|sat\s+(?:next\s+to|with)"
    r"|had\s+a\s+(?:chat|conversation|talk)\s+with)\b",
    re.IGNORECASE,
)
"""A meeting the user had: only its reporting relative clause is cut, since a description
(``I am a person who tells the truth``) is nothing without its clause."""
_CLAUSE_OPENER = re.compile(
    r"^(?:I|I'm|I've|I'd|we|we're|it|it's|its|that|that's|this|they|they're|he|she|you|you're"
    r"|so|but|and|honestly|can't|cannot|such|there|what|which|totally|really|super"
    r"|my\s+(?:[\w-]+\s+){1,3}(?:is|was|are|were))\b",
    re.IGNORECASE,
)


def _sentence_parts(sentence: str) -> list[str]:
    """The sentence without a trailing purpose or reporting relative clause, split at a spaced
    dash that opens a new clause (``I joined a choir - you should hear us``) or a past act
    written without its ``I`` (``Wild month - adopted a rescue cat``) or a clause of the user's
    things (``- my fav memory was when ...``), each part read on its own. A dash before a list
    or an apposition (``three things - a tent and a stove``) is kept."""
    sentence = _HANGING_HYPHEN.sub(r"\1 - ", sentence)
    text = _PURPOSE_TAIL.sub("", cut_embedded_question(sentence))
    if _ENCOUNTER.search(text):
        text = _REPORTING_RELATIVE.sub("", text)
    if text != sentence:
        text = text.rstrip(" ,.") + "."
    parts = DASH.split(text)
    out = [parts[0]]
    for part in parts[1:]:
        if _CLAUSE_OPENER.match(part) or _is_past(part.split(" ", 1)[0]):
            out.append(part)
        else:
            out[-1] = f"{out[-1]} - {part}"
    return out


def _candidate(reading: ClauseReading, turn: Turn) -> Candidate:
    return Candidate(
        belief_type=reading.belief_type,
        subject=reading.subject,
        statement=reading.statement,
        polarity=reading.polarity,
        exclusive=reading.exclusive,
        retracts=reading.retracts,
        source_event_ids=(turn.event_id,),
        evidence_at=turn.created_at,
        confidence=reading.confidence,
    )
