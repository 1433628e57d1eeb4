"""The matching skeleton of a text: what the hazard rules read (never what is stored).

``skeleton(text)`` applies, per character:

1. NFKC compatibility folding (full-width ``ｓｋ-`` -> ``sk-``, ligatures, superscripts);
2. removal of every format character (Unicode category ``Cf``: zero-width spaces and joiners,
   soft hyphens, bidi controls, tag characters) and of combining marks (``Mn``/``Me`` after
   canonical decomposition, so ``précédentes`` matches ``precedentes`` and a variation selector
   or an overlay mark hides nothing);
3. folding of confusable letters (Cyrillic, Greek, Armenian, Latin small capitals and other
   look-alikes) to the Latin letter they imitate, so ``раssword`` in Cyrillic reads
   ``password``.

The skeleton keeps a map from the offsets of ``text`` to its own, so the sentences of the text
the user sent are screened on their skeletons. ASCII stretches are copied whole,
so screening cost stays linear and small for ordinary text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

_CONFUSABLES: dict[str, str] = {
    # Cyrillic lower case
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j",
    "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
    "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ɡ": "g", "ү": "y",
    "ь": "b", "п": "n", "г": "r", "и": "u", "л": "n", "ш": "w", "щ": "w", "ц": "u",
    # Cyrillic upper case
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ї": "I", "Ј": "J",
    "Ѕ": "S", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I", "Ү": "Y", "З": "3",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ς": "s", "μ": "u",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    # Armenian and other look-alikes
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g", "ա": "w", "զ": "q",
    "ı": "i", "ȷ": "j", "ℓ": "l", "ɑ": "a", "ɩ": "i", "ɪ": "i", "ʀ": "r", "ʏ": "y",
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ᴊ": "j",
    "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ꜱ": "s", "ᴛ": "t",
    "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ᴢ": "z", "ß": "ss", "ø": "o", "Ø": "O", "đ": "d",
    "ł": "l", "Ł": "L", "æ": "ae", "œ": "oe",
    # punctuation look-alikes that carry structure in rules
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-", "﹣": "-", "٫": ".",
    "։": ":", "׃": ":", "˸": ":", "꞉": ":", "∶": ":", "ǀ": "l",
}  # fmt: skip

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


@functools.lru_cache(maxsize=8192)
def fold_char(char: str) -> str:
    """The skeleton of one character (possibly empty, possibly several characters)."""
    out: list[str] = []
    for piece in unicodedata.normalize("NFKC", char):
        for part in unicodedata.normalize("NFD", piece):
            category = unicodedata.category(part)
            if category in ("Cf", "Mn", "Me", "Cc") and part not in "\n\t\r":
                continue
            out.append(_CONFUSABLES.get(part, part))
    return "".join(out)


@dataclass(frozen=True, kw_only=True)
class Skeleton:
    """A text's matching skeleton and the map from the text's offsets to the skeleton's.

    The map is piecewise: ``starts[i]`` is an offset of the text where piece ``i`` begins,
    ``targets[i]`` where that piece begins in the skeleton; a piece is an ASCII stretch
    (copied, so offsets shift together) or one folded character.
    """

    text: str
    starts: tuple[int, ...] = ()
    targets: tuple[int, ...] = ()

    def offset(self, index: int) -> int:
        """The skeleton offset of the text's offset ``index`` (a boundary maps to a boundary)."""
        if not self.starts:
            return index
        piece = bisect_right(self.starts, index) - 1
        if piece < 0:
            return index
        start, target = self.starts[piece], self.targets[piece]
        following = self.targets[piece + 1] if piece + 1 < len(self.targets) else len(self.text)
        return min(target + (index - start), following)


def skeleton(text: str) -> Skeleton:
    """The matching skeleton of ``text`` (see the module docstring)."""
    if text.isascii():
        return Skeleton(text=text)
    pieces: list[str] = []
    starts: list[int] = []
    targets: list[int] = []
    size = 0
    cursor = 0
    for match in _NON_ASCII.finditer(text):
        start, end = match.span()
        if start > cursor:
            starts.append(cursor)
            targets.append(size)
            pieces.append(text[cursor:start])
            size += start - cursor
        for index in range(start, end):
            folded = fold_char(text[index])
            starts.append(index)
            targets.append(size)
            pieces.append(folded)
            size += len(folded)
        cursor = end
    if cursor < len(text):
        starts.append(cursor)
        targets.append(size)
        pieces.append(text[cursor:])
    return Skeleton(text="".join(pieces), starts=tuple(starts), targets=tuple(targets))


def matching_form(text: str) -> str:
    """Only the skeleton text of ``text`` (for checks on a statement)."""
    return skeleton(text).text


__all__ = ["Skeleton", "fold_char", "matching_form", "skeleton"]
