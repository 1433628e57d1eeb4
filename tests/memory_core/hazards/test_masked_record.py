"""Recording masks secret spans: the event log never holds a secret verbatim (every tier).

The stored turn keeps its shape (``My password is [redacted:secret.credential]!``) and the count of
masks, formation refuses the masked sentence as it refused the original, and no belief holds
the mask. Injections are stored as sent (they are refused at formation).
"""

from __future__ import annotations

from _support.hazard_examples import INJECTION_EXAMPLES, SECRET_EXAMPLES
from _support.hazard_strategies import PROSE, SECRET_FAMILIES, obfuscated_secret
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_core import Principal, Storage, build
from memory_core.formation.hazards import (
    mask_secrets,
    redaction_mask,
    screen_session,
    secret_spans,
)
from memory_core.recording import REDACTED_SECRETS_FIELD

SECRET = "hunter2-Secret!"


def test_a_recorded_secret_is_masked_counted_and_still_refused(storage: Storage) -> None:
    app = build(storage=storage, principal=Principal("acme", "mask"))
    session = app.sessions.create()
    masked = app.sessions.record_user_message(session.id, f"My password is {SECRET}")
    plain = app.sessions.record_user_message(session.id, "I live in Oslo.")
    assert masked.payload["text"] == f"My password is {redaction_mask('secret.credential')}!"
    assert masked.payload[REDACTED_SECRETS_FIELD] == 1
    assert REDACTED_SECRETS_FIELD not in plain.payload
    closure = app.sessions.close(session.id)
    assert closure.consolidation is not None and closure.consolidation.refused_hazard >= 1
    statements = [f"{b.subject} {b.statement}" for b in app.memory.list_memories()]
    assert any("Oslo" in s for s in statements)
    assert not any("redacted" in s or "hunter2" in s for s in statements)
    stored = [e.model_dump_json() for e in storage.events.page(app.principal, limit=1000)]
    assert not any("hunter2" in s for s in stored)


def test_an_idempotent_retry_of_a_masked_message_stores_once(storage: Storage) -> None:
    app = build(storage=storage, principal=Principal("acme", "retry"))
    session = app.sessions.create()
    first = app.sessions.record_user_message(
        session.id, f"My password is {SECRET}", idempotency_key="k1"
    )
    again = app.sessions.record_user_message(
        session.id, f"My password is {SECRET}", idempotency_key="k1"
    )
    assert again.event_id == first.event_id
    events = storage.events.read_session(app.principal, session.id)
    assert [e.event_id for e in events if e.payload.get("idempotency_key") == "k1"] == [
        first.event_id
    ]


def test_every_quoted_secret_is_masked_and_screens_as_the_original() -> None:
    for name, (turns, fragments) in SECRET_EXAMPLES.items():
        masked = [mask_secrets(t) for t in turns]
        assert sum(n for _, n in masked) >= 1, name
        for fragment in fragments:
            assert not any(fragment in text for text, _ in masked), (name, fragment)
        before = screen_session(turns)
        after = screen_session([text for text, _ in masked])
        assert [s.sentences for s in after] == [s.sentences for s in before], name
        assert [s.families for s in after] == [s.families for s in before], name


def test_injections_and_benign_prose_are_stored_as_sent() -> None:
    for turns in INJECTION_EXAMPLES.values():
        for text in turns:
            assert mask_secrets(text) == (text, 0)
    for text in PROSE:
        assert secret_spans(text) == ()


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(sorted(SECRET_FAMILIES)).flatmap(obfuscated_secret),
    st.lists(st.sampled_from(PROSE), min_size=1, max_size=3),
)
def test_generated_secrets_are_masked_and_the_prose_around_them_still_forms(
    drawn: tuple[str, tuple[str, ...]], prose: list[str]
) -> None:
    sentence, fragments = drawn
    turn = " ".join([prose[0], sentence, *prose[1:]])
    masked, count = mask_secrets(turn)
    assert count >= 1
    assert not any(f in masked for f in fragments)
    before, after = screen_session([turn]), screen_session([masked])
    assert after[0].sentences == before[0].sentences
    assert after[0].families == before[0].families
