"""The Porter stemmer, as LoCoMo's published F1 applies it (NLTK's default mode).

Porter, M. F. "An algorithm for suffix stripping." Program 14.3 (1980): 130-137, with the
departures NLTK's ``PorterStemmer`` makes by default, because LoCoMo's scoring code stems
with it and a figure comparable to the published ones has to stem the same way:

* a pool of irregular forms (``dying`` -> ``die``, ``skies`` -> ``sky`` ...);
* words of one or two letters are left alone;
* ``ies``/``ied`` on a four-letter word keep the ``e`` (``ties`` -> ``tie``, ``died`` -> ``die``);
* terminal ``y`` becomes ``i`` only after a consonant that is not the word's first letter;
* step 2 uses ``bli`` -> ``ble`` for ``abli`` -> ``able``, runs ``alli`` -> ``al`` first and
  repeats the step, and adds ``fulli`` -> ``ful`` and ``logi`` -> ``log``;
* the *cvc* test also holds for a two-letter stem of a vowel then a consonant.

Written from the published algorithm and the documented departures; no third-party code.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

_VOWELS = frozenset("aeiou")

_IRREGULAR = {
    "skies": "sky",
    "sky": "sky",
    "dying": "die",
    "lying": "lie",
    "tying": "tie",
    "news": "news",
    "innings": "inning",
    "inning": "inning",
    "outings": "outing",
    "outing": "outing",
    "cannings": "canning",
    "canning": "canning",
    "howe": "howe",
    "proceed": "proceed",
    "exceed": "exceed",
    "succeed": "succeed",
}

Condition = Callable[[str], bool] | None


def _consonant(word: str, i: int) -> bool:
    char = word[i]
    if char in _VOWELS:
        return False
    if char == "y":
        return i == 0 or not _consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """Porter's *m*: the number of vowel-consonant sequences in ``stem``."""
    pattern = "".join("c" if _consonant(stem, i) else "v" for i in range(len(stem)))
    return pattern.count("vc")


def _has_vowel(stem: str) -> bool:
    return any(not _consonant(stem, i) for i in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    if len(word) >= 3:
        return (
            _consonant(word, len(word) - 3)
            and not _consonant(word, len(word) - 2)
            and _consonant(word, len(word) - 1)
            and word[-1] not in "wxy"
        )
    return len(word) == 2 and not _consonant(word, 0) and _consonant(word, 1)


def _positive(stem: str) -> bool:
    return _measure(stem) > 0


def _above_one(stem: str) -> bool:
    return _measure(stem) > 1


def _apply(word: str, rules: list[tuple[str, str, Condition]]) -> str:
    """Apply the first rule whose suffix ``word`` ends with; stop there whatever its condition."""
    for suffix, replacement, condition in rules:
        if suffix == "*d":
            if _double_consonant(word):
                stem = word[:-2]
                if condition is None or condition(stem):
                    return stem + replacement
                return word
            continue
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            if condition is None or condition(stem):
                return stem + replacement
            return word
    return word


def _step1a(word: str) -> str:
    if word.endswith("ies") and len(word) == 4:
        return word[:-3] + "ie"
    return _apply(
        word, [("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None), ("s", "", None)]
    )


def _step1b_tail(stem: str) -> str:
    """After ``ed``/``ing`` came off: restore an ``e`` or undouble a final consonant."""
    last = stem[-1:]
    return _apply(
        stem,
        [
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", last, lambda _: last not in ("l", "s", "z")),
            ("", "e", lambda base: _measure(base) == 1 and _cvc(base)),
        ],
    )


def _step1b(word: str) -> str:
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if _measure(stem) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            return _step1b_tail(word[: -len(suffix)])
    return word


def _step1c(word: str) -> str:
    if word.endswith("y") and len(word) > 2 and _consonant(word, len(word) - 2):
        return word[:-1] + "i"
    return word


def _step2(word: str) -> str:
    if word.endswith("alli") and _positive(word[:-4]):
        return _step2(word[:-4] + "al")
    rules: list[tuple[str, str, Condition]] = [
        ("ational", "ate", _positive),
        ("tional", "tion", _positive),
        ("enci", "ence", _positive),
        ("anci", "ance", _positive),
        ("izer", "ize", _positive),
        ("bli", "ble", _positive),
        ("alli", "al", _positive),
        ("entli", "ent", _positive),
        ("eli", "e", _positive),
        ("ousli", "ous", _positive),
        ("ization", "ize", _positive),
        ("ation", "ate", _positive),
        ("ator", "ate", _positive),
        ("alism", "al", _positive),
        ("iveness", "ive", _positive),
        ("fulness", "ful", _positive),
        ("ousness", "ous", _positive),
        ("aliti", "al", _positive),
        ("iviti", "ive", _positive),
        ("biliti", "ble", _positive),
        ("fulli", "ful", _positive),
        # The 'l' stays with the stem for the measure: 'geologi' -> 'geolog'.
        ("logi", "log", lambda _: _positive(word[:-3])),
    ]
    return _apply(word, rules)


def _step3(word: str) -> str:
    return _apply(
        word,
        [
            ("icate", "ic", _positive),
            ("ative", "", _positive),
            ("alize", "al", _positive),
            ("iciti", "ic", _positive),
            ("ical", "ic", _positive),
            ("ful", "", _positive),
            ("ness", "", _positive),
        ],
    )


def _step4(word: str) -> str:
    return _apply(
        word,
        [
            ("al", "", _above_one),
            ("ance", "", _above_one),
            ("ence", "", _above_one),
            ("er", "", _above_one),
            ("ic", "", _above_one),
            ("able", "", _above_one),
            ("ible", "", _above_one),
            ("ant", "", _above_one),
            ("ement", "", _above_one),
            ("ment", "", _above_one),
            ("ent", "", _above_one),
            ("ion", "", lambda stem: _above_one(stem) and stem[-1:] in ("s", "t")),
            ("ou", "", _above_one),
            ("ism", "", _above_one),
            ("ate", "", _above_one),
            ("iti", "", _above_one),
            ("ous", "", _above_one),
            ("ive", "", _above_one),
            ("ize", "", _above_one),
        ],
    )


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        measure = _measure(stem)
        if measure > 1 or (measure == 1 and not _cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word[:-1]) > 1:
        word = word[:-1]
    return word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Porter stem of ``word`` (lower-cased first), as NLTK's default mode computes it."""
    lowered = word.lower()
    if lowered in _IRREGULAR:
        return _IRREGULAR[lowered]
    if len(lowered) <= 2:
        return lowered
    for step in (_step1a, _step1b, _step1c, _step2, _step3, _step4, _step5):
        lowered = step(lowered)
    return lowered
