"""Hazard refusal: secrets and prompt injections never reach extraction.

The catalogue is hand-written because memory-core depends on pydantic, PyYAML and httpx only;
a secret-scanning library (such as ``detect-secrets``) would be a new runtime dependency of the
core package. The rules follow the shapes those scanners look for, grouped by family:

* **Credential assignments**: ``api_key=...``, ``password: ...``, ``AWS_SECRET_ACCESS_KEY=...``,
  ``token = "..."`` (any ``*_key``/``*_token``/``*_secret`` name with ``=`` or ``:``).
* **Stated passwords and PINs**: ``my password is ...``, ``the PIN for the alarm is ...``.
* **Authorization headers**: ``Bearer <token>``, ``Basic <base64>``.
* **Provider tokens with a fixed shape**: AWS access key ids, GitHub (``ghp_``, ``github_pat_``),
  GitLab (``glpat-``), Slack (``xox?-`` and webhook URLs), OpenAI/Anthropic-style ``sk-...``,
  Stripe (``sk_live_``), Google (``AIza``), npm (``npm_``), Hugging Face (``hf_``), SendGrid.
* **Structured secrets**: JWTs, PEM private key blocks, connection strings carrying a password
  (``postgres://user:pass@host``), payment card numbers (13-19 digits passing the Luhn check).
* **Labelled high-entropy tokens**: a word such as *secret*, *token* or *key* followed within a
  few words by a long mixed-character string whose Shannon entropy is high.

Injections are phrasings that address the agent rather than inform it: overriding previous
instructions or rules, impersonating a system/assistant/developer role (``SYSTEM:``, chat
template tokens), ``from now on remember/always/you ...``, persona overrides (``you are now``,
``do anything now``, developer mode), instructions to write into or reveal memory and prompts.

Granularity. A secret refuses the sentence that holds it; when the match spans a sentence
boundary (a multi-line key block) the sentence cannot be isolated and the whole turn is refused.
An injection refuses the whole turn: it speaks to the agent about everything around it
(``Ignore previous instructions. My manager is Dana.``), so its sentence cannot be isolated
from the others. A :class:`Refusal` records the rule and kind only, never the refused text, so
nothing refused can leak into events, results or logs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from memory_core.formation._text import Span, sentence_spans


class HazardKind(StrEnum):
    """What a hazard rule protects against."""

    SECRET = "secret"
    INJECTION = "injection"


@dataclass(frozen=True, kw_only=True)
class HazardRule:
    """One catalogue entry: a pattern, and optionally a check the matched text must pass."""

    name: str
    kind: HazardKind
    pattern: re.Pattern[str]
    check: Callable[[str], bool] | None = None


@dataclass(frozen=True, kw_only=True)
class Refusal:
    """One refused unit (a sentence, or a whole turn). Carries no text by design."""

    rule: str
    kind: HazardKind
    whole_turn: bool


@dataclass(frozen=True, kw_only=True)
class ScreenedTurn:
    """A turn after the hazard screen: the sentences that may be extracted from, in order."""

    sentences: tuple[str, ...]
    refusals: tuple[Refusal, ...]

    @property
    def refused(self) -> int:
        """How many units (sentences, or the whole turn) were refused."""
        return len(self.refusals)


def luhn_valid(digits: str) -> bool:
    """True when a digit string (separators allowed) passes the Luhn checksum."""
    numbers = [int(c) for c in digits if c.isdigit()]
    if not 13 <= len(numbers) <= 19:
        return False
    total = 0
    for index, value in enumerate(reversed(numbers)):
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def shannon_entropy(text: str) -> float:
    """Shannon entropy of ``text`` in bits per character."""
    if not text:
        return 0.0
    counts: dict[str, int] = {}
    for char in text:
        counts[char] = counts.get(char, 0) + 1
    size = len(text)
    return -sum((n / size) * math.log2(n / size) for n in counts.values())


_LABEL_VALUE = re.compile(r"([A-Za-z0-9+/_\-=.]{16,})\W*$")


def _high_entropy_value(matched: str) -> bool:
    found = _LABEL_VALUE.search(matched)
    if found is None:
        return False
    value = found.group(1)
    classes = sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
        )
    )
    return classes >= 2 and any(c.isdigit() for c in value) and shannon_entropy(value) >= 3.0


def _rule(
    name: str,
    kind: HazardKind,
    pattern: str,
    *,
    flags: int = re.IGNORECASE,
    check: Callable[[str], bool] | None = None,
) -> HazardRule:
    return HazardRule(name=name, kind=kind, pattern=re.compile(pattern, flags), check=check)


_S = HazardKind.SECRET
_I = HazardKind.INJECTION
_SECRET_NAME = (
    r"(?:api[\s_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|access[_-]?token"
    r"|auth[_-]?token|refresh[_-]?token|session[_-]?token|token|password|passwd|pwd"
    r"|private[_-]?key|access[_-]?key(?:[_-]?id)?|secret[_-]?access[_-]?key|credentials?)"
)

SECRET_RULES: tuple[HazardRule, ...] = (
    _rule(
        "credential_assignment",
        _S,
        rf"(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_-])*{_SECRET_NAME}\s*[:=]\s*['\"]?[^\s'\"]{{4,}}",
    ),
    _rule(
        "stated_password",
        _S,
        r"\b(?:password|passwd|passphrase|passcode|pin(?:\s+(?:code|number))?)\b"
        r"(?:\s+(?:for|to|of|on)\s+[^.,;!?\n]{1,40}?)?\s*(?:is|was|=|:)\s*\S+",
    ),
    _rule("bearer_token", _S, r"\bbearer\s+[A-Za-z0-9\-._~+/]{8,}=*"),
    _rule("basic_auth", _S, r"\bbasic\s+[A-Za-z0-9+/]{12,}={0,2}(?![A-Za-z0-9+/])"),
    _rule(
        "aws_access_key_id",
        _S,
        r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}\b",
        flags=0,
    ),
    _rule(
        "private_key_block",
        _S,
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        flags=0,
    ),
    _rule(
        "connection_string",
        _S,
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]+:[^\s@/]+@[^\s]+",
    ),
    _rule("github_token", _S, r"\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,})"),
    _rule("gitlab_token", _S, r"\bglpat-[A-Za-z0-9_-]{20,}"),
    _rule("slack_token", _S, r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    _rule("slack_webhook", _S, r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+"),
    _rule("openai_style_key", _S, r"\bsk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_]{20,}", flags=0),
    _rule("stripe_key", _S, r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}", flags=0),
    _rule("google_api_key", _S, r"\bAIza[0-9A-Za-z_-]{35}", flags=0),
    _rule("npm_token", _S, r"\bnpm_[A-Za-z0-9]{36}", flags=0),
    _rule("huggingface_token", _S, r"\bhf_[A-Za-z0-9]{30,}", flags=0),
    _rule("sendgrid_key", _S, r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", flags=0),
    _rule(
        "jwt",
        _S,
        r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}",
        flags=0,
    ),
    _rule(
        "card_number",
        _S,
        r"(?<![\w-])(?:\d[ -]?){12,18}\d(?![\w-])",
        check=luhn_valid,
    ),
    _rule(
        "labelled_high_entropy",
        _S,
        r"\b(?:secret|token|key|password|passcode|credential)s?\b[^\n]{0,40}?"
        r"(?<![A-Za-z0-9+/_\-=.])[A-Za-z0-9+/_\-=.]{16,}",
        check=_high_entropy_value,
    ),
)
"""The secret catalogue."""

INJECTION_RULES: tuple[HazardRule, ...] = (
    _rule(
        "override_instructions",
        _I,
        r"\b(?:ignore|disregard|forget|override|bypass|abandon|neglect)\b[\w\s,'’-]{0,40}?"
        r"\b(?:instructions?|rules|guidelines|directives|guardrails|constraints|prompts?"
        r"|programming|polic(?:y|ies)|restrictions|safeguards)\b",
    ),
    _rule(
        "forget_context",
        _I,
        r"\bforget\s+(?:everything|all(?:\s+of\s+that)?)\s+"
        r"(?:above|before|prior|previous|you\s+(?:know|were\s+told|have\s+been\s+told))\b",
    ),
    _rule(
        "role_impersonation",
        _I,
        r"(?:^|\n|(?<=[.!?]\s))\s*[\[<(#*]*\s*(?:system|assistant|developer|admin|root|operator)"
        r"\s*[\]>)]*\s*:",
    ),
    _rule("system_marker", _I, r"\bSYSTEM\s*:|\bSYSTEM\s+(?:PROMPT|MESSAGE|OVERRIDE)\b", flags=0),
    _rule(
        "chat_template_token",
        _I,
        r"<\|(?:im_start|im_end|system|endoftext|eot_id|start_header_id)\|>|\[/?INST\]|<<SYS>>"
        r"|</?system>",
    ),
    _rule(
        "from_now_on",
        _I,
        r"\bfrom\s+now\s+on\b[\s,]*(?:you\b|remember\b|always\b|never\b|act\b|respond\b"
        r"|answer\b|reply\b|pretend\b|ignore\b|forget\b|only\b|store\b|treat\b|call\b|refer\b"
        r"|behave\b|your\b|do\s+not\b|don't\b|say\b|tell\b)",
    ),
    _rule(
        "persona_override",
        _I,
        r"\byou\s+are\s+(?:now|no\s+longer)\b|\b(?:act|behave)\s+as\s+(?:if\s+you\s+(?:are|were)"
        r"|an?\s+(?:unrestricted|unfiltered|jailbroken|uncensored))\b|\bpretend\s+(?:to\s+be"
        r"|you\s+are|that\s+you)\b|\bdo\s+anything\s+now\b|\bjailbr(?:eak|oken)\b"
        r"|\bdeveloper\s+mode\b|\bno\s+longer\s+bound\s+by\b",
    ),
    _rule(
        "memory_write_instruction",
        _I,
        r"\b(?:remember|store|save|memori[sz]e|record|note)\b[^.!?\n]{0,40}?\b(?:permanently"
        r"|forever|for\s+all\s+future\s+(?:sessions|conversations|chats|users))\b"
        r"|\b(?:add|write|insert|inject|put)\s+(?:this|the\s+following|that)\s+(?:in|to|into)\s+"
        r"(?:your\s+)?(?:memory|memories|long[-\s]term\s+memory)\b"
        r"|\bupdate\s+your\s+(?:memory|memories|instructions|system\s+prompt)\b",
    ),
    _rule(
        "prompt_exfiltration",
        _I,
        r"\b(?:reveal|print|show|repeat|output|leak|dump|recite)\s+(?:me\s+)?(?:your|the)\s+"
        r"(?:system\s+prompt|hidden\s+instructions|initial\s+instructions|original\s+instructions"
        r"|instructions|prompt)\b",
    ),
    _rule(
        "new_instructions",
        _I,
        r"\b(?:new|updated|real|actual|revised)\s+(?:system\s+)?instructions?\s*:"
        r"|\bthe\s+following\s+(?:supersedes|overrides)\b",
    ),
)
"""The prompt-injection catalogue."""

HAZARD_RULES: tuple[HazardRule, ...] = SECRET_RULES + INJECTION_RULES
"""Every hazard rule, secrets first."""


@dataclass(frozen=True, kw_only=True)
class _Hit:
    rule: HazardRule
    start: int
    end: int


def _hits(text: str, rules: Sequence[HazardRule]) -> list[_Hit]:
    hits: list[_Hit] = []
    for rule in rules:
        for match in rule.pattern.finditer(text):
            if match.end() == match.start():
                continue
            if rule.check is not None and not rule.check(match.group(0)):
                continue
            hits.append(_Hit(rule=rule, start=match.start(), end=match.end()))
    return hits


def find_hazards(text: str) -> tuple[tuple[str, HazardKind], ...]:
    """The (rule name, kind) of every hazard in ``text``, in catalogue order, without text."""
    return tuple((hit.rule.name, hit.rule.kind) for hit in _hits(text, HAZARD_RULES))


def is_hazardous(text: str) -> bool:
    """True when any secret or injection rule matches ``text``."""
    return bool(_hits(text, HAZARD_RULES))


def _containing(spans: Sequence[Span], hit: _Hit) -> int | None:
    for index, span in enumerate(spans):
        if span.start <= hit.start and hit.end <= span.end:
            return index
    return None


def screen_turn(text: str) -> ScreenedTurn:
    """Split a user turn into sentences and drop every hazardous one (or the whole turn).

    A secret refuses its sentence, or the turn when it spans sentences; an injection refuses
    the turn. Each refused unit is counted once, whatever number of rules it matched.
    """
    spans = sentence_spans(text)
    hits = _hits(text, HAZARD_RULES)
    if not hits:
        return ScreenedTurn(sentences=tuple(text[s.start : s.end] for s in spans), refusals=())
    refused: dict[int, Refusal] = {}
    for hit in sorted(hits, key=lambda h: (h.start, h.rule.name)):
        index = _containing(spans, hit)
        if hit.rule.kind is HazardKind.INJECTION or index is None:
            turn = Refusal(rule=hit.rule.name, kind=hit.rule.kind, whole_turn=True)
            return ScreenedTurn(sentences=(), refusals=(turn,))
        refused.setdefault(index, Refusal(rule=hit.rule.name, kind=hit.rule.kind, whole_turn=False))
    kept = tuple(text[s.start : s.end] for i, s in enumerate(spans) if i not in refused)
    return ScreenedTurn(sentences=kept, refusals=tuple(refused[i] for i in sorted(refused)))


__all__ = [
    "HAZARD_RULES",
    "INJECTION_RULES",
    "SECRET_RULES",
    "HazardKind",
    "HazardRule",
    "Refusal",
    "ScreenedTurn",
    "find_hazards",
    "is_hazardous",
    "luhn_valid",
    "screen_turn",
    "shannon_entropy",
]
