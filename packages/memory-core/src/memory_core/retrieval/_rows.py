"""Per-belief rows of the recall hot path: the fields ranking reads, copied once per belief.

A recall reads some twenty fields of each of its candidates, several of them more than once
(fusion, scoring, the near-duplicate pass, the collapse, the per-subject cap, the budget), and
reading a pydantic field costs several times a plain slot. A :class:`Row` holds those values
as slots, with the keys computed from them (the folded subject, the duplicate key, whether the
belief is durable) and, on first use, its lexeme sets, its rendered line and its trace record.
Beliefs are frozen, so a row never goes stale; rows are remembered by belief id (checked by
identity, so a changed belief gets a fresh row) in a bounded table, since the same beliefs come
back recall after recall. Every value is a pure function of the belief, so a remembered row
changes no answer.
"""

from __future__ import annotations

import math
import operator
from collections import OrderedDict
from collections.abc import Iterable
from contextlib import suppress
from datetime import datetime
from functools import lru_cache

from memory_core.domain import (
    USER_SCOPE,
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    TracedBelief,
)
from memory_core.retrieval._memo import fold_subject, statement_key
from memory_core.retrieval.render import render_line
from memory_core.tokenizer import lexemes

REINFORCE_SATURATION = 10
"""``C_max``: the evidence count at which the reinforce term saturates at 1."""

ROW_CACHE_SIZE = 16384
"""Rows remembered; past it the oldest remembered row is forgotten first."""

_DURABLE_TYPES: frozenset[BeliefType] = frozenset(
    {BeliefType.PREFERENCE, BeliefType.USER_MODEL_ATTR}
)


@lru_cache(maxsize=1024)
def saturation(evidence_count: int) -> float:
    """``min(1, log1p(evidence_count) / log1p(REINFORCE_SATURATION))``, cached per count."""
    return min(1.0, math.log1p(evidence_count) / math.log1p(REINFORCE_SATURATION))


_AUTHORITY_VALUES: dict[Authority, float] = {
    authority: authority.rank / Authority.USER.rank for authority in Authority
}


def authority_value(authority: Authority) -> float:
    """``authority.rank / Authority.USER.rank``: USER 1.0, AFFIRMED 2/3, INFERRED 1/3."""
    return _AUTHORITY_VALUES[authority]


_FIELD_NAMES = (
    "id",
    "store_position",
    "tenant_id",
    "principal_id",
    "scope",
    "status",
    "belief_type",
    "subject",
    "statement",
    "confidence",
    "utility",
    "evidence_count",
    "authority",
    "last_evidence_at",
    "valid_to",
    "needs_review",
    "conflicts_with",
    "superseded_by",
)
"""The belief fields a row copies, in the order ``Row.__init__`` unpacks them."""

_FIELDS = operator.itemgetter(*_FIELD_NAMES)


class Row:
    """One belief's ranking fields (see the module docstring); ``belief`` is the belief."""

    __slots__ = (
        "_line",
        "_statement_lexemes",
        "_text_lexemes",
        "_traced",
        "authority",
        "authority_value",
        "belief",
        "belief_type",
        "confidence",
        "conflicts_with",
        "duplicate_key",
        "durable",
        "evidence_count",
        "id",
        "last_evidence_at",
        "near_key",
        "needs_review",
        "principal_id",
        "saturation",
        "scope",
        "statement",
        "status",
        "store_position",
        "subject",
        "subject_key",
        "superseded_by",
        "tenant_id",
        "utility",
        "valid_to",
    )

    id: str
    store_position: int
    tenant_id: str
    principal_id: str
    scope: str
    status: BeliefStatus
    belief_type: BeliefType
    subject: str
    statement: str
    confidence: float
    utility: float
    evidence_count: int
    authority: Authority
    last_evidence_at: datetime
    valid_to: datetime | None
    needs_review: bool
    conflicts_with: tuple[str, ...]
    superseded_by: str | None
    subject_key: str
    duplicate_key: tuple[BeliefType, str]
    near_key: tuple[str, BeliefType]
    durable: bool
    saturation: float
    authority_value: float
    _text_lexemes: frozenset[str] | None
    _statement_lexemes: frozenset[str] | None
    _line: str | None
    _traced: TracedBelief | None

    def __init__(self, belief: Belief) -> None:
        self.belief = belief
        try:
            values = _FIELDS(belief.__dict__)  # one C call for every field (pydantic's storage)
        except (AttributeError, KeyError):  # not a plain pydantic instance: read each field
            values = tuple(getattr(belief, name) for name in _FIELD_NAMES)
        (
            self.id,
            self.store_position,
            self.tenant_id,
            self.principal_id,
            self.scope,
            self.status,
            self.belief_type,
            self.subject,
            self.statement,
            self.confidence,
            self.utility,
            self.evidence_count,
            self.authority,
            self.last_evidence_at,
            self.valid_to,
            self.needs_review,
            self.conflicts_with,
            self.superseded_by,
        ) = values
        belief_type = self.belief_type
        self.subject_key = fold_subject(self.subject)
        self.duplicate_key = (belief_type, statement_key(self.statement))
        self.near_key = (self.subject_key, belief_type)
        self.durable = belief_type in _DURABLE_TYPES or self.scope == USER_SCOPE
        self.saturation = saturation(self.evidence_count)
        self.authority_value = authority_value(self.authority)
        self._text_lexemes = None
        self._statement_lexemes = None
        self._line = None
        self._traced = None

    def text_lexemes(self) -> frozenset[str]:
        """``lexemes(f"{subject} {statement}")``: what the lexical arm weighs. No lexeme spans
        the space between the two, so it is the subject's lexemes (remembered: a subject
        recurs) with the statement's (which the near-duplicate pass reads too)."""
        found = self._text_lexemes
        if found is None:
            found = self._text_lexemes = lexemes(self.subject) | self.statement_lexemes()
        return found

    def line(self) -> str:
        """``render.render_line(belief)``: the belief's line in a block."""
        found = self._line
        if found is None:
            found = self._line = render_line(self.belief)
        return found

    def traced(self) -> TracedBelief:
        """What a recall's trace keeps of the belief (a frozen record, shared by traces)."""
        found = self._traced
        if found is None:
            belief = self.belief
            found = self._traced = TracedBelief(
                id=belief.id,
                short_id=belief.short_id,
                belief_type=belief.belief_type,
                subject=belief.subject,
                statement=belief.statement,
                scope=belief.scope,
            )
        return found

    def statement_lexemes(self) -> frozenset[str]:
        """``lexemes(statement)``: what the near-duplicate pass compares."""
        found = self._statement_lexemes
        if found is None:
            found = self._statement_lexemes = lexemes(self.statement)
        return found


_rows: OrderedDict[str, Row] = OrderedDict()
"""Remembered rows, oldest first: ``popitem(last=False)`` forgets the oldest in constant time
(a plain dict's first key is found by skipping the slots of every key deleted before it)."""


remembered: OrderedDict[str, Row] = _rows
"""The remembered rows by belief id (read-only outside this module: a row is current for a
belief when ``row.belief is belief``)."""


def rows_of(beliefs: Iterable[Belief]) -> list[Row]:
    """The row of each of ``beliefs``, in order (remembered, or made and remembered)."""
    table = _rows
    get = table.get
    out: list[Row] = []
    append = out.append
    for belief in beliefs:
        identifier = belief.id
        row = get(identifier)
        if row is None or row.belief is not belief:
            row = Row(belief)
            if len(table) >= ROW_CACHE_SIZE:
                with suppress(KeyError):  # a racing eviction emptied it
                    table.popitem(last=False)
            table[identifier] = row
        append(row)
    return out


def row_of(belief: Belief) -> Row:
    """The row of one belief."""
    return rows_of((belief,))[0]


__all__ = ["ROW_CACHE_SIZE", "Row", "row_of", "rows_of"]
