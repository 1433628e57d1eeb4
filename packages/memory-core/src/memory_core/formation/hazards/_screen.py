"""Screening a turn, and a session, against the catalogue.

Every rule reads the turn's matching skeleton (:mod:`._normalize`); hits are mapped back to
the sentences of the text the user sent, and only those sentences are kept or refused.

Granularity (refuse precisely):

* a **secret** refuses the sentence that holds it (every sentence it spans); a private key
  block refuses the whole turn;
* an **injection** refuses its sentence and every later sentence of the turn (what follows an
  injection is what it injects); earlier sentences stand;
* after an injection the session is **tainted**: no later sentence of the session that claims
  a role, privilege or authority (:func:`claims_authority`) is kept;
* a **split secret** is caught across sentences of one session: two adjacent sentences whose
  boundary tokens join into a provider token refuse both, and a bare token sentence right
  after a refused secret is refused as its continuation.

A sentence that merely contains a trigger word matches no rule and forms as usual. A
:class:`Refusal` carries the rule, kind and family only, never the refused text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memory_core.formation._text import Span, sentence_spans
from memory_core.formation.hazards._injections import INJECTION_RULES, claims_authority
from memory_core.formation.hazards._normalize import matching_form, skeleton
from memory_core.formation.hazards._rules import HazardKind, HazardRule, Shape
from memory_core.formation.hazards._secrets import SECRET_RULES

HAZARD_RULES: tuple[HazardRule, ...] = SECRET_RULES + INJECTION_RULES
"""Every hazard rule, secrets first."""

TAINT_RULE = "tainted_authority_claim"
TAINT_FAMILY = "injection.taint"
SPLIT_RULE = "split_secret"
SPLIT_FAMILY = "secret.split"
_WHOLE_TURN_FAMILIES = frozenset({"secret.private_key"})
_JOIN_RULES = tuple(
    r
    for r in SECRET_RULES
    if r.family == "secret.provider_token" and r.name != "token_prefix_fragment"
)
_BARE_TOKEN = re.compile(r"[\"'`(\[]{0,2}[A-Za-z0-9_\-+/=.~]{4,256}[\"'`)\].,;!?]{0,3}")


@dataclass(frozen=True, kw_only=True)
class Refusal:
    """One refused unit (a sentence, a run of sentences, or the whole turn); no text."""

    rule: str
    kind: HazardKind
    family: str
    whole_turn: bool


@dataclass(frozen=True, kw_only=True)
class ScreenedTurn:
    """A turn after the hazard screen: the sentences that may be extracted from, in order.

    Attributes:
        sentences: The kept sentences, as the user wrote them.
        refusals: One refusal per refused unit.
        injected: True when the turn holds an injection.
        tainted: True when the session was tainted by the end of this turn (an injection in
            it or before it); candidates claiming authority must then be refused too.
    """

    sentences: tuple[str, ...]
    refusals: tuple[Refusal, ...]
    injected: bool = False
    tainted: bool = False

    @property
    def refused(self) -> int:
        """How many units were refused."""
        return len(self.refusals)

    @property
    def families(self) -> tuple[str, ...]:
        """The rule family of each refusal, in order."""
        return tuple(r.family for r in self.refusals)


_WORD = re.compile(r"[a-z0-9]+")
_DIGITS = re.compile(r"(?:\d\D{0,6}){9}")
_LONG_RUN = re.compile(r"[A-Za-z0-9+/_\-=.~]{9,2048}")
_NOT_A_WORD = re.compile(r"[0-9_+/=\-~]|.[A-Z]")


def _has_token(form: str) -> bool:
    """True when ``form`` holds a run of nine token characters that is not a plain word (it
    has a digit, one of ``_+/=-~`` or a capital after its first letter)."""
    return any(_NOT_A_WORD.search(run) for run in _LONG_RUN.findall(form))


def _index(rules: Sequence[HazardRule]) -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]]:
    by_word: dict[str, list[int]] = {}
    ungated: list[int] = []
    for position, item in enumerate(rules):
        for word in item.anchors:
            by_word.setdefault(word, []).append(position)
        if not item.anchors and not item.substrings and item.shape is None:
            ungated.append(position)
    return {w: tuple(p) for w, p in by_word.items()}, tuple(ungated)


_BY_WORD, _UNGATED = _index(HAZARD_RULES)
_BY_SUBSTRING = tuple(
    (position, item.substrings) for position, item in enumerate(HAZARD_RULES) if item.substrings
)
_BY_SHAPE = {
    shape: tuple(p for p, item in enumerate(HAZARD_RULES) if item.shape is shape) for shape in Shape
}


def sentence_hits(form: str) -> list[HazardRule]:
    """The rules that match one sentence's matching skeleton ``form``, in catalogue order."""
    candidates: set[int] = set(_UNGATED)
    tokens = set(_WORD.findall(form.lower()))
    for word in tokens:
        found = _BY_WORD.get(word)
        if found is not None:
            candidates.update(found)
    for position, substrings in _BY_SUBSTRING:
        if any(s in form for s in substrings):
            candidates.add(position)
    if _DIGITS.search(form):
        candidates.update(_BY_SHAPE[Shape.DIGITS])
    if _has_token(form):
        candidates.update(_BY_SHAPE[Shape.TOKEN])
    rules = (HAZARD_RULES[p] for p in sorted(candidates))
    return [item for item in rules if item.admits(form, tokens) and item.matches(form)]


def _sentence_forms(text: str, spans: Sequence[Span]) -> list[str]:
    """The matching skeleton of each sentence of ``text``."""
    form = skeleton(text)
    if not form.starts:
        return [text[s.start : s.end] for s in spans]
    return [form.text[form.offset(s.start) : form.offset(s.end)] for s in spans]


def find_hazards(text: str) -> tuple[tuple[str, HazardKind], ...]:
    """The (rule name, kind) of every hazard in ``text``'s sentences, without text."""
    spans = sentence_spans(text)
    return tuple(
        (item.name, item.kind)
        for form in _sentence_forms(text, spans)
        for item in sentence_hits(form)
    )


def is_hazardous(text: str) -> bool:
    """True when any secret or injection rule matches a sentence of ``text``."""
    return bool(find_hazards(text))


def forms_hazard(text: str, *, tainted: bool) -> bool:
    """True when a candidate or statement ``text`` must not form: it is hazardous, or the
    session is tainted and it claims a role, privilege or authority."""
    return is_hazardous(text) or (tainted and claims_authority(matching_form(text)))


@dataclass
class SessionScreen:
    """Screens the turns of one session in order, carrying what crosses turns: the taint of
    an injection, and a secret whose continuation may open the next turn."""

    tainted: bool = False
    _after_secret: bool = False
    _last_edge: str = ""

    def screen(self, text: str) -> ScreenedTurn:
        """Screen the session's next turn."""
        spans = sentence_spans(text)
        forms = _sentence_forms(text, spans)
        verdicts: dict[int, Refusal] = {}
        cut: int | None = None
        cut_rule: HazardRule | None = None
        for index, form in enumerate(forms):
            for item in sentence_hits(form):
                if item.family in _WHOLE_TURN_FAMILIES:
                    return self._refuse_all(forms, item)
                if item.kind is HazardKind.INJECTION:
                    if cut is None:
                        cut, cut_rule = index, item
                    continue
                verdicts.setdefault(index, _refusal(item, whole_turn=False))
            if cut is not None:
                break
        self._join_split_tokens(forms, verdicts)
        refusals: list[Refusal] = []
        kept: list[str] = []
        tainted = self.tainted
        for index, span in enumerate(spans):
            if cut_rule is not None and index == cut:
                refusals.append(_refusal(cut_rule, whole_turn=index == 0))
                self.tainted = tainted = True
            if cut is not None and index >= cut:
                self._after_secret = False
                continue
            form = forms[index]
            verdict = verdicts.get(index)
            if verdict is None and self._after_secret and _BARE_TOKEN.fullmatch(form):
                verdict = _split_refusal()
            if verdict is None and tainted and claims_authority(form):
                verdict = Refusal(
                    rule=TAINT_RULE,
                    kind=HazardKind.INJECTION,
                    family=TAINT_FAMILY,
                    whole_turn=len(spans) == 1,
                )
            self._after_secret = verdict is not None and verdict.kind is HazardKind.SECRET
            if verdict is None:
                kept.append(text[span.start : span.end])
            else:
                refusals.append(verdict)
        if forms:
            self._last_edge = _edge(forms[-1], last=True)
        result = ScreenedTurn(
            sentences=tuple(kept),
            refusals=tuple(refusals),
            injected=cut is not None,
            tainted=tainted,
        )
        return result

    def _refuse_all(self, forms: Sequence[str], item: HazardRule) -> ScreenedTurn:
        self._after_secret = True
        self._last_edge = _edge(forms[-1], last=True) if forms else ""
        result = ScreenedTurn(
            sentences=(), refusals=(_refusal(item, whole_turn=True),), tainted=self.tainted
        )
        return result

    def _join_split_tokens(self, forms: Sequence[str], verdicts: dict[int, Refusal]) -> None:
        """Refuse adjacent sentences whose boundary tokens join into a provider token."""
        previous = self._last_edge
        for index, form in enumerate(forms):
            head = _edge(form, last=False)
            if previous and head and _joins_to_token(previous, head):
                verdicts.setdefault(index, _split_refusal())
                if index > 0:
                    verdicts.setdefault(index - 1, _split_refusal())
            previous = _edge(form, last=True)


_EDGE_LAST = re.compile(r"([A-Za-z0-9_\-+/=]{3,256})[^A-Za-z0-9_\-+/=]{0,3}$")
_EDGE_FIRST = re.compile(r"[^A-Za-z0-9_\-+/=]{0,3}([A-Za-z0-9_\-+/=]{3,256})")


def _edge(form: str, *, last: bool) -> str:
    found = _EDGE_LAST.search(form, max(0, len(form) - 260)) if last else _EDGE_FIRST.match(form)
    return found.group(1) if found is not None else ""


def _joins_to_token(left: str, right: str) -> bool:
    if len(left) + len(right) < 16:
        return False
    joined = left + right
    return any(item.matches(joined) for item in _JOIN_RULES) and not any(
        item.matches(left) or item.matches(right) for item in _JOIN_RULES
    )


def _refusal(item: HazardRule, *, whole_turn: bool) -> Refusal:
    return Refusal(rule=item.name, kind=item.kind, family=item.family, whole_turn=whole_turn)


def _split_refusal() -> Refusal:
    return Refusal(rule=SPLIT_RULE, kind=HazardKind.SECRET, family=SPLIT_FAMILY, whole_turn=False)


def screen_turn(text: str, *, tainted: bool = False) -> ScreenedTurn:
    """Screen one turn on its own (``tainted`` when an earlier turn of its session injected)."""
    return SessionScreen(tainted=tainted).screen(text)


def screen_session(turns: Iterable[str]) -> list[ScreenedTurn]:
    """Screen a session's user turns in order (taint and split secrets cross turns)."""
    screen = SessionScreen()
    return [screen.screen(text) for text in turns]


__all__ = [
    "HAZARD_RULES",
    "Refusal",
    "ScreenedTurn",
    "SessionScreen",
    "find_hazards",
    "forms_hazard",
    "is_hazardous",
    "screen_session",
    "screen_turn",
]
