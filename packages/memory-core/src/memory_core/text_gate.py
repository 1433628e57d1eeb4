"""The record-time input gate: what message text a session accepts, the same on every tier.

Every message a session records (``SessionService.record_user_message``,
``record_assistant_message``, a run's prompt) passes :func:`check_message_text` before anything
is written. It refuses, with a :class:`~memory_core.errors.MessageTextError` naming the field
and the problem:

* ``not_text``: the value is not a ``str``;
* ``nul``: the text holds U+0000 (PostgreSQL ``text`` cannot store it, and it is never part of
  a chat message);
* ``surrogate``: the text holds a surrogate code point (U+D800-U+DFFF), which is not a Unicode
  scalar value and has no UTF-8 encoding (a lone surrogate, or a UTF-16 pair left unjoined);
* ``too_large``: the UTF-8 encoding is longer than the bound, :data:`MAX_MESSAGE_BYTES`
  (64 KiB) unless the composition configures another (``SessionService(max_message_bytes=)``);
* ``empty``: nothing is left once whitespace and format characters (category ``Cf``: zero-width
  space U+200B, joiners, BOM, bidi marks) are removed.

Accepted text is stored verbatim (format characters included): the gate decides, it never
rewrites.
"""

from __future__ import annotations

import re
import unicodedata

from memory_core.errors import MessageTextError

MAX_MESSAGE_BYTES = 64 * 1024
"""The default bound on one message: 64 KiB of UTF-8, generous for chat (a long paste of a
few thousand words is ~20 KiB) and small enough that closing a session stays quick."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def check_message_text(
    text: object, *, field: str = "text", max_bytes: int = MAX_MESSAGE_BYTES
) -> str:
    """Return ``text`` unchanged when a session may record it, else raise.

    Args:
        text: The message text.
        field: The name the error uses for the value (``text``, ``prompt``).
        max_bytes: The bound on the UTF-8 encoded length.

    Raises:
        MessageTextError: the text is not a str, holds NUL or a surrogate code point, is
            longer than ``max_bytes`` in UTF-8, or is empty once whitespace and format
            characters are removed (``problem`` says which).
    """
    if not isinstance(text, str):
        raise MessageTextError(
            "not_text", f"{field} must be a str, got {type(text).__name__}; pass the message text"
        )
    nul = text.find("\x00")
    if nul >= 0:
        raise MessageTextError(
            "nul",
            f"{field} contains a NUL character (U+0000) at index {nul}; remove it - a message "
            "cannot hold NUL",
        )
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:
        raise MessageTextError(
            "surrogate",
            f"{field} contains the surrogate code point U+{ord(surrogate.group()):04X} at index "
            f"{surrogate.start()}, which is not valid Unicode; decode the input as UTF-8 (or "
            "join UTF-16 surrogate pairs) before recording it",
        )
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise MessageTextError(
            "too_large",
            f"{field} is {size} bytes of UTF-8, over the {max_bytes}-byte bound on one "
            "message; split it into several messages or raise the composition's "
            "max_message_bytes",
        )
    if not _visible(text):
        raise MessageTextError(
            "empty",
            f"{field} is empty once whitespace and format characters (such as U+200B) are "
            "removed; a message needs non-empty text (some visible character)",
        )
    return text


def _visible(text: str) -> bool:
    """True when some character is neither whitespace nor a format character (``Cf``)."""
    return any(not ch.isspace() and unicodedata.category(ch) != "Cf" for ch in text)


__all__ = ["MAX_MESSAGE_BYTES", "check_message_text"]
