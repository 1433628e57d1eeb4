"""What a failed model call leaves on a run: its HTTP status and a bounded, secret-free excerpt.

A server's error body can echo a request (an API key, a prompt), so the excerpt is cut to
:data:`BODY_EXCERPT_CHARS` characters after every secret span the hazard screen finds is
masked (:func:`~memory_core.formation.hazards.mask_secrets`); it goes onto the ``Run``, its
``run.completed`` event and one WARNING log line, never the raw body.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory_core.formation.hazards import mask_secrets

BODY_EXCERPT_CHARS = 200
"""The longest body excerpt kept from a failed model call."""

_SCREENED_CHARS = 4 * BODY_EXCERPT_CHARS
"""How much of the body is screened before the cut (a secret straddling the cut is whole)."""


@dataclass(frozen=True, kw_only=True)
class ModelFailure:
    """The HTTP status (``None`` when no reply came) and body excerpt of a failed call."""

    status: int | None
    body: str | None


def body_excerpt(body: str) -> str:
    """``body`` with its secrets masked, cut to :data:`BODY_EXCERPT_CHARS` characters."""
    masked, _ = mask_secrets(body[:_SCREENED_CHARS])
    return masked[:BODY_EXCERPT_CHARS]


def model_failure(exc: BaseException) -> ModelFailure:
    """The status and excerpt an exception carries (a ``ModelError`` with ``status``/``body``)."""
    status = getattr(exc, "status", None)
    body = getattr(exc, "body", None)
    return ModelFailure(
        status=status if isinstance(status, int) else None,
        body=body_excerpt(body) if isinstance(body, str) and body else None,
    )


__all__ = ["BODY_EXCERPT_CHARS", "ModelFailure", "body_excerpt", "model_failure"]
