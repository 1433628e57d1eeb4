"""Policy versions: one module of constants, moved once each by the change that alters them."""

from __future__ import annotations

DETERMINISTIC_FORMATION_POLICY = "formation@7"
"""Deterministic extraction and consolidation.

``formation@5`` -> ``formation@7``, the milestone's one move of this version (the spec's Phase 2
list): the extractor reads conversation (events, plans, feelings, family, time anchored to the
session clock, short answers read against the question before them) and the candidate ceiling
keeps the newest candidates."""

PROVIDER_FORMATION_POLICY = "formation@8"
"""Provider-assisted extraction (validated by the same hazard and provenance rules).

``formation@6`` -> ``formation@8``, the milestone's one move of this version (the spec's Phase 2
list): the candidate JSON schema sent as the ``response_format``, a prompt showing the
third-person form, first-person statements rewritten before the rules run, and a malformed
candidate dropped instead of rejecting its reply."""

RETRIEVAL_POLICY = "retrieval@2"
"""Ranking and rendering of recalled beliefs."""

SESSION_IDLE_SECONDS = 30 * 60
"""A session idle this long is closed by the idle sweep. A constant, not a profile knob: it is
part of the formation policy a belief's ``consolidation_policy_version`` records."""
