"""Candidate extraction: the ``Extractor`` port and the deterministic extractor (formation@5).

``DeterministicExtractor`` reads hazard-screened sentences of one user turn, splits them into
clauses, and maps first-person statements to candidates with a belief type, a normalized
subject and a third-person statement ending with a period. It forms nothing from questions,
requests, hypotheticals or hedges, reported speech, or clauses whose grammatical subject is not
the user (or, for decisions, the user's team).

Subjects are lowercase noun phrases, derived by one of three rules:

1. **Slots.** A single-valued attribute has a fixed slot name, so a newer statement about it
   supersedes the older one: ``home location`` (live in, have lived in, moved to, based in),
   ``employment`` (works at/for, joined, on the X team at Y), ``team`` (on the X team),
   ``role`` (works as, job title), ``work arrangement``, ``commute`` (bike/walk/drive to work,
   take the train to work, commute by bus), ``vehicle`` (drives), ``diet``, ``native
   language``, ``hometown``, ``age``, ``name``, ``birthday``, ``timezone``, ``pronouns``,
   ``favorite <thing>``, and a relation word for relationships (``wife``, ``manager``).
2. **Categories.** A multi-valued attribute has a category name and is *not exclusive*: new
   values add to it rather than supersede it (``languages``, ``allergies``, ``health``,
   ``dietary restrictions``, ``nationality``, ``project decision``).
3. **Things.** Otherwise the subject is the head noun phrase of the object (determiners and
   trailing prepositional phrases removed): ``I use Neovim for everything`` -> ``neovim``,
   ``I have an Apple Watch`` -> ``apple watch``, ``I love hiking`` -> ``hiking``.

Relationships form from ``My wife is Morgan``, ``Morgan is my wife``, ``I have a sister named
Ana`` and from a name in apposition anywhere in a clause (``My son Leo starts school``, ``my
physiotherapist, Dr. Okafor,``): an appositive is presupposed rather than asserted, so it holds
under a modal of its clause (``My son Leo might start school``), though never in a question or
a conditional. Words that cannot be a name (nationalities, religions, weekdays) never fill the
name, and a modifier such as ``old`` or ``former`` before the relation word rules it out. A
relation people have several of (a sister, a friend, a dog) accumulates; one they have one of
(a spouse, a manager, a landlord) is exclusive, so a newer name supersedes.

A clause that opens without its subject (``Been living in Toronto for years``, ``Just moved to
Lisbon``) is the user's own statement when the turn is the user's and the sentence does not open
with someone else: the ``I`` is supplied for a short list of verb forms a third party's fragment
rarely opens with. ``I really like it`` resolves ``it`` to the previous clause of the same turn:
the thing for a possession or tool (``User loves Zed.``), the activity otherwise (``User likes
working remotely.``); with no stated antecedent it forms nothing. An ironic opener (``Oh sure, I
just love waiting on hold``) forms nothing.

Preferences split on the verb. ``prefer`` and ``would rather`` choose among alternatives along
a facet, so their subject is the facet when a small lexicon names one (``concise answers`` ->
``answer style``, ``tabs over spaces`` -> ``indentation style``) and the thing otherwise.
``like``, ``love``, ``hate`` and their kin state an attitude toward a thing, so their subject is
the thing; ``I'm into X`` and ``I'm not a fan of X`` state one too, and ``I hate it when X``
takes the facet or the head of what the event is about (``I hate it when answers ramble`` ->
``answer style``). Retractions (``I no longer use X``, ``I don't X anymore``, ``I stopped using X``)
re-read the clause without the negation and emit the same type and subject with polarity
``retract``: ``User no longer uses an Apple Watch.``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from memory_core.domain import Authority, BeliefType, Polarity
from memory_core.formation._text import (
    base_form,
    collapse,
    gerund,
    indefinite_article,
    split_clauses,
    third_person,
)
from memory_core.policy import DETERMINISTIC_FORMATION_POLICY

USER_STATEMENT_CONFIDENCE = 0.9
"""Confidence of a belief formed from what the user said directly."""


@dataclass(frozen=True, kw_only=True)
class Turn:
    """One hazard-screened user turn handed to an extractor."""

    event_id: str
    created_at: datetime
    sentences: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """A proposed belief, before resolution against the store.

    Attributes:
        belief_type: What kind of thing the candidate states.
        subject: Normalized lowercase noun phrase the statement is about.
        statement: Third-person statement ending with a period.
        polarity: ``assert``, or ``retract`` for a retraction.
        exclusive: True when the subject holds one value at a time, so a newer statement
            about it supersedes an older one; False for categories that accumulate values.
        retracts: For a retraction, the object whose assertion it withdraws.
        source_event_ids: The user events the candidate comes from (never empty).
        evidence_at: When the newest source event was recorded (the statement's instant).
        authority: Who vouches for it; a direct user statement is ``USER``.
        confidence: Confidence in [0, 1].
    """

    belief_type: BeliefType
    subject: str
    statement: str
    polarity: Polarity = Polarity.ASSERT
    exclusive: bool = True
    retracts: str | None = None
    source_event_ids: tuple[str, ...]
    evidence_at: datetime
    authority: Authority = Authority.USER
    confidence: float = USER_STATEMENT_CONFIDENCE


class Extractor(Protocol):
    """Turns one screened user turn into candidates (the port a provider extractor implements).

    Implementations may only cite ``turn.event_id`` as a source; the service validates every
    candidate against the same hazard and provenance rules whatever extractor produced it.
    """

    @property
    def policy_version(self) -> str:
        """The formation policy version beliefs formed through this extractor record."""
        ...

    def extract(self, turn: Turn) -> Sequence[Candidate]:
        """Return the candidates stated in ``turn``, in the order they were said."""
        ...


# --------------------------------------------------------------------------------------------
# Lexicons
# --------------------------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    """A lexicon written as whitespace-separated words."""
    return frozenset(text.split())


_FACETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "answer style",
        (
            "answer",
            "answers",
            "response",
            "responses",
            "reply",
            "replies",
            "explanation",
            "explanations",
            "summary",
            "summaries",
        ),
    ),
    (
        "answer format",
        ("bullet points", "bullet", "bullets", "tables", "markdown", "numbered lists"),
    ),
    ("indentation style", ("tabs", "spaces", "indentation", "indents")),
    ("color theme", ("dark mode", "light mode", "dark theme", "light theme")),
    ("units", ("metric", "imperial", "celsius", "fahrenheit", "kilometers", "miles")),
    (
        "contact method",
        ("email", "emails", "phone calls", "calls", "texts", "text messages", "slack messages"),
    ),
    ("seating", ("aisle seats", "aisle seat", "window seats", "window seat", "aisle", "window")),
    (
        "programming language",
        ("python", "java", "javascript", "typescript", "rust", "golang", "kotlin", "ruby"),
    ),
    ("work arrangement", ("remote work", "working remotely", "working from home", "office")),
)

_RELATIONS = (
    # partners and family
    "wife",
    "husband",
    "spouse",
    "partner",
    "fiancée",
    "fiancee",
    "fiancé",
    "fiance",
    "boyfriend",
    "girlfriend",
    "ex-wife",
    "ex-husband",
    "ex-partner",
    "ex-boyfriend",
    "ex-girlfriend",
    "mother",
    "mom",
    "mum",
    "father",
    "dad",
    "stepmother",
    "stepfather",
    "stepmom",
    "stepmum",
    "stepdad",
    "mother-in-law",
    "father-in-law",
    "sister",
    "brother",
    "twin sister",
    "twin brother",
    "half-sister",
    "half-brother",
    "stepsister",
    "stepbrother",
    "sister-in-law",
    "brother-in-law",
    "son",
    "daughter",
    "stepson",
    "stepdaughter",
    "son-in-law",
    "daughter-in-law",
    "child",
    "kid",
    "baby",
    "grandmother",
    "grandfather",
    "grandma",
    "grandpa",
    "granny",
    "grandson",
    "granddaughter",
    "grandchild",
    "aunt",
    "uncle",
    "cousin",
    "niece",
    "nephew",
    "godmother",
    "godfather",
    "godson",
    "goddaughter",
    # friends and household
    "best friend",
    "friend",
    "roommate",
    "flatmate",
    "housemate",
    "neighbor",
    "neighbour",
    # work and study
    "manager",
    "boss",
    "supervisor",
    "skip-level manager",
    "mentor",
    "mentee",
    "cofounder",
    "co-founder",
    "business partner",
    "team lead",
    "tech lead",
    "coworker",
    "co-worker",
    "colleague",
    "teammate",
    "direct report",
    "assistant",
    "advisor",
    "adviser",
    "classmate",
    "tutor",
    "teacher",
    "coach",
    "personal trainer",
    "trainer",
    # care and services
    "doctor",
    "family doctor",
    "gp",
    "pediatrician",
    "paediatrician",
    "therapist",
    "physical therapist",
    "physiotherapist",
    "physio",
    "chiropractor",
    "psychiatrist",
    "psychologist",
    "counselor",
    "counsellor",
    "dentist",
    "accountant",
    "lawyer",
    "attorney",
    "financial advisor",
    "nanny",
    "babysitter",
    "landlord",
    "landlady",
    "vet",
    # pets
    "dog",
    "cat",
    "puppy",
    "kitten",
    "rabbit",
    "bunny",
    "hamster",
    "guinea pig",
    "parrot",
    "horse",
    "tortoise",
    "turtle",
)
_MULTI_VALUED_RELATIONS = frozenset(
    {
        "sister",
        "brother",
        "twin sister",
        "twin brother",
        "half-sister",
        "half-brother",
        "stepsister",
        "stepbrother",
        "sister-in-law",
        "brother-in-law",
        "son",
        "daughter",
        "stepson",
        "stepdaughter",
        "son-in-law",
        "daughter-in-law",
        "child",
        "kid",
        "baby",
        "grandson",
        "granddaughter",
        "grandchild",
        "aunt",
        "uncle",
        "cousin",
        "niece",
        "nephew",
        "godson",
        "goddaughter",
        "friend",
        "roommate",
        "flatmate",
        "housemate",
        "neighbor",
        "neighbour",
        "mentee",
        "cofounder",
        "co-founder",
        "business partner",
        "coworker",
        "co-worker",
        "colleague",
        "teammate",
        "direct report",
        "classmate",
        "dog",
        "cat",
        "puppy",
        "kitten",
        "rabbit",
        "bunny",
        "hamster",
        "guinea pig",
        "parrot",
        "horse",
        "tortoise",
        "turtle",
    }
)
"""Relations a person has several of at once: naming one adds to the others (not exclusive).
The rest (a spouse, a manager, a landlord) hold one value, so a newer name supersedes."""
_RELATION_PLURALS = {
    "kids": "kid",
    "children": "child",
    "sons": "son",
    "daughters": "daughter",
    "sisters": "sister",
    "brothers": "brother",
    "dogs": "dog",
    "cats": "cat",
}
_ROLE_NOUNS = _words(
    """engineer developer programmer scientist analyst designer manager teacher professor
    student nurse doctor physician surgeon lawyer attorney accountant consultant architect
    researcher writer editor journalist chef cook pharmacist dentist electrician plumber
    photographer artist musician founder cofounder co-founder ceo cto cfo coo vp intern
    administrator admin technician therapist librarian pilot mechanic recruiter paramedic
    veterinarian vet translator economist statistician marketer salesperson lecturer tutor
    firefighter officer carpenter barista bartender waiter waitress cashier driver farmer
    biologist chemist physicist mathematician historian counselor counsellor student
    sre devops owner lead director president freelancer contractor"""
)
_DIETS = frozenset({"vegetarian", "vegan", "pescatarian", "pescetarian", "gluten-free", "keto"})
_HEALTH_ADJECTIVES = frozenset(
    {
        "diabetic",
        "epileptic",
        "asthmatic",
        "colorblind",
        "colourblind",
        "color-blind",
        "deaf",
        "pregnant",
        "lactose intolerant",
        "gluten intolerant",
        "lactose-intolerant",
        "gluten-intolerant",
        "hard of hearing",
        "immunocompromised",
        "anemic",
        "anaemic",
    }
)
_HANDEDNESS = frozenset({"left-handed", "right-handed", "left handed", "right handed"})
_NATIONALITIES = _words(
    """American Argentine Argentinian Australian Austrian Bangladeshi Belgian Bolivian Brazilian
    British Bulgarian Cambodian Cameroonian Canadian Chilean Chinese Colombian Croatian Cuban
    Czech Danish Dominican Dutch Ecuadorian Egyptian English Eritrean Estonian Ethiopian
    Filipino Filipina Finnish French Georgian German Ghanaian Greek Guatemalan Haitian
    Honduran Hungarian Icelandic Indian Indonesian Iranian Iraqi Irish Israeli Italian
    Jamaican Japanese Jordanian Kazakh Kenyan Korean Latvian Lebanese Lithuanian Malaysian
    Maltese Mexican Moroccan Nepalese Nepali Nigerian Norwegian Pakistani Palestinian Peruvian
    Polish Portuguese Romanian Russian Salvadoran Saudi Scottish Senegalese Serbian
    Singaporean Slovak Slovenian Somali Spanish Sudanese Swedish Swiss Syrian Taiwanese
    Tanzanian Thai Tunisian Turkish Ugandan Ukrainian Uruguayan Venezuelan Vietnamese Welsh
    Zambian Zimbabwean"""
)
"""Nationality adjectives: ``I'm Canadian`` states a nationality, never a name."""
_RELIGIONS = _words(
    """Jewish Muslim Christian Catholic Protestant Orthodox Buddhist Hindu Sikh Jain Mormon
    Quaker Anglican Baptist Lutheran Methodist Evangelical Atheist Agnostic Pagan"""
)
_CALENDAR_WORDS = _words(
    """Monday Tuesday Wednesday Thursday Friday Saturday Sunday Today Tomorrow Yesterday
    Tonight Weekend"""
)
_NOT_NAME_WORDS = frozenset(
    w.casefold()
    for w in (
        *_NATIONALITIES,
        *_RELIGIONS,
        *_CALENDAR_WORDS,
        *_words(
            """I And But Or So The A An This That These Those It He She They We You My Our His
            Her Their Your Who What When Where Why How Yes No Not Also Just Still Now Then Here
            There Thanks Thank Please Anyway Lol Haha OK Okay"""
        ),
    )
)
"""Capitalized words that are never a person's (or pet's) name in a relationship statement."""
_CONDITIONS = _words(
    """asthma diabetes migraines migraine hypertension epilepsy arthritis adhd anxiety
    depression insomnia eczema psoriasis celiac coeliac tinnitus dyslexia autism ibs
    crohn's lupus gout scoliosis endometriosis"""
) | frozenset(
    (
        "sleep apnea",
        "sleep apnoea",
        "high blood pressure",
        "low blood pressure",
        "celiac disease",
        "coeliac disease",
        "crohn's disease",
    )
)
_CONDITION_SUFFIX = re.compile(r"(?:itis|osis|emia|aemia|disease|syndrome|disorder)$", re.I)
_TRANSIENT_HEADS = _words(
    """question questions problem problems issue issues idea ideas meeting meetings call calls
    appointment appointments deadline deadlines feeling suggestion suggestions request requests
    bug bugs doubt doubts favor favour minute minutes moment second seconds lot few couple bit
    chance point look break headache cold fever flight flights interview interviews exam exams
    test tests task tasks presentation date plan plans thought thoughts concern concerns
    comment comments follow-up followup quick"""
)
_PRONOUN_OBJECTS = _words(
    """it this that these those them him her something anything everything nothing one what
    which there here so"""
)
_DETERMINERS = (
    "a couple of",
    "a few",
    "brand new",
    "a",
    "an",
    "the",
    "my",
    "our",
    "their",
    "his",
    "her",
    "your",
    "some",
    "any",
    "this",
    "that",
    "these",
    "those",
    "one",
    "two",
    "three",
    "four",
    "five",
    "several",
    "new",
    "own",
)
_HEAD_STOP = re.compile(
    r"\s+(?:for|over|than|instead|with|without|in|on|at|from|to|by|during|because|when|while"
    r"|since|named|called|as|and|or|but|which|that|who|every|each|all|into|onto|rather|via"
    r"|about|around|after|before|near|under)\b.*$",
    re.IGNORECASE,
)

# --------------------------------------------------------------------------------------------
# Clause screening
# --------------------------------------------------------------------------------------------

_QUESTION_START = re.compile(
    r"^(?:do|does|did|can|could|would|will|is|are|was|were|what|where|who|whom|whose|when|why"
    r"|how|which|should|shall|may|have|has|am|isn't|aren't|don't|doesn't|didn't|won't|wouldn't"
    r"|couldn't|shouldn't)\b",
    re.IGNORECASE,
)
_REQUEST_START = re.compile(
    r"^(?:please|pls|plz|kindly|let's|let\s+us|let\s+me|help|remind|remember|note|make\s+sure"
    r"|don't\s+forget|do\s+not\s+forget|tell|show|give|write|draft|send|find|check|create"
    r"|explain|summari[sz]e|translate|fix|add|update|book|schedule|search|look\s+up|list"
    r"|suggest|recommend|compare|calculate|generate|save|store|forget|delete|i\s+need\s+you"
    r"|i\s+want\s+you|i'd\s+like\s+you|i\s+would\s+like\s+you|could\s+you|can\s+you"
    r"|would\s+you|will\s+you)\b",
    re.IGNORECASE,
)
_CONDITIONAL = re.compile(
    r"\b(?:if|unless|suppose|supposing|imagine|imagining|assuming|hypothetically|whether"
    r"|let's\s+say|let\s+us\s+say|in\s+case|pretend|what\s+if)\b",
    re.IGNORECASE,
)
"""A conditional makes the whole sentence hypothetical (``If I move, I will...``)."""
_HEDGED = re.compile(
    r"\b(?:maybe|perhaps|possibly|probably|might|could|should|must|would(?!\s+(?:much\s+)?(?:rather|prefer))"
    r"|wish|hope|hopefully|someday|one\s+day|thinking\s+(?:about|of)|considering"
    r"|planning\s+(?:on|to)|plan\s+to|want\s+to|wanna|going\s+to|gonna|shall|I\s+think"
    r"|I\s+guess|I\s+believe|I\s+suppose|I\s+feel\s+like|not\s+sure|kind\s+of|sort\s+of"
    r"|(?-i:may)|(?-i:will))\b|'ll\b",
    re.IGNORECASE,
)
"""A modal or hedge makes its clause a possibility, not a statement."""
_REPORTED = re.compile(
    r"\b(?:says?|said|saying|told|tells|telling|thinks|thought|claims?|claimed|asked|asks"
    r"|mentioned|mentions|wrote|writes|according\s+to|quote|quoted)\b",
    re.IGNORECASE,
)
_POLITE_CONDITION = re.compile(
    r",?\s*\b(?:if|in\s+case)\s+(?:that|it)(?:'s|’s|\s+is)\s+(?:useful|helpful|relevant"
    r"|important|ok|okay|of\s+use)\b|,?\s*\bif\s+you\s+(?:need|want)\s+(?:to\s+know|it)\b",
    re.IGNORECASE,
)
"""``..., if that's useful`` is politeness, not a condition."""
_OWN_WORDS = re.compile(
    r"\b(?:as|like)\s+I(?:\s+have|'ve)?\s+(?:said|mentioned|told\s+you)\b", re.IGNORECASE
)
"""The user citing themselves (``as I said``) is not reported speech."""
_QUOTES = re.compile(r"[\"“”«»]")

_DISCOURSE = re.compile(
    r"^(?:also|and|but|so|well|oh|ah|anyway|anyways|actually|btw|by\s+the\s+way|fyi"
    r"|for\s+context|for\s+the\s+record|just\s+so\s+you\s+know|just\s+fyi"
    r"|(?:quick|small|short|big|good|some)\s+(?:context|note|update|news|thing)|heads\s+up"
    r"|update|news|ok|okay|yes|yeah|yep|sure|right|hi|hey|hello|honestly|personally|generally"
    r"|usually|currently|nowadays|these\s+days|at\s+the\s+moment|right\s+now|now|lately"
    r"|recently|in\s+general|as\s+for\s+me|for\s+me|for\s+what\s+it's\s+worth|to\s+be\s+honest"
    r"|tbh|incidentally|besides|plus|then|still|otherwise|overall|basically"
    r"|(?:as|like)\s+I\s+(?:have\s+)?(?:said|mentioned|told\s+you)(?:\s+before)?)\b[\s,:!-]*",
    re.IGNORECASE,
)
_ADVERBS = (
    r"(?:(?:really|absolutely|totally|definitely|genuinely|truly|actually|also|still|usually"
    r"|generally|mostly|mainly|primarily|always|honestly|personally|currently|now|just|do|much"
    r"|strongly|very\s+much|kind\s+of|typically|normally|already|finally|recently|officially"
    r"|happily|definitely)\s+)*"
)
_TRAILING = re.compile(
    r"(?:,?\s+(?:now|too|as\s+well|these\s+days|nowadays|currently|at\s+the\s+moment|right\s+now"
    r"|anymore|any\s+more|any\s+longer|though|actually|by\s+the\s+way|btw|lol|haha|thanks"
    r"|lately|recently"
    r"|for\s+now|already|again|full\s+stop|tbh|imo|imho|fwiw|honestly|lol|ha))+$",
    re.IGNORECASE,
)
_OBJECT_CUT = re.compile(
    r",\s+(?!(?:and|or)\b)(?=[a-z])|\s+(?:because|since|although|though|but|so\s+that|so|which"
    r"|where|whereas|unless|until|except)\s+|\s+[-–—]\s+|\s*[(:]"
    r"|(?i:\s+for\s+(?:(?:about|around|almost|nearly|over)\s+)?(?:a|an|one|two|three|four"
    r"|five|six|several|many|\d+|the\s+(?:last|past))(?:\s+(?:few|couple\s+of))?"
    r"\s+(?:years?|months?|weeks?|days?|decades?)\b)",
)
_PLACE_CUT = re.compile(
    r",\s+(?=[a-z])|\s+(?:with|for|since|because|and|but|so|which|where|when|while|after|before"
    r"|last|this|next|yesterday|today|ago|until|in|a\s+(?:few|couple)|about|around|from|my"
    r"|all\s+my|ever|most|every)\b"
    r"|\s+[-–—]\s+|\s*[(:]",
    re.IGNORECASE,
)
"""Where a place or organisation name ends: before a time, a reason or a companion."""
_EMPLOYER_CUT = re.compile(
    r",\s+(?=[a-z])|\s+(?:with|since|because|and|but|so|which|where|when|while|after|before"
    r"|last|this|next|yesterday|today|ago|until|in\s+\d{4}|a\s+(?:few|couple)|about|around)\b"
    r"|\s+for\s+(?:(?:about|around|almost|nearly|over|roughly)\s+)?(?:a|an|one|two|three|four"
    r"|five|six|several|many|\d+|the\s+(?:last|past))\b"
    r"|\s+[-–—]\s+|\s*[(:]",
    re.IGNORECASE,
)
"""Like :data:`_PLACE_CUT`, but ``as a data engineer`` and ``in Berlin`` stay with the employer."""
_CONTRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"\b(I)'m\b", r"\1 am"),
        (r"\b(I)'ve\b", r"\1 have"),
        (r"\b(I)'d\b", r"\1 would"),
        (r"^(i)m\b", r"\1 am"),
        (r"^(i)ve\b", r"\1 have"),
        (r"\bwe're\b", "we are"),
        (r"\bwe've\b", "we have"),
        (r"\bcan'?t\b", "cannot"),
        (r"\bdon'?t\b", "do not"),
        (r"\bdidn'?t\b", "did not"),
        (r"\bdoesn'?t\b", "does not"),
        (r"\bhaven'?t\b", "have not"),
        (r"\bhasn'?t\b", "has not"),
    )
)
_NAME = r"(?P<name>(?!I\b)[A-Z][\w'’.-]*(?:\s+(?:van|de|da|von|del|la|le)?\s*[A-Z][\w'’.-]*){0,3})"


def _relation_alternation() -> str:
    ordered = sorted((*_RELATIONS, *_RELATION_PLURALS), key=lambda r: (-len(r), r))
    return "|".join(re.escape(r) for r in ordered)


_REL = _relation_alternation()
_RELATION_MODIFIERS = (
    r"older|younger|little|big|baby|eldest|oldest|youngest|middle|new|current|lovely|wonderful"
    r"|amazing|awesome|dear|sweet|adopted|rescue|twin"
)
"""Words that may stand between ``my`` and a relation word (``my younger sister``); a word
like ``old`` or ``former`` may not, since it names a past relation."""


# --------------------------------------------------------------------------------------------
# Noun phrase helpers
# --------------------------------------------------------------------------------------------


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
    """The head noun phrase of an object, lowercase: determiners and trailing phrases removed."""
    head = _HEAD_STOP.sub("", _strip_determiners(collapse(phrase)))
    head = head.strip(" ,.;:!?'\"")
    words = head.split()
    return " ".join(words[:5]).casefold()


def _facet(phrase: str) -> str | None:
    lowered = f" {collapse(phrase).casefold()} "
    lowered = re.sub(r"[^\w\s-]", " ", lowered)
    head = f" {head_phrase(phrase)} "
    for haystack in (head, lowered):
        best: tuple[int, str] | None = None
        for facet, words in _FACETS:
            for word in words:
                position = haystack.find(f" {word} ")
                if position >= 0 and (best is None or position < best[0]):
                    best = (position, facet)
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
        (r"\bme\b", "them"),
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
    return text


def _named(obj: str, clause: str) -> bool:
    """True when ``obj`` reads as a proper name: capitalized, or written by someone who
    capitalizes nothing, not even "I" (``i live in seattle``)."""
    return obj[:1].isupper() or not any(c.isupper() for c in clause)


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


# --------------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------------


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


_LIVE = re.compile(
    _I + r"(?:live|am\s+living|have\s+been\s+living|have\s+lived|reside|am\s+based"
    r"|have\s+been\s+based|am\s+located|(?:have\s+)?(?:just\s+)?(?:moved|relocated)"
    r"(?:\s+(?:back|over))?(?:\s+from\s+[^,;]+?(?=\s+(?:to|out\s+to)\s))?)"
    r"\s+(?P<prep>in|to|at|out\s+to)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)


def _rule_home(clause: str) -> list[_Proposal]:
    match = _LIVE.match(clause)
    if match is None:
        return []
    obj = _clean_object(match.group("obj"), cut=_PLACE_CUT)
    if not _usable(obj) or not (_named(obj, clause) or obj.casefold().startswith("the ")):
        return []
    prep = "at" if match.group("prep").casefold() == "at" else "in"
    return [_p(BeliefType.USER_MODEL_ATTR, "home location", f"lives {prep}", obj)]


_ORIGIN = re.compile(
    _I + r"(?:am\s+(?:originally\s+)?from|come\s+from|grew\s+up\s+in|was\s+born\s+in)\s+"
    r"(?P<obj>[A-Z].+)$",
    re.IGNORECASE,
)


def _rule_origin(clause: str) -> list[_Proposal]:
    match = _ORIGIN.match(clause)
    if match is None or not match.group("obj")[:1].isupper():
        return []
    obj = _clean_object(match.group("obj"), cut=_PLACE_CUT)
    if not _usable(obj):
        return []
    verb = re.search(r"(from|grew\s+up\s+in|born\s+in)", clause, re.IGNORECASE)
    phrase = collapse(verb.group(1)).casefold() if verb else "from"
    predicate = {"from": "is from", "grew up in": "grew up in", "born in": "was born in"}[phrase]
    return [_p(BeliefType.USER_MODEL_ATTR, "hometown", predicate, obj)]


_WORK = re.compile(
    _I + r"(?:work|am\s+working|have\s+been\s+working|am\s+employed|am\s+currently\s+employed)"
    r"\s+(?P<prep>at|for|by|with)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_JOINED = re.compile(
    _I + r"(?:have\s+)?(?:just\s+)?(?:joined|started\s+(?:a\s+new\s+job\s+)?at"
    r"|started\s+working\s+(?:at|for)|got\s+a\s+(?:new\s+)?job\s+(?:at|with))\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_WORK_AS = re.compile(_I + r"(?:work|am\s+working)\s+as\s+(?P<obj>.+)$", re.IGNORECASE)
_ARRANGEMENT = re.compile(
    _I + r"(?:work|am\s+working)\s+(?P<obj>remotely|from\s+home|from\s+the\s+office"
    r"|in\s+the\s+office|on-?site|hybrid|part[-\s]time|full[-\s]time|night\s+shifts?|nights"
    r"|weekends)\b",
    re.IGNORECASE,
)


_WORK_IN_TEAM = re.compile(
    _I + r"(?:work|am\s+working|have\s+been\s+working)\s+(?P<rest>(?:on|in)\s+.+)$",
    re.IGNORECASE,
)


def _rule_work(clause: str) -> list[_Proposal]:
    if (match := _WORK_IN_TEAM.match(clause)) is not None and (
        team := _team_membership(collapse(match.group("rest")))
    ):
        return team
    if (match := _WORK.match(clause)) is not None:
        obj = _clean_object(match.group("obj"), cut=_EMPLOYER_CUT)
        if not _usable(obj) or not _named(obj, clause):
            return []
        prep = match.group("prep").casefold()
        prep = "for" if prep in ("for", "by") else "at"
        obj = _third_person_object(obj)
        return [_p(BeliefType.USER_MODEL_ATTR, "employment", f"works {prep}", obj)]
    if (match := _JOINED.match(clause)) is not None:
        obj = _clean_object(match.group("obj"), cut=_EMPLOYER_CUT)
        if not _usable(obj) or not _named(obj, clause):
            return []
        return [_p(BeliefType.USER_MODEL_ATTR, "employment", "works at", obj)]
    if (match := _WORK_AS.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")))
        if not _usable(obj):
            return []
        subject = "employment" if re.search(r"\s(?:at|for)\s+[A-Z]", obj) else "role"
        return [_p(BeliefType.USER_MODEL_ATTR, subject, "works as", obj)]
    if (match := _ARRANGEMENT.match(clause)) is not None:
        obj = collapse(match.group("obj"))
        return [_p(BeliefType.USER_MODEL_ATTR, "work arrangement", "works", obj)]
    return []


_BE = re.compile(_I + r"(?:am|have\s+been)\s+(?P<obj>.+)$", re.IGNORECASE)


_TEAM = re.compile(
    r"^(?:(?:a\s+)?(?:member|part)\s+of|on|in)\s+(?P<team>(?:the|our|my)\s+(?:[\w&/+.-]+\s+){1,4}?"
    r"(?:team|squad|group|crew))(?:\s+(?:at|for)\s+(?P<org>[A-Z][^,;]*))?(?:[,;].*)?$"
)


def _team_membership(raw: str) -> list[_Proposal]:
    """``on the platform team at Shopify`` -> employment; ``on the platform team`` -> team."""
    match = _TEAM.match(raw)
    if match is None:
        return []
    team = re.sub(r"^(?:our|my)\s+", "the ", collapse(match.group("team")), flags=re.I)
    org = match.group("org")
    if org is None:
        return [_p(BeliefType.USER_MODEL_ATTR, "team", "is on", team)]
    employer = _clean_object(org, cut=_EMPLOYER_CUT)
    if not _usable(employer):
        return []
    return [_p(BeliefType.USER_MODEL_ATTR, "employment", "is on", f"{team} at {employer}")]


def _rule_be(clause: str) -> list[_Proposal]:
    match = _BE.match(clause)
    if match is None:
        return []
    raw = collapse(match.group("obj"))
    lowered = raw.casefold().rstrip(" .!")
    if team := _team_membership(raw):
        return team
    if into := re.match(r"^(?:(?:very|really|super|so)\s+)?into\s+(.+)$", raw, re.I):
        obj = _third_person_object(_clean_object(into.group(1)))
        subject = head_phrase(obj)
        if not _usable(obj) or not subject:
            return []
        return [_p(BeliefType.PREFERENCE, subject, "is into", obj)]
    nationality = _clean_object(raw)
    if nationality in _NATIONALITIES:
        return [_p(BeliefType.USER_MODEL_ATTR, "nationality", "is", nationality, exclusive=False)]
    if allergy := re.match(r"^(?:very\s+|severely\s+|mildly\s+)?allergic\s+to\s+(.+)$", raw, re.I):
        obj = _clean_object(allergy.group(1))
        if not _usable(obj):
            return []
        return [_p(BeliefType.USER_MODEL_ATTR, "allergies", "is allergic to", obj, exclusive=False)]
    if fluent := re.match(r"^(?:fluent|native)\s+in\s+(.+)$", raw, re.I):
        return [
            _p(BeliefType.USER_MODEL_ATTR, "languages", "is fluent in", lang, exclusive=False)
            for lang in _languages(fluent.group(1))
        ]
    if learning := re.match(r"^(?:currently\s+)?learning\s+(.+)$", raw, re.I):
        obj = _clean_object(learning.group(1))
        if not _usable(obj) or not obj[:1].isupper():
            return []
        return [_p(BeliefType.USER_MODEL_ATTR, head_phrase(obj), "is learning", obj)]
    if age := re.match(r"^(\d{1,3})(?:\s+years?\s+old|\s+y/?o)?$", lowered):
        return [_p(BeliefType.USER_MODEL_ATTR, "age", "is", f"{age.group(1)} years old")]
    if married := re.match(r"^(?:happily\s+)?married(?:\s+to\s+" + _NAME + r")?", raw):
        name = married.group("name")
        if name:
            return [_p(BeliefType.RELATIONSHIP, "spouse", "is married to", name)]
        if lowered.startswith("married"):
            return [_p(BeliefType.RELATIONSHIP, "spouse", "is", "married")]
    if fan := re.match(r"^(?:a\s+)?(?:big\s+|huge\s+|massive\s+)?fan\s+of\s+(.+)$", raw, re.I):
        obj = _third_person_object(_clean_object(fan.group(1)))
        if not _usable(obj):
            return []
        return [_p(BeliefType.PREFERENCE, head_phrase(obj), "is a fan of", obj)]
    adjective = re.sub(r"^(?:a|an)\s+", "", _clean_object(lowered))
    if adjective in _DIETS:
        return [_p(BeliefType.USER_MODEL_ATTR, "diet", "is", adjective)]
    if adjective in _HEALTH_ADJECTIVES:
        return [_p(BeliefType.USER_MODEL_ATTR, "health", "is", adjective, exclusive=False)]
    if adjective in _HANDEDNESS:
        return [_p(BeliefType.USER_MODEL_ATTR, "handedness", "is", adjective)]
    return _role_reading(raw)


def _role_reading(raw: str) -> list[_Proposal]:
    match = re.match(r"^(?P<det>a|an|the)\s+(?P<np>.+)$", raw, re.IGNORECASE)
    if match is None:
        return []
    obj = _third_person_object(_clean_object(raw))
    np_only = _HEAD_STOP.sub("", _clean_object(match.group("np")))
    words = np_only.casefold().split()
    if not words or words[-1] not in _ROLE_NOUNS or len(words) > 5:
        return []
    subject = "employment" if re.search(r"\s(?:at|for|of)\s+[A-Z]", obj) else "role"
    return [_p(BeliefType.USER_MODEL_ATTR, subject, "is", obj)]


_PREFER = re.compile(
    _I + r"(?:would\s+)?(?:generally\s+|usually\s+|much\s+)?prefer\s+(?P<obj>.+)$", re.IGNORECASE
)
_RATHER = re.compile(_I + r"would\s+(?:much\s+)?rather\s+(?P<obj>.+)$", re.IGNORECASE)
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
    r"^(?:My|Our)\s+(?:absolute\s+|all-time\s+)?(?P<word>favou?rite)\s+(?P<cat>[\w\s-]{1,30}?)"
    r"\s+(?:is|are)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)


def _rule_preference(clause: str) -> list[_Proposal]:
    if (match := _PREFER.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")))
        if not _usable(obj):
            return []
        subject = _facet(obj) or head_phrase(re.sub(r"^(?:not\s+)?to\s+", "", obj))
        return [_p(BeliefType.PREFERENCE, subject, "prefers", obj)] if subject else []
    if (match := _RATHER.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")))
        if not _usable(obj):
            return []
        plain = re.sub(r"^not\s+", "", obj, flags=re.IGNORECASE)
        subject = _facet(obj) or collapse(re.split(r"\s+(?:than|over|instead)\b", plain)[0])
        return [_p(BeliefType.PREFERENCE, subject, "would rather", obj)] if subject else []
    if (match := _ATTITUDE.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")))
        if not _usable(obj):
            return []
        predicate = _ATTITUDE_PREDICATES[collapse(match.group("verb")).casefold()]
        subject = head_phrase(re.sub(r"^to\s+", "", obj))
        return [_p(BeliefType.PREFERENCE, subject, predicate, obj)] if subject else []
    if (match := _FAVORITE.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")))
        category = collapse(match.group("cat"))
        if not _usable(obj):
            return []
        statement = f"User's {match.group('word')} {category} is {obj}."
        negated = f"User's {match.group('word')} {category} is no longer {obj}."
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
_HAVE_DETERMINER = re.compile(r"^(?:a|an|two|three|four|five|one|several|some|my)\s", re.IGNORECASE)


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
    if not _HAVE_DETERMINER.match(raw):
        return []
    relation = _relationship_from_have(raw)
    if relation is not None:
        return [relation]
    obj = _clean_object(raw)
    predicate = "owns" if verb == "own" else "has"
    out: list[_Proposal] = []
    for part in _split_coordination(obj):
        thing = _third_person_object(_indefinite(part))
        subject = head_phrase(thing)
        if not subject or not _usable(thing) or subject.split()[-1] in _TRANSIENT_HEADS:
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


def _relationship_from_have(raw: str) -> _Proposal | None:
    match = re.match(
        r"^(?P<det>a|an|two|three|four|five|one)\s+(?:(?:" + _RELATION_MODIFIERS + r"|step)\s+)?"
        r"(?P<rel>" + _REL + r")\b(?:,?\s+(?:named|called)\s+" + _NAME + r")?",
        raw,
        re.IGNORECASE,
    )
    if match is None:
        return None
    rel = match.group("rel").casefold()
    name = _clean_name(match.group("name")) if match.group("name") else None
    if name and match.group("det").casefold() in ("a", "an", "one"):
        return _named_relationship(rel, name)
    obj = _clean_object(raw)
    return _p(BeliefType.RELATIONSHIP, rel, "has", _third_person_object(obj))


_DRIVE = re.compile(_I + r"drive\s+(?P<obj>(?:a|an|the|my)\s+.+)$", re.IGNORECASE)


def _rule_drive(clause: str) -> list[_Proposal]:
    match = _DRIVE.match(clause)
    if match is None:
        return []
    obj = _third_person_object(_indefinite(_clean_object(match.group("obj"))))
    if not _usable(obj):
        return []
    return [_p(BeliefType.USER_MODEL_ATTR, "vehicle", "drives", obj)]


_SPEAK = re.compile(_I + r"(?:speak|can\s+speak)\s+(?P<obj>.+)$", re.IGNORECASE)


def _languages(raw: str) -> list[str]:
    obj = _clean_object(raw)
    obj = re.sub(r"\s+(?:fluently|natively|well|a\s+little|a\s+bit)$", "", obj, flags=re.I)
    parts = [p.strip() for p in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", obj) if p.strip()]
    languages: list[str] = []
    for part in parts:
        words = _LANGUAGE_QUALIFIER.sub("", part).split()
        # A language is a proper noun: every word capitalized (``Brazilian Portuguese``), so
        # ``getting by in Spanish`` is not one and is left out.
        if words and len(words) <= 4 and all(w[:1].isupper() for w in words):
            languages.append(" ".join(words))
    return languages


_LANGUAGE_QUALIFIER = re.compile(
    r"^(?:a\s+(?:bit|little)\s+of|a\s+little|some|basic|conversational|broken|decent|good"
    r"|fluent|native)\s+",
    re.IGNORECASE,
)


def _rule_language(clause: str) -> list[_Proposal]:
    if (match := _SPEAK.match(clause)) is not None:
        return [
            _p(BeliefType.USER_MODEL_ATTR, "languages", "speaks", lang, exclusive=False)
            for lang in _languages(match.group("obj"))
        ]
    native = re.match(
        r"^My\s+(?:native|first|mother)\s+(?:language|tongue)\s+is\s+(?P<obj>[A-Z]\w+)",
        clause,
        re.IGNORECASE,
    )
    if native is not None and native.group("obj")[:1].isupper():
        obj = native.group("obj")
        return [
            _p(
                BeliefType.USER_MODEL_ATTR,
                "native language",
                "",
                obj,
                statement=f"User's native language is {obj}.",
                negated=f"User's native language is no longer {obj}.",
            )
        ]
    return []


_DIET_NOT = re.compile(_I + r"(?:do\s+not|never)\s+eat\s+(?P<obj>[a-z][\w\s-]*)$", re.IGNORECASE)


def _rule_diet(clause: str) -> list[_Proposal]:
    match = _DIET_NOT.match(clause)
    if match is None:
        return []
    obj = _clean_object(match.group("obj"))
    if not _usable(obj):
        return []
    return [
        _p(
            BeliefType.USER_MODEL_ATTR,
            "dietary restrictions",
            "does not eat",
            obj,
            exclusive=False,
            negated=f"User eats {obj} again.",
        )
    ]


_REL_IS = re.compile(
    r"^My\s+(?P<rel>"
    + _REL
    + r")(?:'s|’s)?(?:\s+name)?\s+(?:is|is\s+called|is\s+named)\s+"
    + _NAME
    + r"\s*$",
    re.IGNORECASE,
)
_IS_REL = re.compile(r"^" + _NAME + r"\s+is\s+my\s+(?P<rel>" + _REL + r")\s*$")
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
    return [_named_relationship(collapse(match.group("rel")), name)]


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


def _rule_decision(clause: str) -> list[_Proposal]:
    if (match := _DECISION.match(clause)) is not None:
        obj = _third_person_object(_clean_object(match.group("obj")), team=True)
        if not _usable(obj) and not obj.casefold().startswith("to "):
            return []
        verb = match.group("verb").casefold()
        return [
            _p(
                BeliefType.FACT,
                "project decision",
                "",
                obj,
                exclusive=False,
                statement=f"The team {verb} {obj}.",
                negated=f"The team no longer stands by its decision: {verb} {obj}.",
            )
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


_COMMUTE_MODES = (
    ("ride\\s+(?:my|a|the)\\s+(?:bike|bicycle)", "bikes"),
    ("bike", "bikes"),
    ("cycle", "cycles"),
    ("walk", "walks"),
    ("run", "runs"),
    ("drive", "drives"),
    ("carpool", "carpools"),
    ("skate", "skates"),
    ("scooter", "scooters"),
    ("commute", "commutes"),
)
_TRANSIT = r"train|bus|subway|tube|metro|tram|ferry|light\s+rail|streetcar|shuttle"
_COMMUTE = re.compile(
    _I + r"(?:(?P<mode>ride\s+(?:my|a|the)\s+(?:bike|bicycle)|bike|cycle|walk|run|drive|carpool"
    r"|skate|scooter|commute)|take\s+(?P<transit>(?:the|a)\s+(?:" + _TRANSIT + r")))"
    r"\s+(?:in\s+)?to\s+(?P<dest>work|school|campus|class|uni|university|college|the\s+office"
    r"|my\s+office|my\s+job|the\s+lab)\b",
    re.IGNORECASE,
)
_COMMUTE_BY = re.compile(
    _I
    + r"(?:commute|get\s+to\s+work|go\s+to\s+work|travel\s+to\s+work)\s+(?P<how>by\s+(?:"
    + _TRANSIT
    + r"|bike|bicycle|car|scooter)|on\s+foot)\b",
    re.IGNORECASE,
)


def _rule_commute(clause: str) -> list[_Proposal]:
    """``I bike to work``, ``I take the train to the office``, ``I commute by bus``."""
    if (match := _COMMUTE.match(clause)) is not None:
        dest = _third_person_object(collapse(match.group("dest")))
        if match.group("transit"):
            transit = collapse(match.group("transit")).casefold()
            return [_p(BeliefType.USER_MODEL_ATTR, "commute", f"takes {transit} to", dest)]
        mode = collapse(match.group("mode")).casefold()
        verb = next(v for pattern, v in _COMMUTE_MODES if re.fullmatch(pattern, mode))
        return [_p(BeliefType.USER_MODEL_ATTR, "commute", f"{verb} to", dest)]
    if (match := _COMMUTE_BY.match(clause)) is not None:
        how = collapse(match.group("how")).casefold()
        return [_p(BeliefType.USER_MODEL_ATTR, "commute", "commutes", how)]
    return []


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


def _named_relationship(rel: str, name: str) -> _Proposal:
    singular = _RELATION_PLURALS.get(rel.casefold(), rel.casefold())
    return _p(
        BeliefType.RELATIONSHIP,
        singular,
        "",
        name,
        exclusive=singular not in _MULTI_VALUED_RELATIONS,
        statement=f"User's {singular} is {name}.",
        negated=f"User's {singular} is no longer {name}.",
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


_POSITIVE_RULES: tuple[_Rule, ...] = (
    _rule_home,
    _rule_origin,
    _rule_commute,
    _rule_work,
    _rule_language,
    _rule_not_fan,
    _rule_be,
    _rule_it_when,
    _rule_preference,
    _rule_play,
    _rule_use,
    _rule_drive,
    _rule_diet,
    _rule_have,
    _rule_relationship,
    _rule_attribute,
    _rule_decision,
)

# Retractions: (pattern, how to rebuild the positive clause from the match).
_RETRACTIONS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(r"^I\s+am\s+(?:now\s+)?no\s+longer\s+(?P<rest>.+)$", re.IGNORECASE),
        lambda m: f"I am {m.group('rest')}",
    ),
    (
        re.compile(r"^I\s+am\s+not\s+(?P<rest>.+?)\s+(?:anymore|any\s+more|any\s+longer)$", re.I),
        lambda m: f"I am {m.group('rest')}",
    ),
    (
        re.compile(r"^I\s+(?:have\s+|do\s+)?(?:now\s+)?no\s+longer\s+(?P<rest>.+)$", re.I),
        lambda m: f"I {m.group('rest')}",
    ),
    (
        re.compile(
            r"^I\s+(?:do|did)\s+not\s+(?P<rest>.+?)\s+(?:anymore|any\s+more|any\s+longer)$", re.I
        ),
        lambda m: f"I {m.group('rest')}",
    ),
    (
        re.compile(
            r"^I\s+(?:have\s+)?(?:stopped|quit|gave\s+up|given\s+up)\s+using\s+(?P<rest>.+)$",
            re.I,
        ),
        lambda m: f"I use {m.group('rest')}",
    ),
    (
        re.compile(
            r"^I\s+(?:have\s+)?(?:stopped|quit)\s+working\s+(?P<rest>(?:at|for)\s+.+)$", re.I
        ),
        lambda m: f"I work {m.group('rest')}",
    ),
    (
        re.compile(
            r"^I\s+(?:have\s+)?(?:sold|got\s+rid\s+of|gave\s+away|given\s+away)\s+"
            r"(?P<rest>(?:my|our)\s+.+)$",
            re.I,
        ),
        lambda m: f"I have {m.group('rest')}",
    ),
)
_GENERIC_RETRACTION = re.compile(
    r"^I\s+(?:(?:do|did)\s+not\s+(?P<verb1>[a-z]+)(?P<obj1>(?:\s+.+?)?)\s+(?:anymore|any\s+more"
    r"|any\s+longer)|(?:have\s+)?no\s+longer\s+(?P<verb2>[a-z]+)(?P<obj2>(?:\s+.+)?))$",
    re.IGNORECASE,
)
_STOPPED_GERUND = re.compile(
    r"^I\s+(?:have\s+)?(?:stopped|quit|gave\s+up|given\s+up)\s+(?P<gerund>[a-z]+ing)"
    r"(?P<obj>(?:\s+.+)?)$",
    re.IGNORECASE,
)
_NON_RETRACTABLE_VERBS = frozenset(
    {"know", "remember", "think", "want", "need", "care", "understand", "see", "get", "feel"}
)


def _retraction(clause: str) -> list[_Proposal] | None:
    """Read ``clause`` as a retraction; None when it is not one."""
    for pattern, rebuild in _RETRACTIONS:
        match = pattern.match(clause)
        if match is None:
            continue
        positive = _positive(rebuild(match))
        if positive:
            return positive
        break
    stopped = _STOPPED_GERUND.match(clause)
    if stopped is not None and stopped.group("gerund").casefold() != "using":
        gerund = stopped.group("gerund").casefold()
        obj = _third_person_object(_clean_object(stopped.group("obj") or ""))
        if obj and not _usable(obj):
            return []
        statement = collapse(f"User stopped {gerund} {obj}") + "."
        subject = head_phrase(obj) if obj else gerund
        return [_p(BeliefType.USER_MODEL_ATTR, subject, "", obj or gerund, negated=statement)]
    generic = _GENERIC_RETRACTION.match(clause)
    if generic is None:
        return [] if any(p.match(clause) for p, _ in _RETRACTIONS) else None
    verb = (generic.group("verb1") or generic.group("verb2") or "").casefold()
    obj = _clean_object(generic.group("obj1") or generic.group("obj2") or "")
    if verb in _NON_RETRACTABLE_VERBS or not verb.isalpha():
        return []
    obj = _third_person_object(_indefinite(obj)) if obj else ""
    if obj and not _usable(obj):
        return []
    subject = head_phrase(obj) if obj else verb
    predicate = third_person(verb)
    return [
        _p(
            BeliefType.USER_MODEL_ATTR,
            subject,
            predicate,
            obj,
            negated=collapse(f"User no longer {predicate} {obj}") + ".",
        )
    ]


def _positive(clause: str) -> list[_Proposal]:
    for rule in _POSITIVE_RULES:
        proposals = rule(clause)
        if proposals:
            return proposals
    return []


# --------------------------------------------------------------------------------------------
# The extractor
# --------------------------------------------------------------------------------------------


_AUXILIARY_ADVERBS = re.compile(
    r"^(I\s+(?:am|have\s+been|have|was))\s+(?:(?:really|totally|absolutely|definitely"
    r"|genuinely|truly|actually|also|still|currently|now|just|finally|officially|mostly|pretty"
    r"|quite|super|recently|happily)\s+)+",
    re.IGNORECASE,
)
"""An adverb between the user's auxiliary and the predicate (``I'm now based in``) is dropped."""


def _normalize_clause(clause: str) -> str:
    text = collapse(clause.replace("’", "'").replace("‘", "'"))
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    previous = None
    while previous != text:
        previous = text
        text = _DISCOURSE.sub("", text, count=1).lstrip(" ,")
    text = _AUXILIARY_ADVERBS.sub(r"\1 ", text)
    return text.rstrip(" .!;,")


def sentence_forms_nothing(sentence: str) -> bool:
    """True for a question, request, conditional, quotation or reported speech."""
    stripped = sentence.strip()
    if stripped.endswith("?") or _QUOTES.search(stripped):
        return True
    lead = _normalize_clause(stripped)
    return bool(
        _QUESTION_START.match(lead)
        or _REQUEST_START.match(lead)
        or _CONDITIONAL.search(_POLITE_CONDITION.sub("", stripped))
        or _REPORTED.search(_OWN_WORDS.sub("", stripped))
    )


@dataclass(frozen=True, kw_only=True)
class ClauseReading:
    """What the extractor read in one clause (for tests and diagnostics)."""

    belief_type: BeliefType
    subject: str
    statement: str
    polarity: Polarity
    exclusive: bool
    retracts: str | None


_SUBJECTLESS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), lead)
    for pattern, lead in (
        (r"^been\s", "I have "),
        (r"^(?:born|raised)(?:\s+and\s+(?:raised|bred))?\s+in\s", "I was "),
        (
            r"^(?:living|working|using|learning|based|originally\s+from|allergic|married"
            r"|fluent\s+in)\b",
            "I am ",
        ),
        (
            r"^(?:(?:just|recently|finally)\s+)?(?:moved|relocated|joined|started|switched"
            r"|adopted|got|quit|stopped|gave\s+up|grew\s+up)\b",
            "I ",
        ),
    )
)
"""Clauses people write without the ``I`` (``Been living in Toronto for years``): the turn is
the user's own, so the first-person subject is supplied. Only verb forms that a third party's
fragment rarely opens with are listed; a bare present verb (``Use tabs``) reads as a request."""
_DEPENDENT_PARTICIPLE = re.compile(
    r"^\W*(?:(?:still|currently|now|also)\s+)?(?:living|working|using|learning)\b[^,;]*,\s+"
    r"(?:I|I'm|I'd|I've|we|my|our|it|this|that|the)\b",
    re.IGNORECASE,
)
"""``Using the API, I get an error``: the participle opens a dependent phrase, not a statement."""
_SARCASM = re.compile(
    r"^\W*(?:yeah,?\s+right|oh,?\s+joy|as\s+if)\b"
    r"|^\W*(?:oh,?\s+)?(?:sure|great|yeah|wow|wonderful|perfect|fantastic)\s*[,!]+\s*"
    r"(?:because\s+)?I\s+(?:just|totally|absolutely|simply|so|really)\s+(?:love|adore|enjoy)\b",
    re.IGNORECASE,
)
"""``Oh sure, I just love waiting on hold``: an ironic opener turns praise into its opposite."""


def _supply_subject(text: str) -> str:
    if re.match(r"^(?:I|we|my|our|the\s+team)\b", text, re.IGNORECASE):
        return text
    for pattern, lead in _SUBJECTLESS:
        if pattern.match(text):
            return lead + text[:1].lower() + text[1:]
    return text


def _reading(proposal: _Proposal, polarity: Polarity) -> ClauseReading:
    retract = polarity is Polarity.RETRACT
    return ClauseReading(
        belief_type=proposal.belief_type,
        subject=proposal.subject,
        statement=proposal.render_retraction() if retract else proposal.render(),
        polarity=polarity,
        exclusive=proposal.exclusive,
        retracts=(proposal.obj or proposal.subject) if retract else None,
    )


def _read(text: str) -> list[tuple[_Proposal, Polarity]]:
    """The proposals of one normalized clause, each with its polarity."""
    # A relation named in apposition is presupposed, not asserted: it holds even under a
    # modal or a negation of the clause's predicate (``My son Leo might start school``).
    named = [(p, Polarity.ASSERT) for p in _appositive_relationships(text)]
    if _HEDGED.search(text):
        return named
    retraction = _retraction(text)
    if retraction is not None:
        return [(p, Polarity.RETRACT) for p in retraction] + named
    negated = r"^I\s+(?:do\s+not|did\s+not|cannot|am\s+not|have\s+not|never)\b"
    if re.match(negated, text, re.IGNORECASE) and not (
        _ATTITUDE.match(text) or _DIET_NOT.match(text) or _NOT_FAN.match(text)
    ):
        return named
    return [(p, Polarity.ASSERT) for p in _positive(text)] + named


def read_clause(clause: str, *, supply_subject: bool = True) -> list[ClauseReading]:
    """Read one clause (no hazard screen, no sentence-level filters) into zero or more readings.

    Args:
        clause: One clause of a user turn.
        supply_subject: Read a clause that opens without its subject (``Been living in
            Toronto``) as the user's own statement; off for a dependent participial phrase.
    """
    text = _normalize_clause(clause)
    if not text:
        return []
    if supply_subject:
        text = _supply_subject(text)
    return [_reading(p, polarity) for p, polarity in _read(text)]


_PRONOUN_ATTITUDE = re.compile(
    r"^I\s+" + _ADVERBS + r"(?P<verb>like|love|adore|enjoy|hate|dislike|detest|loathe"
    r"|cannot\s+stand|can\s+not\s+stand|do\s+not\s+like|do\s+not\s+enjoy)\s+(?:it|that|this)"
    r"(?:\s+(?:so\s+far|a\s+lot|a\s+bit|so\s+much|there|here))*$",
    re.IGNORECASE,
)
"""``I really like it``: an attitude whose object is a pronoun, resolved to the previous clause."""
_THING_PREDICATES = frozenset({"uses", "has", "owns", "drives", "plays"})


def _antecedent(proposal: _Proposal) -> tuple[str, str] | None:
    """What ``it`` refers to after ``proposal``'s clause, with the subject a preference about it
    takes: the thing for a possession or a tool, the activity (as a gerund) otherwise."""
    if proposal.statement is not None or proposal.belief_type is not BeliefType.USER_MODEL_ATTR:
        return None
    verb, _, particle = proposal.predicate.partition(" ")
    if verb in _THING_PREDICATES:
        thing = _HEAD_STOP.sub("", proposal.obj).strip()
        thing = re.sub(r"^(?:a|an)\s+", "their ", thing, flags=re.IGNORECASE)
        subject = head_phrase(thing)
        return (thing, subject) if thing and subject else None
    if verb in ("is", "was", "no"):
        return None
    activity = collapse(f"{gerund(base_form(verb))} {particle} {proposal.obj}")
    if len(activity.split()) > 6:
        return None
    return activity, _facet(activity) or activity.casefold()


def _resolve_pronoun(text: str, previous: Sequence[_Proposal]) -> list[_Proposal]:
    """Read ``I love it`` against the clause before it in the same turn."""
    match = _PRONOUN_ATTITUDE.match(text)
    if match is None or not previous:
        return []
    resolved = _antecedent(previous[-1])
    if resolved is None:
        return []
    obj, subject = resolved
    predicate = _ATTITUDE_PREDICATES[collapse(match.group("verb")).casefold()]
    return [_p(BeliefType.PREFERENCE, subject, predicate, obj)]


class DeterministicExtractor:
    """Pattern-based extraction of first-person statements (``formation@5``)."""

    @property
    def policy_version(self) -> str:
        """``formation@5``."""
        return DETERMINISTIC_FORMATION_POLICY

    def extract(self, turn: Turn) -> list[Candidate]:
        """Return the candidates of ``turn``'s sentences, in order, without duplicates."""
        seen: set[tuple[str, str, str, str]] = set()
        out: list[Candidate] = []
        previous: list[_Proposal] = []
        for sentence in turn.sentences:
            if sentence_forms_nothing(sentence) or _SARCASM.match(sentence):
                previous = []
                continue
            user_opens = False
            for index, clause in enumerate(split_clauses(sentence)):
                text = _normalize_clause(clause)
                # An elided subject is the user's when the sentence opens with the user (or
                # with nothing): ``My wife lives in Oslo, originally from Bergen`` is not.
                if index == 0:
                    if _DEPENDENT_PARTICIPLE.match(sentence) is None:
                        text = _supply_subject(text)
                    user_opens = re.match(r"^I\b", text) is not None
                elif user_opens:
                    text = _supply_subject(text)
                proposals = _read(text) if text else []
                if not proposals and previous:
                    proposals = [(p, Polarity.ASSERT) for p in _resolve_pronoun(text, previous)]
                previous = [p for p, polarity in proposals if polarity is Polarity.ASSERT]
                for reading in (_reading(p, polarity) for p, polarity in proposals):
                    key = (
                        reading.belief_type.value,
                        reading.subject,
                        reading.statement.casefold(),
                        reading.polarity.value,
                    )
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append(
                        Candidate(
                            belief_type=reading.belief_type,
                            subject=reading.subject,
                            statement=reading.statement,
                            polarity=reading.polarity,
                            exclusive=reading.exclusive,
                            retracts=reading.retracts,
                            source_event_ids=(turn.event_id,),
                            evidence_at=turn.created_at,
                        )
                    )
        return out


__all__ = [
    "USER_STATEMENT_CONFIDENCE",
    "Candidate",
    "ClauseReading",
    "DeterministicExtractor",
    "Extractor",
    "Turn",
    "head_phrase",
    "read_clause",
    "sentence_forms_nothing",
]
