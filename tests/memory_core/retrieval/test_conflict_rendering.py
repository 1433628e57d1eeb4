"""Conflict partners in retrieval: the rendered link, the per-subject cap, the review flag."""

from __future__ import annotations

from memory_core import InMemoryStorage, Principal
from memory_core.domain import Belief
from memory_core.retrieval import RecallRequest
from memory_core.retrieval.ranking import cap_per_subject
from memory_core.retrieval.render import render_line

from .conftest import World

ALICE = Principal("tenant-1", "alice")


def _pair(world: World) -> tuple[Belief, Belief]:
    original = world.put(ALICE, "User lives in Oslo.", subject="home location")
    flagged = world.put(
        ALICE,
        "User lives in Bergen.",
        subject="home location",
        conflicts_with=(original.id,),
        needs_review=True,
    )
    linked = world.storage.memories.update(
        original.model_copy(update={"conflicts_with": (flagged.id,)})
    )
    return linked, flagged


def test_a_conflicted_line_names_its_partners_by_short_id() -> None:
    world = World(storage=InMemoryStorage())
    original, flagged = _pair(world)
    assert render_line(flagged) == (
        f"[m:{flagged.short_id}] fact / home location: User lives in Bergen. "
        f"conflicts=[m:{original.short_id}]"
    )
    plain = world.put(ALICE, "User uses Git.", subject="git")
    assert "conflicts=" not in render_line(plain)


def test_partners_pass_the_cap_and_others_do_not() -> None:
    world = World(storage=InMemoryStorage())
    original, flagged = _pair(world)
    other = world.put(ALICE, "User likes the home location.", subject="home location")
    kept, capped = cap_per_subject([original, other, flagged], cap=1)
    assert kept == [original, flagged] and capped == [other]
    # when neither partner fits under the cap, both are capped together
    kept, capped = cap_per_subject([other, flagged, original], cap=1)
    assert kept == [other] and capped == [flagged, original]


def test_a_review_flag_without_a_conflict_is_still_withheld() -> None:
    world = World(storage=InMemoryStorage())
    original, flagged = _pair(world)
    pending = world.put(
        ALICE, "User lives near the fjord.", subject="home location", needs_review=True
    )
    result = world.retriever().recall(
        RecallRequest(principal=ALICE, moment="in_turn", text="Where is my home location?")
    )
    returned = {b.id for b in result.beliefs}
    assert {original.id, flagged.id} <= returned
    assert pending.id not in returned and pending.id in result.trace.blocked
