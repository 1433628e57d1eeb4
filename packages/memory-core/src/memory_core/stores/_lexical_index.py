"""One principal's lexical and subject index for the in-memory tier, in store-position order.

Every posting list (lexeme -> positions, normalized subject -> positions) is kept sorted by
store position, so a newest-first search walks the lists backwards and stops once it has its
limit: its cost is bounded by the limit (and by how many walked records fail the query's other
predicates), never by how many records a common word indexes. No posting set is copied.

Each indexed record's lexemes are computed once, when it is indexed, and kept with it as a
tuple of interned strings; removal is lazy: a record that moves to a new position or leaves
the store is dropped from the position map only, and a posting that no longer names a record
holding its lexeme (or subject) is skipped when walked. Stale postings are counted, and the
lists are rebuilt from the live records once the stale ones outnumber them.
"""

from __future__ import annotations

import bisect
import heapq
import sys
from collections.abc import Iterable, Iterator
from itertools import islice

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


def _walk(
    postings: list[int],
    floor: int,
    by_position: dict[int, IndexedBelief],
    *,
    group: frozenset[str] = frozenset(),
    subject: str | None = None,
) -> Iterator[IndexedBelief]:
    """A newest-first walk down one posting list: the records at its live positions above
    ``floor`` that hold every lexeme of ``group`` (one term, as ``plainto_tsquery``), or have
    ``subject``. The list is read by a C iterator; a stale posting (its record moved or left)
    finds no record, and one whose record no longer holds the lexeme is skipped."""
    get = by_position.get
    positions = islice(reversed(postings), len(postings) - bisect.bisect_right(postings, floor))
    if subject is not None:
        for position in positions:
            entry = get(position)
            if entry is not None and entry.subject == subject:
                yield entry
    elif len(group) == 1:
        (lexeme,) = group
        for position in positions:
            entry = get(position)
            if entry is not None and lexeme in entry.lexemes:
                yield entry
    else:
        for position in positions:
            entry = get(position)
            if entry is not None and all(word in entry.lexemes for word in group):
                yield entry


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
        """Drop the record at ``position``; its postings go stale and are skipped when walked."""
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
        """Records holding every lexeme of some group, or with one of ``subjects``
        (normalized), newest store position first, down to (not including) ``floor`` (each
        as its entry: ``entry.belief`` is the belief)."""
        by_position = self.by_position
        cursors: list[Iterator[IndexedBelief]] = []
        for group in groups:
            lists = [self._lexemes.get(lexeme, []) for lexeme in group]
            shortest = min(lists, key=len)
            if shortest:  # else a lexeme no record holds: the group matches nothing
                cursors.append(_walk(shortest, floor, by_position, group=group))
        for subject in dict.fromkeys(subjects):
            postings = self._subjects.get(subject)
            if postings:
                cursors.append(_walk(postings, floor, by_position, subject=subject))
        return _merged(cursors)


def _merged(cursors: list[Iterator[IndexedBelief]]) -> Iterator[IndexedBelief]:
    """The records at the distinct positions of every cursor, newest first (a k-way merge on
    a heap of ``(-position, cursor, record)``; once one cursor is left it is drained)."""
    heap: list[tuple[int, int, IndexedBelief]] = []
    for n, cursor in enumerate(cursors):
        entry = next(cursor, None)
        if entry is not None:
            heap.append((-entry.store_position, n, entry))
    heapq.heapify(heap)
    last = 0
    replace, pop = heapq.heapreplace, heapq.heappop
    while len(heap) > 1:
        negated, n, entry = heap[0]
        if negated != last:
            last = negated
            yield entry
        following = next(cursors[n], None)
        if following is None:
            pop(heap)
        else:
            replace(heap, (-following.store_position, n, following))
    if heap:
        negated, n, entry = heap[0]
        if negated != last:
            yield entry
        yield from cursors[n]


__all__ = ["IndexedBelief", "PrincipalIndex", "indexed"]
