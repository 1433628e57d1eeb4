"""The peers the perf lane times a recall against: a bm25s fast path, and bare SQL.

* ``Bm25FastPath``: bm25s over the same statements, queried the cheapest way bm25s offers
  (``get_scores`` and an ``argpartition`` top-k), with the shared tokenizer minus stopwords on
  both sides, so only the retrieval work differs.
* ``capture_sql`` / ``SqlReplay``: the statements one PostgreSQL recall sends (SQLAlchemy's
  ``before_cursor_execute``, with its commits), replayed on a bare psycopg connection, the
  recall's trace id swapped for a fresh one each time so the trace insert really inserts.
* ``bare_lexical_select``: the one SELECT a lexical search needs: the principal's rows whose
  stored ``tsvector`` matches any of the query's terms, newest first, capped.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memory_core.domain import Principal
from memory_core.tokenizer import STOPWORDS, tokenize

if TYPE_CHECKING:
    import psycopg
    import sqlalchemy as sa


def bm25_tokens(text: str) -> list[str]:
    """The shared tokenizer's lexemes of ``text`` without stopwords (duplicates kept)."""
    return [token for token in tokenize(text) if token not in STOPWORDS]


class Bm25FastPath:
    """bm25s over ``documents``; ``top`` is its fast path (scores, then a partial sort)."""

    def __init__(self, documents: Sequence[str], *, k: int = 8) -> None:
        import bm25s

        self._k = k
        self._retriever = bm25s.BM25()
        self._retriever.index([bm25_tokens(text) for text in documents], show_progress=False)
        self._vocabulary = self._retriever.vocab_dict

    def top(self, question: str) -> list[int]:
        """Indexes of the ``k`` best-scoring documents for ``question`` (unordered)."""
        import numpy as np

        query = [token for token in bm25_tokens(question) if token in self._vocabulary]
        if not query:
            return []
        scores = self._retriever.get_scores(query)
        k = min(self._k, len(scores))
        return [int(i) for i in np.argpartition(-scores, k - 1)[:k]]


@dataclass(frozen=True)
class SqlStep:
    """One captured step: a statement with its parameters, or a ``commit``."""

    kind: str  # "execute", "executemany" or "commit"
    statement: str = ""
    parameters: Any = None


@contextmanager
def capture_sql(engine: sa.Engine) -> Iterator[list[SqlStep]]:
    """Collect every statement (and commit) ``engine`` sends while the block runs."""
    from sqlalchemy import event

    steps: list[SqlStep] = []

    def on_execute(
        conn: object, cursor: object, statement: str, parameters: Any, context: object, many: bool
    ) -> None:
        steps.append(SqlStep("executemany" if many else "execute", statement, parameters))

    def on_commit(conn: object) -> None:
        steps.append(SqlStep("commit"))

    event.listen(engine, "before_cursor_execute", on_execute)
    event.listen(engine, "commit", on_commit)
    try:
        yield steps
    finally:
        event.remove(engine, "before_cursor_execute", on_execute)
        event.remove(engine, "commit", on_commit)


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL (``postgresql+psycopg://...``) as a libpq one."""
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def connect(url: str, schema: str | None) -> psycopg.Connection[Any]:
    """A bare psycopg connection to ``url`` with ``schema`` as its search path, in autocommit
    as the recall's own connection is: a peer in a transaction would pay a ``BEGIN`` and a
    ``COMMIT`` round trip the recall does not (about 20% of a bare SELECT at 20k)."""
    import psycopg

    options = "" if schema is None else f"-c search_path={schema}"
    return psycopg.connect(libpq_url(url), options=options, autocommit=True)


class SqlReplay:
    """Replays captured steps on ``connection``, swapping ``trace_id`` for a fresh id."""

    def __init__(
        self, connection: psycopg.Connection[Any], steps: Sequence[SqlStep], trace_id: str
    ) -> None:
        self._connection = connection
        self._steps = tuple(steps)
        self._trace_id = trace_id

    @property
    def statements(self) -> int:
        """Statements one replay sends (commits excluded)."""
        return sum(1 for step in self._steps if step.kind != "commit")

    def run(self) -> None:
        """Send every step once, then commit whatever is still open."""
        fresh = str(uuid.uuid4())
        with self._connection.cursor() as cursor:
            for step in self._steps:
                if step.kind == "commit":
                    self._connection.commit()
                    continue
                statement = step.statement.replace(self._trace_id, fresh)
                if step.kind == "executemany":
                    rows = [self._swap(p, fresh) for p in step.parameters]
                    cursor.executemany(statement.encode(), rows)
                else:
                    cursor.execute(statement.encode(), self._swap(step.parameters, fresh))
        self._connection.commit()

    def _swap(self, parameters: Any, fresh: str) -> Any:
        if isinstance(parameters, dict):
            return {k: fresh if v == self._trace_id else v for k, v in parameters.items()}
        if isinstance(parameters, list | tuple):
            return type(parameters)(fresh if v == self._trace_id else v for v in parameters)
        return parameters


def bare_lexical_select(
    connection: psycopg.Connection[Any], principal: Principal, terms: Sequence[str], limit: int
) -> list[str]:
    """Ids of the principal's rows matching any of ``terms``, newest first, at most ``limit``."""
    if not terms:
        return []
    any_term = " || ".join(["plainto_tsquery('simple', %s)"] * len(terms))
    sql = (
        "SELECT id FROM memories WHERE tenant_id = %s AND principal_id = %s "
        f"AND lexical @@ ({any_term}) ORDER BY store_position DESC LIMIT %s"
    )
    parameters = [principal.tenant_id, principal.principal_id, *terms, limit]
    with connection.cursor() as cursor:
        cursor.execute(sql.encode(), parameters)
        ids = [str(row[0]) for row in cursor.fetchall()]
    connection.commit()
    return ids


__all__ = [
    "Bm25FastPath",
    "SqlReplay",
    "SqlStep",
    "bare_lexical_select",
    "bm25_tokens",
    "capture_sql",
    "connect",
    "libpq_url",
]
