"""Load a corpus file: parse, validate every rule, and return it with its sha256.

The digest is of the file's bytes exactly as read, so it names the file a result was computed
from; it travels with every result, baseline and artifact.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from memory_bench.corpus._errors import CorpusFormatError
from memory_bench.corpus._models import MemoryBenchmarkCorpus
from memory_bench.corpus._rules import validate_corpus
from memory_bench.errors import BenchError

CORPUS_V1_RELATIVE_PATH = Path("corpus") / "memory-benchmark.v1.json"
"""Where the checked-in corpus lives, relative to the repository root."""

_MAX_REPORTED_ERRORS = 20


def corpus_digest(data: bytes) -> str:
    """Return the hex sha256 of a corpus file's bytes."""
    return hashlib.sha256(data).hexdigest()


def load_corpus(path: str | Path, *, coverage: bool = True) -> tuple[MemoryBenchmarkCorpus, str]:
    """Read, parse and validate a corpus file.

    Args:
        path: The corpus file.
        coverage: Apply the coverage rules (see :func:`corpus_violations`); on by default, and
            on for every corpus the benchmark command runs.

    Returns:
        The parsed corpus and the hex sha256 of the file's bytes.

    Raises:
        CorpusFormatError: The file cannot be read, is not JSON, or does not fit the schema.
        CorpusRuleError: The corpus breaks a category, scenario or corpus rule.
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise CorpusFormatError(
            source,
            f"cannot read the corpus file ({error.strerror or error}); check the --corpus path",
        ) from error
    corpus = parse_corpus(data, source=source, coverage=coverage)
    return corpus, corpus_digest(data)


def parse_corpus(
    data: bytes | str, *, source: str = "<corpus>", coverage: bool = True
) -> MemoryBenchmarkCorpus:
    """Parse and validate corpus JSON already in memory.

    Args:
        data: The JSON document (UTF-8 bytes or text).
        source: The file (or label) to name in errors.
        coverage: Apply the coverage rules.

    Raises:
        CorpusFormatError: Not JSON, or does not fit the schema; names the field.
        CorpusRuleError: The corpus breaks a category, scenario or corpus rule.
    """
    raw = _decode_json(data, source)
    if not isinstance(raw, dict):
        raise CorpusFormatError(
            source,
            f"the top level is a JSON {_json_kind(raw)}; a corpus is a JSON object with "
            "schema_version, probe_instruction, abstain_phrase and scenarios",
        )
    try:
        corpus = MemoryBenchmarkCorpus.model_validate(raw)
    except ValidationError as error:
        raise _schema_error(error, raw, source) from error
    validate_corpus(corpus, source=source, coverage=coverage)
    return corpus


def _decode_json(data: bytes | str, source: str) -> Any:
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise CorpusFormatError(
                source, f"the file is not UTF-8 (byte {error.start}); save it as UTF-8 JSON"
            ) from error
    else:
        text = data
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as error:
        raise CorpusFormatError(
            source,
            f"not valid JSON at line {error.lineno} column {error.colno}: {error.msg}; "
            "the file may be truncated or hand-edited",
        ) from error
    except _DuplicateKeyError as error:
        raise CorpusFormatError(
            source,
            f"the key {error.key!r} appears twice in one JSON object; keep one",
            field=error.key,
        ) from error


class _DuplicateKeyError(BenchError, ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKeyError(key)
        result[key] = value
    return result


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "null"


def _schema_error(error: ValidationError, raw: dict[str, Any], source: str) -> CorpusFormatError:
    problems: list[tuple[str, str | None, str | None, str]] = []
    for item in error.errors():
        loc = item["loc"]
        scenario_id, probe_id = _named_owners(raw, loc)
        problems.append((_dotted(loc), scenario_id, probe_id, item["msg"]))
    lines = []
    for field, scenario_id, probe_id, message in problems[:_MAX_REPORTED_ERRORS]:
        where = []
        if scenario_id is not None:
            where.append(f"scenario {scenario_id}")
        if probe_id is not None:
            where.append(f"probe {probe_id}")
        where.append(f"field {field or '<document>'}")
        lines.append(f"  - {' '.join(where)}: {message}")
    if len(problems) > _MAX_REPORTED_ERRORS:
        lines.append(f"  - ... and {len(problems) - _MAX_REPORTED_ERRORS} more")
    noun = "problem" if len(problems) == 1 else "problems"
    first_field, first_scenario, first_probe, _ = problems[0]
    return CorpusFormatError(
        source,
        f"the corpus does not fit the schema ({len(problems)} {noun}); fix each field named:\n"
        + "\n".join(lines),
        field=first_field,
        scenario_id=first_scenario,
        probe_id=first_probe,
    )


def _dotted(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for part in loc:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        else:
            parts.append(f".{part}" if parts else part)
    return "".join(parts)


def _named_owners(raw: dict[str, Any], loc: tuple[int | str, ...]) -> tuple[str | None, str | None]:
    """Find the ids of the scenario and probe an error location sits in, from the raw JSON."""
    scenario_id: str | None = None
    probe_id: str | None = None
    if len(loc) >= 2 and loc[0] == "scenarios" and isinstance(loc[1], int):
        scenario = _item(raw.get("scenarios"), loc[1])
        scenario_id = _id_of(scenario, f"scenarios[{loc[1]}]")
        if len(loc) >= 4 and loc[2] == "probes" and isinstance(loc[3], int):
            probe = _item(scenario.get("probes") if isinstance(scenario, dict) else None, loc[3])
            probe_id = _id_of(probe, f"probes[{loc[3]}]")
    return scenario_id, probe_id


def _item(container: Any, index: int) -> Any:
    if isinstance(container, list) and 0 <= index < len(container):
        return container[index]
    return None


def _id_of(record: Any, fallback: str) -> str:
    if isinstance(record, dict) and isinstance(record.get("id"), str) and record["id"]:
        return str(record["id"])
    return fallback
