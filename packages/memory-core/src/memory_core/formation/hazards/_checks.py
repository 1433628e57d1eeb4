"""Checksums and shape checks that keep look-alike numbers and words benign."""

from __future__ import annotations

import math
import re

IBAN_LENGTHS: dict[str, int] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28,
    "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
    "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
    "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
    "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip
"""Country code -> IBAN length (the ISO 13616 registry)."""


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


def iban_valid(text: str) -> bool:
    """True when ``text`` (spaces allowed, any case) starts with an IBAN passing mod-97.

    The country code fixes the length, so trailing characters a pattern swept up are ignored.
    """
    compact = re.sub(r"[\s-]", "", text).upper()
    length = IBAN_LENGTHS.get(compact[:2])
    if length is None or len(compact) < length:
        return False
    candidate = compact[:length]
    if not candidate[2:4].isdigit() or not candidate.isalnum():
        return False
    rearranged = candidate[4:] + candidate[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return int(number) % 97 == 1


_SSN = re.compile(r"(\d{3})\D{0,2}(\d{2})\D{0,2}(\d{4})")


def ssn_valid(text: str) -> bool:
    """True when ``text`` holds a US SSN inside the issued ranges (area not 000, 666 or 9xx;
    group not 00; serial not 0000)."""
    match = _SSN.search(text)
    if match is None:
        return False
    area, group, serial = match.groups()
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def shannon_entropy(text: str) -> float:
    """Shannon entropy of ``text`` in bits per character."""
    if not text:
        return 0.0
    counts: dict[str, int] = {}
    for char in text:
        counts[char] = counts.get(char, 0) + 1
    size = len(text)
    return -sum((n / size) * math.log2(n / size) for n in counts.values())


def character_classes(text: str) -> int:
    """How many of lower case, upper case and digits ``text`` uses."""
    return sum(
        (
            any(c.islower() for c in text),
            any(c.isupper() for c in text),
            any(c.isdigit() for c in text),
        )
    )


def random_looking(value: str, *, min_length: int = 16, min_entropy: float = 3.0) -> bool:
    """True for a token that looks generated: long, digits and letters mixed, high entropy."""
    return (
        len(value) >= min_length
        and character_classes(value) >= 2
        and any(c.isdigit() for c in value)
        and shannon_entropy(value) >= min_entropy
    )


_TOKEN_PIECES = re.compile(r"[/.]")


def unlabelled_secret(value: str) -> bool:
    """True for a token that is a secret with no label at all: a long piece (split on ``/`` and
    ``.``, so paths and URLs stay benign) mixing lower case, upper case and digits, with high
    entropy (a base64 salt, an AWS secret access key)."""
    return any(
        len(piece) >= 20 and character_classes(piece) == 3 and shannon_entropy(piece) >= 3.5
        for piece in _TOKEN_PIECES.split(value)
    )


def digit_share(value: str) -> float:
    """The share of ``value``'s characters that are digits."""
    return sum(c.isdigit() for c in value) / len(value) if value else 0.0


__all__ = [
    "IBAN_LENGTHS",
    "character_classes",
    "digit_share",
    "iban_valid",
    "luhn_valid",
    "random_looking",
    "shannon_entropy",
    "ssn_valid",
    "unlabelled_secret",
]
