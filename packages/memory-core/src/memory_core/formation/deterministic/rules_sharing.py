"""Pictures the user shares: a presenting line and an attached image's caption.

In chat people show things as often as they describe them, and what they show is what a later
question asks about:

* **A presenting line.** ``Here's a photo of my garden after the storm`` -> ``User shared a
  photo of their garden after the storm.``; ``Check out this pic of the harbor at dawn``,
  ``Here is one of the lanterns I made`` and ``Here's my latest sketch`` read alike. The
  object is put in the third person; its head noun phrase is the subject.
* **An attachment caption.** A transcript that carries an image turn as ``[shared an image:
  a photo of a red kite over a beach]`` (how the external adapters render a caption beside
  the text) forms ``User shared a photo of a red kite over a beach.`` at a lower confidence:
  the caption describes the picture, not in the user's own words.

Nothing forms when the object names the listener's things (``your cat``), is only a pronoun
(``a photo of it``), is someone else's picture (``a photo my sister took``), or when ``here's``
opens a toast or a tip (``Here's to a great year``, ``Here's a tip: ...``).
"""

from __future__ import annotations

import re

from memory_core.domain import BeliefType
from memory_core.formation.deterministic.conversation import (
    _LISTENER,
    _object,
    _pronoun_only,
    _thing,
)
from memory_core.formation.deterministic.lexicon import _ARTICLES, _PREPOSITIONS
from memory_core.formation.deterministic.phrases import _Proposal
from memory_core.text import collapse

CAPTION_CONFIDENCE = 0.6
"""Confidence of a belief read from an image caption: a description, not the user's words."""
SHOWN_CONFIDENCE = 0.8
"""Confidence of a picture the user presented in their own words."""
MAX_SHOWN_WORDS = 14
"""A presented object is kept to this many words (a belief is read beside its cost)."""
MAX_CAPTION_WORDS = 8
"""A caption is kept to this many words, cut before a phrase that qualifies what it names
(``a dog catching a frisbee in a park near the lake`` -> ``... in a park``): a machine's
description of the picture, whose head and first details carry what it shows."""

_PICTURE = r"(?:photo|photograph|pic|picture|snap|snapshot|shot|selfie|image|video|clip)s?"
_PRESENTING = re.compile(
    r"^(?:(?:so|and|oh|also|ok(?:ay)?|yeah|yep|look|hey)[,!]?\s+)*"
    r"(?:here(?:'s|’s|\s+is|\s+are)|check\s+out|take\s+a\s+look\s+at|look\s+at)\s+"
    r"(?:(?:a|an|this|these|another|the|my|our)\s+)?(?:(?:new|recent|quick|latest|old)\s+)?"
    r"(?:(?P<picture>" + _PICTURE + r")\s+of\s+(?P<shown>.+)"
    r"|(?P<one>(?:one|some|a\s+few)\s+of\s+(?:my|our|the)\s+.+)"
    r"|(?P<own>(?:my|our)\s+.+))$",
    re.IGNORECASE,
)
_CAPTION = re.compile(
    r"^\[\s*shared\s+an?\s+image\s*:\s*(?:an?\s+)?(?P<picture>photo(?:graph)?y?|picture|image"
    r"|drawing|painting|screenshot)?(?:\s+of\s+)?(?P<shown>[^\]]+?)\s*\]?$",
    re.IGNORECASE,
)
_OWN_FRAMING = re.compile(
    r"^(?:my|our)\s+(?:\w+\s+)?(?:point|advice|tip|take|thought|thoughts|idea|question|answer"
    r"|plan|problem|issue|two\s+cents|number|email|address)\b",
    re.IGNORECASE,
)
"""``Here's my point``, ``here's my advice``: framing talk, not a thing shown."""


_LOOSE_END = _PREPOSITIONS | _ARTICLES | {"and", "or", "that", "which", "who", "is", "are"}
"""Words a clipped object never ends with (``a table filled with``)."""
_VERB_LEFT = _LOOSE_END | {"being", "been", "has", "have", "was", "were"}
"""Words a cut caption never ends with: a loose word, or the verb of the phrase it cut."""
_QUALIFIER = (_PREPOSITIONS - {"of"}) | {"that", "which", "who", "while", "under"}


def _clip(text: str, limit: int = MAX_SHOWN_WORDS) -> str:
    """At most ``limit`` words of ``text``; one that was cut ends with no loose word."""
    words = text.split()
    if len(words) <= limit:
        return text
    return " ".join(_trimmed(words[:limit], _LOOSE_END, keep=1))


def _trimmed(words: list[str], loose: frozenset[str], *, keep: int) -> list[str]:
    """``words`` without the ``loose`` words that end them, keeping at least ``keep``."""
    while len(words) > keep and words[-1].casefold() in loose:
        words.pop()
    return words


def _opens_qualifier(words: list[str], index: int) -> bool:
    """Whether ``words[index]`` opens a phrase qualifying what comes before it: a preposition
    or relative word, ``and`` before a new noun phrase (``and a red hat``), or a participle
    before its own complement (``catching a frisbee``, ``filled with food``), not an adjective
    (``black and white striped pattern``)."""
    lower = words[index].casefold()
    following = words[index + 1].casefold() if index + 1 < len(words) else ""
    if lower in ("and", "or"):
        return following in _ARTICLES or following.isdigit()
    if len(lower) > 4 and lower.endswith(("ing", "ed")):
        return following in _LOOSE_END
    return lower in _QUALIFIER


def _clip_caption(text: str) -> str:
    """A caption of at most ``MAX_CAPTION_WORDS`` words, cut before the last qualifying phrase
    (``_opens_qualifier``) that opens within them and not inside another phrase or a list,
    else clipped."""
    words = text.split()
    if len(words) <= MAX_CAPTION_WORDS:
        return text
    opens = [i for i in range(2, MAX_CAPTION_WORDS + 1) if _opens_qualifier(words, i)]
    # A phrase opened just before (``sitting`` in ``sitting on top``) holds the next one, and
    # ``and`` after a comma closes a list (``a lamp, two plants, and a clock``): no cut there.
    cuts = [
        i
        for i in opens
        if i - 1 not in opens
        and not (words[i].casefold() in ("and", "or") and words[i - 1].endswith(","))
    ]
    if not cuts:
        return _clip(text, MAX_CAPTION_WORDS)
    # ``a woman in a yellow coat is [walking ...]``: never the verb of the phrase it cut.
    return " ".join(_trimmed(words[: cuts[-1]], _VERB_LEFT, keep=2))


def _subject(shown: str) -> str:
    """The head noun phrase of what is shown, before any action or relative clause in it (``a
    dog catching a frisbee`` -> ``dog``, ``the cafes I'm thinking about`` -> ``cafes``); an
    ``-ing`` word right after the article names the thing (``a shopping mall``)."""
    body = re.sub(r"^(?:a|an|the)\s+", "", shown, flags=re.IGNORECASE)
    return _thing(re.split(r"\s+(?:\w{2,}ing|I|we|that|which|who)\b", body, maxsplit=1)[0])


def _shared(statement_obj: str, subject: str, confidence: float) -> list[_Proposal]:
    statement = collapse(f"User shared {statement_obj}").rstrip(" .!,") + "."
    return [
        _Proposal(
            belief_type=BeliefType.FACT,
            subject=collapse(subject).casefold(),
            predicate="shared",
            obj=statement_obj,
            exclusive=False,
            statement=statement,
            confidence=confidence,
        )
    ]


def sharing_readings(sentence: str) -> list[_Proposal]:
    """Read a sentence that presents a picture or carries an image caption (else nothing)."""
    text = sentence.strip().rstrip(" .!")
    caption = _CAPTION.match(text)
    if caption is not None:
        shown = _clip_caption(caption.group("shown").strip(" ."))
        if _LISTENER.search(shown) or _pronoun_only(shown):
            return []
        subject = _subject(shown)
        kind = (caption.group("picture") or "image").casefold()
        kind = "photo" if kind.startswith("photo") else kind
        return _shared(f"a {kind} of {shown}", subject, CAPTION_CONFIDENCE) if subject else []
    match = _PRESENTING.match(text)
    if match is None or ":" in text or _LISTENER.search(text):
        return []
    if match.group("picture"):
        shown = match.group("shown")
        head = f"a {match.group('picture').casefold()} of "
    elif match.group("one"):
        shown, head = match.group("one"), ""
    else:
        shown, head = match.group("own"), ""
        if _OWN_FRAMING.match(shown):
            return []
    about = re.sub(r"^(?:one|some|a\s+few)\s+of\s+", "", shown, flags=re.IGNORECASE)
    selfie = _OF_THE_USER.match(about) if head else None
    if selfie is not None:
        # ``a pic of me at the food bank``: the user shown, and where or with whom.
        who = (
            "themselves"
            if selfie["who"].casefold() in ("me", "myself")
            else "themselves and others"
        )
        rest = _INTERJECTION.sub("", selfie["rest"])
        obj = _clip(collapse(f"{who} {_object(rest, team=True)}"))
        subject = _subject(rest.split(" ", 1)[-1]) if rest else ""
        picture = match.group("picture").casefold()
        return _shared(f"{head}{obj}", subject or picture, SHOWN_CONFIDENCE)
    if _pronoun_only(about) or not about.strip():
        return []
    obj = _clip(_object(shown, team=True))
    subject = _subject(about)
    return _shared(f"{head}{obj}", subject, SHOWN_CONFIDENCE) if subject and obj else []


_OF_THE_USER = re.compile(r"^(?P<who>me|myself|us|ourselves)\b\s*(?P<rest>.*)$", re.IGNORECASE)
"""What a picture shows when it shows the user (``of me at the food bank``)."""
_INTERJECTION = re.compile(r"\s*\b(?:lol|lmao|haha+|hehe+|omg)\b.*$", re.IGNORECASE)


__all__ = ["CAPTION_CONFIDENCE", "SHOWN_CONFIDENCE", "sharing_readings"]
