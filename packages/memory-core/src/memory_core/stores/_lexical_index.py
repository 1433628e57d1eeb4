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
from collections.abc import Callable, Iterable, Iterator

from memory_core.domain import Belief
from memory_core.text import fold
from memory_core.tokenizer import distinct_lexemes

_COMPACT_FLOOR = 4096
"""Stale postings always tolerated (a rebuild costs every posting, so it is not run for few)."""

_COMPACT_RATIO = 1.0
"""Past the floor, a rebuild runs once stale postings outnumber live ones by this factor."""


class IndexedBelief:
    """A stored belief with what its postings were computed from."""

    __slots__ = ("belief", "lexemes", "subject")

    def __init__(self, belief: Belief, lexemes: tuple[str, ...], subject: str) -> None:
        self.belief = belief
        self.lexemes = lexemes
        """The distinct lexemes of ``subject statement``, interned."""
        self.subject = subject
        """The normalized subject, interned."""


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


def _holds_group(group: frozenset[str]) -> Callable[[IndexedBelief], bool]:
    """Whether a record holds every lexeme of ``group`` (one term, as ``plainto_tsquery``)."""
    if len(group) == 1:
        (lexeme,) = group
        return lambda entry: lexeme in entry.lexemes
    return lambda entry: all(lexeme in entry.lexemes for lexeme in group)


def _holds_subject(subject: str) -> Callable[[IndexedBelief], bool]:
    """Whether a record's normalized subject is ``subject``."""
    return lambda entry: entry.subject == subject


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
        position = entry.belief.store_position
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
    ) -> Iterator[Belief]:
        """Records holding every lexeme of some group, or with one of ``subjects``
        (normalized), newest store position first, down to (not including) ``floor``."""
        streams: list[Iterator[int]] = []
        for group in groups:
            lists = [self._lexemes.get(lexeme, []) for lexeme in group]
            shortest = min(lists, key=len)
            if shortest:  # else a lexeme no record holds: the group matches nothing
                streams.append(self._walk(shortest, floor, _holds_group(group)))
        for subject in dict.fromkeys(subjects):
            postings = self._subjects.get(subject)
            if postings:
                streams.append(self._walk(postings, floor, _holds_subject(subject)))
        if not streams:
            return
        merged = streams[0] if len(streams) == 1 else heapq.merge(*streams, reverse=True)
        last = None
        for position in merged:
            if position != last:
                last = position
                yield self.by_position[position].belief

    def _walk(
        self, postings: list[int], floor: int, holds: Callable[[IndexedBelief], bool]
    ) -> Iterator[int]:
        """Live positions of ``postings`` above ``floor`` whose record ``holds``, newest first."""
        by_position = self.by_position
        for position in reversed(postings):
            if position <= floor:
                return
            entry = by_position.get(position)
            if entry is not None and holds(entry):
                yield position


__all__ = ["IndexedBelief", "PrincipalIndex", "indexed"]
