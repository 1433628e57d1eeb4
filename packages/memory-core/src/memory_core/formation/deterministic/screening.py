"""Clause screening: what makes a sentence form nothing, and how a clause is normalized
(contractions, discourse openers, adverbs, an elided first-person subject)."""

from __future__ import annotations

import re

from memory_core.formation.deterministic.contractions import contracted_has, expand_contractions
from memory_core.formation.deterministic.lexicon import _CONTRAST, _NOT_NAME_WORDS, _words
from memory_core.text import collapse

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
_HEDGE_WORDS = (
    r"maybe|perhaps|possibly|probably|might|could|should|must|wish(?!\s+(?:me|us)\s+luck)|hope"
    r"|hopefully|someday"
    r"|one\s+day|thinking\s+(?:about|of)|considering|shall|I\s+think|I\s+guess"
    r"|I\s+believe(?!\s+in\b)|I\s+suppose|I\s+feel\s+like|not\s+sure|kind\s+of|sort\s+of"
    r"|(?-i:may)|(?-i:will)"
)
"""The hedges and modals both the plan reading and the statement screen refuse on (``wish me
luck`` is a formula that closes a statement, not a wish)."""
_HEDGED = re.compile(
    r"\b(?:" + _HEDGE_WORDS + r"|would(?!\s+(?:much\s+)?(?:rather|prefer))"
    r"|planning\s+(?:on|to)|plan\s+to|want\s+to|wanna|going\s+to|gonna)\b|'ll\b",
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
_SUBORDINATE_OPENER = re.compile(
    r"^(?:when|where|while)\s+(?:I|we|my|our)\b[^,?]*,\s+(?:I|we|my)\b", re.IGNORECASE
)
"""``When I was a kid, I ...`` opens with a subordinate clause, not a question."""
_TITLE = re.compile(r"[\"“«](?P<inner>[^\"“”«»]{1,60})[\"”»]")
_SPEECH_WORDS = re.compile(r"\b(?:I|me|my|we|you|your)\b", re.IGNORECASE)


def _quotation(sentence: str) -> bool:
    """True when the sentence quotes speech; a short quoted title (``"The Overstory"``) is not."""
    if not _QUOTES.search(sentence):
        return False
    rest = sentence
    for match in _TITLE.finditer(sentence):
        inner = match.group("inner").strip()
        words = inner.split()
        if len(words) > 6 or not inner[:1].isupper() or _SPEECH_WORDS.search(inner):
            return True
        rest = rest.replace(match.group(0), "")
    return _QUOTES.search(rest) is not None


_DISCOURSE = re.compile(
    r"^(?:also|and|but|so|well|oh|ah|anyway|anyways|actually|btw|by\s+the\s+way|fyi"
    r"|for\s+context|for\s+the\s+record|just\s+so\s+you\s+know|just\s+fyi"
    r"|(?:quick|small|short|big|good|some)\s+(?:context|note|update|news|thing)|heads\s+up"
    r"|update|news|ok|okay|yes|yeah|yep|sure|right|hi|hey|hello|honestly|personally|generally"
    r"|ugh|wow|aww|omg|haha|hmm|whoa|yay|phew|gosh|geez"
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
    r"|happily|definitely|even)\s+)*"
)
_TRAILING = re.compile(
    r"(?:,?\s+(?:now|too|as\s+well|these\s+days|nowadays|currently|at\s+the\s+moment|right\s+now"
    r"|anymore|any\s+more|any\s+longer|though|actually|by\s+the\s+way|btw|lol|haha|thanks"
    r"|lately|recently"
    r"|for\s+now|already|again|full\s+stop|tbh|imo|imho|fwiw|honestly|lol|ha))+$",
    re.IGNORECASE,
)
_LIST_DETERMINER = r"(?:my|our|the|a|an|some|two|three|four|five)"
_LIST_WORD = rf"(?!(?:and|or|{_LIST_DETERMINER})\b)[\w'-]+"
_LIST_ITEM = rf"(?:{_LIST_DETERMINER}\s+)?{_LIST_WORD}(?:\s+{_LIST_WORD}){{0,2}}"
_LIST_TAIL = rf"(?:{_LIST_ITEM},\s+){{0,8}}{_LIST_ITEM},?\s+(?:and|or)\s+{_LIST_ITEM}[.!]?$"
"""The rest of a list after one of its commas (``my aunt and my grandma``): not a cut. An item
reads one way only (a determiner is never one of its words) and at most ten items follow a
comma, so each comma's look-ahead is bounded and a long sentence of commas stays linear."""
_OBJECT_CUT = re.compile(
    r",\s+(?!(?:and|or)\b)(?!"
    + _LIST_TAIL
    + r")(?!"
    + _CONTRAST
    + r")(?=[a-z])|\s+(?:because|since|although|though|but|so\s+that|so|which"
    r"|where|whereas|unless|until|except)\s+|\s+[-–—]\s+|\s*\(|\s*:(?!\d)"
    r"|(?i:\s+for\s+(?:(?:about|around|almost|nearly|over)\s+)?(?:a|an|one|two|three|four"
    r"|five|six|several|many|\d+|the\s+(?:last|past))(?:\s+(?:few|couple\s+of))?"
    r"\s+(?:years?|months?|weeks?|days?|decades?)\b)",
)
_AUXILIARY_ADVERBS = re.compile(
    r"^(I\s+(?:am|have\s+been|have|was))\s+(?:(?:really|totally|absolutely|definitely"
    r"|genuinely|truly|actually|also|still|currently|now|just|finally|officially|mostly|pretty"
    r"|quite|super|recently|happily)\s+)+",
    re.IGNORECASE,
)
"""An adverb between the user's auxiliary and the predicate (``I'm now based in``) is dropped."""


_VOCATIVE = re.compile(
    r"^(?P<name>[A-Z][a-z]+),\s+(?=(?:I|my|we|after|before|during|last|yesterday|today|since)\b)"
)
"""``Priya, after the recital I signed up``: a leading name addressed, then the clause."""
_MONTH_WORDS = _words(
    "january february march april may june july august september october november december"
)


def _drop_vocative(text: str) -> str:
    match = _VOCATIVE.match(text)
    if match is None:
        return text
    name = match.group("name").casefold()
    if name in _NOT_NAME_WORDS or name in _MONTH_WORDS or name.endswith("ly"):
        return text
    return text[match.end() :]


_HOPE_TAIL = re.compile(
    r",?\s+(?:and|but)\s+(?:(?:really|just|also)\s+)?(?:hoping|wishing|praying)\b.*$",
    re.IGNORECASE,
)
"""``I'm reading X and hoping it'll help``: the hope that trails a statement is not part of it."""


_WE_TOGETHER = re.compile(r"^(we)\s+(?:both|each|all)\s+(?=[a-z])", re.IGNORECASE)
"""``We both went``: the user and others, as ``We went`` (not ``User boths went``)."""


_FAMILY_NAME = re.compile(r"^(?-i:(Mom|Mum|Dad|Grandma|Grandpa))(?=\s+[a-z])")
_ANNOUNCEMENT = re.compile(
    r"^(?:(?:so|oh|hey|well|anyway)[,!]?\s+)?(?:I\s+)?(?:just\s+)?(?:wanted|want|had|have)\s+to"
    r"\s+(?:let\s+you\s+know|tell\s+you|share(?:\s+with\s+you)?)(?:\s+that)?[,:]?\s+"
    r"(?=I\b|I'|my\b|we\b|our\b)",
    re.IGNORECASE,
)


def announced_news(sentence: str) -> str:
    """``Just wanted to let you know that I passed my test!`` -> ``I passed my test!``: the news
    an announcement to the listener carries, read as the user's own statement."""
    return _ANNOUNCEMENT.sub("", sentence, count=1)


def _normalize_clause(clause: str) -> str:
    text = _drop_vocative(collapse(clause.replace("’", "'").replace("‘", "'")))
    if not re.match(r"^(?:I\s+am|I'm)\s+(?:hoping|wishing|praying)\b", text, re.IGNORECASE):
        text = _HOPE_TAIL.sub("", text)
    text = expand_contractions(text)
    previous = None
    while previous != text:
        previous = text
        text = _DISCOURSE.sub("", text, count=1).lstrip(" ,")
    text = _AUXILIARY_ADVERBS.sub(r"\1 ", text)
    text = _WE_TOGETHER.sub(r"\1 ", text)
    text = _FAMILY_NAME.sub(r"my \1", text)  # ``Dad made pancakes``: the user's father
    return contracted_has(text).rstrip(" .!;,")


_OWN_ACT = re.compile(
    r"(?:^|[,;]\s*|\b(?:and|then)\s+)(?:I|we)(?:\s+(?:just|also|finally|recently|really|even"
    r"|already|once|never|have|had|'ve|'d))*\s+$",
    re.IGNORECASE,
)
"""What stands before a reporting verb the user did themselves (``I``, ``and then I``)."""
_OWN_ACT_REACH = 96
"""How far before a reporting verb :data:`_OWN_ACT` looks, in characters."""
_REPORTED_CLAUSE = re.compile(
    r"^\s*(?:(?:me|him|her|them|us|everyone|everybody|my\s+\w+|the\s+\w+|[A-Z][a-z]+),?\s+)?"
    r"(?:that\b|(?:I|he|she|they|we|it|you|there|this)\b|(?:i|he|she|they|we|it|you)'|to\s+me\b)",
    re.IGNORECASE,
)
"""A clause after a reporting verb: what was said, thought or asked (``I said I'd help``)."""
_REQUEST_OF_USER = re.compile(
    r"(?:asked|asks|told|tells|begged|wanted)\s+me\s+to\s+(?!me\b)[a-z]", re.IGNORECASE
)
"""``asked me to bring``, ``told me to rest``: a request of the user, not a reported clause
(the people rules read it as the asker's act; a relation's request stays theirs)."""
_WORDS_ON_A_THING = re.compile(r"\b[a-z][\w-]+\s+(?:that|which)\s+$", re.IGNORECASE)
"""A thing that says something (``a card that said ...``, ``a shirt that says ...``)."""
_ALWAYS_REPORTED = re.compile(r"\b(?:according\s+to|quote|quoted)\b", re.IGNORECASE)
_EMBEDDED_QUESTION = re.compile(
    r"(?:,\s*|\s+)(?:and\s+(?:then\s+)?)?(?:asked|asking|wondered|wondering|checked|checking)"
    r"(?:\s+(?:them|him|her|the\s+\w+|my\s+\w+))?\s+(?:if|whether)\b.*$",
    re.IGNORECASE,
)
"""A trailing embedded question the user asked or wondered (``..., and asked if they had
room``): the act before it is asserted, the question is not."""


_WONDERING = re.compile(
    r",?\s+(?:so|and|but)\s+(?:who\s+knows|I\s+wonder|I'm\s+not\s+sure|I\s+am\s+not\s+sure"
    r"|not\s+sure)\s+(?:if|whether|what|how|when|why)\b.*$",
    re.IGNORECASE,
)
"""``..., so who knows if I'll ever have a pet``: a wondering of its own after the statement;
the statement stands, the question is not asserted."""


def cut_embedded_question(sentence: str) -> str:
    """``sentence`` without a trailing embedded question or wondering, ending with a period
    when cut; a sentence that opens with one (``I asked if I could come``) is returned as it
    is."""
    wondering = _WONDERING.search(sentence)
    if wondering is not None and wondering.start() > 0:
        sentence = sentence[: wondering.start()].rstrip(" ,") + "."
    match = _EMBEDDED_QUESTION.search(sentence)
    if match is None or not _OWN_ACT.sub("", sentence[: match.start()]).strip():
        return sentence
    return sentence[: match.start()].rstrip(" ,") + "."


def _reported(sentence: str) -> bool:
    """Reported speech or thought: a reporting verb, unless it is the user's own act on a thing
    (``I wrote a poem``, ``I told my boss about the move``) rather than a report of a clause
    (``I said I'd help``, ``My mom said she ...``), or a request someone made of the user
    (``Ingrid asked me to bake the cake``: their act, with nothing reported)."""
    text = _OWN_WORDS.sub("", sentence)
    if _ALWAYS_REPORTED.search(text):
        return True
    for match in _REPORTED.finditer(text):
        if _REQUEST_OF_USER.match(text, match.start()):
            continue
        if match[0].casefold() in ("say", "says", "said") and _WORDS_ON_A_THING.search(
            text[max(0, match.start() - 24) : match.start()]
        ):
            continue  # ``a sign that said GO``: the sign's words, not someone's report
        # A bounded look-behind: the subject stands within a few words of its verb, and an
        # unbounded one would make a long sentence of many reporting verbs quadratic.
        start = match.start()
        own = _OWN_ACT.search(text, max(0, start - _OWN_ACT_REACH), start) is not None
        if not own or _REPORTED_CLAUSE.match(text[match.end() :]):
            return True
    return False


def sentence_forms_nothing(sentence: str) -> bool:
    """True for a question, request, conditional, quotation or reported speech."""
    stripped = sentence.strip()
    if stripped.endswith("?") or _quotation(stripped):
        return True
    lead = _normalize_clause(stripped)
    return bool(
        (_QUESTION_START.match(lead) and not _SUBORDINATE_OPENER.match(lead))
        or _REQUEST_START.match(lead)
        or _CONDITIONAL.search(_POLITE_CONDITION.sub("", stripped))
        or _reported(stripped)
    )


_SUBJECTLESS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), lead)
    for pattern, lead in (
        (r"^been\s", "I have "),
        (r"^(?:born|raised)(?:\s+and\s+(?:raised|bred))?\s+in\s", "I was "),
        (
            r"^(?:living|working|using|learning|based|originally\s+from|allergic|married"
            r"|fluent\s+in|researching|volunteering|studying|saving\s+(?:up\s+)?for)\b"
            r"(?![^,;]*\s(?:is|are|was|were|has|brings|makes|helps|means|feels|gives)\b)",
            "I am ",
        ),
        (
            # ``Training for a half marathon``: an ongoing activity with the ``I'm`` left out,
            # for verbs a maxim or a third party's fragment rarely opens with; a finite verb
            # after it (``Taking breaks is key``) or a clause of its own after a comma is not.
            r"^(?:(?:still|currently|now|also)\s+)?(?:trying\s+to|training|finishing|preparing"
            r"|practicing|practising|rehearsing|renovating|recovering\s+from|packing\s+for"
            r"|looking\s+(?:for|forward\s+to|into)|getting\s+ready|taking\s+(?:a\s+break|classes)"
            r"|planning\s+(?:a|an|my|our)|working\s+on|wrapping\s+up|catching\s+up\s+on"
            r"|heading\s+(?:to|out|home|back)|organizing|organising|hosting|coaching|teaching"
            r"|starting|kicking\s+off)\b"
            r"(?![^;]*(?:\s(?:is|are|was|were|has|have|had|brings|makes|helps|means|feels|gives"
            r"|sounds|seems|looks|keeps|can|could|would|will|should|might|must|may|takes|gets"
            r"|pays|did|does|it|them)\b|\s(?:this|that)\s*(?:[.!,]|$)|'s\b"
            r"|,\s*(?:I|we|my|our|it|this|that|the|they|he|she)\b))",
            "I am ",
        ),
        (
            r"^(?:(?:just|recently|finally)\s+)?(?:moved|relocated|joined|started|switched"
            r"|adopted|got|quit|stopped|gave\s+up|grew\s+up)\b",
            "I ",
        ),
        (
            # ``Finished my first quilt last night``: a past act on the user's own thing, or
            # on a thing or an outing, with the ``I`` left out.
            r"^(?:(?:just|recently|finally|also)\s+)?"
            r"(?!(?:seemed|looked|sounded|happened|turned|worked|used|needed|meant|supposed"
            r"|tired|excited|bored|stressed|worried|pleased|thrilled|stoked|exhausted|scared"
            r"|amazed|surprised|interested|obsessed|based|married|born|raised|called|named"
            r"|dressed|stuck|blessed|glad)\b)"
            r"(?:[a-z]{3,}ed|went|made|took|bought|ran|wrote|saw|met|found|built|drew|sang|swam"
            r"|rode|caught|won|spent|sold|sent|threw|began|brought|held|kept|baked|dyed|had)"
            r"\s+(?:my|our|a|an|the|some|back|home|out|up|(?:hiking|camping|fishing|shopping"
            r"|skiing|sailing|swimming|running|biking|climbing|dancing|bowling|skating))\b",
            "I ",
        ),
        (
            # ``Just chatted with my cousin``, ``Finished "Dune"``: a past act before a
            # preposition, a quoted title or a name, for a verb a wish or a report is not;
            # ``with that fan I met`` names its thing, ``about that.`` does not.
            r"^(?:(?:just|recently|finally|also)\s+)?"
            r"(?!(?:seemed|looked|sounded|happened|turned|worked|used|needed|meant|supposed"
            r"|wanted|hoped|wished|planned|tried|expected|decided|asked|wondered|guessed"
            r"|figured|considered|imagined|pictured|assumed|excited|interested|obsessed"
            r"|based|married|born|raised|called|named|stuck|blessed|tired)\b|[a-z]*eed\b)"
            r"(?:[a-z]{3,}ed|went|made|took|bought|ran|wrote|saw|met|found|built|won|sold)"
            r"\s+(?:(?:with|to|at|from|about)\s+(?:my|our|a|an|the|some"
            r"|(?:that|this|these|those)(?=\s+(?!(?:one|ones|is|was|are|were)\b)\w))\b"
            r"|[\"“]|(?-i:[A-Z]))",
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


_RECIPROCAL = re.compile(r"\b(?:each\s+other|one\s+another)\b", re.IGNORECASE)
"""``We've known each other since kindergarten``: what holds between people, not of the user."""
_GERUND_OF_NOTHING = re.compile(r"\b\w{2,}ing\s+(?:it|this|that|them)$", re.IGNORECASE)
_MOTION_VERBS = _words("go come head")
_NO_DESTINATION = re.compile(
    r"^(?:on\s+(?!(?:a|an|another|the|their|my|our|some|one)\b)|every|most|each"
    r"|at\s+(?:night|noon|\d)|in\s+the\s+(?:morning|afternoon|evening))\b",
    re.IGNORECASE,
)
"""What a motion verb with no destination opens with: a time (``on Tuesday nights``), not an
outing (``on a camping trip``)."""
