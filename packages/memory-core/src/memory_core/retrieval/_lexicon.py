"""Light query expansion: English inflections and a small concept lexicon of personal facets.

The inflections (base forms, re-inflection, the irregular table) and the facet word table are
:mod:`memory_core.text`'s; this module names the facets retrieval expands across and holds the
question scaffolding.

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
* **Months.** Formation writes a resolved date in ISO form (``on 2022-01-21``, ``in the week
  of 2023-07-24``), which the tokenizer splits into ``2022``, ``01``, ``21``. A month name in
  the query reaches its number too, so "What did I do in January 2022?" meets the ``2022`` and
  ``01`` of a belief dated then.
"""

from __future__ import annotations

from memory_core.text import MONTHS, QUERY_FACETS, Facet, word_list

QUESTION_SCAFFOLDING: frozenset[str] = frozenset(
    word_list(
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


MONTH_NUMBERS: dict[str, str] = {name: f"{n:02d}" for n, name in enumerate(MONTHS, start=1)}
"""Month name -> the two-digit month of an ISO date, added to the name's keyword group."""


DEFAULT_FACETS: tuple[Facet, ...] = QUERY_FACETS
"""The shipped concept lexicon (part of the retrieval policy): the facet word table's facets
that have words (:data:`memory_core.text.FACETS`)."""
