"""Reading a dataset file in bounded memory, and selecting a reproducible sample of it.

A JSON list (LongMemEval, LoCoMo) is decoded one element at a time with
``json.JSONDecoder.raw_decode`` over a sliding text buffer, so memory holds one record plus one
read chunk rather than the whole document (the LongMemEval M file is about 2.7 GB). A JSON
Lines file (HaluMem) is read line by line.

Loading is two passes. The first pass hashes the bytes, checks the whole file's syntax and
collects each record's stable identifier; :func:`select_sample` then picks the sample with
``random.Random(seed).sample`` over the sorted identifiers; the second pass decodes only up to
the last selected record (and, for JSON Lines, only the selected lines).
"""

from __future__ import annotations

import codecs
import hashlib
import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from memory_bench_external._errors import DatasetError
from memory_core.errors import UsageError

FileFormat = Literal["json_list", "json_lines"]
"""The two on-disk shapes: one JSON list of records, or one JSON object per line."""

CHUNK_BYTES = 1 << 20
"""Bytes read per refill of the JSON-list buffer (doubled while one record is incomplete)."""

_WHITESPACE = re.compile(r"[ \t\n\r]*")
# A decode error this far before the end of the buffer cannot be cured by reading more.
_SETTLED_MARGIN = 64


def _describe(char: str) -> str:
    if char == "{":
        return "a JSON object"
    if char == '"':
        return "a JSON string"
    return f"{char!r}"


class _JsonListReader:
    """Yields the elements of a top-level JSON list from a binary stream, one at a time."""

    def __init__(
        self, path: Path, stream: BinaryIO, on_bytes: Callable[[bytes], None] | None
    ) -> None:
        self._path = path
        self._stream = stream
        self._on_bytes = on_bytes
        self._decoder = json.JSONDecoder()
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self._buf = ""
        self._pos = 0
        self._consumed = 0  # characters dropped from the front of the buffer so far
        self._eof = False
        self._started = False

    def _error(self, problem: str, record: int | None = None) -> DatasetError:
        return DatasetError(self._path, problem, record=record)

    def _fill(self, size: int) -> bool:
        """Append up to ``size`` more bytes of text; ``False`` once the stream is exhausted."""
        if self._eof:
            return False
        raw = self._stream.read(size)
        if raw and self._on_bytes is not None:
            self._on_bytes(raw)
        try:
            text = self._utf8.decode(raw, final=not raw)
        except UnicodeDecodeError as exc:
            raise self._error(f"the file is not UTF-8 text ({exc.reason})") from exc
        if not raw:
            self._eof = True
        if not self._started and text:
            self._started = True
            text = text.removeprefix("\ufeff")
        self._consumed += self._pos
        self._buf = self._buf[self._pos :] + text
        self._pos = 0
        return bool(raw)

    def _peek(self) -> str | None:
        """The next non-whitespace character (not consumed), or ``None`` at end of file."""
        while True:
            match = _WHITESPACE.match(self._buf, self._pos)
            assert match is not None
            self._pos = match.end()
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if not self._fill(CHUNK_BYTES) and self._pos >= len(self._buf):
                return None

    def _value(self, index: int) -> object:
        need = CHUNK_BYTES
        while True:
            try:
                value, end = self._decoder.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                settled = exc.pos + _SETTLED_MARGIN < len(self._buf) and not exc.msg.startswith(
                    "Unterminated string"
                )
                if self._eof or settled:
                    where = self._consumed + exc.pos
                    kind = "truncated" if self._eof and not settled else "malformed"
                    raise self._error(
                        f"{kind} JSON: {exc.msg} at character {where}", record=index
                    ) from exc
                self._fill(need)
                need *= 2
                continue
            is_number = isinstance(value, int | float) and not isinstance(value, bool)
            if not self._eof and (
                end >= len(self._buf) or (is_number and len(self._buf) - end < _SETTLED_MARGIN)
            ):
                # A bare number is not self-delimiting: "2.5" may be "2.5e10" cut by the chunk.
                self._fill(need)
                need *= 2
                continue
            self._pos = end
            return value

    def _expect_end(self, records: int) -> None:
        char = self._peek()
        if char is not None:
            raise self._error(
                f"unexpected {_describe(char)} after the closing ']' of the top-level list "
                f"(after {records} records)"
            )

    def elements(self) -> Iterator[object]:
        char = self._peek()
        if char is None:
            raise self._error("the file is empty; expected a JSON list of records")
        if char != "[":
            raise self._error(f"expected a JSON list at the top level, found {_describe(char)}")
        self._pos += 1
        char = self._peek()
        if char == "]":
            self._pos += 1
            self._expect_end(0)
            return
        index = 0
        while True:
            if char is None:
                raise self._error("truncated JSON: the file ends inside the list", record=index)
            yield self._value(index)
            index += 1
            char = self._peek()
            if char == ",":
                self._pos += 1
                char = self._peek()
                continue
            if char == "]":
                self._pos += 1
                self._expect_end(index)
                return
            if char is None:
                raise self._error(
                    "truncated JSON: the file ends before the list's closing ']'", record=index
                )
            raise self._error(
                f"malformed JSON: expected ',' or ']' after the record, found {_describe(char)} "
                f"at character {self._consumed + self._pos}",
                record=index - 1,
            )


def _open(path: Path) -> BinaryIO:
    if not path.exists():
        raise DatasetError(path, "no such file", hint="Pass the path of your local copy.")
    if not path.is_file():
        raise DatasetError(path, "not a regular file", hint="Pass the path of the data file.")
    return path.open("rb")


def iter_json_list(
    path: Path, *, on_bytes: Callable[[bytes], None] | None = None
) -> Iterator[tuple[int, object]]:
    """Yield ``(index, element)`` for each element of the top-level JSON list in ``path``.

    Raises:
        DatasetError: The file is missing, not UTF-8, not a list, or truncated/malformed.
    """
    with _open(path) as stream:
        yield from enumerate(_JsonListReader(path, stream, on_bytes).elements())


def iter_json_lines(
    path: Path,
    *,
    on_bytes: Callable[[bytes], None] | None = None,
    decode: Callable[[int], bool] | None = None,
) -> Iterator[tuple[int, object]]:
    """Yield ``(line_number, value)`` for each non-blank line of the JSON Lines file ``path``.

    Args:
        path: The file.
        on_bytes: Called with every raw line (hashing).
        decode: When given, only lines for which it returns ``True`` are decoded and yielded.

    Raises:
        DatasetError: The file is missing, a line is not UTF-8, or a line is not valid JSON.
    """
    with _open(path) as stream:
        for number, raw in enumerate(stream, start=1):
            if on_bytes is not None:
                on_bytes(raw)
            if decode is not None and not decode(number):
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DatasetError(
                    path, f"not UTF-8 text ({exc.reason})", record=number, unit="line"
                ) from exc
            if number == 1:
                text = text.removeprefix("\ufeff")
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                problem = f"not a JSON value ({exc.msg} at column {exc.colno})"
                if not raw.endswith(b"\n"):
                    problem = f"truncated JSON on the last line ({exc.msg})"
                raise DatasetError(
                    path,
                    problem,
                    record=number,
                    unit="line",
                    hint="A JSON Lines file holds one complete JSON object per line; pass an "
                    "unmodified copy of the published file.",
                ) from exc
            yield number, value


@dataclass(frozen=True, kw_only=True)
class FileIndex:
    """The first pass over a file: its digest and every record's position and identifier.

    Attributes:
        sha256: Hex sha256 of the file's bytes.
        positions: Record position (list index or line number) -> stable identifier.
    """

    sha256: str
    positions: dict[int, str]


def index_file(path: Path, *, file_format: FileFormat, id_key: str) -> FileIndex:
    """Hash ``path``, check its syntax throughout and collect each record's ``id_key``.

    Raises:
        DatasetError: Syntax or shape errors, a record that is not an object, a missing or
            non-string identifier, or a duplicate identifier.
    """
    digest = hashlib.sha256()
    positions: dict[int, str] = {}
    seen: dict[str, int] = {}
    unit: Literal["record", "line"] = "record" if file_format == "json_list" else "line"
    records = (
        iter_json_list(path, on_bytes=digest.update)
        if file_format == "json_list"
        else iter_json_lines(path, on_bytes=digest.update)
    )
    for position, value in records:
        if not isinstance(value, dict):
            kind = type(value).__name__ if value is not None else "null"
            shape = "a JSON object per line" if unit == "line" else "a JSON list of objects"
            raise DatasetError(
                path,
                f"expected a JSON object, found a {kind} (the file should be {shape})",
                record=position,
                unit=unit,
            )
        identifier = value.get(id_key)
        if not isinstance(identifier, str) or not identifier:
            raise DatasetError(
                path,
                "missing or not a non-empty string; every record needs its stable identifier",
                record=position,
                unit=unit,
                field=id_key,
            )
        if identifier in seen:
            raise DatasetError(
                path,
                f"duplicate identifier {identifier!r} (also {unit} {seen[identifier]})",
                record=position,
                unit=unit,
                field=id_key,
            )
        seen[identifier] = position
        positions[position] = identifier
    return FileIndex(sha256=digest.hexdigest(), positions=positions)


def select_sample(
    ids: Sequence[str], *, sample: int | None, seed: int, within: str = "in the file"
) -> tuple[str, ...]:
    """Pick the instances to run: all of them, or ``sample`` chosen reproducibly by ``seed``.

    The choice is ``random.Random(seed).sample`` over the identifiers in sorted order, so it
    does not depend on the file's record order; the result is sorted. ``within`` says where
    ``ids`` came from in the refusal of an oversized sample.

    Raises:
        UsageError: ``sample`` is below 1 or above the number of instances.
    """
    ordered = sorted(ids)
    if sample is None:
        return tuple(ordered)
    if sample < 1:
        raise UsageError(f"--sample must be at least 1, got {sample}")
    if sample > len(ordered):
        raise UsageError(
            f"--sample {sample} exceeds the {len(ordered)} instances {within}; "
            f"pass --sample {len(ordered)} or fewer, or omit --sample to run them all"
        )
    return tuple(sorted(random.Random(seed).sample(ordered, sample)))


def iter_selected(
    path: Path, *, file_format: FileFormat, positions: frozenset[int]
) -> Iterator[tuple[int, dict[str, object]]]:
    """Second pass: yield ``(position, record)`` for the selected positions only.

    Stops after the last selected position; JSON Lines decodes only the selected lines.
    """
    if not positions:
        return
    last = max(positions)
    if file_format == "json_list":
        records = iter_json_list(path)
    else:
        records = iter_json_lines(path, decode=positions.__contains__)
    for position, value in records:
        if position in positions and isinstance(value, dict):
            yield position, value
        if position >= last:
            return
