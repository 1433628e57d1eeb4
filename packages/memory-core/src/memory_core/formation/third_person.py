"""Deterministic first-person to third-person rewriting of a proposed belief statement.

A model asked to restate "I live in Seattle." often answers "I live in Seattle.": the same
statement in the user's own person. :func:`third_person` rewrites it to the stored form
("User lives in Seattle.") before any formation rule runs, so the rules judge what the user
said, not the person the model wrote it in. It changes only person and verb agreement:

* a leading ``My`` becomes ``User's`` ("My wife is Morgan." -> "User's wife is Morgan.");
* a leading ``I`` becomes ``User``, and the first verb after it (past any adverbs such as
  "also", "still", "no longer") agrees with it: ``am``/``'m`` -> ``is``, ``have``/``'ve`` ->
  ``has``, ``do`` -> ``does``, ``don't`` -> ``does not``, other contractions expanded
  (``can't`` -> ``cannot``, ``won't`` -> ``will not``), a present-tense verb takes its
  third-person ending ("live" -> "lives", "watch" -> "watches", "study" -> "studies",
  "go" -> "goes"); past forms and modals are kept ("I moved" -> "User moved", "I can" ->
  "User can");
* a leading ``We`` (a team decision) becomes ``The team`` with the same agreement ("We
  decided to use Postgres." -> "The team decided to use Postgres."; the type rule still
  requires such a statement to be a ``fact``);
* inside the sentence, ``my``/``mine`` become ``User's`` and ``me``/``myself`` ``User``.

It rewrites only what is certainly the same statement *and* has a form formation keeps. A
statement it leaves in the first person is rejected by the statement rule, as every
first-person statement was before; so are, on purpose:

* an uncertain lead (``I'd``: would or had?) or a word it does not know as a verb (an
  ``-ly`` word: "I probably ...");
* a hedge, plan or wish (``I'll``, ``I might``, ``I think``, ``I want``: the policy forms none);
* a second first-person clause ("I think I might switch ...") or a second clause after a comma
  ("I don't live in Seattle, that was my old office.");
* a ``My ...`` statement that is not ``My <noun phrase> is/are/was ...`` ("My brother lives in
  Chicago." is about the brother).

A model that restates such a sentence in the third person is judged by the rules as before;
the rewrite never widens what a third-person reply could already pass. The result never adds a
content word, so grounding judges it exactly as it would the user's own words.
"""

from __future__ import annotations

import re

from memory_core.text import third_person as conjugate

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})

ADVERBS: frozenset[str] = frozenset(
    {
        "absolutely",
        "actually",
        "also",
        "always",
        "currently",
        "definitely",
        "generally",
        "just",
        "mainly",
        "mostly",
        "never",
        "now",
        "often",
        "only",
        "rarely",
        "really",
        "recently",
        "sometimes",
        "still",
        "strongly",
        "totally",
        "truly",
        "typically",
        "usually",
    }
)
"""Adverbs that may stand between ``I`` and its verb (``no longer`` is handled as one)."""

MODALS: frozenset[str] = frozenset(
    {"can", "could", "may", "might", "must", "shall", "should", "will", "would", "cannot"}
)

KEPT: frozenset[str] = frozenset(
    {
        # past forms (irregular), and verbs whose past and present are spelled alike
        "ate",
        "became",
        "began",
        "bought",
        "broke",
        "brought",
        "built",
        "came",
        "caught",
        "chose",
        "cost",
        "cut",
        "did",
        "drank",
        "drove",
        "fell",
        "felt",
        "found",
        "forgot",
        "gave",
        "got",
        "grew",
        "had",
        "heard",
        "hit",
        "hurt",
        "kept",
        "knew",
        "learnt",
        "left",
        "let",
        "lost",
        "made",
        "meant",
        "met",
        "paid",
        "put",
        "quit",
        "ran",
        "read",
        "said",
        "sang",
        "sat",
        "saw",
        "sent",
        "set",
        "slept",
        "sold",
        "spent",
        "spoke",
        "stood",
        "swam",
        "taught",
        "thought",
        "threw",
        "told",
        "took",
        "understood",
        "was",
        "went",
        "were",
        "won",
        "wore",
        "wrote",
    }
)
"""Verb forms kept as they are after ``User``."""

_CONTRACTIONS: dict[str, str] = {
    "am": "is",
    "are": "is",
    "aren't": "is not",
    "have": "has",
    "do": "does",
    "don't": "does not",
    "doesn't": "does not",
    "didn't": "did not",
    "haven't": "has not",
    "hadn't": "had not",
    "can't": "cannot",
    "couldn't": "could not",
    "won't": "will not",
    "wouldn't": "would not",
    "shouldn't": "should not",
    "wasn't": "was not",
    "were": "was",
    "weren't": "was not",
}

HEDGES: frozenset[str] = frozenset(
    {
        "believe",
        "bet",
        "expect",
        "guess",
        "hope",
        "imagine",
        "intend",
        "may",
        "might",
        "plan",
        "shall",
        "should",
        "suppose",
        "think",
        "want",
        "will",
        "wish",
        "would",
        "could",
        "maybe",
        "probably",
        "perhaps",
    }
)
"""Words after ``I`` that make the statement a hedge, plan or wish: never rewritten."""

_VERBS_IN_LY: frozenset[str] = frozenset({"apply", "fly", "rely", "reply", "supply"})
_COPULAS: frozenset[str] = frozenset({"is", "are", "was", "were"})
_SECOND_CLAUSE = re.compile(
    r"[,;]\s*(?:and\s+|but\s+|so\s+)?(?:that|it|this|he|she|they|which|who|but|so|though|"
    r"although|because|since|while|whereas|we|you|i)\b",
    re.IGNORECASE,
)
_LEADS: dict[str, str] = {"i'm": "User is", "i've": "User has"}
_WORD = re.compile(r"^[a-z]+(?:'[a-z]+)?$")
_INNER = re.compile(r"\b(?:my|mine|me|myself)\b")
_INNER_FORMS = {"my": "User's", "mine": "User's", "me": "User", "myself": "User"}


def third_person_verb(verb: str) -> str:
    """The form of a lowercase verb after ``User`` (``live`` -> ``lives``; kept forms stay)."""
    if verb in _CONTRACTIONS:
        return _CONTRACTIONS[verb]
    if verb in MODALS or verb in KEPT or verb.endswith("ed") or verb in ("is", "has", "does"):
        return verb
    return conjugate(verb)


def _inner(rest: str) -> str:
    return _INNER.sub(lambda m: _INNER_FORMS[m.group(0)], rest)


def third_person(statement: str) -> str:
    """``statement`` with a first-person lead rewritten to the ``User`` form (see the module).

    A statement that does not open in the first person keeps its lead; its inner first-person
    pronouns are rewritten all the same. A lead that cannot be rewritten with certainty leaves
    the statement unchanged.
    """
    text = statement.translate(_APOSTROPHES)
    words = text.split(" ")
    head = words[0]
    lowered = head.casefold()
    if lowered in ("my", "i", "i'm", "i've", "we") and _SECOND_CLAUSE.search(text):
        return statement
    if lowered in ("i", "i'm", "i've", "we") and re.search(r"\b(?:I|we)\b", " ".join(words[1:])):
        return statement  # a second first-person clause
    if lowered == "my":
        if not any(w.casefold() in _COPULAS for w in words[2:6]):
            return statement  # about someone or something else, not an attribute of the user
        return " ".join(["User's", _inner(" ".join(words[1:]))]).strip()
    if lowered in _LEADS:
        return " ".join([_LEADS[lowered], _inner(" ".join(words[1:]))]).strip()
    if head not in ("I", "We"):
        return " ".join([head, _inner(" ".join(words[1:]))]).strip()
    lead = "User" if head == "I" else "The team"
    index = 1
    while index < len(words):
        word = words[index].casefold()
        if word == "no" and index + 1 < len(words) and words[index + 1].casefold() == "longer":
            index += 2
        elif word in ADVERBS:
            index += 1
        else:
            break
    if index >= len(words):
        return statement
    verb = words[index]
    bare = verb.rstrip(".,;:!?")
    tail = verb[len(bare) :]
    if not _WORD.match(bare):
        return statement  # a capitalised or odd token: not a verb to agree with
    if bare == "not" or bare in HEDGES:
        return statement
    if bare.endswith("ly") and bare not in _VERBS_IN_LY:
        return statement  # not a verb this rewrite knows
    agreed = third_person_verb(bare) + tail
    return " ".join([lead, *words[1:index], agreed, _inner(" ".join(words[index + 1 :]))]).strip()


__all__ = ["ADVERBS", "KEPT", "MODALS", "third_person", "third_person_verb"]
