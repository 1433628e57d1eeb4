"""The deterministic extractor (formation@7), one module per concern.

Modules: :mod:`.lexicon` (word lists, one relation table), :mod:`.screening` (what forms nothing,
clause normalization), :mod:`.contractions` (``I'm``, ``can't``, a subject's ``'s`` for
``has``), :mod:`.phrases` (noun phrases, proposals, a fronted phrase), :mod:`.scene` (the time
a turn sets for what it narrates next), the rule families :mod:`.rules_profile`,
:mod:`.rules_preferences`, :mod:`.rules_relations`, :mod:`.rules_clauses` (subordinate clauses,
gerund subjects, ``it`` resolved in the turn), :mod:`.rules_relative` (an act in an object
relative clause), :mod:`.rules_habits` (what a habit is about), :mod:`.rules_events` (events,
plans, feelings, the user's family), :mod:`.rules_my_things` (the user's things) and the
others named ``rules_*``, :mod:`.retraction` (rule order and retractions), :mod:`.reading`
(one clause) and :mod:`.extractor` (a turn).


``DeterministicExtractor`` reads hazard-screened sentences of one user turn, splits them into
clauses, and maps first-person statements to candidates with a belief type, a normalized
subject and a third-person statement ending with a period. It forms nothing from questions,
requests, hypotheticals or hedges, reported speech, or clauses whose grammatical subject is not
the user (or, for decisions, the user's team).

Subjects are lowercase noun phrases, derived by one of three rules:

1. **Slots.** A single-valued attribute has a fixed slot name, so a newer statement about it
   supersedes the older one: ``home location`` (live in, have lived in, moved to, based in),
   ``employment`` (works at/for, teaches at, joined, on the X team at Y), ``team`` (on the X team),
   ``role`` (works as, job title), ``work arrangement``, ``commute`` (bike/walk/drive to work,
   take the train to work, commute by bus), ``vehicle`` (drives), ``diet``, ``native
   language``, ``hometown``, ``age``, ``name``, ``birthday``, ``timezone``, ``pronouns``,
   ``favorite <thing>``, and a relation word for relationships (``wife``, ``manager``).
2. **Categories.** A multi-valued attribute has a category name and is *not exclusive*: new
   values add to it rather than supersede it (``languages``, ``allergies``, ``health``,
   ``dietary restrictions``, ``nationality``, ``project decision``).
3. **Things.** Otherwise the subject is the head noun phrase of the object (determiners and
   trailing prepositional phrases removed): ``I use Neovim for everything`` -> ``neovim``,
   ``I have an Apple Watch`` -> ``apple watch``, ``I love hiking`` -> ``hiking``. A habit
   whose verb acts on nothing is about the activity (``I swim before work`` -> ``swimming``).

Relationships form from ``My wife is Morgan``, ``Morgan is my wife``, ``I have a sister named
Ana`` and from a name in apposition anywhere in a clause (``My son Leo starts school``, ``my
physiotherapist, Dr. Okafor,``): an appositive is presupposed rather than asserted, so it holds
under a modal of its clause (``My son Leo might start school``), though never in a question or
a conditional. Words that cannot be a name (nationalities, religions, weekdays) never fill the
name, and a modifier such as ``old`` or ``former`` before the relation word rules it out. A
relation people have several of (a sister, a friend, a dog) accumulates; one they have one of
(a spouse, a manager, a landlord) is exclusive, so a newer name supersedes.

A clause that opens without its subject (``Been living in Toronto for years``, ``Just moved to
Lisbon``) is the user's own statement when the turn is the user's and the sentence does not open
with someone else: the ``I`` is supplied for a short list of verb forms a third party's fragment
rarely opens with. ``I really like it`` resolves ``it`` to the previous clause of the same turn:
the thing for a possession or tool (``User loves Zed.``), the activity otherwise (``User likes
working remotely.``); with no stated antecedent it forms nothing. An ironic opener (``Oh sure, I
just love waiting on hold``) forms nothing.

Preferences split on the verb. ``prefer`` and ``would rather`` choose among alternatives along
a facet, so their subject is the facet when a small lexicon names one (``concise answers`` ->
``answer style``, ``tabs over spaces`` -> ``indentation style``) and the thing otherwise.
``like``, ``love``, ``hate`` and their kin state an attitude toward a thing, so their subject is
the thing; ``I'm into X`` and ``I'm not a fan of X`` state one too, and ``I hate it when X``
takes the facet or the head of what the event is about (``I hate it when answers ramble`` ->
``answer style``). Retractions (``I no longer use X``, ``I don't X anymore``, ``I stopped using X``)
re-read the clause without the negation and emit the same type and subject with polarity
``retract``: ``User no longer uses an Apple Watch.``.
"""

from __future__ import annotations

from memory_core.formation.deterministic.extractor import DeterministicExtractor
from memory_core.formation.deterministic.phrases import head_phrase
from memory_core.formation.deterministic.reading import ClauseReading, read_clause
from memory_core.formation.deterministic.screening import sentence_forms_nothing

__all__ = [
    "ClauseReading",
    "DeterministicExtractor",
    "head_phrase",
    "read_clause",
    "sentence_forms_nothing",
]
