"""Provider-assisted extraction (``formation@8``): a model proposes, the formation rules decide.

:class:`ProviderExtractor` implements the :class:`~memory_core.formation.port.Extractor`
port over any :class:`~memory_core.base.model.Model`. For one hazard-screened user turn it

1. keeps the sentences the deterministic path would read (questions, requests, conditionals,
   quotations and reported speech form nothing, :func:`sentence_forms_nothing`) and calls no
   model when none is left;
2. sends :data:`SYSTEM_PROMPT` and those sentences, one per line, as the user message, asking
   a :class:`~memory_core.base.model.StructuredOutputModel` for :data:`RESPONSE_FORMAT`
   (the JSON schema of a reply where the server supports one, JSON mode otherwise);
3. requires the reply to be one JSON object ``{"candidates": [{"belief_type", "subject",
   "statement", "polarity"}]}`` and nothing else (a single surrounding code fence is tolerated),
   not cut at the output-token limit (``truncated``);
4. rewrites a first-person statement to the stored third-person form
   (:func:`~memory_core.formation.third_person.third_person`: "I live in Seattle." -> "User
   lives in Seattle."; a leading "my" is dropped from the subject) before any rule runs;
5. validates every candidate against the rules the deterministic path obeys: the belief type
   is one of the enum, the subject is a short non-empty noun phrase, the statement is one
   third-person sentence starting ``User``/``User's`` (or ``The team`` for a team fact) and
   ending with a period, a retraction says what stopped, neither subject nor statement
   matches a hazard rule, and the statement is grounded in the sentences sent
   (:func:`~memory_core.formation.service.grounded`: every name and number it carries occurs
   in them and they share a content word; and it adds at most
   :data:`MAX_NOVEL_CONTENT_WORDS` content words they do not contain). Grounding is lexical:
   it stops invented names, numbers and clauses, not a one-word distortion.

One hazardous or ungrounded candidate makes the reply hostile and the turn forms nothing: a
model that planted content once in a reply is not trusted for the rest of it. A malformed
candidate (wrong type, subject or statement form) is dropped and the rest of the reply kept
(:data:`DROP_MALFORMED_CANDIDATES`), but only after its strings pass the hostile checks too (a
hazard anywhere in it, or an ungrounded statement, still rejects the whole reply); a reply
whose every candidate is malformed is malformed. Each kept candidate has passed every rule on
its own, so a malformed neighbour adds no risk to it; on the case file against a scripted
small model (tests/memory_bench/provider_evidence/test_small_model_replies.py) whole-reply
rejection fully supported 30 of 40 positive cases and the drop 40 of 40, both forming 0 of the
4 negative cases that reach the model.
A model error forms nothing for that turn too (the model port has already retried transient
failures). Every outcome is counted in :class:`ProviderCounters`, by reason code, never with
the reply's text. Provenance is not the model's to state: every candidate cites exactly the
turn it came from, and the governed service re-checks hazards and provenance as it does for
any extractor.

Candidates carry ``INFERRED`` authority at :data:`PROVIDER_CANDIDATE_CONFIDENCE`: the model
restated the user, it is not the user's own wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import assert_never

from memory_core.base.model import (
    Message,
    Model,
    ModelError,
    ModelResponse,
    PermanentModelError,
    ResponseFormat,
    StructuredOutputModel,
    TransientModelError,
)
from memory_core.domain import Authority, BeliefType, Polarity
from memory_core.formation.extractor import Candidate, Turn, sentence_forms_nothing
from memory_core.formation.provider_prompt import CANDIDATE_SCHEMA, RESPONSE_FORMAT, SYSTEM_PROMPT
from memory_core.formation.provider_reply import (
    DROP_MALFORMED_CANDIDATES,
    MAX_CANDIDATES_PER_REPLY,
    MAX_NOVEL_CONTENT_WORDS,
    ProposedCandidate,
    ReadReply,
    ReplyRejectedError,
    ReplyRejection,
    novel_content_words,
    parse_reply,
    read_reply,
)
from memory_core.formation.resolver import content_words
from memory_core.policy import PROVIDER_FORMATION_POLICY
from memory_core.text import collapse

PROVIDER_CANDIDATE_CONFIDENCE = 0.7
"""Confidence of a belief a model extracted (an inference, below a direct user statement)."""

NON_EXCLUSIVE_SUBJECTS: frozenset[str] = frozenset(
    {"languages", "allergies", "health", "dietary restrictions", "project decision"}
)
"""Multi-valued subjects (as the deterministic extractor names them): new values add."""


@dataclass(frozen=True, kw_only=True)
class ProviderCounters:
    """What a :class:`ProviderExtractor` has done so far: integer counts only.

    Attributes:
        turns: Turns handed to ``extract``.
        turns_without_statements: Turns with no sentence to send (no model call made).
        requests: Model calls made.
        replies_accepted: Replies whose every candidate passed validation.
        candidates_accepted: Candidates returned from accepted replies.
        malformed_replies: Replies rejected for their form (not JSON, schema, field rules).
        hostile_replies: Replies rejected for a hazard or an ungrounded statement.
        transient_errors: Calls that failed with a transient model error (after retries).
        permanent_errors: Calls that failed with any other model error.
        rejections: Rejected replies by :class:`ReplyRejection` code, sorted by code.
        candidates_dropped: Malformed candidates dropped from otherwise accepted replies.
        dropped: Those dropped candidates by :class:`ReplyRejection` code, sorted by code.
        statements_rewritten: Accepted statements rewritten from the first person.
        input_tokens: Input tokens the model reported (estimated where it reported none).
        output_tokens: Output tokens the model reported (estimated where it reported none).
        cost_usd: Cost the model reported (an estimate when ``cost_known`` is false).
        cost_known: False when any call's cost was unknown (unpriced, or no usage reported).
    """

    turns: int = 0
    turns_without_statements: int = 0
    requests: int = 0
    replies_accepted: int = 0
    candidates_accepted: int = 0
    malformed_replies: int = 0
    hostile_replies: int = 0
    transient_errors: int = 0
    permanent_errors: int = 0
    rejections: tuple[tuple[str, int], ...] = ()
    candidates_dropped: int = 0
    dropped: tuple[tuple[str, int], ...] = ()
    statements_rewritten: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True

    @property
    def model_errors(self) -> int:
        """Calls that got no reply to judge (transient plus permanent errors)."""
        return self.transient_errors + self.permanent_errors


@dataclass(kw_only=True)
class _Tally:
    turns: int = 0
    turns_without_statements: int = 0
    requests: int = 0
    replies_accepted: int = 0
    candidates_accepted: int = 0
    transient_errors: int = 0
    permanent_errors: int = 0
    rejections: dict[ReplyRejection, int] = field(default_factory=dict)
    dropped: dict[ReplyRejection, int] = field(default_factory=dict)
    statements_rewritten: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True

    def reject(self, reason: ReplyRejection) -> None:
        self.rejections[reason] = self.rejections.get(reason, 0) + 1

    def bill(self, response: ModelResponse) -> None:
        self.input_tokens += response.usage.input_tokens
        self.output_tokens += response.usage.output_tokens
        self.cost_usd += response.cost_usd
        self.cost_known = self.cost_known and response.cost_known

    def snapshot(self) -> ProviderCounters:
        ordered = sorted(self.rejections.items(), key=lambda item: item[0].value)
        dropped = sorted(self.dropped.items(), key=lambda item: item[0].value)
        return ProviderCounters(
            turns=self.turns,
            turns_without_statements=self.turns_without_statements,
            requests=self.requests,
            replies_accepted=self.replies_accepted,
            candidates_accepted=self.candidates_accepted,
            malformed_replies=sum(n for reason, n in ordered if not reason.hostile),
            hostile_replies=sum(n for reason, n in ordered if reason.hostile),
            transient_errors=self.transient_errors,
            permanent_errors=self.permanent_errors,
            rejections=tuple((reason.value, n) for reason, n in ordered),
            candidates_dropped=sum(n for _, n in dropped),
            dropped=tuple((reason.value, n) for reason, n in dropped),
            statements_rewritten=self.statements_rewritten,
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            cost_usd=self.cost_usd,
            cost_known=self.cost_known,
        )


def formable_sentences(turn: Turn) -> tuple[str, ...]:
    """The turn's sentences the deterministic path would read (declaratives, in order)."""
    return tuple(s for s in turn.sentences if not sentence_forms_nothing(s))


class ProviderExtractor:
    """Model-proposed candidates validated by the formation rules (``formation@8``)."""

    def __init__(
        self,
        *,
        model: Model,
        system_prompt: str = SYSTEM_PROMPT,
        response_format: ResponseFormat | None = RESPONSE_FORMAT,
        drop_malformed: bool = DROP_MALFORMED_CANDIDATES,
    ) -> None:
        """Build the extractor.

        Args:
            model: The model asked for candidates (any ``Model``; ``OpenAICompatibleModel``
                in production).
            system_prompt: The instructions sent with every turn; the shipped prompt is part
                of the provider formation policy, so override it only in experiments.
            response_format: The JSON format asked of a :class:`StructuredOutputModel` (the
                schema where its server supports one, JSON mode otherwise); ``None`` asks for
                none. Part of the policy, like the prompt.
            drop_malformed: Drop a malformed candidate and keep the rest of its reply (the
                policy's choice, :data:`DROP_MALFORMED_CANDIDATES`); override only in
                experiments.
        """
        self._model = model
        self._system_prompt = system_prompt
        self._response_format = response_format
        self._drop_malformed = drop_malformed
        self._tally = _Tally()

    @property
    def policy_version(self) -> str:
        """The provider formation policy version (``formation@8``)."""
        return PROVIDER_FORMATION_POLICY

    @property
    def model(self) -> Model:
        """The model this extractor asks."""
        return self._model

    @property
    def counters(self) -> ProviderCounters:
        """A snapshot of everything counted so far."""
        return self._tally.snapshot()

    def extract(self, turn: Turn) -> list[Candidate]:
        """Ask the model for ``turn``'s candidates; an invalid reply or a model error forms
        nothing (and is counted)."""
        self._tally.turns += 1
        sentences = formable_sentences(turn)
        if not sentences:
            self._tally.turns_without_statements += 1
            return []
        source_text = "\n".join(sentences)
        self._tally.requests += 1
        messages = [
            Message(role="system", content=self._system_prompt),
            Message(role="user", content=source_text),
        ]
        try:
            if self._response_format is not None and isinstance(self._model, StructuredOutputModel):
                response = self._model.complete_structured(messages, self._response_format)
            else:
                response = self._model.complete(messages)
        except ModelError as exc:
            self._count_error(exc)
            return []
        self._tally.bill(response)
        if response.truncated:
            self._tally.reject(ReplyRejection.TRUNCATED)
            return []
        try:
            read = read_reply(response.text, source_text, drop_malformed=self._drop_malformed)
        except ReplyRejectedError as exc:
            self._tally.reject(exc.reason)
            return []
        self._tally.replies_accepted += 1
        self._tally.candidates_accepted += len(read.candidates)
        self._tally.statements_rewritten += read.rewritten
        for reason in read.dropped:
            self._tally.dropped[reason] = self._tally.dropped.get(reason, 0) + 1
        return _candidates(list(read.candidates), turn)

    def _count_error(self, error: ModelError) -> None:
        if isinstance(error, TransientModelError):
            self._tally.transient_errors += 1
        elif isinstance(error, PermanentModelError) and error.status in (None, 200):
            # A 200 whose body is not a chat-completions reply: the reply itself is malformed.
            self._tally.reject(ReplyRejection.NOT_JSON)
        else:
            self._tally.permanent_errors += 1


_RETRACTION_WORDS = re.compile(
    r"^(?:User's|User|The team)\s+|\b(?:no\s+longer|not|never|stopped|quit|gave\s+up|anymore"
    r"|does|did|do|has|have)\b|n't\b|\.$",
    re.IGNORECASE,
)


def retracted_object(subject: str, statement: str) -> str:
    """What a retraction withdraws, for the resolver's contradiction rule.

    The subject when the statement names it (``apple watch`` in ``User no longer uses an Apple
    Watch.``); otherwise the statement without its lead and retraction words (``lives in
    Seattle`` for a ``home location`` retraction), so it matches the assertion it withdraws.
    """
    if content_words(subject) and content_words(subject) <= content_words(statement):
        return subject
    return collapse(_RETRACTION_WORDS.sub(" ", statement))


def _candidates(proposals: list[ProposedCandidate], turn: Turn) -> list[Candidate]:
    asserted: dict[tuple[BeliefType, str], int] = {}
    for proposal in proposals:
        if proposal.polarity is Polarity.ASSERT:
            slot = (proposal.belief_type, proposal.subject)
            asserted[slot] = asserted.get(slot, 0) + 1
    out: list[Candidate] = []
    for proposal in proposals:
        match proposal.polarity:
            case Polarity.ASSERT:
                exclusive = not (
                    proposal.belief_type is BeliefType.FACT
                    or proposal.subject in NON_EXCLUSIVE_SUBJECTS
                    or asserted[(proposal.belief_type, proposal.subject)] > 1
                )
                retracts = None
            case Polarity.RETRACT:
                exclusive = proposal.subject not in NON_EXCLUSIVE_SUBJECTS
                retracts = retracted_object(proposal.subject, proposal.statement)
            case _:
                assert_never(proposal.polarity)
        out.append(
            Candidate(
                belief_type=proposal.belief_type,
                subject=proposal.subject,
                statement=proposal.statement,
                polarity=proposal.polarity,
                exclusive=exclusive,
                retracts=retracts,
                source_event_ids=(turn.event_id,),
                evidence_at=turn.created_at,
                authority=Authority.INFERRED,
                confidence=PROVIDER_CANDIDATE_CONFIDENCE,
            )
        )
    return out


__all__ = [
    "CANDIDATE_SCHEMA",
    "DROP_MALFORMED_CANDIDATES",
    "MAX_CANDIDATES_PER_REPLY",
    "MAX_NOVEL_CONTENT_WORDS",
    "NON_EXCLUSIVE_SUBJECTS",
    "PROVIDER_CANDIDATE_CONFIDENCE",
    "RESPONSE_FORMAT",
    "SYSTEM_PROMPT",
    "ProposedCandidate",
    "ProviderCounters",
    "ProviderExtractor",
    "ReadReply",
    "ReplyRejectedError",
    "ReplyRejection",
    "formable_sentences",
    "novel_content_words",
    "parse_reply",
    "read_reply",
    "retracted_object",
]
