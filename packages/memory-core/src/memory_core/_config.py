"""Shared loading of configuration documents: an overlay merged over a shipped YAML document.

Profiles, the context plan, policy profiles and the price catalog all refuse bad values with a
``ConfigurationError`` naming the source and every offending field, in one format.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from memory_core.errors import ConfigurationError

ModelT = TypeVar("ModelT", bound=BaseModel)


def validation_problems(exc: ValidationError) -> str:
    """``a.b: message; c: message`` for every error of ``exc`` (``<root>`` for the document)."""
    return "; ".join(
        f"{'.'.join(str(part) for part in err['loc']) or '<root>'}: {err['msg']}"
        for err in exc.errors()
    )


def deep_merge(base: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``overlay`` merged over it, mapping by mapping; other values replace."""
    merged = dict(base)
    for key, value in overlay.items():
        current = merged.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = deep_merge(current, value)
        else:
            merged[key] = value
    return merged


def read_yaml_file(path: Path, *, what: str) -> Any:
    """Parse a YAML file, refusing a missing or malformed one with a ``ConfigurationError``."""
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigurationError(f"{path}: {what} file not found") from exc
    except yaml.YAMLError as exc:
        raise ConfigurationError(f"{path}: not valid YAML ({exc})") from exc


def validate_document(model: type[ModelT], document: Any, *, source: str, what: str) -> ModelT:
    """Validate ``document`` as ``model``, or raise a ``ConfigurationError`` naming each field."""
    try:
        return model.model_validate(document)
    except ValidationError as exc:
        raise ConfigurationError(f"{source}: invalid {what} ({validation_problems(exc)})") from exc


def load_with_overlay(
    model: type[ModelT],
    shipped: Any,
    overlay: Path | str | Mapping[str, Any] | None,
    *,
    shipped_source: str,
    what: str,
) -> ModelT:
    """Merge an overlay (a YAML path or a mapping) over the shipped document and validate it."""
    document = shipped
    source = shipped_source
    if overlay is not None:
        if isinstance(overlay, Mapping):
            data: Any = overlay
            source = f"{what} overlay"
        else:
            path = Path(overlay)
            source = str(path)
            data = read_yaml_file(path, what=f"{what} overlay") or {}
        if not isinstance(data, Mapping):
            raise ConfigurationError(f"{source}: a {what} overlay must be a mapping of sections")
        document = deep_merge(document, data)
    return validate_document(model, document, source=source, what=what)
