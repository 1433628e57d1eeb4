"""Light query expansion: English inflections and a small concept lexicon of personal facets.

The stores match whole, unstemmed lexemes (``lives`` is not ``live``), which is right for
parity between the adapters but means the question "Where do I live?" shares no lexeme with
the belief "User lives in Portland.". The query former therefore expands on the query side
only, so both adapters receive the same terms and the lexical arm keeps its exact semantics:

* **Inflections.** Each keyword is reduced to its plausible base forms (``lives`` -> ``live``,
  ``studied`` -> ``study``, ``preferred`` -> ``prefer``, a few irregular forms) and every base is
  re-inflected (``-s``/``-es``/``-ies``, ``-ed``/``-d``/``-ied``, ``-ing``). Rules are blind to
  the dictionary, so a few non-words are generated; they match nothing and cost nothing. A
  noun a question derives from a verb (``mentorship``, ``adoption``, ``donation``) also reaches
  the verb's inflections (``mentored``, ``adopted``, ``donated``): query expansion only, never
  ``same_word``.
* **Facets.** A facet is a small set of words that name the same aspect of a person's life
  (where they live, their work, their spouse, ...). A keyword whose base form is a facet word
  adds the facet's other words as a weaker, separately weighted group. Facets hold naming words
  only, never loose associations, and cover the aspects personal memory commonly records;
  they are not fitted to any corpus. Editing them is a ranking change under the retrieval
  policy, like editing a ranking weight.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from memory_core.tokenizer import STOPWORDS

_VOWELS = frozenset("aeiou")
_MIN_STEM = 3

# Irregular forms that personal statements use (form -> base). Keys and values are lexemes.
_IRREGULAR: dict[str, str] = {
    "ate": "eat",
    "eaten": "eat",
    "bought": "buy",
    "drove": "drive",
    "driven": "drive",
    "spoke": "speak",
    "spoken": "speak",
    "wrote": "write",
    "written": "write",
    "taught": "teach",
    "grew": "grow",
    "grown": "grow",
    "met": "meet",
    "began": "begin",
    "begun": "begin",
    "flew": "fly",
    "flown": "fly",
    "went": "go",
    "gone": "go",
    "chose": "choose",
    "chosen": "choose",
    "made": "make",
    "felt": "feel",
    "kept": "keep",
    "left": "leave",
    "ran": "run",
    "sold": "sell",
    "told": "tell",
    "thought": "think",
    "took": "take",
    "taken": "take",
    "children": "child",
    "wives": "wife",
    "husbands": "husband",
    "people": "person",
    "men": "man",
    "women": "woman",
    "mice": "mouse",
    "teeth": "tooth",
    "feet": "foot",
}
_IRREGULAR_FORMS: dict[str, tuple[str, ...]] = {}
for _form, _base in sorted(_IRREGULAR.items()):
    _IRREGULAR_FORMS[_base] = (*_IRREGULAR_FORMS.get(_base, ()), _form)


def _is_word(token: str) -> bool:
    return token.isascii() and token.isalpha()


def _usable(base: str) -> bool:
    # A base must be long enough to mean something and never a stopword: "thing" must not
    # reduce to "the", which every statement contains.
    return len(base) >= _MIN_STEM and base not in STOPWORDS


def _undouble(stem: str) -> str | None:
    if len(stem) > _MIN_STEM and stem[-1] == stem[-2] and stem[-1] not in _VOWELS:
        return stem[:-1]
    return None


@cache
def _derived_bases(token: str) -> frozenset[str]:
    """Bases ``token`` may be an inflection of, by rule or by the irregular table."""
    candidates: list[str] = []
    if token in _IRREGULAR:
        candidates.append(_IRREGULAR[token])
    if _is_word(token) and len(token) > _MIN_STEM:
        if token.endswith("ies") and len(token) > 4:
            candidates.append(token[:-3] + "y")
        elif token.endswith("es") and len(token) > 4:
            candidates.extend((token[:-2], token[:-1]))
        elif token.endswith("s") and not token.endswith(("ss", "us", "is")):
            candidates.append(token[:-1])
        if token.endswith("ied") and len(token) > 4:
            candidates.append(token[:-3] + "y")
        elif token.endswith("ed") and len(token) > 4:
            stem = token[:-2]
            candidates.extend((stem, token[:-1]))
            undoubled = _undouble(stem)
            if undoubled:
                candidates.append(undoubled)
        if token.endswith("ing") and len(token) > 4:
            stem = token[:-3]
            candidates.extend((stem, stem + "e"))
            undoubled = _undouble(stem)
            if undoubled:
                candidates.append(undoubled)
    return frozenset(c for c in candidates if c != token and _usable(c))


@lru_cache(maxsize=8192)
def base_forms(token: str) -> frozenset[str]:
    """The token and the bases it may be an inflection of (``lives`` -> ``live``, ``liv``).

    Only plain ASCII words are reduced by rule; numbers and joined runs (``api.example.com``)
    are returned unchanged. A base shorter than three letters or a stopword is never produced,
    so ``is`` or ``the`` never become query terms.
    """
    return frozenset({token, *_derived_bases(token)})


def _doubles(base: str) -> bool:
    # A consonant-vowel-consonant ending doubles before -ed/-ing in short words (stop,
    # plan) and in a few stressed endings (prefer, occur, commit, compel).
    return (
        base[-1] not in _VOWELS
        and base[-1] not in "wxy"
        and base[-2] in _VOWELS
        and base[-3] not in _VOWELS
        and (len(base) <= 4 or base.endswith(_DOUBLING_ENDINGS))
    )


_DOUBLING_ENDINGS = ("fer", "cur", "mit", "pel", "gret", "trol")


@cache
def inflections(base: str) -> frozenset[str]:
    """Regular inflections of a base form, plus its irregular forms (``live`` -> ``lives``...)."""
    out = {base, *_IRREGULAR_FORMS.get(base, ())}
    if not _is_word(base) or len(base) < _MIN_STEM:
        return frozenset(out)
    consonant_y = base.endswith("y") and base[-2] not in _VOWELS
    # plural / third person
    if base.endswith(("s", "x", "z", "ch", "sh")):
        out.add(base + "es")
    elif consonant_y:
        out.add(base[:-1] + "ies")
    else:
        out.add(base + "s")
    # past
    if base.endswith("e"):
        out.add(base + "d")
    elif consonant_y:
        out.add(base[:-1] + "ied")
    elif _doubles(base):
        out.add(base + base[-1] + "ed")
    else:
        out.add(base + "ed")
    # progressive
    if base.endswith("ie"):
        out.add(base[:-2] + "ying")
    elif base.endswith("e") and not base.endswith("ee"):
        out.add(base[:-1] + "ing")
    elif _doubles(base):
        out.add(base + base[-1] + "ing")
    else:
        out.add(base + "ing")
    return frozenset(word for word in out if word not in STOPWORDS)


# Derivational endings a question's noun often carries where the statement has the verb
# ("mentorship" / "mentored", "adoption" / "adopted", "donation" / "donated"): ending -> what
# replaces it. Only long words are reduced, and only to a usable base.
_DERIVATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ships", ("",)),
    ("ship", ("",)),
    ("ations", ("ate", "")),
    ("ation", ("ate", "")),
    ("itions", ("", "e")),
    ("ition", ("", "e")),
    ("tions", ("t", "te")),
    ("tion", ("t", "te")),
    ("ments", ("",)),
    ("ment", ("",)),
)
_MIN_DERIVED_STEM = 4


@cache
def derived_bases(token: str) -> frozenset[str]:
    """Verb or noun bases ``token`` is derived from by a common ending (``mentorship`` ->
    ``mentor``, ``adoption`` -> ``adopt``, ``donation`` -> ``donate``); empty when none."""
    if not _is_word(token):
        return frozenset()
    out: set[str] = set()
    for ending, replacements in _DERIVATIONS:
        if token.endswith(ending) and len(token) - len(ending) >= _MIN_DERIVED_STEM:
            stem = token[: -len(ending)]
            out.update(stem + r for r in replacements)
            break
    return frozenset(b for b in out if _usable(b))


@cache
def variants(token: str) -> frozenset[str]:
    """Every form a keyword may take in a statement.

    A token that reduces to no base is treated as a base and inflected (``work`` -> ``works``,
    ``worked``, ``working``); an inflected token contributes itself and its bases' inflections
    (``lives`` -> ``live``, ``lived``, ``living``...), never inflections of the inflected form.
    """
    bases = _derived_bases(token)
    out = {token} | (set() if bases else set(inflections(token)))
    for base in bases:
        out |= inflections(base)
    for base in {b for t in (token, *bases) for b in derived_bases(t)}:
        out |= inflections(base)
    return frozenset(out)


def same_word(a: str, b: str) -> bool:
    """True when two lexemes are the same word up to inflection (``answer`` ~ ``answers``)."""
    return a == b or bool(base_forms(a) & base_forms(b))


@dataclass(frozen=True, kw_only=True)
class Facet:
    """Words that name one aspect of a person's life; any of them cues the others.

    ``words`` lists every form to search for explicitly (``live``, ``lives``, ``lived``), so a
    facet's expansion is exactly what a reviewer reads, with no generated forms.
    """

    name: str
    words: tuple[str, ...]

    @property
    def keys(self) -> frozenset[str]:
        """Base forms of the facet's words: a keyword cues the facet when its bases meet these."""
        return _facet_keys(self.words)

    @property
    def lexemes(self) -> frozenset[str]:
        """The facet's words: the expansion it contributes to a query."""
        return frozenset(self.words)


@cache
def _facet_keys(words: tuple[str, ...]) -> frozenset[str]:
    out: set[str] = set()
    for word in words:
        out |= base_forms(word)
    return frozenset(out)


def _forms(*groups: str) -> tuple[str, ...]:
    return tuple(word for group in groups for word in group.split())


QUESTION_SCAFFOLDING: frozenset[str] = frozenset(
    _forms(
        "kind kinds type types sort sorts thing things way ways example examples specific",
        "particular mention mentions mentioned say says said describe describes described",
        "according likely probably might considered consider think thinks recently recent",
        "currently usually often ever",
    )
)
"""Words a question uses to frame what it asks rather than to name it ("What kind of music
...", "What did she mention about ...", "Would she likely ..."). A statement the answer lives
in rarely contains them, so in a question they only widen the lexical match; the query former
drops them from a question's keywords. Editing the list is a ranking change under the retrieval
policy, like editing a facet."""


DEFAULT_FACETS: tuple[Facet, ...] = (
    Facet(
        name="residence",
        words=_forms(
            "live lives lived living home reside resides resided residence location address",
            "hometown city moved relocated",
        ),
    ),
    Facet(
        name="work",
        words=_forms(
            "work works worked working job employer employment employed company occupation",
            "profession career role workplace",
        ),
    ),
    Facet(
        name="spouse",
        words=_forms("spouse wife husband partner married marriage fiance fiancee fiancé fiancée"),
    ),
    Facet(name="children", words=_forms("child children kid kids son sons daughter daughters")),
    Facet(name="parents", words=_forms("parent parents mother father mom dad")),
    Facet(name="siblings", words=_forms("sibling siblings brother brothers sister sisters")),
    Facet(name="pets", words=_forms("pet pets dog dogs cat cats puppy kitten")),
    Facet(
        name="preference",
        words=_forms(
            "prefer prefers preferred preference like likes liked love loves loved enjoy",
            "enjoys favorite favourite",
        ),
    ),
    Facet(
        name="communication style",
        words=_forms("style format formatted formatting tone concise brief verbose detailed"),
    ),
    Facet(
        name="diet",
        words=_forms("diet vegetarian vegan food foods eat eats cuisine"),
    ),
    Facet(
        name="allergy",
        words=_forms("allergy allergies allergic intolerant intolerance"),
    ),
    Facet(name="language", words=_forms("language languages speak speaks spoke fluent native")),
    Facet(name="age", words=_forms("age birthday born")),
    Facet(name="finance", words=_forms("bank banks banking account accounts")),
    Facet(
        name="education",
        words=_forms("school university college degree studied studies student graduated"),
    ),
    Facet(name="vehicle", words=_forms("car cars drive drives vehicle")),
    Facet(name="travel", words=_forms("trip trips travel travels traveling vacation holiday")),
    Facet(name="availability", words=_forms("available availability offline schedule")),
    Facet(name="tools", words=_forms("tool tools editor software ide")),
    Facet(name="decision", words=_forms("decide decided decision decisions agreed chose chosen")),
    Facet(name="name", words=_forms("name named nickname")),
)
"""The shipped concept lexicon (part of the retrieval policy)."""
