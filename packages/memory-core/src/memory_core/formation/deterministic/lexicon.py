"""Word lists the deterministic extractor reads with: relations (one table), roles, diets,
health words, nationalities, names that are not names, determiners. Its facets are the facet
word table's (:data:`memory_core.text.FACETS`)."""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    """A lexicon written as whitespace-separated words."""
    return frozenset(text.split())


def _phrases(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.split(",") if p.strip())


_ONE_AT_A_TIME = _phrases(
    """
    wife, husband, spouse, partner, fiancée, fiancee, fiancé, fiance, boyfriend, girlfriend,
    ex-wife, ex-husband, ex-partner, ex-boyfriend, ex-girlfriend, mother, mom, mum, father,
    dad, stepmother, stepfather, stepmom, stepmum, stepdad, mother-in-law, father-in-law,
    grandmother, grandfather, grandma, grandpa, granny, godmother, godfather, best friend,
    manager, boss, supervisor, skip-level manager, mentor, team lead, tech lead, assistant,
    advisor, adviser, tutor, teacher, coach, personal trainer, trainer, doctor, family doctor,
    gp, pediatrician, paediatrician, therapist, physical therapist, physiotherapist, physio,
    chiropractor, psychiatrist, psychologist, counselor, counsellor, dentist, accountant,
    lawyer, attorney, financial advisor, nanny, babysitter, landlord, landlady, vet,
    skip-level, product manager, project manager, product owner, program manager,
    engineering manager, line manager, contractor, builder, plumber, electrician, mechanic,
    realtor, real estate agent, estate agent, agent, editor, publisher, hairdresser,
    hairstylist, stylist, barber, optometrist, dermatologist, surgeon, midwife, obstetrician,
    social worker, caseworker, case manager, pastor, priest, rabbi, imam, instructor
    """
)
_SEVERAL_AT_ONCE = _phrases(
    """
    sister, brother, twin sister, twin brother, half-sister, half-brother, stepsister,
    stepbrother, sister-in-law, brother-in-law, son, daughter, stepson, stepdaughter,
    son-in-law, daughter-in-law, child, kid, baby, grandson, granddaughter, grandchild, aunt,
    uncle, cousin, niece, nephew, godson, goddaughter, friend, roommate, flatmate, housemate,
    neighbor, neighbour, mentee, cofounder, co-founder, business partner, coworker, co-worker,
    colleague, teammate, direct report, classmate, co-author, coauthor, collaborator,
    lab partner, field partner, study partner, running partner, climbing partner, training
    partner, dance partner, tennis partner, buddy, running buddy, gym buddy, workout buddy,
    study buddy, pen pal, bandmate, labmate, officemate, dog, cat, puppy, kitten, rabbit,
    bunny, hamster, guinea pig, parrot, horse, tortoise, turtle
    """
)
RELATIONS: dict[str, bool] = {
    **dict.fromkeys(_ONE_AT_A_TIME, False),
    **dict.fromkeys(_SEVERAL_AT_ONCE, True),
}
"""Relation word -> True when a person has several at once (a sister, a friend, a dog: naming
one adds to the others) and False when they have one (a spouse, a manager, a landlord: a newer
name supersedes)."""
_RELATIONS = tuple(RELATIONS)
_MULTI_VALUED_RELATIONS = frozenset(r for r, several in RELATIONS.items() if several)
"""Relations a person has several of at once (see :data:`RELATIONS`)."""
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
_MEASURE = re.compile(
    r"^(?:(?:a|an|one|two|three|some|the)\s+)?(?:row|rows|bunch|couple|pair|lot|lots|piece"
    r"|pieces|bag|bags|box|boxes|cup|cups|bowl|bowls|slice|slices|handful|stack|pile|batch"
    r"|basket|jar|bottle|plate)\s+of\s+(?=\S)",
    re.IGNORECASE,
)
"""A measure before what it measures (``a row of raspberries``): the thing is what follows."""


_COUNT_TAIL = re.compile(r"\s+(?:once|twice|(?:\w+|a\s+few|several|many)\s+times)$", re.I)
_TOO_MANY = re.compile(r"^(?:(?:way|far)\s+)?(?:(?:too|so)\s+)?(?:many|much)\s+", re.IGNORECASE)
"""``the car three times``, ``way too many tarts``: how often or how much, not the thing."""


_HEAD_STOP = re.compile(
    r"\s+(?:for|over|than|instead|with|without|in|on|at|from|to|by|during|because|when|while"
    r"|since|named|called|as|and|or|but|which|that|who|whose|where|every|each|all|into|onto"
    r"|rather|via|about|around|after|before|near|under|behind|beside|above|below|across|along"
    r"|inside|outside|beyond|against|among|between|toward|towards|within"
    r"|(?:I|he|she|they|we|my|his|her|their)\s+[a-z]+)\b.*$",
    re.IGNORECASE,
)


_NAME = r"(?P<name>(?!I\b)[A-Z][\w'’.-]*(?:\s+(?:van|de|da|von|del|la|le)?\s*[A-Z][\w'’.-]*){0,3})"


def _relation_alternation() -> str:
    ordered = sorted((*_RELATIONS, *_RELATION_PLURALS), key=lambda r: (-len(r), r))
    return "|".join(re.escape(r) for r in ordered)


_REL = _relation_alternation()
_RELATION_MODIFIERS = (
    r"older|younger|little|big|baby|eldest|oldest|youngest|middle|new|current|lovely|wonderful"
    r"|amazing|awesome|dear|sweet|adopted|rescue|twin|other|own"
)
"""Words that may stand between ``my`` and a relation word (``my younger sister``); a word
like ``old`` or ``former`` may not, since it names a past relation."""

# Conversational rules: verb forms, vague and transient heads, family words.

_ADVERB_WORDS = _words(
    """really just also actually finally recently always never usually sometimes often even
    still totally definitely absolutely kinda honestly already only mostly mainly
    literally seriously truly genuinely basically currently now then again once twice first
    so very super pretty quite too all soon ever lately luckily sadly thankfully hopefully
    officially especially obviously clearly certainly surely somehow"""
)

_NOT_ADVERBS = _words(
    """only early family rally belly fly reply apply ally lily jelly bully supply assembly
    butterfly dragonfly anomaly monopoly homily"""
)

_STOP_VERBS = _words(
    """know knew think thought guess believe suppose mean meant agree agreed wonder wondered
    bet understand understood see hope wish appreciate appreciated admire admired
    can could would should might may must shall will love like enjoy hate adore
    miss totally am was has have do did is are were be been being say said tell told need
    ask asked wanna gotta hear heard"""
)
"""Verbs read elsewhere (attitudes, possession, be) or that report a thought, not an event."""

_IRREGULAR_PAST = _words(
    """went got made took saw had was were did came gave found bought brought thought told said
    ran began wrote met left felt kept lost won built sent spent taught caught sold held heard
    paid sat stood understood became ate drank drove flew grew knew threw wore swam sang rode
    chose broke spoke forgot fell slept woke fought dealt lent meant led fed hung shot lit struck
    dug stuck spun slid bit hid shook put set cut hit let quit hurt shut read began drew"""
)

_VAGUE_HEADS = _words(
    """lot lots bit time times day days thing things stuff way fun blast one some much more
    everything anything something nothing kind sort deal part couple few ton tons while
    someone somebody anyone anybody everyone"""
)

_TRANSIENT = _words(
    """question questions problem issue doubt doubts favor favour minute minutes moment second
    seconds lot few couple bit chance point look thought thoughts concern concerns comment
    comments suggestion suggestions request requests error errors message messages reply
    response answer answers dream date"""
)
"""Heads of what a conversation is doing right now (a question, an error), not an event."""

_FAMILY = {
    "mom": "mother",
    "mum": "mother",
    "mother": "mother",
    "dad": "father",
    "father": "father",
    "parents": "parents",
    "sister": "sister",
    "brother": "brother",
    "sis": "sister",
    "bro": "brother",
    "son": "son",
    "daughter": "daughter",
    "kids": "kids",
    "kid": "kid",
    "children": "kids",
    "wife": "wife",
    "husband": "husband",
    "partner": "partner",
    "grandma": "grandmother",
    "grandmother": "grandmother",
    "grandpa": "grandfather",
    "grandfather": "grandfather",
    "grandparents": "grandparents",
    "aunt": "aunt",
    "uncle": "uncle",
    "cousin": "cousin",
    "family": "family",
    "fam": "family",
}

_PLURAL_FAMILY = frozenset({"parents", "kids", "grandparents"})
"""Canonical family relations that name several people (``My parents have sold ...``)."""

_ARTICLES = frozenset({"the", "a", "an", "my", "their", "our", "some", "his", "her"})

_PARTICLES = ("up", "out", "off", "back", "down", "over", "away", "around", "along")

_OBJECT_OPENER = _words("me us him her them it a an the my his their our this that some every all")
"""Words that open a verb's object (``saved me``, ``finished her chemo``)."""

_PREPOSITIONS = _words(
    """to at in on with for about into from of by through across after before around near"""
)

_PARTICIPLES = _IRREGULAR_PAST | _words(
    """gone done seen taken given known grown driven written eaten flown ridden begun swum sung
    gotten broken chosen spoken forgotten fallen woken worn thrown drawn shown been"""
)

_TIME_HEADS = _words(
    """monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays
    saturday saturdays sunday sundays weekend weekends morning mornings evening evenings night
    nights week weeks month months year years today tonight"""
)

_VERDICT_ADJECTIVES = _words(
    """great amazing awesome wonderful fantastic incredible lovely nice good cool beautiful
    perfect terrific fabulous brilliant excellent epic fun super"""
)
"""Adjectives that judge a thing rather than name it: no part of its subject."""
_MATERIALS = _words(
    """oak pine maple walnut cherry cedar birch teak bamboo mahogany hardwood plywood marble
    granite quartz slate brick stone steel aluminum aluminium brass copper iron
    titanium glass leather linen cotton wool silk velvet ceramic porcelain tile vinyl laminate
    loam clay sand gravel"""
)
"""What a thing can be made of (``The deck is cedar``): a bare noun that names its value."""
_SIZE_AND_AGE = _words("big little small tiny huge large old")
"""Words that describe a thing by its size or age rather than name it: no part of its subject
(``the old MySQL box`` is the MySQL box), unless they open a proper name (``Little Rock``)."""
_REFLEXIVES = _words("myself ourselves themselves yourself yourselves himself herself")
_WHERE_AND_WHEN = _words(
    "downtown uptown today yesterday tonight again together alone abroad outside nearby"
)
"""Adverbs after a thing that say where or when, not which thing."""
_NOT_DESCRIBED = _words(
    """one ones much many far long way kind sort stuff thing things is was are were the a an my
    your his her our their its i you he she we they it me us them to for with at in on of about
    from by past week weekend month year morning afternoon evening night day time season summer
    winter spring fall autumn semester as so too because when if other first last next same
    whole entire only very such"""
)
"""What after a demonstrative shows it describes no thing: a pronoun, a clause, a
preposition, a time (``this past weekend`` is when, not what), or a word that places the
thing among others said elsewhere (``this other series``, ``this first movie``)."""
_FUNCTION_WORDS = _words("the a an to for with at in on of about from by")
"""Words a description may hold after its first (``a sunset over the harbor``)."""
_RESOLVE_AND_MOOD = _words(
    """user plans keep keeps pushing push forward best try trying tried hard working stay stayed
    staying motivated excited exciting thrilled happy glad hung together going positive strong
    focused quit giving give never"""
)
"""Words of resolve and mood: a statement holding nothing else (``User plans to keep pushing
forward.``, ``User is excited.``) says nothing a question could ask about."""

_CONTRAST = r"not\s+(?:[\w'.:-]+\s+){0,3}[\w'.:-]+[.!]?$"
"""A correction's short contrast to the end of the clause (``..., not clay``): part of what it
states, not a cut."""
CONTRAST_TAIL = re.compile(_CONTRAST, re.IGNORECASE)

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
