"""Rendering: the only part of a recall the model sees.

A block is a header naming the retrieval policy version and the moment, then one line per
belief, joined by newlines with no trailing newline::

    Memory (retrieval@2, in_turn):
    [m:8f21a0c3] preference / answer style: User prefers concise answers.

A belief in a conflict (``conflicts_with``) names its partners the way a user cites them::

    [m:9d02b117] fact / admin: User is an admin. conflicts=[m:8f21a0c3]

Whitespace inside a subject or statement (newlines included) is collapsed to single spaces, so
one belief is always exactly one line and stored text can never forge a header or another
belief's line. Nothing returned renders as the empty string.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_core.domain import Belief, RecallMoment
from memory_core.ids import short_id
from memory_core.policy import RETRIEVAL_POLICY
from memory_core.text import collapse
from memory_core.tokenizer import estimate_tokens


def render_header(moment: RecallMoment, policy_version: str = RETRIEVAL_POLICY) -> str:
    """The block header: ``Memory (<policy version>, <moment>):``."""
    return f"Memory ({policy_version}, {moment}):"


def render_line(belief: Belief) -> str:
    """One belief: ``[m:<short id>] <type> / <subject>: <statement>``, then
    `` conflicts=[m:<short id>, ...]`` when it is linked to beliefs it conflicts with."""
    line = (
        f"[m:{belief.short_id}] {belief.belief_type.value} / "
        f"{collapse(belief.subject)}: {collapse(belief.statement)}"
    )
    if belief.conflicts_with:
        links = ", ".join(f"m:{short_id(b)}" for b in belief.conflicts_with)
        line = f"{line} conflicts=[{links}]"
    return line


def render_block(
    moment: RecallMoment,
    beliefs: Sequence[Belief],
    policy_version: str = RETRIEVAL_POLICY,
) -> str:
    """The header and one line per belief, in the given order; ``""`` when there are none."""
    if not beliefs:
        return ""
    return "\n".join((render_header(moment, policy_version), *map(render_line, beliefs)))


def block_tokens(header: str, lines: Sequence[str]) -> int:
    """``estimate_tokens`` of the block ``header`` and ``lines`` render to; 0 when no lines.

    The whole block is measured, header and separators included, so a budget checked with it
    bounds exactly what the model receives.
    """
    if not lines:
        return 0
    return estimate_tokens("\n".join((header, *lines)))


__all__ = ["block_tokens", "render_block", "render_header", "render_line"]
