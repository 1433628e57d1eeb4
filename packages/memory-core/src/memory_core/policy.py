"""Policy versions: one module of constants, moved once each by the change that alters them."""

from __future__ import annotations

DETERMINISTIC_FORMATION_POLICY = "formation@7"
"""Deterministic extraction and consolidation."""

PROVIDER_FORMATION_POLICY = "formation@8"
"""Provider-assisted extraction (validated by the same hazard and provenance rules)."""

RETRIEVAL_POLICY = "retrieval@2"
"""Ranking and rendering of recalled beliefs."""

SESSION_IDLE_SECONDS = 30 * 60
"""A session idle this long is closed by the idle sweep. A constant, not a profile knob: it is
part of the formation policy a belief's ``consolidation_policy_version`` records."""
