"""FormationStateStore contract, run against every storage adapter."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from memory_core import Principal, Rejection, Storage, UsageError

MakeRejection = Callable[..., Rejection]


def test_watermarks_default_to_zero_and_are_per_principal_and_session(
    storage: Storage, alice: Principal, bob: Principal
) -> None:
    assert storage.formation.watermark(alice, "s-1") == 0
    storage.formation.set_watermark(alice, "s-1", 7)
    storage.formation.set_watermark(alice, "s-2", 3)
    assert storage.formation.watermark(alice, "s-1") == 7
    assert storage.formation.watermark(alice, "s-2") == 3
    assert storage.formation.watermark(bob, "s-1") == 0
    assert storage.formation.watermark(Principal("tenant-2", "alice"), "s-1") == 0


def test_set_watermark_overwrites_including_a_reset_for_replay(
    storage: Storage, alice: Principal
) -> None:
    storage.formation.set_watermark(alice, "s-1", 7)
    storage.formation.set_watermark(alice, "s-1", 12)
    assert storage.formation.watermark(alice, "s-1") == 12
    storage.formation.set_watermark(alice, "s-1", 0)
    assert storage.formation.watermark(alice, "s-1") == 0


def test_set_watermark_refuses_a_negative_sequence(storage: Storage, alice: Principal) -> None:
    with pytest.raises(UsageError, match="watermark"):
        storage.formation.set_watermark(alice, "s-1", -1)
    assert storage.formation.watermark(alice, "s-1") == 0


def test_rejections_are_durable_idempotent_and_principal_scoped(
    storage: Storage, make_rejection: MakeRejection, alice: Principal, bob: Principal
) -> None:
    rejection = make_rejection(alice, reason="wrong")
    storage.formation.record_rejection(rejection)
    storage.formation.record_rejection(rejection)
    storage.formation.record_rejection(rejection.model_copy(update={"reason": "again"}))
    assert storage.formation.rejections(alice) == [rejection]
    assert storage.formation.rejections(bob) == []
    assert storage.formation.rejections(Principal("tenant-2", "alice")) == []


def test_rejections_are_listed_oldest_first_whatever_the_recording_order(
    storage: Storage, make_rejection: MakeRejection, alice: Principal, t0: datetime
) -> None:
    late = make_rejection(alice, rejected_at=t0 + timedelta(hours=2))
    early = make_rejection(alice, rejected_at=t0)
    middle = make_rejection(alice, rejected_at=t0 + timedelta(hours=1))
    for rejection in (late, early, middle):
        storage.formation.record_rejection(rejection)
    assert storage.formation.rejections(alice) == [early, middle, late]


def test_rejections_at_the_same_instant_are_ordered_by_belief_id(
    storage: Storage, make_rejection: MakeRejection, alice: Principal
) -> None:
    first = make_rejection(alice, belief_id="bbbbbbbb-0000")
    second = make_rejection(alice, belief_id="aaaaaaaa-0000")
    storage.formation.record_rejection(first)
    storage.formation.record_rejection(second)
    assert storage.formation.rejections(alice) == [second, first]
