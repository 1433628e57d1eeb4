"""English word forms: one irregular-verb table, conjugation, and the base forms of a word.

Formation conjugates (``third_person``, ``gerund``, a verb's past) and reads a verb back to its
base; retrieval reduces a query keyword to its plausible base forms and re-inflects them. Both
read the one table :data:`IRREGULAR_VERBS` for conjugation and base forms; retrieval reads every
row, formation the rows its recognition lists agree with. The deterministic
extractor still keeps its own recognition lists (``_IRREGULAR_PAST``, ``_PARTICIPLES`` in
``formation/deterministic/lexicon.py``: "is this word a past form"); they disagree with the
table on participles, so folding them in waits for a formation policy bump. The rules are
spelling rules, blind to any dictionary: a few non-words are generated, which match nothing
and cost nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from memory_core.tokenizer import STOPWORDS

Reader = Literal["formation", "retrieval"]
"""Who reads an irregular verb's past and participle back to its base."""


@dataclass(frozen=True, kw_only=True)
class IrregularVerb:
    """One irregular English verb: its principal parts, and who reads them back to the base."""

    base: str
    past: str
    participle: str
    third_person: str | None
    """The third-person singular when it is irregular (``has``), else None."""
    readers: frozenset[Reader]
    """``formation`` reads the past back to the base (``went`` -> ``go``) and conjugates the base
    to it; ``retrieval`` expands a query keyword across the past and participle (every row).
    Adding a reader to a verb is a formation or ranking change that re-records the benchmark
    baseline, not a free table edit."""


_TABLE = """
    base    past     participle  third  readers
    be      was      been        is     -
    have    had      had         has    -
    do      did      done        does   -
    can     could    could       can    -
    go      went     gone        goes   formation retrieval
    begin   began    begun       -      formation retrieval
    buy     bought   bought      -      formation retrieval
    drive   drove    driven      -      formation retrieval
    eat     ate      eaten       -      formation retrieval
    fly     flew     flown       -      formation retrieval
    grow    grew     grown       -      formation retrieval
    keep    kept     kept        -      formation retrieval
    leave   left     left        -      formation retrieval
    make    made     made        -      formation retrieval
    meet    met      met         -      formation retrieval
    run     ran      run         -      formation retrieval
    sell    sold     sold        -      formation retrieval
    take    took     taken       -      formation retrieval
    teach   taught   taught      -      formation retrieval
    write   wrote    written     -      formation retrieval
    choose  chose    chosen      -      retrieval
    feel    felt     felt        -      retrieval
    speak   spoke    spoken      -      retrieval
    tell    told     told        -      retrieval
    think   thought  thought     -      retrieval
    bring   brought  brought     -      formation retrieval
    build   built    built       -      formation retrieval
    come    came     come        -      formation retrieval
    draw    drew     drawn       -      formation retrieval
    drink   drank    drunk       -      formation retrieval
    find    found    found       -      formation retrieval
    get     got      gotten      -      formation retrieval
    give    gave     given       -      formation retrieval
    lose    lost     lost        -      formation retrieval
    ride    rode     ridden      -      formation retrieval
    see     saw      seen        -      formation retrieval
    send    sent     sent        -      formation retrieval
    sing    sang     sung        -      formation retrieval
    spend   spent    spent       -      formation retrieval
    swim    swam     swum        -      formation retrieval
    win     won      won         -      formation retrieval
    read    read     read        -      retrieval
    hear    heard    heard       -      retrieval
    say     said     said        -      retrieval
    know    knew     known       -      retrieval
    wear    wore     worn        -      retrieval
    break   broke    broken      -      retrieval
    catch   caught   caught      -      retrieval
    fall    fell     fallen      -      retrieval
    forget  forgot   forgotten   -      retrieval
    pay     paid     paid        -      retrieval
    sit     sat      sat         -      retrieval
    sleep   slept    slept       -      retrieval
    wake    woke     woken       -      retrieval
    throw   threw    thrown      -      retrieval
    hold    held     held        -      retrieval
    stand   stood    stood       -      retrieval
    lead    led      led         -      retrieval
    feed    fed      fed         -      retrieval
    fight   fought   fought      -      retrieval
    hang    hung     hung        -      retrieval
    freeze  froze    frozen      -      retrieval
    blow    blew     blown       -      retrieval
    lend    lent     lent        -      retrieval
"""


def _reader(name: str) -> Reader:
    if name == "formation":
        return "formation"
    if name == "retrieval":
        return "retrieval"
    raise ValueError(f"unknown reader {name!r} in the irregular-verb table")


def _parse(table: str) -> tuple[IrregularVerb, ...]:
    rows = [line.split() for line in table.strip().splitlines()[1:]]
    return tuple(
        IrregularVerb(
            base=base,
            past=past,
            participle=participle,
            third_person=None if third == "-" else third,
            readers=frozenset(_reader(r) for r in readers if r != "-"),
        )
        for base, past, participle, third, *readers in rows
    )


IRREGULAR_VERBS: tuple[IrregularVerb, ...] = _parse(_TABLE)
"""The irregular verbs formation and retrieval know, one row per verb."""

IRREGULAR_PLURALS: dict[str, str] = {
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
"""Plural -> singular for nouns personal statements use that the rules do not reduce (read by
retrieval's base forms)."""

_PAST_BASE: dict[str, str] = {v.past: v.base for v in IRREGULAR_VERBS if "formation" in v.readers}
_PAST_OF: dict[str, str] = {v.base: v.past for v in IRREGULAR_VERBS if "formation" in v.readers}
_THIRD_PERSON: dict[str, str] = {
    v.base: v.third_person for v in IRREGULAR_VERBS if v.third_person is not None
}
_MODALS = frozenset(
    {"can", "cannot", "could", "may", "might", "must", "shall", "should", "will", "would"}
)
_FIRST_PERSON: dict[str, str] = {
    **{third: base for base, third in _THIRD_PERSON.items() if third != base},
    "is": "am",
}
"""A third-person present form -> the form after ``I`` (``has`` -> ``have``, ``is`` -> ``am``)."""

# retrieval's irregular forms (form -> base): a verb's past and participle, and the plurals.
_IRREGULAR: dict[str, str] = {
    **{
        form: v.base
        for v in IRREGULAR_VERBS
        if "retrieval" in v.readers
        for form in (v.past, v.participle)
        if form != v.base
    },
    **IRREGULAR_PLURALS,
}
_IRREGULAR_FORMS: dict[str, tuple[str, ...]] = {}
for _form, _base in sorted(_IRREGULAR.items()):
    _IRREGULAR_FORMS[_base] = (*_IRREGULAR_FORMS.get(_base, ()), _form)

_VOWELS = frozenset("aeiou")
_ES_ENDINGS = ("s", "sh", "ch", "x", "z", "o")


# -- conjugation (formation) -----------------------------------------------------------------


def third_person(verb: str) -> str:
    """Conjugate a base-form English verb for a singular third-person subject (``watch`` ->
    ``watches``, ``carry`` -> ``carries``, ``have`` -> ``has``); the spelling's case is kept."""
    lower = verb.casefold()
    if lower in _THIRD_PERSON:
        return _THIRD_PERSON[lower]
    if lower == "don't":
        return verb[0] + "oesn't"
    if lower in _MODALS or lower.endswith("n't"):
        return verb  # ``could``, ``couldn't``, ``can't``: a modal takes no ``-s``
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in _VOWELS:
        return verb[:-1] + "ies"
    if lower.endswith(_ES_ENDINGS):
        return verb + "es"
    return verb + "s"


def undo_third_person(verb: str) -> str:
    """Undo :func:`third_person` for the patterns it produces (``lives`` -> ``live``, ``has``
    -> ``have``); ``is`` gives ``am``, the form after ``I``."""
    lower = verb.casefold()
    if lower in _FIRST_PERSON:
        return _FIRST_PERSON[lower]
    if lower.endswith("ies") and len(lower) > 3:
        return verb[:-3] + "y"
    if lower.endswith(("shes", "ches", "xes", "zes", "sses", "oes")):
        return verb[:-2]
    if lower.endswith("s") and not lower.endswith("ss"):
        return verb[:-1]
    return verb


def gerund(verb: str) -> str:
    """The ``-ing`` form of a base-form English verb (``bike`` -> ``biking``, ``run`` ->
    ``running``), by the regular spelling rules."""
    lower = verb.casefold()
    if lower.endswith("ie"):
        return verb[:-2] + "ying"
    if lower.endswith("e") and not lower.endswith(("ee", "ye", "oe")) and len(lower) > 2:
        return verb[:-1] + "ing"
    if (
        len(lower) <= 4
        and len(lower) >= 3
        and lower[-1] not in _VOWELS
        and lower[-1] not in "wxy"
        and lower[-2] in _VOWELS
        and lower[-3] not in _VOWELS
    ):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def gerund_base(word: str) -> str | None:
    """The base form of an ``-ing`` word (``visiting`` -> ``visit``, ``driving`` -> ``drive``,
    ``running`` -> ``run``, ``dying`` -> ``die``), or ``None`` when it is not one.

    An English spelling heuristic, checked against :func:`gerund`: a doubled consonant is
    undone (but ``calling``, ``passing`` keep theirs); an ``e`` is restored after ``c``, ``v``
    or ``z``, after a short consonant-vowel-consonant stem (``taking``, ``sharing``) and after a
    longer one ending in ``ar``/``ir``/``or``/``ur`` (``exploring``). ``opening``, ``visiting``
    and ``entering`` take none.
    """
    lower = word.casefold()
    if not lower.endswith("ing") or len(lower) < 5 or not lower.isalpha():
        return None
    stem = lower[:-3]
    if len(stem) == 2 and stem.endswith("y"):
        return stem[:-1] + "ie"  # dying, lying, tying
    if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in "lsfzaeiou":
        return stem[:-1]
    short = len(stem) <= 4 and stem[0] not in _VOWELS
    cvc = (
        len(stem) >= 3
        and stem[-1] not in "aeiouwxy"
        and stem[-2] in _VOWELS
        and stem[-3] not in _VOWELS
    )
    restored = (
        len(stem) <= 2
        or (stem[-1] in "cvz" and stem[-2] != stem[-1])
        or (cvc and (short or stem.endswith(("ar", "ir", "or", "ur"))))
    )
    base = stem + "e" if restored and not stem.endswith("e") else stem
    return base if gerund(base) == lower else stem


def irregular_past(base: str) -> str | None:
    """The past of an irregular verb formation conjugates (``go`` -> ``went``), else None."""
    return _PAST_OF.get(base)


_SAME_IN_THE_PAST = frozenset({"read", "put", "cut", "let", "set", "hit", "quit", "cost", "shut"})


def past_tense(base: str) -> str:
    """The simple past of a base-form verb (``kick`` -> ``kicked``, ``shop`` -> ``shopped``,
    ``carry`` -> ``carried``, ``run`` -> ``ran``, ``put`` -> ``put``), lowercase."""
    lower = base.casefold()
    if lower in _SAME_IN_THE_PAST:
        return lower
    irregular = irregular_past(lower)
    if irregular is not None:
        return irregular
    if lower.endswith("e"):
        return lower + "d"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in _VOWELS:
        return lower[:-1] + "ied"
    if sum(ch in _VOWELS for ch in lower) == 1:  # one syllable: ``shop`` -> ``shopp``
        return gerund(lower)[: -len("ing")] + "ed"
    return lower + "ed"  # ``open`` -> ``opened``


def irregular_past_base(past: str) -> str | None:
    """The base of an irregular past formation reads back (``went`` -> ``go``), else None."""
    return _PAST_BASE.get(past)


def indefinite_article(noun_phrase: str) -> str:
    """``a`` or ``an`` for a noun phrase, by its first letter (a spelling heuristic)."""
    first = noun_phrase.lstrip()[:1].casefold()
    return "an" if first in ("a", "e", "i", "o", "u") else "a"


# -- base forms and inflections (retrieval) --------------------------------------------------

_MIN_STEM = 3


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
    """The lexeme and the bases it may be an inflection of (``lives`` -> ``live``, ``liv``).

    Only plain ASCII words are reduced by rule; numbers and joined runs (``api.example.com``)
    are returned unchanged. A base shorter than three letters or a stopword is never produced,
    so ``is`` or ``the`` never become query terms.
    """
    return frozenset({token, *_derived_bases(token)})


_DOUBLING_ENDINGS = ("fer", "cur", "mit", "pel", "gret", "trol")


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
    A noun derived from a verb (``mentorship``, ``adoption``) also reaches the verb's
    inflections (``mentored``, ``adopted``).
    """
    bases = _derived_bases(token)
    # An irregular verb's base that looks inflected (``bring``, ``sing``) is still a base.
    out = {token} | (set() if bases and token not in _IRREGULAR_FORMS else set(inflections(token)))
    for base in bases:
        out |= inflections(base)
    for base in {b for t in (token, *bases) for b in derived_bases(t)}:
        out |= inflections(base)
    return frozenset(out)


def same_word(a: str, b: str) -> bool:
    """True when two lexemes are the same word up to inflection (``answer`` ~ ``answers``)."""
    return a == b or bool(base_forms(a) & base_forms(b))
