"""Recording a message in a session: one unit of work, gated input, optional idempotency key.

:func:`record_message` is the one path every recorded message takes (``SessionService`` and a
run's prompt). Its contract:

* **Gate first.** The text passes :func:`~memory_core.text_gate.check_message_text` before
  anything is read or written; a refused text writes nothing.
* **One unit of work.** The session's activity is moved with a conditional update (``touch``:
  only an open session changes, on PostgreSQL it also row-locks the session) and the event is
  appended, inside one ``unit_of_work``: both are stored or neither is. A close serializes
  against it (it locks the same session), so a message either commits before the close
  commits (and the close forms it) or is refused.
* **A closed session refuses.** ``SessionClosedError`` (a ``UsageError``); nothing is written
  and the session stays closed. A session never reopens by recording into it.
* **Idempotency key.** A client may pass ``idempotency_key`` (1-200 characters; stored as the
  event payload's ``idempotency_key``). Inside the unit, before writing, the session's event
  with that key is looked up: if there is one, it is returned and nothing is written, so a
  record retried after an error or a lost reply stores once. This holds even when the session
  closed in between (the retry reports what the first attempt stored). A key already used in
  the session for a different message (other text or event type) is a ``ConflictError``.
  Keys are scoped to one session of one principal.
* **Secrets are masked before they are stored.** Every secret span the hazard screen finds in
  the text (:func:`~memory_core.formation.hazards.secret_spans`) is replaced with its
  family's mask (``[redacted:secret.credential]``) and the count stored as the payload's
  ``redacted_secrets`` (absent when nothing was masked), so no table holds the secret
  verbatim. The screen refuses a sentence holding a mask under the same family, so
  formation refuses (and counts) what it refused before, and replay and provenance read the
  masked turn. A retry with the same key whose text differs only inside a secret is taken
  for the same message (only the masked text is kept to compare). Injections are kept as
  sent: they are refused at formation and are evidence of an attack, not a credential to
  protect. A secret split over two turns is caught at formation (session state) but not
  masked here.
"""

from __future__ import annotations

import logging

from memory_core.base.events import EventType, EventWriter
from memory_core.clock import Clock
from memory_core.domain import Event, JsonValue, Principal, Trust
from memory_core.errors import ConflictError, UsageError
from memory_core.formation.hazards import mask_secrets
from memory_core.ports import IDEMPOTENCY_KEY_FIELD, Storage
from memory_core.text_gate import MAX_MESSAGE_BYTES, check_message_text

REDACTED_SECRETS_FIELD = "redacted_secrets"
"""The payload field holding how many secret spans a recorded message had masked."""

_log = logging.getLogger(__name__)

MAX_IDEMPOTENCY_KEY_LENGTH = 200
"""The longest idempotency key a record accepts (a UUID is 36 characters)."""


def record_message(
    storage: Storage,
    writer: EventWriter,
    clock: Clock,
    *,
    principal: Principal,
    session_id: str,
    event_type: EventType,
    text: object,
    actor: str,
    trust: Trust,
    run_id: str | None = None,
    idempotency_key: str | None = None,
    max_bytes: int = MAX_MESSAGE_BYTES,
    field: str = "text",
) -> Event:
    """Gate ``text`` and record it in the open session as one unit of work.

    Returns:
        The stored event (on an idempotent retry, the event the first attempt stored).

    Raises:
        MessageTextError: the text fails the input gate (nothing is written).
        UsageError: the idempotency key is empty, too long or not valid text.
        SessionClosedError: the session is closed (nothing is written).
        NotFoundError: no such session for the principal.
        ConflictError: the key was used in this session for a different message.
    """
    checked, masked = mask_secrets(check_message_text(text, field=field, max_bytes=max_bytes))
    payload: dict[str, JsonValue] = {"text": checked}
    if masked:
        payload[REDACTED_SECRETS_FIELD] = masked
    if idempotency_key is not None:
        payload[IDEMPOTENCY_KEY_FIELD] = _checked_key(idempotency_key)
    with storage.unit_of_work():
        if idempotency_key is not None:
            held = storage.events.find_by_idempotency_key(principal, session_id, idempotency_key)
            if held is not None:
                if held.event_type != event_type or held.payload.get("text") != checked:
                    raise ConflictError(
                        f"idempotency key {idempotency_key!r} was already used in session "
                        f"{session_id} for a different message (event {held.event_id}); use "
                        "a new key for a new message"
                    )
                return held
        storage.sessions.touch(principal, session_id, clock.now())
        event = writer.append(
            event_type,
            principal=principal,
            session_id=session_id,
            run_id=run_id,
            actor=actor,
            trust=trust,
            payload=payload,
        )
    _log.debug(
        "recorded %s %s in session %s (%d secret spans masked)",
        event_type,
        event.event_id,
        session_id,
        masked,
    )
    return event


def _checked_key(key: object) -> str:
    if not isinstance(key, str) or not key or len(key) > MAX_IDEMPOTENCY_KEY_LENGTH:
        raise UsageError(
            f"idempotency_key must be a str of 1-{MAX_IDEMPOTENCY_KEY_LENGTH} characters, got "
            f"{key!r:.60}; pass a client-generated id such as a UUID"
        )
    return check_message_text(key, field="idempotency_key")


__all__ = ["MAX_IDEMPOTENCY_KEY_LENGTH", "REDACTED_SECRETS_FIELD", "record_message"]
