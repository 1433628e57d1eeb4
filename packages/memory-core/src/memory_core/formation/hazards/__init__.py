"""Hazard refusal: secrets and prompt injections never reach extraction.

The catalogue is hand-written because memory-core depends on pydantic, PyYAML and httpx only;
a secret-scanning library would be a new runtime dependency of the core package. Rules follow
the shapes gitleaks and detect-secrets look for (:mod:`._secrets`) and the injection
phrasings of six languages (:mod:`._injections`); they read a normalised skeleton of the text
(:mod:`._normalize`: NFKC, format characters removed, confusables folded) while what is kept
and stored is the text the user sent. :mod:`._screen` maps hits to sentences and carries the
session state (taint, split secrets). Every rule is linear time; ``ci/bench_hazards.py``
measures a megabyte.
"""

from memory_core.formation.hazards._checks import (
    iban_valid,
    luhn_valid,
    shannon_entropy,
    ssn_valid,
)
from memory_core.formation.hazards._injections import INJECTION_RULES, claims_authority
from memory_core.formation.hazards._normalize import matching_form, skeleton
from memory_core.formation.hazards._rules import HazardKind, HazardRule, redaction_mask
from memory_core.formation.hazards._screen import (
    HAZARD_RULES,
    Refusal,
    ScreenedTurn,
    SessionScreen,
    find_hazards,
    forms_hazard,
    is_hazardous,
    screen_session,
    screen_turn,
)
from memory_core.formation.hazards._secrets import SECRET_RULES
from memory_core.formation.hazards._spans import SecretSpan, mask_secrets, secret_spans

__all__ = [
    "HAZARD_RULES",
    "INJECTION_RULES",
    "SECRET_RULES",
    "HazardKind",
    "HazardRule",
    "Refusal",
    "ScreenedTurn",
    "SecretSpan",
    "SessionScreen",
    "claims_authority",
    "find_hazards",
    "forms_hazard",
    "iban_valid",
    "is_hazardous",
    "luhn_valid",
    "mask_secrets",
    "matching_form",
    "redaction_mask",
    "screen_session",
    "screen_turn",
    "secret_spans",
    "shannon_entropy",
    "skeleton",
    "ssn_valid",
]
