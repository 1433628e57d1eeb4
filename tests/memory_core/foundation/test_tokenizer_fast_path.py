"""The tokenizer's ASCII fast path cuts exactly the lexemes its general scan cuts.

The reference below is the scan as it was before the fast path: runs found on the shadow of
the lowered text (combining marks read as word characters after a word), each run cut from
the lowered text and followed by its hyphen parts. The fast form must agree on every text,
ASCII or not, since both adapters and formation read lexemes through it.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_core.tokenizer import _RUN, _scan, _shadow, estimate_tokens, tokens_for_length


def _reference_scan(text: str) -> list[str]:
    tokens: list[str] = []
    lowered = text.lower()
    shadow = lowered if lowered.isascii() else _shadow(lowered)
    for match in _RUN.finditer(shadow):
        run = lowered[match.start() : match.end()]
        tokens.append(run)
        if "-" in run:
            tokens.extend(part for part in run.split("-") if part)
    return tokens


_pieces = st.sampled_from(
    [
        "tea",
        "E-mail",
        "-",
        "--",
        ".",
        "/",
        ":",
        "@",
        "_",
        " ",
        "'",
        "10",
        "x-",
        "-y",
        "Straße",
        "cafe\u0301",
        "\u0301",
        "हिंदी",
        "ΟΔΟΣ",
        "İ",
        "東京",
        "a.b",
        "A-B-c",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(_pieces, max_size=12).map("".join)))
@example("state-of-the-art e-mail a--b -x-")
@example("Plain ASCII with no hyphen at all.")
@example("caf\u00e9-bar")
def test_the_fast_scan_equals_the_general_scan(text: str) -> None:
    assert _scan(text) == _reference_scan(text)


@given(st.text(max_size=40))
def test_tokens_for_length_is_estimate_tokens_of_any_text_that_long(text: str) -> None:
    assert tokens_for_length(len(text)) == estimate_tokens(text)
