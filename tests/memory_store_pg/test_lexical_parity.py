"""Lexical parity: the PostgreSQL tier answers searches exactly as the in-memory tier does.

Both tiers match any term, a term matching a record that holds all of the term's lexemes
(``plainto_tsquery('simple', term)`` per term, OR'd, over
``to_tsvector('simple', subject || ' ' || statement)``), or a named subject; both order newest
first and cap at the limit. The shared tokenizer approximates PostgreSQL's parser; the shapes
where the two divide a token differently are pinned below, so a change on either side shows.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import (
    Authority,
    Belief,
    BeliefStatus,
    BeliefType,
    InMemoryStorage,
    Principal,
    Storage,
)
from memory_core.domain import RecallQuery
from memory_core.tokenizer import lexemes
from memory_store_pg import PostgresStorage

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
_principals = itertools.count(1)


def _belief(
    principal: Principal, number: int, subject: str, statement: str, **fields: Any
) -> Belief:
    values: dict[str, Any] = {
        "id": f"{number:08x}-{principal.principal_id}",
        "tenant_id": principal.tenant_id,
        "principal_id": principal.principal_id,
        "belief_type": BeliefType.FACT,
        "subject": subject,
        "statement": statement,
        "scope": "user",
        "status": BeliefStatus.ACTIVE,
        "authority": Authority.USER,
        "confidence": 0.9,
        "source_event_ids": ("evt-1",),
        "valid_from": T0,
        "last_evidence_at": T0,
        "created_at": T0,
        "updated_at": T0,
        "consolidation_policy_version": "formation@5",
    }
    values.update(fields)
    return Belief.model_validate(values)


def _fresh_principal() -> Principal:
    return Principal("tenant-parity", f"p-{next(_principals)}")


def _matches(storage: Storage, principal: Principal, term: str) -> bool:
    query = RecallQuery(principal=principal, scopes=("user",), terms=(term,))
    return bool(storage.memories.search(query))


# --- agreeing shapes: every shared-tokenizer lexeme of the text finds it on both tiers --------

AGREEING_TEXTS = [
    "Visit API.Example.com, then e-mail me@example.com.",
    "I don't like O'Neil's themes.",
    "café ÉTAT naïve naïve-café",
    "snake_case a/b v1.2.3 3.14 10.0.0.1 path/to/file.txt",
    "state-of-the-art co-op's wi-fi x_y-z",
    "U.S.A. e.g. ab12cd 12ab 1,000 $5 50% #tag @handle",
    "日本語テキスト नमस्ते straße",
]


@pytest.mark.parametrize("text", AGREEING_TEXTS)
def test_every_shared_lexeme_of_an_agreeing_text_matches_on_both_tiers(
    pg_module: PostgresStorage, text: str
) -> None:
    principal = _fresh_principal()
    memory = InMemoryStorage()
    for storage in (memory, pg_module):
        storage.memories.put(_belief(principal, 1, "note", text))
    for lexeme in sorted(lexemes(text)):
        assert _matches(memory, principal, lexeme), lexeme
        assert _matches(pg_module, principal, lexeme), lexeme
    with pg_module.engine.connect() as connection:
        postgres_lexemes = connection.execute(
            sa.text("SELECT tsvector_to_array(to_tsvector('simple', :text))"), {"text": text}
        ).scalar_one()
    assert set(postgres_lexemes) == lexemes(text)


@pytest.mark.parametrize(
    ("statement", "term"),
    [
        ("User likes themes.", "theme"),  # no stemming
        ("User likes Apple.", "app"),  # whole lexemes, no prefixes
        ("User's e-mail is short.", "email"),  # a hyphenated word is not its concatenation
        ("Host api.example.com is up.", "example"),  # a dotted run stays whole
        ("User lives in Portland.", "!!!"),  # a term with no lexeme matches nothing
        ("User lives in Portland.", "lives paris"),  # a term needs all of its lexemes
    ],
)
def test_non_matches_agree(pg_module: PostgresStorage, statement: str, term: str) -> None:
    principal = _fresh_principal()
    memory = InMemoryStorage()
    for storage in (memory, pg_module):
        storage.memories.put(_belief(principal, 1, "note", statement))
    assert not _matches(memory, principal, term)
    assert not _matches(pg_module, principal, term)


@pytest.mark.parametrize(
    ("statement", "term"),
    [
        ("Deadline is 2024-03-01.", "03"),  # PostgreSQL: 2024, -03, -01
        ("Deadline is 2024-03-01.", "01"),
        ("Call 555-1234 after lunch.", "1234"),  # PostgreSQL: 555, -1234
        ("It was -5 degrees.", "5"),  # PostgreSQL keeps the sign: -5
        ("The build targets x86-64.", "64"),  # PostgreSQL: x86, -64
    ],
)
def test_digits_after_a_hyphen_match_on_both_tiers(
    pg_module: PostgresStorage, statement: str, term: str
) -> None:
    """PostgreSQL reads them as a signed integer; a digit term also searches its signed form."""
    principal = _fresh_principal()
    memory = InMemoryStorage()
    for storage in (memory, pg_module):
        storage.memories.put(_belief(principal, 1, "note", statement))
    assert _matches(memory, principal, term)
    assert _matches(pg_module, principal, term)


# --- where the parsers divide differently ------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Divergence:
    """One shape the PostgreSQL parser divides differently from the shared tokenizer."""

    statement: str
    term: str
    in_memory: bool
    postgres: bool
    why: str


DIVERGENCES = [
    Divergence(
        statement="Docs at https://api.example.com/v1?x=1&y=2",
        term="api.example.com/v1",
        in_memory=True,
        postgres=False,
        why="PostgreSQL keeps the URL whole with its query string (url token)",
    ),
    Divergence(
        statement="Docs at https://api.example.com/v1?x=1&y=2",
        term="api.example.com",
        in_memory=False,
        postgres=True,
        why="PostgreSQL also emits the URL's host as its own lexeme",
    ),
    Divergence(
        statement="Docs at https://api.example.com/v1",
        term="https",
        in_memory=True,
        postgres=False,
        why="PostgreSQL does not index the protocol of a URL",
    ),
    Divergence(
        statement="Standup runs from 10 to 30 past.",
        term="10:30",
        in_memory=False,
        postgres=True,
        why="PostgreSQL splits 10:30 into 10 and 30, in the term as in the text",
    ),
    Divergence(
        statement="Login as user@host today.",
        term="user",
        in_memory=False,
        postgres=True,
        why="PostgreSQL splits an address without a dotted domain at the @",
    ),
    Divergence(
        statement="Module a.b-c loads.",
        term="c",
        in_memory=True,
        postgres=False,
        why="PostgreSQL keeps a.b-c whole; the shared tokenizer splits its hyphen",
    ),
    Divergence(
        statement="User visited İstanbul.",
        term="istanbul",
        in_memory=False,
        postgres=True,
        why="Python lowercases İ to i + combining dot; PostgreSQL to plain i",
    ),
]


@pytest.mark.parametrize("case", DIVERGENCES, ids=lambda case: f"{case.statement}|{case.term}")
def test_where_the_postgresql_parser_divides_a_token_differently(
    pg_module: PostgresStorage, case: Divergence
) -> None:
    principal = _fresh_principal()
    memory = InMemoryStorage()
    for storage in (memory, pg_module):
        storage.memories.put(_belief(principal, 1, "note", case.statement))
    observed = (_matches(memory, principal, case.term), _matches(pg_module, principal, case.term))
    assert observed == (case.in_memory, case.postgres), case.why


# --- generated parity ---------------------------------------------------------------------------

# Word shapes on which the two parsers agree (see the agreeing texts above).
VOCABULARY = [
    "portland",
    "Portland",
    "themes",
    "theme",
    "apple",
    "App",
    "e-mail",
    "mail",
    "don't",
    "don",
    "api.example.com",
    "me@example.com",
    "café",
    "concise",
    "answers",
    "a/b",
    "v1.2.3",
    "3.14",
    "O'Neil",
    "snake_case",
    "wi-fi",
    "2026",
]
SUBJECTS = ["home city", "answer style", "manager", "editor"]
INSTANTS = [T0 + timedelta(days=d) for d in range(4)]

words = st.sampled_from(VOCABULARY)
statements = st.lists(words, min_size=1, max_size=6).map(" ".join).map(lambda s: f"User {s}.")
terms = st.one_of(
    words,
    st.lists(words, min_size=2, max_size=2).map(" ".join),
    st.just("!!!"),
)
subject_names = st.sampled_from(SUBJECTS).flatmap(
    lambda s: st.sampled_from([s, s.upper(), f"  {s.title()} "])
)


@st.composite
def beliefs(draw: st.DrawFn) -> dict[str, Any]:
    valid_from = draw(st.sampled_from(INSTANTS))
    later = [instant for instant in INSTANTS if instant > valid_from]
    valid_to = draw(st.one_of(st.none(), st.sampled_from(later)) if later else st.none())
    return {
        "subject": draw(st.sampled_from(SUBJECTS)),
        "statement": draw(statements),
        "status": draw(st.sampled_from(BeliefStatus)),
        "scope": draw(st.sampled_from(["user", "general", "project:orbit"])),
        "belief_type": draw(st.sampled_from(BeliefType)),
        "valid_from": valid_from,
        "valid_to": valid_to,
    }


@dataclass(frozen=True, kw_only=True)
class Scenario:
    """Beliefs to create, updates to apply (index, new fields), and one query to run."""

    created: list[dict[str, Any]]
    updates: list[tuple[int, dict[str, Any]]]
    terms: tuple[str, ...] | None
    subjects: tuple[str, ...]
    statuses: frozenset[BeliefStatus]
    scopes: tuple[str, ...]
    belief_types: frozenset[BeliefType] | None
    as_of: datetime | None
    limit: int
    min_write: int  # min_store_position is the position of this write (0: none)
    excluded: frozenset[int]  # indexes of created beliefs to exclude


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    created = draw(st.lists(beliefs(), min_size=0, max_size=10))
    updates = draw(
        st.lists(st.tuples(st.integers(0, 9), beliefs()), max_size=4) if created else st.just([])
    )
    writes = len(created) + len([u for u in updates if u[0] < len(created)])
    scopes = draw(st.sets(st.sampled_from(["user", "general", "project:orbit"]), min_size=1))
    return Scenario(
        created=created,
        updates=updates,
        terms=draw(st.one_of(st.none(), st.lists(terms, max_size=4).map(tuple))),
        subjects=tuple(draw(st.lists(subject_names, max_size=2))),
        statuses=frozenset(draw(st.sets(st.sampled_from(BeliefStatus), min_size=0))),
        scopes=tuple(sorted(scopes)),
        belief_types=draw(st.one_of(st.none(), st.frozensets(st.sampled_from(BeliefType)))),
        as_of=draw(st.one_of(st.none(), st.sampled_from(INSTANTS))),
        limit=draw(st.integers(1, 12)),
        min_write=draw(st.integers(0, writes)),
        excluded=frozenset(draw(st.sets(st.integers(0, 9), max_size=3))),
    )


def _apply(
    storage: Storage, principal: Principal, scenario: Scenario
) -> tuple[list[Belief], list[int]]:
    """Write the scenario; return the current beliefs and every write's store position."""
    current: list[Belief] = []
    positions: list[int] = []
    for number, fields in enumerate(scenario.created):
        stored = storage.memories.put(_belief(principal, number, **fields))
        current.append(stored)
        positions.append(stored.store_position)
    for index, fields in scenario.updates:
        if index < len(current):
            changed = current[index].model_copy(update=fields)
            current[index] = storage.memories.update(changed)
            positions.append(current[index].store_position)
    return current, positions


def _search(
    storage: Storage,
    principal: Principal,
    current: Sequence[Belief],
    positions: Sequence[int],
    scenario: Scenario,
) -> list[Belief]:
    recall = RecallQuery(
        principal=principal,
        scopes=scenario.scopes,
        statuses=scenario.statuses,
        as_of=scenario.as_of,
        min_store_position=positions[scenario.min_write - 1] if scenario.min_write else 0,
        terms=scenario.terms,
        subjects=scenario.subjects,
        belief_types=scenario.belief_types,
        exclude_ids=frozenset(current[i].id for i in scenario.excluded if i < len(current)),
        limit=scenario.limit,
    )
    return storage.memories.search(recall)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(scenario=scenarios())
def test_search_answers_identically_on_both_tiers(
    pg_module: PostgresStorage, scenario: Scenario
) -> None:
    principal = _fresh_principal()
    memory = InMemoryStorage()
    memory_current, memory_positions = _apply(memory, principal, scenario)
    pg_current, pg_positions = _apply(pg_module, principal, scenario)

    from_memory = _search(memory, principal, memory_current, memory_positions, scenario)
    from_postgres = _search(pg_module, principal, pg_current, pg_positions, scenario)

    def unpositioned(found: list[Belief]) -> list[Belief]:
        return [b.model_copy(update={"store_position": 0}) for b in found]

    assert unpositioned(from_postgres) == unpositioned(from_memory)


@st.composite
def lexical_cases(
    draw: st.DrawFn,
) -> tuple[list[tuple[str, str]], tuple[str, ...], tuple[str, ...]]:
    """Records, then query terms drawn from the shared tokenizer's lexemes of those records
    (and from the vocabulary, and multi-word terms), so most terms hit something."""
    texts = draw(
        st.lists(st.tuples(st.sampled_from(SUBJECTS), statements), min_size=1, max_size=12)
    )
    present = sorted(set().union(*(lexemes(f"{subject} {text}") for subject, text in texts)))
    term = st.one_of(st.sampled_from(present), terms)
    query_terms = draw(st.lists(term, max_size=3).map(tuple))
    named = draw(st.lists(subject_names, max_size=1).map(tuple))
    return texts, query_terms, named


@settings(max_examples=150, deadline=None, derandomize=True)
@given(case=lexical_cases())
def test_the_lexical_arm_alone_answers_identically_on_both_tiers(
    pg_module: PostgresStorage,
    case: tuple[list[tuple[str, str]], tuple[str, ...], tuple[str, ...]],
) -> None:
    texts, query_terms, named = case
    principal = _fresh_principal()
    memory = InMemoryStorage()
    for storage in (memory, pg_module):
        for number, (subject, statement) in enumerate(texts):
            storage.memories.put(_belief(principal, number, subject, statement))
    query = RecallQuery(
        principal=principal, scopes=("user",), terms=query_terms, subjects=named, limit=64
    )
    found = [[b.id for b in s.memories.search(query)] for s in (memory, pg_module)]
    assert found[1] == found[0]
