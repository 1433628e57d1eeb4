"""Light query expansion: English inflections and a small concept lexicon of personal facets.

The inflections (base forms, re-inflection, the irregular table) are
:mod:`memory_core.text`'s; this module holds the facets and the question scaffolding.

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
from functools import cache

from memory_core.text import base_forms


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
