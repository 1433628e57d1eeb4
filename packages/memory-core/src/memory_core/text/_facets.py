"""The facet word table: the aspects of a person's life and preferences memory files beliefs
under, and the words that name each.

One table, read two ways:

* **retrieval** expands a query across a facet's ``words``: a keyword whose base form is a
  facet word adds the facet's other words as a weaker, separately weighted group
  (``memory_core.retrieval``'s ``DEFAULT_FACETS`` are the facets with words);
* **formation** files a preference under a facet when the preferred thing holds one of its
  ``phrases`` (``concise answers`` -> ``answer style``, ``tabs over spaces`` ->
  ``indentation style``; the deterministic extractor reads the facets with phrases).

Facets hold naming words only, never loose associations, and cover the aspects personal memory
commonly records; they are not fitted to any corpus. Editing a facet's ``words`` is a ranking
change under the retrieval policy (retrieval@2), editing its ``phrases`` a formation change
under the formation policy: neither is a free table edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from memory_core.text._forms import base_forms


def word_list(*groups: str) -> tuple[str, ...]:
    """A word list written as whitespace-separated groups, in order (``"a b", "c"`` -> a, b, c)."""
    return tuple(word for group in groups for word in group.split())


@dataclass(frozen=True, kw_only=True)
class Facet:
    """One aspect of a person's life or preferences and the words that name it.

    ``words`` lists every form retrieval searches for explicitly (``live``, ``lives``,
    ``lived``), so a facet's expansion is exactly what a reviewer reads, with no generated
    forms; any of them cues the others. ``phrases`` are the phrases formation files a
    preference under the facet by (empty for a facet formation does not name).
    """

    name: str
    words: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()

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


FACETS: tuple[Facet, ...] = (
    # facets a query expands across (retrieval@2)
    Facet(
        name="residence",
        words=word_list(
            "live lives lived living home reside resides resided residence location address",
            "hometown city moved relocated",
        ),
    ),
    Facet(
        name="work",
        words=word_list(
            "work works worked working job employer employment employed company occupation",
            "profession career role workplace",
        ),
    ),
    Facet(
        name="spouse",
        words=word_list(
            "spouse wife husband partner married marriage fiance fiancee fiancé fiancée"
        ),
    ),
    Facet(name="children", words=word_list("child children kid kids son sons daughter daughters")),
    Facet(name="parents", words=word_list("parent parents mother father mom dad")),
    Facet(name="siblings", words=word_list("sibling siblings brother brothers sister sisters")),
    Facet(name="pets", words=word_list("pet pets dog dogs cat cats puppy kitten")),
    Facet(
        name="preference",
        words=word_list(
            "prefer prefers preferred preference like likes liked love loves loved enjoy",
            "enjoys favorite favourite",
        ),
    ),
    Facet(
        name="communication style",
        words=word_list("style format formatted formatting tone concise brief verbose detailed"),
    ),
    Facet(
        name="diet",
        words=word_list("diet vegetarian vegan food foods eat eats cuisine"),
    ),
    Facet(
        name="allergy",
        words=word_list("allergy allergies allergic intolerant intolerance"),
    ),
    Facet(name="language", words=word_list("language languages speak speaks spoke fluent native")),
    Facet(name="age", words=word_list("age birthday born")),
    Facet(name="finance", words=word_list("bank banks banking account accounts")),
    Facet(
        name="education",
        words=word_list("school university college degree studied studies student graduated"),
    ),
    Facet(name="vehicle", words=word_list("car cars drive drives vehicle")),
    Facet(name="travel", words=word_list("trip trips travel travels traveling vacation holiday")),
    Facet(name="availability", words=word_list("available availability offline schedule")),
    Facet(name="tools", words=word_list("tool tools editor software ide")),
    Facet(
        name="decision", words=word_list("decide decided decision decisions agreed chose chosen")
    ),
    Facet(name="name", words=word_list("name named nickname")),
    # facets formation files a preference under (formation@7/@8)
    Facet(
        name="answer style",
        phrases=(
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
    Facet(
        name="answer format",
        phrases=("bullet points", "bullet", "bullets", "tables", "markdown", "numbered lists"),
    ),
    Facet(name="indentation style", phrases=("tabs", "spaces", "indentation", "indents")),
    Facet(name="color theme", phrases=("dark mode", "light mode", "dark theme", "light theme")),
    Facet(
        name="units", phrases=("metric", "imperial", "celsius", "fahrenheit", "kilometers", "miles")
    ),
    Facet(
        name="contact method",
        phrases=(
            "email",
            "emails",
            "phone calls",
            "calls",
            "texts",
            "text messages",
            "slack messages",
        ),
    ),
    Facet(
        name="seating",
        phrases=("aisle seats", "aisle seat", "window seats", "window seat", "aisle", "window"),
    ),
    Facet(
        name="programming language",
        phrases=("python", "java", "javascript", "typescript", "rust", "golang", "kotlin", "ruby"),
    ),
    Facet(
        name="work arrangement",
        phrases=("remote work", "working remotely", "working from home", "office"),
    ),
)
"""The facet word table (see the module docstring for who reads which column)."""

QUERY_FACETS: tuple[Facet, ...] = tuple(facet for facet in FACETS if facet.words)
"""The facets retrieval's query former expands across, in table order."""

SUBJECT_FACETS: tuple[Facet, ...] = tuple(facet for facet in FACETS if facet.phrases)
"""The facets formation files a preference under, in table order."""
