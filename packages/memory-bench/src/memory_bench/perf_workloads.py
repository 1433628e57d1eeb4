"""The mutating workloads the perf lane times on a loaded store: consolidation and reject.

``FormationWorkload`` opens sessions of ``turns`` generated user messages (preferences,
decisions, tools, runbooks in the recall benchmark's vocabulary, so deterministic formation
forms from them and its ledger meets the store's beliefs) ahead of time, untimed. Their words
are drawn uniformly from the vocabulary: the generated store holds its common words' subjects
dozens of times over, all live (no formation ever consolidated them), so Zipf-drawn turns
would time a one-off clean-up of hundreds of supersessions rather than a session (which is why
no turn names a relationship: the store's seven roles each hold thousands); a timed call
consolidates one of them (``MemoryAPI.run``). ``RejectWorkload`` rejects, per timed call, one
of the store's newest live beliefs (``MemoryAPI.reject``), chosen ahead of time.
"""

from __future__ import annotations

from typing import Final

from memory_bench.harness import build_eval_composition
from memory_bench.perf import BENCH_NOW, BENCH_PRINCIPAL, BENCH_PROJECT, ZipfWords
from memory_core.bootstrap import Composition
from memory_core.domain import LIVE_STATUSES, RecallQuery, scope_for_project
from memory_core.ports import Storage

_TURN_TEMPLATES: Final = (
    "I prefer {a} for {b}.",
    "We decided to use {a} for the {b} {c}.",
    "I use {a} for {b} and {c}.",
    "The {a} runbook is at docs/{a}/{b}.md.",
)
_ALL_SCOPES: Final = ("user", "general", scope_for_project(BENCH_PROJECT))


def generate_turns(count: int, *, seed: int, stream: str) -> tuple[str, ...]:
    """``count`` user messages in the benchmark's vocabulary (deterministic in the seed)."""
    words = ZipfWords(seed, f"turns/{stream}")
    turns = []
    for _ in range(count):
        template = words.rng.choice(_TURN_TEMPLATES)
        a, b, c = words.draw_uniform(), words.draw_uniform(), words.draw_uniform()
        turns.append(template.format(a=a, b=b, c=c))
    return tuple(turns)


def compose(storage: Storage, name: str) -> Composition:
    """A deterministic composition over ``storage`` for the bench principal (ids named ``name``)."""
    return build_eval_composition(
        BENCH_NOW, storage=storage, principal=BENCH_PRINCIPAL, id_namespace=f"perf-lane/{name}"
    )


class FormationWorkload:
    """Sessions of ``turns`` messages, opened and recorded up front; ``run(i)`` consolidates
    the ``i``-th."""

    def __init__(self, composition: Composition, *, sessions: int, turns: int, seed: int) -> None:
        self._memory = composition.memory
        self._session_ids: list[str] = []
        for index in range(sessions):
            session = composition.sessions.create(metadata={"project_scope": BENCH_PROJECT})
            for text in generate_turns(turns, seed=seed, stream=str(index)):
                composition.sessions.record_user_message(session.id, text)
            self._session_ids.append(session.id)

    def run(self, index: int) -> object:
        """Consolidate session ``index`` (as a session close would)."""
        return self._memory.run("session_close", session_id=self._session_ids[index])


class RejectWorkload:
    """The store's ``count`` newest live beliefs; ``run(i)`` rejects the ``i``-th."""

    def __init__(self, composition: Composition, *, count: int) -> None:
        self._memory = composition.memory
        newest = composition.storage.memories.search(
            RecallQuery(
                principal=BENCH_PRINCIPAL,
                scopes=_ALL_SCOPES,
                statuses=LIVE_STATUSES,
                terms=None,
                limit=count,
            )
        )
        self._ids = [belief.id for belief in newest]

    def run(self, index: int) -> object:
        """Reject belief ``index`` (cycling when there are fewer: a tiny store's rerun is cheap)."""
        return self._memory.reject(self._ids[index % len(self._ids)], reason="perf lane")


__all__ = ["FormationWorkload", "RejectWorkload", "compose", "generate_turns"]
