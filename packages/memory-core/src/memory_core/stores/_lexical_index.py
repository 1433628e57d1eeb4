"""One principal's lexical and subject index for the in-memory tier, in store-position order.

Every posting list (lexeme -> positions, normalized subject -> positions) is kept sorted by
store position, so a newest-first search reads the lists' newest ends, in windows that widen
only while it needs more, and stops once it has its limit: its cost is bounded by the limit
(and by how many read records fail the query's other predicates), never by how many records a
common word indexes. No whole posting list is copied.

Each indexed record's lexemes are computed once, when it is indexed, and kept with it as a
tuple of interned strings; removal is lazy: a record that moves to a new position or leaves
the store is dropped from the position map only, and a posting that no longer names a record
holding its lexeme (or subject) is skipped when read. Stale postings are counted, and the
lists are rebuilt from the live records once the stale ones outnumber them.
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Iterable, Iterator

from memory_core.domain import Belief
from memory_core.text import fold
from memory_core.tokenizer import distinct_lexemes

_COMPACT_FLOOR = 4096
"""Stale postings always tolerated (a rebuild costs every posting, so it is not run for few)."""

_COMPACT_RATIO = 1.0
"""Past the floor, a rebuild runs once stale postings outnumber live ones by this factor."""


class IndexedBelief:
    """A stored belief with what its postings were computed from, and copies of the fields a
    search's predicates read (named as the belief's), which a slot reads faster."""

    __slots__ = (
        "belief",
        "belief_type",
        "id",
        "lexemes",
        "scope",
        "status",
        "store_position",
        "subject",
        "valid_from",
        "valid_to",
    )

    def __init__(self, belief: Belief, lexemes: tuple[str, ...], subject: str) -> None:
        self.belief = belief
        self.lexemes = lexemes
        """The distinct lexemes of ``subject statement``, interned."""
        self.subject = subject
        """The normalized subject, interned."""
        self.id = belief.id
        self.store_position = belief.store_position
        self.scope = belief.scope
        self.status = belief.status
        self.belief_type = belief.belief_type
        self.valid_from = belief.valid_from
        self.valid_to = belief.valid_to


def indexed(belief: Belief) -> IndexedBelief:
    """``belief`` with its lexemes and normalized subject computed (once) and interned."""
    text = f"{belief.subject} {belief.statement}"
    text_lexemes = tuple(sys.intern(lexeme) for lexeme in distinct_lexemes(text))
    return IndexedBelief(belief, text_lexemes, sys.intern(fold(belief.subject)))


def _insert(postings: list[int], position: int) -> None:
    """Add ``position`` to the sorted ``postings`` once (appending is the common case)."""
    if not postings or postings[-1] < position:
        postings.append(position)
        return
    at = bisect.bisect_left(postings, position)
    if at == len(postings) or postings[at] != position:
        postings.insert(at, position)


_WINDOW = 96
"""Newest positions a search first reads of the densest posting list (doubled while it needs
more)."""


def _gathered(
    sources: list[list[int]],
    floor: int,
    by_position: dict[int, IndexedBelief],
    names: tuple[frozenset[str], frozenset[str], tuple[frozenset[str], ...]],
) -> Iterator[IndexedBelief]:
    """The records at the distinct live positions of ``sources`` above ``floor`` that hold
    what named them, newest first: ``names`` is (subjects, lexemes of one-lexeme groups,
    wider groups), and a record is given when it has one of the subjects, holds one of the
    lexemes or holds every lexeme of a wider group.

    The lists are read in windows, in C: the window's lowest position is the highest of each
    list's ``window``-th newest position not yet given (so no list holds an unread position
    above it), every list's positions from there up are sliced into one set and given in
    order, and the next window, twice as wide, starts below them. A stale posting (its
    record moved or left) finds no record, and one whose record no longer holds what named
    it is skipped."""
    subjects, singles, wider = names
    get = by_position.get
    window = _WINDOW
    spans = [
        (postings, bisect.bisect_right(postings, floor), len(postings)) for postings in sources
    ]
    while spans:
        lowest = floor + 1
        for postings, first, stop in spans:
            if stop - first > window and postings[stop - window] > lowest:
                lowest = postings[stop - window]
        found: set[int] = set()
        rest = []
        for postings, first, stop in spans:
            cut = bisect.bisect_left(postings, lowest, first, stop)
            found.update(postings[cut:stop])
            if cut > first:
                rest.append((postings, first, cut))
        for position in sorted(found, reverse=True):
            entry = get(position)
            if entry is not None and (
                entry.subject in subjects
                or not singles.isdisjoint(entry.lexemes)
                or any(all(word in entry.lexemes for word in group) for group in wider)
            ):
                yield entry
        spans = rest
        window *= 2


class PrincipalIndex:
    """Positions of one principal's records by lexeme and by normalized subject."""

    __slots__ = ("_lexemes", "_live_postings", "_stale", "_subjects", "by_position")

    def __init__(self) -> None:
        self.by_position: dict[int, IndexedBelief] = {}
        self._lexemes: dict[str, list[int]] = {}
        self._subjects: dict[str, list[int]] = {}
        self._live_postings = 0
        self._stale = 0

    def add(self, entry: IndexedBelief) -> None:
        """Index ``entry`` at its belief's store position (idempotent per position)."""
        position = entry.store_position
        self.by_position[position] = entry
        for lexeme in entry.lexemes:
            _insert(self._lexemes.setdefault(lexeme, []), position)
        _insert(self._subjects.setdefault(entry.subject, []), position)
        self._live_postings += len(entry.lexemes) + 1

    def remove(self, position: int) -> IndexedBelief | None:
        """Drop the record at ``position``; its postings go stale and are skipped when read."""
        entry = self.by_position.pop(position, None)
        if entry is not None:
            cost = len(entry.lexemes) + 1
            self._live_postings -= cost
            self._stale += cost
        return entry

    def compact_if_stale(self) -> None:
        """Rebuild the posting lists from the live records once stale postings dominate.

        Call it only where no undo step can re-add a removed record (outside a unit of work):
        a rebuild forgets the postings such an undo relies on.
        """
        if self._stale <= _COMPACT_FLOOR or self._stale <= _COMPACT_RATIO * self._live_postings:
            return
        entries = [self.by_position[p] for p in sorted(self.by_position)]
        self._lexemes, self._subjects = {}, {}
        self._live_postings = self._stale = 0
        for entry in entries:
            self.add(entry)

    def newest(
        self, groups: Iterable[frozenset[str]], subjects: Iterable[str], floor: int
    ) -> Iterator[IndexedBelief]:
        """Records holding every lexeme of some group (one term, as ``plainto_tsquery``), or
        with one of ``subjects`` (normalized), newest store position first, down to (not
        including) ``floor`` (each as its entry: ``entry.belief`` is the belief).

        A record holding a group's lexemes is in each of their posting lists, so each group
        reads its shortest list only, and a record is accepted when it holds some group."""
        sources: list[list[int]] = []
        singles: set[str] = set()
        wider: list[frozenset[str]] = []
        for group in groups:
            shortest = min((self._lexemes.get(lexeme, []) for lexeme in group), key=len)
            if shortest:  # else a lexeme no record holds: the group matches nothing
                sources.append(shortest)
                if len(group) == 1:
                    singles.update(group)
                else:
                    wider.append(group)
        named = frozenset(subjects)
        sources.extend(self._subjects[s] for s in named if self._subjects.get(s))
        return _gathered(
            sources, floor, self.by_position, (named, frozenset(singles), tuple(wider))
        )


__all__ = ["IndexedBelief", "PrincipalIndex", "indexed"]
